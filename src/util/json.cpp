// JSON string literals (escapes per RFC 8259, raw bytes made valid UTF-8)
// and the streaming writer every JSON output is written with.
#include "ledgergate/util/json.hpp"

#include <fmt/format.h>

#include "ledgergate/util/assert.hpp"
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

// Between items: ", " inline, or a line break and the container's indent
// before each item laid out on lines.
void JsonWriter::separate() {
  Open& top = m_open.back();
  if (top.items > 0) m_out += ',';
  if (top.layout.indent >= 0) {
    m_out += '\n';
    m_out.append(static_cast<std::size_t>(top.layout.indent), ' ');
  } else if (top.items > 0) {
    m_out += ' ';
  }
  ++top.items;
}

// An array's values are items; an object's values follow their keys.
void JsonWriter::before_value() {
  if (m_open.empty()) {
    LEDGERGATE_ASSERT(m_out.empty());  // one document per writer
    return;
  }
  Open& top = m_open.back();
  if (top.object) {
    LEDGERGATE_ASSERT(top.after_key);
    top.after_key = false;
    return;
  }
  separate();
}

JsonWriter& JsonWriter::key(std::string_view name) {
  LEDGERGATE_ASSERT(!m_open.empty() && m_open.back().object && !m_open.back().after_key);
  separate();
  m_out += json_string(name);
  m_out += ": ";
  m_open.back().after_key = true;
  return *this;
}

void JsonWriter::open(char bracket, JsonLayout layout, bool object) {
  before_value();
  m_out += bracket;
  m_open.push_back({layout, object, 0, false});
}

void JsonWriter::close(char bracket, bool object) {
  LEDGERGATE_ASSERT(!m_open.empty() && m_open.back().object == object && !m_open.back().after_key);
  const Open top = m_open.back();
  m_open.pop_back();
  if (top.layout.indent >= 0 && top.layout.bracket_on_line && top.items > 0) {
    m_out += '\n';
    m_out.append(static_cast<std::size_t>(top.layout.indent >= 2 ? top.layout.indent - 2 : 0), ' ');
  }
  m_out += bracket;
}

JsonWriter& JsonWriter::begin_object(JsonLayout layout) {
  open('{', layout, true);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  close('}', true);
  return *this;
}

JsonWriter& JsonWriter::begin_array(JsonLayout layout) {
  open('[', layout, false);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  close(']', false);
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view s) {
  before_value();
  m_out += json_string(s);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool b) {
  before_value();
  m_out += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  m_out += "null";
  return *this;
}

JsonWriter& JsonWriter::signed_number(std::int64_t n) {
  before_value();
  m_out += fmt::format("{}", n);
  return *this;
}

JsonWriter& JsonWriter::unsigned_number(std::uint64_t n) {
  before_value();
  m_out += fmt::format("{}", n);
  return *this;
}

}  // namespace lg::util
