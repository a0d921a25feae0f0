// Durations, backoff and the lease's message.
#include "ledgergate/land/pacing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace lg::land {
namespace {

constexpr long long k_week_ms = 7LL * 24 * 3600 * 1000;

// The number at the front of `s` (consumed); nullopt when there is none.
std::optional<long long> take_number(std::string_view& s) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end == s.data()) return std::nullopt;
  s.remove_prefix(static_cast<std::size_t>(end - s.data()));
  return v;
}

std::string_view field(std::string_view message, std::string_view key) {
  for (std::size_t pos = 0; pos < message.size();) {
    const std::size_t end = std::min(message.find('\n', pos), message.size());
    const std::string_view line = message.substr(pos, end - pos);
    if (line.size() > key.size() + 1 && line.substr(0, key.size()) == key && line[key.size()] == ':') {
      std::string_view v = line.substr(key.size() + 1);
      while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
      return v;
    }
    pos = end + 1;
  }
  return {};
}

constexpr std::string_view k_lease_title = "ledgergate land lease";

}  // namespace

std::optional<Millis> parse_duration(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::string_view s = text;
  long long total = 0;
  while (!s.empty()) {
    const auto n = take_number(s);
    if (!n || *n < 0 || *n > k_week_ms) return std::nullopt;
    long long unit = 1000;  // a bare number is seconds
    if (s.rfind("ms", 0) == 0) {
      unit = 1, s.remove_prefix(2);
    } else if (!s.empty() && (s.front() == 's' || s.front() == 'm' || s.front() == 'h')) {
      unit = s.front() == 's' ? 1000 : s.front() == 'm' ? 60'000 : 3'600'000;
      s.remove_prefix(1);
    } else if (!s.empty() || total != 0) {
      return std::nullopt;  // a unit is needed once there are parts ("1m30" is not a duration)
    }
    total += *n * unit;
    if (total > k_week_ms) return std::nullopt;
  }
  return Millis(total);
}

std::string format_duration(Millis d) {
  const long long ms = d.count();
  if (ms == 0) return "0s";
  if (ms < 1000) return fmt::format("{}ms", ms);
  if (ms < 60'000) return fmt::format("{:.1f}s", static_cast<double>(ms) / 1000.0);
  const long long s = ms / 1000;
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

std::string lease_message(const Lease& l) {
  return fmt::format("{}\n\nholder: {}\nbranch: {}\nexpires-ms: {}\n", k_lease_title, l.holder, l.branch,
                     l.expires_ms);
}

std::optional<Lease> parse_lease(std::string_view message) {
  if (message.rfind(k_lease_title, 0) != 0) return std::nullopt;
  std::string_view expires = field(message, "expires-ms");
  const auto ms = take_number(expires);
  if (!ms || !expires.empty()) return std::nullopt;
  return Lease{std::string(field(message, "holder")), std::string(field(message, "branch")), *ms};
}

}  // namespace lg::land
