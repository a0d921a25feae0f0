#include "page_stamp.hpp"

#include <cstdlib>
#include <ctime>

#include "ledgergate/util/clock.hpp"
#include "ledgergate/util/version.hpp"

namespace lg::cli {

report::PageStamp page_stamp() {
  static constexpr const char* k_format = "%Y-%m-%d %H:%M UTC";
  report::PageStamp stamp{"ledgergate " + std::string(util::k_version), ""};
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch != nullptr && *epoch != '\0') {
    char* end = nullptr;
    const long long seconds = std::strtoll(epoch, &end, 10);
    std::tm tm{};
    const auto t = static_cast<std::time_t>(seconds);
    char buf[64];
    if (*end == '\0' && gmtime_r(&t, &tm) != nullptr && std::strftime(buf, sizeof buf, k_format, &tm) > 0) {
      stamp.updated = buf;
      return stamp;
    }
  }
  stamp.updated = util::format_now(k_format, util::Zone::utc);
  return stamp;
}

}  // namespace lg::cli
