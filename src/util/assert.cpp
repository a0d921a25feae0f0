// The one place a broken invariant is reported.
#include "ledgergate/util/assert.hpp"

#include <cstdio>
#include <cstdlib>

namespace lg::util {
void assert_failed(const char* expr, const char* file, int line, const char* function) {
  std::fprintf(stderr, "ledgergate: internal error: %s:%d: %s: assertion failed: %s\n", file, line,
               function, expr);
  std::abort();
}
}  // namespace lg::util
