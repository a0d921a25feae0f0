// LEDGERGATE_ASSERT: a broken invariant is a bug; report where and abort.
// On in every build type.
#pragma once

namespace lg::util {
[[noreturn]] void assert_failed(const char* expr, const char* file, int line, const char* function);
}

#define LEDGERGATE_ASSERT(cond) \
  ((cond) ? static_cast<void>(0) : ::lg::util::assert_failed(#cond, __FILE__, __LINE__, __func__))
