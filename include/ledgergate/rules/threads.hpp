// How many threads read and parse a checked tree's ledgers, for the whole
// process (like cache::disable, the CLI sets it once, from
// LEDGERGATE_THREADS). The findings and their order do not depend on it:
// the workers only fill the parse cache; the rules run on the calling
// thread, in listing order. `check` hands the same count to its
// uncommitted-ledger notice (git::UncommittedScan).
#pragma once

namespace lg::rules {

// 0 (the default): one per core, up to four; 1: the calling thread alone;
// N: N workers.
void set_check_threads(unsigned threads);
unsigned check_threads();

}  // namespace lg::rules
