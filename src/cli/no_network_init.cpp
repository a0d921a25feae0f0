// Start-up: the network layers libgit2's initialisation sets up, not set up.
// Debian's libgit2 initialises its transports inside its library init, with
// no option to skip them: mbedTLS parses the whole system CA bundle
// (/etc/ssl/certs/ca-certificates.crt; the location is compiled in, and the
// option that changes it works only after the initialisation) and
// libssh2_init initialises OpenSSL (its configuration, its error tables).
// Together that was most of the process start of every command that opens a
// repository (docs/performance.md has the figures). ledgergate never opens a
// network connection, so it needs neither: the executable defines the three
// functions libgit2 calls for them, and the dynamic linker binds libgit2's
// calls to these (an executable's definitions come first in the lookup
// scope). They do nothing and succeed. Were a connection ever made, a TLS
// one would fail its certificate check (no trusted root loaded) rather than
// trust anything, and OpenSSL 3 initialises itself on first use.
// tests/startup/no-git-init checks the binding.

struct mbedtls_x509_crt;

extern "C" {

// mbedtls/x509_crt.h's signatures: 0 = success (nothing loaded).
int mbedtls_x509_crt_parse_file(mbedtls_x509_crt* /*chain*/, const char* /*path*/) { return 0; }
int mbedtls_x509_crt_parse_path(mbedtls_x509_crt* /*chain*/, const char* /*path*/) { return 0; }

// libssh2.h's signature: 0 = success. libssh2_exit, which libgit2's shutdown
// calls, does nothing when libssh2_init has not run.
int libssh2_init(int /*flags*/) { return 0; }

}  // extern "C"
