// `--no-cache` and the cache's notes (cache_cli.hpp).
#include "cache_cli.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "ledgergate/cache/store.hpp"
#include "ledgergate/report/notices.hpp"
#include "ledgergate/rules/threads.hpp"

namespace lg::cli {

void setup_cache_flag(CLI::App& app) {
  app.add_flag_callback(
      "--no-cache", [] { cache::disable(); },
      "Neither read nor write the persistent cache in the repository's git directory (same verdicts, "
      "slower; also LEDGERGATE_NO_CACHE=1)");
}

void print_cache_notes() {
  for (const std::string& note : cache::take_notes()) {
    std::fputs(report::render_cache_note(note).c_str(), stderr);
  }
}

void apply_threads_env() {
  const char* env = std::getenv("LEDGERGATE_THREADS");
  if (env == nullptr) return;
  const std::string_view text(env);
  unsigned n = 0;
  const auto [last, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  // Not a count (or an absurd one): the default.
  if (ec == std::errc() && last == text.data() + text.size() && n <= 256) rules::set_check_threads(n);
}

rules::CheckCache& command_cache() {
  static rules::CheckCache* const cache = new rules::CheckCache(rules::CheckCache::judging_budget());
  return *cache;
}

rules::CheckCache& one_check_cache() {
  static rules::CheckCache* const cache = new rules::CheckCache(rules::CheckCache::one_check_budget());
  return *cache;
}

}  // namespace lg::cli
