// The check's thread count (threads.hpp).
#include "ledgergate/rules/threads.hpp"

#include <atomic>

namespace lg::rules {

namespace {
std::atomic<unsigned> g_threads{0};
}

void set_check_threads(unsigned threads) { g_threads.store(threads); }
unsigned check_threads() { return g_threads.load(); }

}  // namespace lg::rules
