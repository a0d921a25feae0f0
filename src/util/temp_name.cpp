// Writers' temporary file names (temp_name.hpp).
#include "ledgergate/util/temp_name.hpp"

#include <charconv>

namespace lg::util {
namespace {

constexpr std::string_view k_marker = ".ledgergate-";

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

std::string writer_temp_name(std::string_view name, long pid, unsigned long n) {
  std::string out = ".";
  out.append(name).append(k_marker).append(std::to_string(pid)).append(1, '-').append(std::to_string(n));
  return out;
}

long writer_temp_pid(std::string_view name) {
  if (name.size() < 2 || name.front() != '.') return 0;
  const std::size_t marker = name.rfind(k_marker);
  if (marker == std::string_view::npos || marker < 2) return 0;
  const std::string_view tail = name.substr(marker + k_marker.size());
  const std::size_t dash = tail.find('-');
  if (dash == std::string_view::npos) return 0;
  const std::string_view pid = tail.substr(0, dash);
  if (!all_digits(pid) || !all_digits(tail.substr(dash + 1))) return 0;
  long value = 0;
  const auto [end, ec] = std::from_chars(pid.data(), pid.data() + pid.size(), value);
  if (ec != std::errc() || end != pid.data() + pid.size() || value <= 0) return 0;
  return value;
}

bool is_writer_temp_name(std::string_view name) { return writer_temp_pid(name) != 0; }

}  // namespace lg::util
