// `--no-cache` and the cache's notes (cache_cli.hpp).
#include "cache_cli.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "ledgergate/cache/store.hpp"

namespace lg::cli {

void setup_cache_flag(CLI::App& app) {
  app.add_flag_callback(
      "--no-cache", [] { cache::disable(); },
      "Neither read nor write the persistent cache in the repository's git directory (same verdicts, "
      "slower; also LEDGERGATE_NO_CACHE=1)");
}

void print_cache_notes() {
  for (const std::string& note : cache::take_notes()) {
    std::fputs(fmt::format("ledgergate: note: {}\n", note).c_str(), stderr);
  }
}

}  // namespace lg::cli
