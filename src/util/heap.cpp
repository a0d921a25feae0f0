#include "ledgergate/util/heap.hpp"

#include <cstdlib>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace lg::util {

void give_back_freed_heap() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace lg::util
