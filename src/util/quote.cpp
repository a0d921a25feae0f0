// git's quote_c_style for paths, and the same escapes for other text.
#include "ledgergate/util/quote.hpp"

#include <algorithm>

#include "ledgergate/util/text.hpp"

namespace lg::util {
namespace {

// quote.c's sq_lookup: the letter of a C escape, 0 where octal is used.
char c_escape_letter(unsigned char c) {
  switch (c) {
    case '\a': return 'a';
    case '\b': return 'b';
    case '\t': return 't';
    case '\n': return 'n';
    case '\v': return 'v';
    case '\f': return 'f';
    case '\r': return 'r';
    case '"': return '"';
    case '\\': return '\\';
    default: return 0;
  }
}

void append_byte_escape(std::string& out, unsigned char c) {
  out += '\\';
  if (const char letter = c_escape_letter(c)) {
    out += letter;
    return;
  }
  out += static_cast<char>('0' + (c >> 6));
  out += static_cast<char>('0' + ((c >> 3) & 7));
  out += static_cast<char>('0' + (c & 7));
}

// What append_escaped escapes besides what a terminal could act on (C0
// and C1 controls, DEL, bytes that are not UTF-8).
enum class Escape {
  quoted,    // '"' and '\\' too (a C-quoted path)
  controls,  // nothing more
  cortex,    // nothing more, and a TAB stays a TAB
};

// Appends `s` with what a terminal could act on escaped; returns whether
// anything was.
bool append_escaped(std::string& out, std::string_view s, Escape mode) {
  bool escaped = false;
  for (std::size_t pos = 0; pos < s.size();) {
    const auto c = static_cast<unsigned char>(s[pos]);
    if (c < 0x80) {
      const bool control = (c < 0x20 && !(mode == Escape::cortex && c == '\t')) || c == 0x7f;
      if (control || (mode == Escape::quoted && (c == '"' || c == '\\'))) {
        append_byte_escape(out, c);
        escaped = true;
      } else {
        out += static_cast<char>(c);
      }
      ++pos;
      continue;
    }
    // next_code_point() steps one byte over a malformed sequence.
    std::size_t at = pos;
    const char32_t cp = next_code_point(s, at);
    const std::size_t len = (cp == 0xFFFD && at == pos + 1) ? 0 : at - pos;
    if (len == 0 || (cp >= 0x80 && cp <= 0x9f)) {
      for (std::size_t i = 0; i < std::max<std::size_t>(len, 1); ++i) {
        append_byte_escape(out, static_cast<unsigned char>(s[pos + i]));
      }
      escaped = true;
    } else {
      out.append(s.substr(pos, len));
    }
    pos += std::max<std::size_t>(len, 1);
  }
  return escaped;
}

}  // namespace

std::string quote_path(std::string_view path) {
  std::string body;
  body.reserve(path.size() + 2);
  if (!append_escaped(body, path, Escape::quoted)) return std::string(path);
  return "\"" + body + "\"";
}

std::string escape_controls(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  append_escaped(out, s, Escape::controls);
  return out;
}

std::string escape_cortex(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  append_escaped(out, s, Escape::cortex);
  return out;
}

std::string percent_encode_path(std::string_view path) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(path.size());
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    const bool plain = (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || c == '/' ||
                       c == '.' || c == '_' || c == '~' || c == '-';
    if (plain) {
      out += c;
    } else {
      out += '%';
      out += k_hex[u >> 4];
      out += k_hex[u & 0xF];
    }
  }
  return out;
}

}  // namespace lg::util
