// The persistent cache at the command line: the global `--no-cache` flag
// (any command that checks; LEDGERGATE_NO_CACHE=1 does the same) and the
// notes about cache entries that were not trusted, printed once on stderr;
// and LEDGERGATE_THREADS, how many threads read a check's ledgers.
#pragma once

#include <CLI/CLI.hpp>

#include "ledgergate/rules/check_cache.hpp"

namespace lg::cli {

void setup_cache_flag(CLI::App& app);
// "ledgergate: note: cache entry ... ignored (...); it is rebuilt", each once.
void print_cache_notes();
// LEDGERGATE_THREADS: the threads that read and parse a checked tree's
// ledgers, and that look at the ledger's working files for `check`'s
// uncommitted-ledger notice (rules::set_check_threads; unset or not a
// count: one per core). The verdict, its findings and the notice do not
// depend on it.
void apply_threads_env();

// The check cache of the process's one command, never freed: its parses
// (a trial merge at 20,000 projects holds some 60,000 ledgers' facts) are
// the operating system's to reclaim at exit, not a destructor's (16 M
// instructions of that trial merge). It writes nothing when destroyed, so
// nothing is lost by not destroying it. Its budget is
// CheckCache::judging_budget (its commands, trial-merge and check
// --against, read no row of a check after it); a command that checks one
// tree and nothing after asks for CheckCache::one_check_budget's.
rules::CheckCache& command_cache();
rules::CheckCache& one_check_cache();

}  // namespace lg::cli
