// Preloaded (LD_PRELOAD) by tests/startup/no-git-init in place of mbedTLS's
// CA bundle loader: a process whose libgit2 calls this one (not the
// executable's own, src/cli/no_network_init.cpp) says so and exits 98.
#include <unistd.h>

struct mbedtls_x509_crt;

extern "C" int mbedtls_x509_crt_parse_file(mbedtls_x509_crt* /*chain*/, const char* /*path*/) {
  static const char k_message[] = "probe: mbedtls_x509_crt_parse_file called\n";
  if (write(STDERR_FILENO, k_message, sizeof k_message - 1) < 0) _exit(96);
  _exit(98);
}
