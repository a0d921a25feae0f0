// Preloaded (LD_PRELOAD) in place of libgit2's initialiser by
// tests/startup/no-git-init: a process that calls git_libgit2_init says so on
// stderr and exits 97, so the test sees which commands initialise libgit2.
#include <unistd.h>

extern "C" int git_libgit2_init() {
  static const char k_message[] = "probe: git_libgit2_init called\n";
  if (write(STDERR_FILENO, k_message, sizeof k_message - 1) < 0) _exit(96);
  _exit(97);
}
