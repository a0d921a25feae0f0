// The wall clock as text: the writer verbs' default dates and times.
#pragma once

#include <string>

namespace lg::util {

enum class Zone { local, utc };

// Now, formatted by strftime's `format` (e.g. "%Y-%m-%d") in `zone`; at
// most 63 characters.
std::string format_now(const char* format, Zone zone);

}  // namespace lg::util
