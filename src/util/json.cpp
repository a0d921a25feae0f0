// JSON string literals: escapes per RFC 8259, raw bytes made valid UTF-8.
#include "ledgergate/util/json.hpp"

#include <fmt/format.h>

#include "ledgergate/util/text.hpp"

namespace lg::util {

std::string json_string(std::string_view raw) {
  // Paths are raw bytes: JSON carries text, so invalid UTF-8 becomes U+FFFD.
  const std::string s = sanitize_utf8(raw);
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += fmt::format("\\u{:04x}", c);
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

}  // namespace lg::util
