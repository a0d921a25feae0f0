#include "ledgergate/util/clock.hpp"

#include <ctime>

namespace lg::util {

std::string format_now(const char* format, Zone zone) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  if (zone == Zone::utc) {
    gmtime_r(&now, &tm);
  } else {
    localtime_r(&now, &tm);
  }
  char buf[64];
  const std::size_t n = std::strftime(buf, sizeof buf, format, &tm);
  return std::string(buf, n);
}

}  // namespace lg::util
