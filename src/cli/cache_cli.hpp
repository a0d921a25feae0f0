// The persistent cache at the command line: the global `--no-cache` flag
// (any command that checks; LEDGERGATE_NO_CACHE=1 does the same) and the
// notes about cache entries that were not trusted, printed once on stderr.
#pragma once

#include <CLI/CLI.hpp>

namespace lg::cli {

void setup_cache_flag(CLI::App& app);
// "ledgergate: note: cache entry ... ignored (...); it is rebuilt", each once.
void print_cache_notes();

}  // namespace lg::cli
