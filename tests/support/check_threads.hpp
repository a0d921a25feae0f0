// Test support: the check's thread count set for a scope
// (rules::set_check_threads), back to the default (0: one per core) after.
#pragma once

#include "ledgergate/rules/threads.hpp"

namespace lg::test {

struct CheckThreads {
  explicit CheckThreads(unsigned n) { rules::set_check_threads(n); }
  ~CheckThreads() { rules::set_check_threads(0); }
  CheckThreads(const CheckThreads&) = delete;
  CheckThreads& operator=(const CheckThreads&) = delete;
};

}  // namespace lg::test
