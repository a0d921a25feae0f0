// JSON string literals for the machine-readable outputs.
#pragma once

#include <string>
#include <string_view>

namespace lg::util {

// `s` as a JSON string literal; invalid UTF-8 (raw path bytes) becomes U+FFFD.
std::string json_string(std::string_view s);

}  // namespace lg::util
