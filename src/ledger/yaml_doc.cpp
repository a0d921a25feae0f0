// YAML loading with PyYAML `safe_load` semantics in three passes: (1) a port of
// PyYAML's scanner/parser/composer decides validity with PyYAML's problem text
// and line (yaml-cpp alone accepts unclosed quotes and tabs, and loops forever
// on a lone `,`); (2) yaml-cpp's event API builds the tree, duplicate keys
// kept; (3) a constructor pass types each node as SafeConstructor would.
#include "ledgergate/ledger/yaml_doc.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>

#include "ledgergate/util/text.hpp"

namespace lg::ledger {
namespace {

using namespace std::literals;

// ===========================================================================
// Pass 1: PyYAML's grammar (reader, scanner, parser, composer anchors).
// ===========================================================================

constexpr std::string_view k_yaml_tag_prefix = "tag:yaml.org,2002:";
constexpr char32_t k_nul = U'\0';
// Python string sets of PyYAML's scanner. Note the embedded NULs.
constexpr std::u32string_view k_breaks = U"\r\n\x85\u2028\u2029"sv;
constexpr std::u32string_view k_nul_breaks = U"\0\r\n\x85\u2028\u2029"sv;
constexpr std::u32string_view k_nul_space_breaks = U"\0 \r\n\x85\u2028\u2029"sv;
constexpr std::u32string_view k_nul_blank_breaks = U"\0 \t\r\n\x85\u2028\u2029"sv;

bool in_set(char32_t c, std::u32string_view set) { return set.find(c) != std::u32string_view::npos; }
bool is_ascii_alnum(char32_t c) {
  return (c >= U'0' && c <= U'9') || (c >= U'A' && c <= U'Z') || (c >= U'a' && c <= U'z');
}
bool is_name_char(char32_t c) { return is_ascii_alnum(c) || c == U'-' || c == U'_'; }
bool is_hex_digit(char32_t c) {
  return (c >= U'0' && c <= U'9') || (c >= U'A' && c <= U'F') || (c >= U'a' && c <= U'f');
}

std::string to_utf8(std::u32string_view s) {
  std::string out;
  for (char32_t c : s) util::append_utf8(out, c);
  return out;
}
std::string char_repr(char32_t c) { return util::py_repr(to_utf8(std::u32string_view(&c, 1))); }

std::u32string decode_utf8(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) out.push_back(util::next_code_point(text, pos));
  return out;
}

struct Mark {
  std::size_t index = 0;
  int line = 0;
  int column = 0;
};

// A MarkedYAMLError: the problem text and where it was found.
struct GrammarError {
  Mark mark;
  std::string problem;
};
// An error PyYAML raises without a mark (a ValueError from chr(), ...).
struct UnmarkedError {
  std::string text;
};

[[noreturn]] void fail(const Mark& mark, std::string problem) { throw GrammarError{mark, std::move(problem)}; }

// Python's UnicodeDecodeError text for the first bad sequence of `bytes`.
std::string utf8_error_text(std::string_view bytes, std::size_t offset) {
  const auto b = static_cast<unsigned char>(bytes[offset]);
  std::string reason = "invalid continuation byte";
  if (b < 0xC2 || b > 0xF4) {
    reason = "invalid start byte";
  } else {
    const std::size_t need = b < 0xE0 ? 2 : (b < 0xF0 ? 3 : 4);
    std::size_t have = 1;
    while (offset + have < bytes.size() && have < need &&
           (static_cast<unsigned char>(bytes[offset + have]) & 0xC0) == 0x80) {
      ++have;
    }
    if (offset + have == bytes.size() && have < need) reason = "unexpected end of data";
  }
  std::array<char, 8> hex{};
  std::snprintf(hex.data(), hex.size(), "0x%02x", b);
  return "'utf-8' codec can't decode byte " + std::string(hex.data()) + " in position " + std::to_string(offset) +
         ": " + reason;
}

enum class Tok : std::uint8_t {
  stream_start,
  stream_end,
  directive,
  document_start,
  document_end,
  block_sequence_start,
  block_mapping_start,
  block_end,
  flow_sequence_start,
  flow_mapping_start,
  flow_sequence_end,
  flow_mapping_end,
  key,
  value,
  block_entry,
  flow_entry,
  alias,
  anchor,
  tag,
  scalar,
};

std::string_view token_id(Tok t) {
  switch (t) {
    case Tok::stream_start:
      return "<stream start>";
    case Tok::stream_end:
      return "<stream end>";
    case Tok::directive:
      return "<directive>";
    case Tok::document_start:
      return "<document start>";
    case Tok::document_end:
      return "<document end>";
    case Tok::block_sequence_start:
      return "<block sequence start>";
    case Tok::block_mapping_start:
      return "<block mapping start>";
    case Tok::block_end:
      return "<block end>";
    case Tok::flow_sequence_start:
      return "[";
    case Tok::flow_mapping_start:
      return "{";
    case Tok::flow_sequence_end:
      return "]";
    case Tok::flow_mapping_end:
      return "}";
    case Tok::key:
      return "?";
    case Tok::value:
      return ":";
    case Tok::block_entry:
      return "-";
    case Tok::flow_entry:
      return ",";
    case Tok::alias:
      return "<alias>";
    case Tok::anchor:
      return "<anchor>";
    case Tok::tag:
      return "<tag>";
    case Tok::scalar:
      return "<scalar>";
  }
  return "";
}

struct Token {
  Tok type = Tok::stream_start;
  Mark start;
  std::string name;          // anchor/alias name, directive name, tag handle, TAG handle
  std::string suffix;        // tag suffix; TAG directive: the handle
  std::string prefix;        // TAG directive: the prefix
  bool has_handle = false;   // a tag with a handle (`!!str`, `!e!x`, `!x`)
  bool version_one = false;  // a %YAML directive whose major version is 1
  bool plain = false;        // a plain scalar
};

// Where PyYAML scanned an anchor, alias or tag (code point indices), so the
// text yaml-cpp reads can spell it the way yaml-cpp scans the same token.
struct PropertySpan {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool is_tag = false;
};

struct SimpleKey {
  std::size_t token_number = 0;
  bool required = false;
  std::size_t index = 0;
  int line = 0;
  int column = 0;
  Mark mark;
};

// PyYAML's Scanner (scanner.py), without building scalar values: only the
// control flow and the errors matter here.
class Scanner {
 public:
  explicit Scanner(std::u32string text) : m_buf(std::move(text)) {
    m_tokens.push_back(token(Tok::stream_start, mark()));
  }

  const std::vector<PropertySpan>& properties() const { return m_properties; }

  bool check(std::initializer_list<Tok> choices) {
    fill();
    if (m_tokens.empty()) return false;
    return std::find(choices.begin(), choices.end(), m_tokens.front().type) != choices.end();
  }
  const Token& peek() {
    fill();
    if (m_tokens.empty()) m_tokens.push_back(token(Tok::stream_end, mark()));  // never past the end
    return m_tokens.front();
  }
  Token get() {
    fill();
    if (m_tokens.empty()) return token(Tok::stream_end, mark());
    Token t = std::move(m_tokens.front());
    m_tokens.pop_front();
    ++m_tokens_taken;
    return t;
  }

 private:
  // --- reader ---
  char32_t at(std::size_t k = 0) const { return m_pos + k < m_buf.size() ? m_buf[m_pos + k] : k_nul; }
  void forward(std::size_t n = 1) {
    for (; n > 0 && m_pos < m_buf.size(); --n) {
      const char32_t c = m_buf[m_pos++];
      if (c == U'\n' || c == 0x85 || c == 0x2028 || c == 0x2029 || (c == U'\r' && at() != U'\n')) {
        ++m_line;
        m_column = 0;
      } else if (c != 0xFEFF) {
        ++m_column;
      }
    }
  }
  Mark mark() const { return Mark{m_pos, m_line, m_column}; }
  bool ahead_is(std::u32string_view s) const {
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (at(i) != s[i]) return false;
    }
    return true;
  }
  bool at_document_separator() const {
    return (ahead_is(U"---") || ahead_is(U"...")) && in_set(at(3), k_nul_blank_breaks);
  }
  static Token token(Tok type, const Mark& start) {
    Token t;
    t.type = type;
    t.start = start;
    return t;
  }

  // --- token queue ---
  void fill() {
    while (need_more_tokens()) fetch_more_tokens();
  }
  bool need_more_tokens() {
    if (m_done) return false;
    if (m_tokens.empty()) return true;
    stale_possible_simple_keys();
    return next_possible_simple_key() == std::optional<std::size_t>(m_tokens_taken);
  }
  std::optional<std::size_t> next_possible_simple_key() const {
    std::optional<std::size_t> min;
    for (const auto& [level, key] : m_simple_keys) {
      if (!min || key.token_number < *min) min = key.token_number;
    }
    return min;
  }
  void stale_possible_simple_keys() {
    for (auto it = m_simple_keys.begin(); it != m_simple_keys.end();) {
      const SimpleKey& key = it->second;
      if (key.line != m_line || m_pos - key.index > 1024) {
        if (key.required) fail(mark(), "could not find expected ':'");
        it = m_simple_keys.erase(it);
      } else {
        ++it;
      }
    }
  }
  void save_possible_simple_key() {
    const bool required = m_flow_level == 0 && m_indent == m_column;
    if (!m_allow_simple_key) return;
    remove_possible_simple_key();
    m_simple_keys[m_flow_level] =
        SimpleKey{m_tokens_taken + m_tokens.size(), required, m_pos, m_line, m_column, mark()};
  }
  void remove_possible_simple_key() {
    const auto it = m_simple_keys.find(m_flow_level);
    if (it == m_simple_keys.end()) return;
    if (it->second.required) fail(mark(), "could not find expected ':'");
    m_simple_keys.erase(it);
  }
  void unwind_indent(int column) {
    if (m_flow_level != 0) return;
    while (m_indent > column) {
      m_indent = m_indents.back();
      m_indents.pop_back();
      m_tokens.push_back(token(Tok::block_end, mark()));
    }
  }
  bool add_indent(int column) {
    if (m_indent >= column) return false;
    m_indents.push_back(m_indent);
    m_indent = column;
    return true;
  }

  void fetch_more_tokens() {
    scan_to_next_token();
    stale_possible_simple_keys();
    unwind_indent(m_column);
    const char32_t c = at();
    if (c == k_nul) return fetch_stream_end();
    if (c == U'%' && m_column == 0) return fetch_directive();
    if (c == U'-' && m_column == 0 && at_document_separator()) return fetch_document_indicator(Tok::document_start);
    if (c == U'.' && m_column == 0 && at_document_separator()) return fetch_document_indicator(Tok::document_end);
    if (c == U'[') return fetch_flow_collection_start(Tok::flow_sequence_start);
    if (c == U'{') return fetch_flow_collection_start(Tok::flow_mapping_start);
    if (c == U']') return fetch_flow_collection_end(Tok::flow_sequence_end);
    if (c == U'}') return fetch_flow_collection_end(Tok::flow_mapping_end);
    if (c == U',') return fetch_flow_entry();
    if (c == U'-' && in_set(at(1), k_nul_blank_breaks)) return fetch_block_entry();
    if (c == U'?' && (m_flow_level != 0 || in_set(at(1), k_nul_blank_breaks))) return fetch_key();
    if (c == U':' && (m_flow_level != 0 || in_set(at(1), k_nul_blank_breaks))) return fetch_value();
    if (c == U'*' || c == U'&') return fetch_anchor_or_alias();
    if (c == U'!') return fetch_tag();
    if ((c == U'|' || c == U'>') && m_flow_level == 0) return fetch_block_scalar();
    if (c == U'\'' || c == U'"') return fetch_flow_scalar();
    if (check_plain()) return fetch_plain();
    fail(mark(), "found character " + char_repr(c) + " that cannot start any token");
  }
  bool check_plain() const {
    const char32_t c = at();
    return !in_set(c, U"\0 \t\r\n\x85\u2028\u2029-?:,[]{}#&*!|>'\"%@`"sv) ||
           (!in_set(at(1), k_nul_blank_breaks) && (c == U'-' || (m_flow_level == 0 && (c == U'?' || c == U':'))));
  }

  void fetch_stream_end() {
    unwind_indent(-1);
    remove_possible_simple_key();
    m_allow_simple_key = false;
    m_simple_keys.clear();
    m_tokens.push_back(token(Tok::stream_end, mark()));
    m_done = true;
  }
  void fetch_directive() {
    unwind_indent(-1);
    remove_possible_simple_key();
    m_allow_simple_key = false;
    m_tokens.push_back(scan_directive());
  }
  void fetch_document_indicator(Tok type) {
    unwind_indent(-1);
    remove_possible_simple_key();
    m_allow_simple_key = false;
    const Mark start = mark();
    forward(3);
    m_tokens.push_back(token(type, start));
  }
  void fetch_flow_collection_start(Tok type) {
    save_possible_simple_key();
    ++m_flow_level;
    m_allow_simple_key = true;
    const Mark start = mark();
    forward();
    m_tokens.push_back(token(type, start));
  }
  void fetch_flow_collection_end(Tok type) {
    remove_possible_simple_key();
    --m_flow_level;
    m_allow_simple_key = false;
    const Mark start = mark();
    forward();
    m_tokens.push_back(token(type, start));
  }
  void fetch_flow_entry() {
    m_allow_simple_key = true;
    remove_possible_simple_key();
    const Mark start = mark();
    forward();
    m_tokens.push_back(token(Tok::flow_entry, start));
  }
  void fetch_block_entry() {
    if (m_flow_level == 0) {
      if (!m_allow_simple_key) fail(mark(), "sequence entries are not allowed here");
      if (add_indent(m_column)) m_tokens.push_back(token(Tok::block_sequence_start, mark()));
    }
    m_allow_simple_key = true;
    remove_possible_simple_key();
    const Mark start = mark();
    forward();
    m_tokens.push_back(token(Tok::block_entry, start));
  }
  void fetch_key() {
    if (m_flow_level == 0) {
      if (!m_allow_simple_key) fail(mark(), "mapping keys are not allowed here");
      if (add_indent(m_column)) m_tokens.push_back(token(Tok::block_mapping_start, mark()));
    }
    m_allow_simple_key = m_flow_level == 0;
    remove_possible_simple_key();
    const Mark start = mark();
    forward();
    m_tokens.push_back(token(Tok::key, start));
  }
  void fetch_value() {
    const auto it = m_simple_keys.find(m_flow_level);
    if (it != m_simple_keys.end()) {
      const SimpleKey key = it->second;
      m_simple_keys.erase(it);
      const auto at_key = m_tokens.begin() + static_cast<std::ptrdiff_t>(key.token_number - m_tokens_taken);
      const auto inserted = m_tokens.insert(at_key, token(Tok::key, key.mark));
      if (m_flow_level == 0 && add_indent(key.column))
        m_tokens.insert(inserted, token(Tok::block_mapping_start, key.mark));
      m_allow_simple_key = false;
    } else {
      if (m_flow_level == 0) {
        if (!m_allow_simple_key) fail(mark(), "mapping values are not allowed here");
        if (add_indent(m_column)) m_tokens.push_back(token(Tok::block_mapping_start, mark()));
      }
      m_allow_simple_key = m_flow_level == 0;
      remove_possible_simple_key();
    }
    const Mark start = mark();
    forward();
    m_tokens.push_back(token(Tok::value, start));
  }
  void fetch_anchor_or_alias() {
    save_possible_simple_key();
    m_allow_simple_key = false;
    const std::size_t begin = m_pos;
    m_tokens.push_back(scan_anchor());
    m_properties.push_back(PropertySpan{begin, m_pos, false});
  }
  void fetch_tag() {
    save_possible_simple_key();
    m_allow_simple_key = false;
    const std::size_t begin = m_pos;
    m_tokens.push_back(scan_tag());
    m_properties.push_back(PropertySpan{begin, m_pos, true});
  }
  void fetch_block_scalar() {
    m_allow_simple_key = true;
    remove_possible_simple_key();
    m_tokens.push_back(scan_block_scalar());
  }
  void fetch_flow_scalar() {
    save_possible_simple_key();
    m_allow_simple_key = false;
    m_tokens.push_back(scan_flow_scalar());
  }
  void fetch_plain() {
    save_possible_simple_key();
    m_allow_simple_key = false;
    m_tokens.push_back(scan_plain());
  }

  // --- scanning ---
  bool scan_line_break() {
    const char32_t c = at();
    if (c == U'\r' || c == U'\n' || c == 0x85) {
      forward(c == U'\r' && at(1) == U'\n' ? 2 : 1);
      return true;
    }
    if (c == 0x2028 || c == 0x2029) {
      forward();
      return true;
    }
    return false;
  }
  void skip_spaces() {
    while (at() == U' ') forward();
  }
  void skip_comment() {
    if (at() != U'#') return;
    while (!in_set(at(), k_nul_breaks)) forward();
  }
  void scan_to_next_token() {
    if (m_pos == 0 && at() == 0xFEFF) forward();
    for (;;) {
      skip_spaces();
      skip_comment();
      if (!scan_line_break()) return;
      if (m_flow_level == 0) m_allow_simple_key = true;
    }
  }

  Token scan_directive() {
    const Mark start = mark();
    forward();
    Token t = token(Tok::directive, start);
    t.name = scan_directive_name();
    if (t.name == "YAML") {
      t.version_one = scan_yaml_directive_value();
    } else if (t.name == "TAG") {
      skip_spaces();
      t.name = "TAG";
      t.suffix = scan_tag_handle();
      if (at() != U' ') fail(mark(), "expected ' ', but found " + char_repr(at()));
      skip_spaces();
      t.prefix = scan_tag_uri();
      if (!in_set(at(), k_nul_space_breaks)) fail(mark(), "expected ' ', but found " + char_repr(at()));
    } else {
      while (!in_set(at(), k_nul_breaks)) forward();
    }
    scan_directive_ignored_line();
    return t;
  }
  std::string scan_directive_name() {
    std::size_t length = 0;
    while (is_name_char(at(length))) ++length;
    if (length == 0) fail(mark(), "expected alphabetic or numeric character, but found " + char_repr(at(length)));
    const std::string value = to_utf8(std::u32string_view(m_buf).substr(m_pos, length));
    forward(length);
    if (!in_set(at(), k_nul_space_breaks)) {
      fail(mark(), "expected alphabetic or numeric character, but found " + char_repr(at()));
    }
    return value;
  }
  bool scan_yaml_directive_value() {
    skip_spaces();
    const std::string major = scan_yaml_directive_number();
    if (at() != U'.') fail(mark(), "expected a digit or '.', but found " + char_repr(at()));
    forward();
    scan_yaml_directive_number();
    if (!in_set(at(), k_nul_space_breaks)) fail(mark(), "expected a digit or ' ', but found " + char_repr(at()));
    const auto first = major.find_first_not_of('0');
    return first != std::string::npos && major.substr(first) == "1";
  }
  std::string scan_yaml_directive_number() {
    if (!(at() >= U'0' && at() <= U'9')) fail(mark(), "expected a digit, but found " + char_repr(at()));
    std::string digits;
    while (at() >= U'0' && at() <= U'9') {
      digits += static_cast<char>(at());
      forward();
    }
    return digits;
  }
  void scan_directive_ignored_line() {
    skip_spaces();
    skip_comment();
    if (!in_set(at(), k_nul_breaks)) fail(mark(), "expected a comment or a line break, but found " + char_repr(at()));
    scan_line_break();
  }

  Token scan_anchor() {
    const Mark start = mark();
    Token t = token(at() == U'*' ? Tok::alias : Tok::anchor, start);
    forward();
    std::size_t length = 0;
    while (is_name_char(at(length))) ++length;
    if (length == 0) fail(mark(), "expected alphabetic or numeric character, but found " + char_repr(at(length)));
    t.name = to_utf8(std::u32string_view(m_buf).substr(m_pos, length));
    forward(length);
    if (!in_set(at(), U"\0 \t\r\n\x85\u2028\u2029?:,]}%@`"sv)) {
      fail(mark(), "expected alphabetic or numeric character, but found " + char_repr(at()));
    }
    return t;
  }

  Token scan_tag() {
    Token t = token(Tok::tag, mark());
    char32_t c = at(1);
    if (c == U'<') {
      forward(2);
      t.suffix = scan_tag_uri();
      if (at() != U'>') fail(mark(), "expected '>', but found " + char_repr(at()));
      forward();
    } else if (in_set(c, k_nul_blank_breaks)) {
      t.suffix = "!";
      forward();
    } else {
      std::size_t length = 1;
      bool use_handle = false;
      while (!in_set(c, k_nul_space_breaks)) {
        if (c == U'!') {
          use_handle = true;
          break;
        }
        ++length;
        c = at(length);
      }
      if (use_handle) {
        t.name = scan_tag_handle();
      } else {
        t.name = "!";
        forward();
      }
      t.has_handle = true;
      t.suffix = scan_tag_uri();
    }
    if (!in_set(at(), k_nul_space_breaks)) fail(mark(), "expected ' ', but found " + char_repr(at()));
    return t;
  }
  std::string scan_tag_handle() {
    if (at() != U'!') fail(mark(), "expected '!', but found " + char_repr(at()));
    std::size_t length = 1;
    char32_t c = at(length);
    if (c != U' ') {
      while (is_name_char(c)) c = at(++length);
      if (c != U'!') {
        forward(length);
        fail(mark(), "expected '!', but found " + char_repr(c));
      }
      ++length;
    }
    const std::string value = to_utf8(std::u32string_view(m_buf).substr(m_pos, length));
    forward(length);
    return value;
  }
  std::string scan_tag_uri() {
    std::string value;
    bool any = false;
    std::size_t length = 0;
    char32_t c = at(length);
    while (is_ascii_alnum(c) || in_set(c, U"-;/?:@&=+$,_.!~*'()[]%"sv)) {
      if (c == U'%') {
        value += to_utf8(std::u32string_view(m_buf).substr(m_pos, length));
        forward(length);
        length = 0;
        value += scan_uri_escapes();
        any = true;
      } else {
        ++length;
      }
      c = at(length);
    }
    if (length > 0) {
      value += to_utf8(std::u32string_view(m_buf).substr(m_pos, length));
      forward(length);
      any = true;
    }
    if (!any) fail(mark(), "expected URI, but found " + char_repr(c));
    return value;
  }
  std::string scan_uri_escapes() {
    std::string bytes;
    const Mark start = mark();
    while (at() == U'%') {
      forward();
      for (std::size_t k = 0; k < 2; ++k) {
        if (!is_hex_digit(at(k))) {
          fail(mark(), "expected URI escape sequence of 2 hexadecimal numbers, but found " + char_repr(at(k)));
        }
      }
      const std::string hex = to_utf8(std::u32string_view(m_buf).substr(m_pos, 2));
      bytes += static_cast<char>(std::stoi(hex, nullptr, 16));
      forward(2);
    }
    if (const auto bad = util::find_invalid_utf8(bytes)) fail(start, utf8_error_text(bytes, bad->offset));
    return bytes;
  }

  Token scan_block_scalar() {
    Token t = token(Tok::scalar, mark());
    forward();
    const int increment = scan_block_scalar_indicators();
    scan_block_scalar_ignored_line();
    const int min_indent = std::max(m_indent + 1, 1);
    int indent = 0;
    if (increment == 0) {
      indent = std::max(min_indent, scan_block_scalar_indentation());
    } else {
      indent = min_indent + increment - 1;
      scan_block_scalar_breaks(indent);
    }
    while (m_column == indent && at() != k_nul) {
      while (!in_set(at(), k_nul_breaks)) forward();
      scan_line_break();
      scan_block_scalar_breaks(indent);
      if (!(m_column == indent && at() != k_nul)) break;
    }
    return t;
  }
  // Returns the indentation indicator (0 = none).
  int scan_block_scalar_indicators() {
    int increment = 0;
    auto read_increment = [&] {
      if (!(at() >= U'0' && at() <= U'9')) return false;
      increment = static_cast<int>(at() - U'0');
      if (increment == 0) fail(mark(), "expected indentation indicator in the range 1-9, but found 0");
      forward();
      return true;
    };
    if (at() == U'+' || at() == U'-') {
      forward();
      read_increment();
    } else if (read_increment()) {
      if (at() == U'+' || at() == U'-') forward();
    }
    if (!in_set(at(), k_nul_space_breaks)) {
      fail(mark(), "expected chomping or indentation indicators, but found " + char_repr(at()));
    }
    return increment;
  }
  void scan_block_scalar_ignored_line() {
    skip_spaces();
    skip_comment();
    if (!in_set(at(), k_nul_breaks)) fail(mark(), "expected a comment or a line break, but found " + char_repr(at()));
    scan_line_break();
  }
  int scan_block_scalar_indentation() {
    int max_indent = 0;
    while (at() == U' ' || in_set(at(), k_breaks)) {
      if (at() != U' ') {
        scan_line_break();
      } else {
        forward();
        max_indent = std::max(max_indent, m_column);
      }
    }
    return max_indent;
  }
  void scan_block_scalar_breaks(int indent) {
    while (m_column < indent && at() == U' ') forward();
    while (in_set(at(), k_breaks)) {
      scan_line_break();
      while (m_column < indent && at() == U' ') forward();
    }
  }

  Token scan_flow_scalar() {
    Token t = token(Tok::scalar, mark());
    const bool double_quoted = at() == U'"';
    const char32_t quote = at();
    forward();
    scan_flow_scalar_non_spaces(double_quoted);
    while (at() != quote) {
      scan_flow_scalar_spaces();
      scan_flow_scalar_non_spaces(double_quoted);
    }
    forward();
    return t;
  }
  void scan_flow_scalar_non_spaces(bool double_quoted) {
    for (;;) {
      while (!in_set(at(), U"'\"\\\0 \t\r\n\x85\u2028\u2029"sv)) forward();
      const char32_t c = at();
      if (!double_quoted && c == U'\'' && at(1) == U'\'') {
        forward(2);
      } else if ((double_quoted && c == U'\'') || (!double_quoted && (c == U'"' || c == U'\\'))) {
        forward();
      } else if (double_quoted && c == U'\\') {
        forward();
        scan_escape();
      } else {
        return;
      }
    }
  }
  void scan_escape() {
    const char32_t c = at();
    if (in_set(c, U"0abt\tnvfre \"\\/N_LP"sv)) {
      forward();
    } else if (c == U'x' || c == U'u' || c == U'U') {
      const std::size_t length = c == U'x' ? 2 : (c == U'u' ? 4 : 8);
      forward();
      for (std::size_t k = 0; k < length; ++k) {
        if (!is_hex_digit(at(k))) {
          fail(mark(), "expected escape sequence of " + std::to_string(length) + " hexadecimal numbers, but found " +
                           char_repr(at(k)));
        }
      }
      const unsigned long code = std::stoul(to_utf8(std::u32string_view(m_buf).substr(m_pos, length)), nullptr, 16);
      if (code > 0x10FFFF) throw UnmarkedError{"chr() arg not in range(0x110000)"};
      forward(length);
    } else if (in_set(c, k_breaks)) {
      scan_line_break();
      scan_flow_scalar_breaks();
    } else {
      fail(mark(), "found unknown escape character " + char_repr(c));
    }
  }
  void scan_flow_scalar_spaces() {
    while (at() == U' ' || at() == U'\t') forward();
    if (at() == k_nul) fail(mark(), "found unexpected end of stream");
    if (in_set(at(), k_breaks)) {
      scan_line_break();
      scan_flow_scalar_breaks();
    }
  }
  void scan_flow_scalar_breaks() {
    for (;;) {
      if (at_document_separator()) fail(mark(), "found unexpected document separator");
      while (at() == U' ' || at() == U'\t') forward();
      if (!scan_line_break()) return;
    }
  }

  Token scan_plain() {
    Token t = token(Tok::scalar, mark());
    t.plain = true;
    const int indent = m_indent + 1;
    for (;;) {
      if (at() == U'#') break;
      std::size_t length = 0;
      for (;; ++length) {
        const char32_t c = at(length);
        if (in_set(c, k_nul_blank_breaks)) break;
        if (c == U':' &&
            (in_set(at(length + 1), k_nul_blank_breaks) || (m_flow_level != 0 && in_set(at(length + 1), U",[]{}"sv)))) {
          break;
        }
        if (m_flow_level != 0 && in_set(c, U",?[]{}"sv)) break;
      }
      if (length == 0) break;
      m_allow_simple_key = false;
      forward(length);
      if (!scan_plain_spaces() || at() == U'#' || (m_flow_level == 0 && m_column < indent)) break;
    }
    return t;
  }
  // Returns whether PyYAML's scan_plain_spaces returned non-empty chunks.
  bool scan_plain_spaces() {
    std::size_t length = 0;
    while (at(length) == U' ') ++length;
    forward(length);
    if (in_set(at(), k_breaks)) {
      scan_line_break();
      m_allow_simple_key = true;
      if (at_document_separator()) return false;
      while (at() == U' ' || in_set(at(), k_breaks)) {
        if (at() == U' ') {
          forward();
        } else {
          scan_line_break();
          if (at_document_separator()) return false;
        }
      }
      return true;
    }
    return length > 0;
  }

  std::u32string m_buf;
  std::size_t m_pos = 0;
  int m_line = 0;
  int m_column = 0;
  bool m_done = false;
  int m_flow_level = 0;
  std::deque<Token> m_tokens;
  std::size_t m_tokens_taken = 0;
  int m_indent = -1;
  std::vector<int> m_indents;
  bool m_allow_simple_key = true;
  std::map<int, SimpleKey> m_simple_keys;
  std::vector<PropertySpan> m_properties;
};

enum class Ev : std::uint8_t {
  stream_start,
  stream_end,
  document_start,
  document_end,
  alias,
  scalar,
  sequence_start,
  sequence_end,
  mapping_start,
  mapping_end,
};

struct Event {
  Ev type = Ev::stream_start;
  Mark start;
  std::optional<std::string> anchor;  // the anchor, or the alias's name
  std::optional<std::string> tag;     // the resolved explicit tag ("!" for the bare `!`)
  bool implicit = false;              // a scalar PyYAML types by its text (implicit[0])
};

enum class St : std::uint8_t {
  none,
  stream_start,
  implicit_document_start,
  document_start,
  document_end,
  document_content,
  block_node,
  block_sequence_first_entry,
  block_sequence_entry,
  indentless_sequence_entry,
  block_mapping_first_key,
  block_mapping_key,
  block_mapping_value,
  flow_sequence_first_entry,
  flow_sequence_entry,
  flow_sequence_entry_mapping_key,
  flow_sequence_entry_mapping_value,
  flow_sequence_entry_mapping_end,
  flow_mapping_first_key,
  flow_mapping_key,
  flow_mapping_value,
  flow_mapping_empty_value,
};

// PyYAML's Parser (parser.py): the same state machine; events carry what the
// tree needs from PyYAML (tags, implicit typing, marks) but no scalar text.
class Parser {
 public:
  explicit Parser(Scanner& scanner) : m_s(scanner) {}

  bool check_event(Ev type) {
    ensure();
    return m_current && m_current->type == type;
  }
  Event get_event() {
    ensure();
    Event e = m_current.value_or(Event{});
    m_current.reset();
    return e;
  }

 private:
  void ensure() {
    if (!m_current && m_state != St::none) m_current = run(m_state);
  }
  St pop_state() {
    const St s = m_states.back();
    m_states.pop_back();
    return s;
  }
  static Event event(Ev type, const Mark& start) {
    Event e;
    e.type = type;
    e.start = start;
    return e;
  }
  // process_empty_scalar: an untagged plain '' (null) at `mark`.
  static Event empty_scalar(const Mark& mark) {
    Event e = event(Ev::scalar, mark);
    e.implicit = true;
    return e;
  }
  [[noreturn]] void fail_found(std::string_view expected) {
    const Token& t = m_s.peek();
    fail(t.start, std::string(expected) + util::py_repr(token_id(t.type)));
  }

  Event run(St s) {
    switch (s) {
      case St::none:
        break;
      case St::stream_start: {
        const Token t = m_s.get();
        m_state = St::implicit_document_start;
        return event(Ev::stream_start, t.start);
      }
      case St::implicit_document_start:
        return implicit_document_start();
      case St::document_start:
        return document_start();
      case St::document_end:
        return document_end();
      case St::document_content:
        return document_content();
      case St::block_node:
        return parse_node(true, false);
      case St::block_sequence_first_entry:
        open_collection();
        return block_sequence_entry();
      case St::block_sequence_entry:
        return block_sequence_entry();
      case St::indentless_sequence_entry:
        return indentless_sequence_entry();
      case St::block_mapping_first_key:
        open_collection();
        return block_mapping_key();
      case St::block_mapping_key:
        return block_mapping_key();
      case St::block_mapping_value:
        return block_mapping_value();
      case St::flow_sequence_first_entry:
        open_collection();
        return flow_sequence_entry(true);
      case St::flow_sequence_entry:
        return flow_sequence_entry(false);
      case St::flow_sequence_entry_mapping_key:
        return flow_sequence_entry_mapping_key();
      case St::flow_sequence_entry_mapping_value:
        return flow_sequence_entry_mapping_value();
      case St::flow_sequence_entry_mapping_end:
        m_state = St::flow_sequence_entry;
        return event(Ev::mapping_end, m_s.peek().start);
      case St::flow_mapping_first_key:
        open_collection();
        return flow_mapping_key(true);
      case St::flow_mapping_key:
        return flow_mapping_key(false);
      case St::flow_mapping_value:
        return flow_mapping_value();
      case St::flow_mapping_empty_value:
        m_state = St::flow_mapping_key;
        return empty_scalar(m_s.peek().start);
    }
    return event(Ev::stream_end, {});
  }

  Event implicit_document_start() {
    if (m_s.check({Tok::directive, Tok::document_start, Tok::stream_end})) return document_start();
    m_tag_handles = {{"!", "!"}, {"!!", std::string(k_yaml_tag_prefix)}};
    const Mark start = m_s.peek().start;
    m_states.push_back(St::document_end);
    m_state = St::block_node;
    return event(Ev::document_start, start);
  }
  Event document_start() {
    while (m_s.check({Tok::document_end})) m_s.get();
    if (m_s.check({Tok::stream_end})) {
      const Token t = m_s.get();
      m_state = St::none;
      return event(Ev::stream_end, t.start);
    }
    const Mark start = m_s.peek().start;
    process_directives();
    if (!m_s.check({Tok::document_start})) fail_found("expected '<document start>', but found ");
    m_s.get();
    m_states.push_back(St::document_end);
    m_state = St::document_content;
    return event(Ev::document_start, start);
  }
  Event document_end() {
    const Mark start = m_s.peek().start;
    if (m_s.check({Tok::document_end})) m_s.get();
    m_state = St::document_start;
    return event(Ev::document_end, start);
  }
  Event document_content() {
    if (m_s.check({Tok::directive, Tok::document_start, Tok::document_end, Tok::stream_end})) {
      m_state = pop_state();
      return empty_scalar(m_s.peek().start);
    }
    return parse_node(true, false);
  }
  void process_directives() {
    bool have_version = false;
    m_tag_handles.clear();
    while (m_s.check({Tok::directive})) {
      const Token t = m_s.get();
      if (t.name == "YAML") {
        if (have_version) fail(t.start, "found duplicate YAML directive");
        if (!t.version_one) fail(t.start, "found incompatible YAML document (version 1.* is required)");
        have_version = true;
      } else if (t.name == "TAG") {
        if (m_tag_handles.count(t.suffix) != 0) fail(t.start, "duplicate tag handle " + util::py_repr(t.suffix));
        m_tag_handles[t.suffix] = t.prefix;
      }
    }
    m_tag_handles.emplace("!", "!");
    m_tag_handles.emplace("!!", std::string(k_yaml_tag_prefix));
  }

  Event parse_node(bool block, bool indentless_sequence) {
    if (m_s.check({Tok::alias})) {
      const Token t = m_s.get();
      m_state = pop_state();
      Event e = event(Ev::alias, t.start);
      e.anchor = t.name;
      return e;
    }
    Event e;
    std::optional<Mark> start;
    std::optional<Token> tag;
    if (m_s.check({Tok::anchor})) {
      const Token t = m_s.get();
      start = t.start;
      e.anchor = t.name;
      if (m_s.check({Tok::tag})) tag = m_s.get();
    } else if (m_s.check({Tok::tag})) {
      tag = m_s.get();
      start = tag->start;
      if (m_s.check({Tok::anchor})) e.anchor = m_s.get().name;
    }
    if (tag) e.tag = resolve_tag(*tag);
    e.start = start ? *start : m_s.peek().start;
    return node_content(block, indentless_sequence, e);
  }
  std::string resolve_tag(const Token& tag) const {
    if (!tag.has_handle) return tag.suffix;
    const auto it = m_tag_handles.find(tag.name);
    if (it == m_tag_handles.end()) fail(tag.start, "found undefined tag handle " + util::py_repr(tag.name));
    return it->second + tag.suffix;
  }
  Event node_content(bool block, bool indentless_sequence, Event e) {
    const bool tagged = e.tag.has_value();
    if (indentless_sequence && m_s.check({Tok::block_entry})) {
      m_state = St::indentless_sequence_entry;
      e.type = Ev::sequence_start;
    } else if (m_s.check({Tok::scalar})) {
      const Token t = m_s.get();
      m_state = pop_state();
      e.type = Ev::scalar;
      e.implicit = (t.plain && !tagged) || e.tag == "!";
    } else if (m_s.check({Tok::flow_sequence_start})) {
      m_state = St::flow_sequence_first_entry;
      e.type = Ev::sequence_start;
    } else if (m_s.check({Tok::flow_mapping_start})) {
      m_state = St::flow_mapping_first_key;
      e.type = Ev::mapping_start;
    } else if (block && m_s.check({Tok::block_sequence_start})) {
      m_state = St::block_sequence_first_entry;
      e.type = Ev::sequence_start;
    } else if (block && m_s.check({Tok::block_mapping_start})) {
      m_state = St::block_mapping_first_key;
      e.type = Ev::mapping_start;
    } else if (e.anchor || tagged) {
      m_state = pop_state();
      e.type = Ev::scalar;
      e.implicit = !tagged || e.tag == "!";
    } else {
      fail_found("expected the node content, but found ");
    }
    return e;
  }

  // The *_first_* states: consume the opening token, remember its mark.
  void open_collection() { m_marks.push_back(m_s.get().start); }
  Event close_collection(Ev type) {
    const Token t = m_s.get();
    m_state = pop_state();
    m_marks.pop_back();
    return event(type, t.start);
  }
  Event block_sequence_entry() {
    if (m_s.check({Tok::block_entry})) {
      const Token t = m_s.get();
      if (!m_s.check({Tok::block_entry, Tok::block_end})) {
        m_states.push_back(St::block_sequence_entry);
        return parse_node(true, false);
      }
      m_state = St::block_sequence_entry;
      return empty_scalar(t.start);
    }
    if (!m_s.check({Tok::block_end})) fail_found("expected <block end>, but found ");
    return close_collection(Ev::sequence_end);
  }
  Event indentless_sequence_entry() {
    if (m_s.check({Tok::block_entry})) {
      const Token t = m_s.get();
      if (!m_s.check({Tok::block_entry, Tok::key, Tok::value, Tok::block_end})) {
        m_states.push_back(St::indentless_sequence_entry);
        return parse_node(true, false);
      }
      m_state = St::indentless_sequence_entry;
      return empty_scalar(t.start);
    }
    const Mark start = m_s.peek().start;
    m_state = pop_state();
    return event(Ev::sequence_end, start);
  }
  Event block_mapping_key() {
    if (m_s.check({Tok::key})) {
      const Token t = m_s.get();
      if (!m_s.check({Tok::key, Tok::value, Tok::block_end})) {
        m_states.push_back(St::block_mapping_value);
        return parse_node(true, true);
      }
      m_state = St::block_mapping_value;
      return empty_scalar(t.start);
    }
    if (!m_s.check({Tok::block_end})) fail_found("expected <block end>, but found ");
    return close_collection(Ev::mapping_end);
  }
  Event block_mapping_value() {
    if (m_s.check({Tok::value})) {
      const Token t = m_s.get();
      if (!m_s.check({Tok::key, Tok::value, Tok::block_end})) {
        m_states.push_back(St::block_mapping_key);
        return parse_node(true, true);
      }
      m_state = St::block_mapping_key;
      return empty_scalar(t.start);
    }
    m_state = St::block_mapping_key;
    return empty_scalar(m_s.peek().start);
  }
  Event flow_sequence_entry(bool first) {
    if (!m_s.check({Tok::flow_sequence_end})) {
      if (!first) {
        if (!m_s.check({Tok::flow_entry})) fail_found("expected ',' or ']', but got ");
        m_s.get();
      }
      if (m_s.check({Tok::key})) {
        m_state = St::flow_sequence_entry_mapping_key;
        return event(Ev::mapping_start, m_s.peek().start);
      }
      if (!m_s.check({Tok::flow_sequence_end})) {
        m_states.push_back(St::flow_sequence_entry);
        return parse_node(false, false);
      }
    }
    return close_collection(Ev::sequence_end);
  }
  Event flow_sequence_entry_mapping_key() {
    const Token t = m_s.get();
    if (!m_s.check({Tok::value, Tok::flow_entry, Tok::flow_sequence_end})) {
      m_states.push_back(St::flow_sequence_entry_mapping_value);
      return parse_node(false, false);
    }
    m_state = St::flow_sequence_entry_mapping_value;
    return empty_scalar(t.start);
  }
  Event flow_sequence_entry_mapping_value() {
    if (m_s.check({Tok::value})) {
      const Token t = m_s.get();
      if (!m_s.check({Tok::flow_entry, Tok::flow_sequence_end})) {
        m_states.push_back(St::flow_sequence_entry_mapping_end);
        return parse_node(false, false);
      }
      m_state = St::flow_sequence_entry_mapping_end;
      return empty_scalar(t.start);
    }
    m_state = St::flow_sequence_entry_mapping_end;
    return empty_scalar(m_s.peek().start);
  }
  Event flow_mapping_key(bool first) {
    if (!m_s.check({Tok::flow_mapping_end})) {
      if (!first) {
        if (!m_s.check({Tok::flow_entry})) fail_found("expected ',' or '}', but got ");
        m_s.get();
      }
      if (m_s.check({Tok::key})) {
        const Token t = m_s.get();
        if (!m_s.check({Tok::value, Tok::flow_entry, Tok::flow_mapping_end})) {
          m_states.push_back(St::flow_mapping_value);
          return parse_node(false, false);
        }
        m_state = St::flow_mapping_value;
        return empty_scalar(t.start);
      }
      if (!m_s.check({Tok::flow_mapping_end})) {
        m_states.push_back(St::flow_mapping_empty_value);
        return parse_node(false, false);
      }
    }
    return close_collection(Ev::mapping_end);
  }
  Event flow_mapping_value() {
    if (m_s.check({Tok::value})) {
      const Token t = m_s.get();
      if (!m_s.check({Tok::flow_entry, Tok::flow_mapping_end})) {
        m_states.push_back(St::flow_mapping_key);
        return parse_node(false, false);
      }
      m_state = St::flow_mapping_key;
      return empty_scalar(t.start);
    }
    m_state = St::flow_mapping_key;
    return empty_scalar(m_s.peek().start);
  }

  Scanner& m_s;
  St m_state = St::stream_start;
  std::vector<St> m_states;
  std::vector<Mark> m_marks;
  std::map<std::string, std::string> m_tag_handles;  // handle -> prefix
  std::optional<Event> m_current;
};

// What PyYAML knows about each node of the document, in document order
// (anchors, aliases, tags, implicit typing and start lines).
struct PyNodeInfo {
  Ev type = Ev::scalar;  // scalar, alias, sequence_start or mapping_start
  std::optional<std::string> tag;
  bool implicit = false;
  int line = 0;  // 1-based
};

// PyYAML's Composer.get_single_node: checks anchors, aliases and that the
// stream holds at most one document; returns the document's nodes.
std::vector<PyNodeInfo> compose_single_document(Parser& p) {
  std::vector<PyNodeInfo> nodes;
  p.get_event();  // stream start
  if (!p.check_event(Ev::stream_end)) {
    p.get_event();  // document start
    std::vector<std::string> anchors;
    int depth = 0;
    do {
      const Event e = p.get_event();
      const bool known = e.anchor && std::find(anchors.begin(), anchors.end(), *e.anchor) != anchors.end();
      if (e.type == Ev::alias && !known) fail(e.start, "found undefined alias " + util::py_repr(*e.anchor));
      if (e.type != Ev::alias && known) fail(e.start, "second occurrence");
      if (e.type != Ev::alias && e.anchor) anchors.push_back(*e.anchor);
      if (e.type == Ev::sequence_end || e.type == Ev::mapping_end) {
        --depth;
        continue;
      }
      if (e.type == Ev::sequence_start || e.type == Ev::mapping_start) ++depth;
      nodes.push_back(PyNodeInfo{e.type, e.tag, e.implicit, e.start.line + 1});
    } while (depth > 0);
    p.get_event();  // document end
  }
  if (!p.check_event(Ev::stream_end)) fail(p.get_event().start, "but found another document");
  return nodes;
}

// PyYAML's Reader.check_printable on a str input.
std::optional<YamlError> check_printable(const std::u32string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char32_t c = text[i];
    const bool ok = c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85 ||
                    (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
    if (ok) continue;
    std::array<char, 16> hex{};
    std::snprintf(hex.data(), hex.size(), "#x%04x", static_cast<unsigned>(c));
    return YamlError{0, "unacceptable character " + std::string(hex.data()) +
                            ": special characters are not allowed\n  in \"<unicode string>\", position " +
                            std::to_string(i)};
  }
  return std::nullopt;
}

// Pass 1 entry: PyYAML's verdict on the text, and its view of every node.
struct GrammarView {
  std::vector<PyNodeInfo> nodes;
  std::vector<PropertySpan> properties;
};

std::optional<YamlError> check_grammar(std::string_view text, GrammarView& view) {
  std::u32string buf = decode_utf8(text);
  if (auto e = check_printable(buf)) return e;
  try {
    Scanner scanner(std::move(buf));
    Parser parser(scanner);
    view.nodes = compose_single_document(parser);
    view.properties = scanner.properties();
  } catch (const GrammarError& e) {
    return YamlError{e.mark.line + 1, e.problem};
  } catch (const UnmarkedError& e) {
    return YamlError{0, e.text};
  }
  return std::nullopt;
}

// ===========================================================================
// Pass 2: yaml-cpp's event API builds the tree.
// ===========================================================================

// Builds the tree from yaml-cpp's events. yaml-cpp supplies the structure and
// the scalar text; PyYAML's own view of each node (pass 1, same document
// order) supplies its tag, implicit typing and line. Where the two parsers
// disagree on the structure, the tree is not trusted.
class TreeBuilder final : public YAML::EventHandler {
 public:
  TreeBuilder(YamlDoc& doc, const std::vector<PyNodeInfo>& infos) : m_doc(doc), m_infos(infos) {}

  void OnDocumentStart(const YAML::Mark& /*mark*/) override { ++m_documents; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (YamlNode* n = add(YamlKind::null, Ev::scalar, mark, anchor)) attach(*n);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (m_documents > 1) return;
    const PyNodeInfo* info = next_info(Ev::alias, mark);
    const auto it = m_anchors.find(anchor);
    if (info && it != m_anchors.end()) attach(*it->second);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t anchor,
                const std::string& value) override {
    if (YamlNode* n = add(YamlKind::scalar, Ev::scalar, mark, anchor)) {
      n->text = value;
      attach(*n);
    }
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value /*style*/) override {
    open(YamlKind::sequence, Ev::sequence_start, mark, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value /*style*/) override {
    open(YamlKind::mapping, Ev::mapping_start, mark, anchor);
  }
  void OnMapEnd() override { close(); }

  // Set when yaml-cpp's document differs from PyYAML's: the line where it does.
  std::optional<int> divergence() const {
    if (!m_divergence && m_next != m_infos.size()) {
      return m_infos.empty() ? 1 : m_infos[std::min(m_next, m_infos.size() - 1)].line;
    }
    return m_divergence;
  }

 private:
  struct Frame {
    YamlNode* node = nullptr;
    const YamlNode* pending_key = nullptr;
  };

  const PyNodeInfo* next_info(Ev type, const YAML::Mark& mark) {
    if (m_divergence) return nullptr;
    if (m_next >= m_infos.size() || m_infos[m_next].type != type) {
      m_divergence = m_next < m_infos.size() ? m_infos[m_next].line : mark.line + 1;
      return nullptr;
    }
    return &m_infos[m_next++];
  }
  YamlNode* add(YamlKind kind, Ev type, const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (m_documents > 1) return nullptr;
    const PyNodeInfo* info = next_info(type, mark);
    if (!info) return nullptr;
    YamlNode& n = m_doc.add_node();
    n.kind = kind;
    n.line = info->line;
    if (info->tag && *info->tag != "!") n.tag = *info->tag;
    n.plain = type == Ev::scalar && info->implicit;
    n.quoted = type == Ev::scalar && !info->implicit && !info->tag;
    if (anchor != YAML::NullAnchor) m_anchors[anchor] = &n;
    return &n;
  }
  void open(YamlKind kind, Ev type, const YAML::Mark& mark, YAML::anchor_t anchor) {
    YamlNode* n = add(kind, type, mark, anchor);
    if (!n) return;
    attach(*n);
    m_stack.push_back(Frame{n, nullptr});
  }
  void close() {
    if (m_documents > 1 || m_divergence || m_stack.empty()) return;
    if (m_stack.back().pending_key) m_divergence = m_stack.back().pending_key->line;  // a key without a value
    m_stack.pop_back();
  }
  void attach(YamlNode& n) {
    if (m_stack.empty()) {
      if (!m_doc.root()) m_doc.set_root(&n);
      return;
    }
    Frame& top = m_stack.back();
    if (top.node->kind == YamlKind::sequence) {
      top.node->items.push_back(&n);
    } else if (!top.pending_key) {
      top.pending_key = &n;
    } else {
      top.node->entries.push_back(YamlEntry{top.pending_key, &n, false});
      top.pending_key = nullptr;
    }
  }

  YamlDoc& m_doc;
  const std::vector<PyNodeInfo>& m_infos;
  std::size_t m_next = 0;
  std::optional<int> m_divergence;
  int m_documents = 0;
  std::vector<Frame> m_stack;
  std::unordered_map<YAML::anchor_t, YamlNode*> m_anchors;
};

// ===========================================================================
// Pass 3 helpers: Python values of YAML 1.1 scalars.
// ===========================================================================

// A construct-time error: marked (ConstructorError) or not (a ValueError
// PyYAML lets escape: a bad date, `!!int x`).
struct ConstructError {
  int line = 0;
  std::string text;
};

[[noreturn]] void construct_fail(int line, std::string text) { throw ConstructError{line, std::move(text)}; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool all_of(std::string_view s, std::string_view set) {
  return std::all_of(s.begin(), s.end(), [&](char c) { return set.find(c) != std::string_view::npos; });
}
constexpr std::string_view k_dec_ = "0123456789_";

// Python's `re.match(...$)`: `$` also matches before one final "\n".
std::string_view dollar_body(std::string_view s) {
  return !s.empty() && s.back() == '\n' ? s.substr(0, s.size() - 1) : s;
}

std::string_view strip_sign(std::string_view s) { return !s.empty() && (s[0] == '-' || s[0] == '+') ? s.substr(1) : s; }

// `(?::[0-5]?[0-9])+` over `s` (which starts at the first ':').
bool sexagesimal_groups(std::string_view s) {
  if (s.empty()) return false;
  while (!s.empty()) {
    if (s[0] != ':') return false;
    s.remove_prefix(1);
    const std::size_t n = std::min(s.find(':'), s.size());
    const std::string_view g = s.substr(0, n);
    const bool ok =
        (g.size() == 1 && is_digit(g[0])) || (g.size() == 2 && g[0] >= '0' && g[0] <= '5' && is_digit(g[1]));
    if (!ok) return false;
    s.remove_prefix(n);
  }
  return true;
}

bool match_int(std::string_view s) {
  const std::string_view r = strip_sign(s);
  if (r.empty()) return false;
  if (util::starts_with(r, "0b")) return r.size() > 2 && all_of(r.substr(2), "01_");
  if (util::starts_with(r, "0x")) return r.size() > 2 && all_of(r.substr(2), "0123456789abcdefABCDEF_");
  if (r[0] == '0') return r.size() == 1 || all_of(r.substr(1), "01234567_");
  if (r[0] < '1' || r[0] > '9') return false;
  const std::size_t colon = std::min(r.find(':'), r.size());
  if (!all_of(r.substr(1, colon - 1), k_dec_)) return false;
  return colon == r.size() || sexagesimal_groups(r.substr(colon));
}

bool match_exponent(std::string_view s) {  // `(?:[eE][-+][0-9]+)?`
  if (s.empty()) return true;
  return s.size() >= 3 && (s[0] == 'e' || s[0] == 'E') && (s[1] == '-' || s[1] == '+') &&
         all_of(s.substr(2), "0123456789");
}

bool match_float(std::string_view s) {
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return true;
  if (!s.empty() && s[0] == '.' && s.size() > 1 && is_digit(s[1])) {  // \.[0-9][0-9_]*(exp)?
    const std::size_t e = std::min(s.find_first_not_of(k_dec_, 1), s.size());
    return match_exponent(s.substr(e));
  }
  const std::string_view r = strip_sign(s);
  if (r == ".inf" || r == ".Inf" || r == ".INF") return true;
  if (r.empty() || !is_digit(r[0])) return false;
  const std::size_t end = std::min(r.find_first_not_of(k_dec_, 1), r.size());
  if (end < r.size() && r[end] == '.') {  // [0-9][0-9_]*\.[0-9_]*(exp)?
    const std::size_t e = std::min(r.find_first_not_of(k_dec_, end + 1), r.size());
    return match_exponent(r.substr(e));
  }
  if (end < r.size() && r[end] == ':') {  // [0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*
    const std::size_t dot = r.find('.', end);
    return dot != std::string_view::npos && sexagesimal_groups(r.substr(end, dot - end)) &&
           all_of(r.substr(dot + 1), k_dec_);
  }
  return false;
}

// Consumes 1..max ASCII digits at `pos`; returns how many.
std::size_t digits_at(std::string_view s, std::size_t pos, std::size_t max) {
  std::size_t n = 0;
  while (pos + n < s.size() && n < max && is_digit(s[pos + n])) ++n;
  return n;
}

struct Timestamp {
  int year = 0, month = 0, day = 0;
  bool has_time = false;
  int hour = 0, minute = 0, second = 0, microsecond = 0;
  bool has_tz = false;
  int tz_minutes = 0;  // offset east of UTC
};

int to_int(std::string_view s) {
  int v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}

// The time part of PyYAML's timestamp_regexp, from `pos` (just after the date).
bool parse_time(std::string_view s, std::size_t pos, Timestamp& t) {
  if (pos < s.size() && (s[pos] == 'T' || s[pos] == 't')) {
    ++pos;
  } else {
    const std::size_t ws = std::min(s.find_first_not_of(" \t", pos), s.size());
    if (ws == pos) return false;
    pos = ws;
  }
  const std::size_t h = digits_at(s, pos, 2);
  if (h == 0 || pos + h + 6 > s.size() || s[pos + h] != ':' || s[pos + h + 3] != ':' ||
      digits_at(s, pos + h + 1, 2) != 2 || digits_at(s, pos + h + 4, 2) != 2) {
    return false;
  }
  t.has_time = true;
  t.hour = to_int(s.substr(pos, h));
  t.minute = to_int(s.substr(pos + h + 1, 2));
  t.second = to_int(s.substr(pos + h + 4, 2));
  pos += h + 6;
  if (pos < s.size() && s[pos] == '.') {
    const std::size_t f = digits_at(s, pos + 1, s.size());
    std::string frac(s.substr(pos + 1, std::min<std::size_t>(f, 6)));
    if (!frac.empty()) t.microsecond = to_int(frac.append(6 - frac.size(), '0'));
    pos += 1 + f;
  }
  if (pos == s.size()) return true;
  pos = std::min(s.find_first_not_of(" \t", pos), s.size());  // `[ \t]*` before a zone
  if (pos == s.size()) return false;
  if (s[pos] == 'Z') {
    t.has_tz = true;
    return pos + 1 == s.size();
  }
  if (s[pos] != '+' && s[pos] != '-') return false;
  const int sign = s[pos] == '-' ? -1 : 1;
  const std::size_t th = digits_at(s, pos + 1, 2);
  if (th == 0) return false;
  int minutes = to_int(s.substr(pos + 1, th)) * 60;
  pos += 1 + th;
  if (pos < s.size() && s[pos] == ':' && digits_at(s, pos + 1, 2) == 2) {
    minutes += to_int(s.substr(pos + 1, 2));
    pos += 3;
  }
  t.has_tz = true;
  t.tz_minutes = sign * minutes;
  return pos == s.size();
}

// PyYAML's timestamp_regexp (the constructor's, looser than the resolver's).
std::optional<Timestamp> parse_timestamp(std::string_view text) {
  const std::string_view s = dollar_body(text);
  Timestamp t;
  if (digits_at(s, 0, 4) != 4 || s.size() < 8 || s[4] != '-') return std::nullopt;
  const std::size_t m = digits_at(s, 5, 2);
  if (m == 0 || 5 + m >= s.size() || s[5 + m] != '-') return std::nullopt;
  const std::size_t d = digits_at(s, 6 + m, 2);
  if (d == 0) return std::nullopt;
  t.year = to_int(s.substr(0, 4));
  t.month = to_int(s.substr(5, m));
  t.day = to_int(s.substr(6 + m, d));
  const std::size_t pos = 6 + m + d;
  if (pos == s.size()) return t;
  if (!parse_time(s, pos, t)) return std::nullopt;
  return t;
}

// The resolver's stricter timestamp regex.
bool match_timestamp(std::string_view s) {
  const auto t = parse_timestamp(s);
  if (!t) return false;
  if (!t->has_time) return s.size() == 10;
  return true;
}

bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
int days_in_month(int y, int m) {
  static constexpr std::array<int, 12> k_days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : k_days[static_cast<std::size_t>(m - 1)];
}

// Python's repr(datetime.timedelta(minutes=m)).
std::string timedelta_repr(long long minutes) {
  long long seconds = minutes * 60;
  long long days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
  seconds -= days * 86400;
  std::string out = "datetime.timedelta(";
  if (days == 0 && seconds == 0) return out + "0)";
  if (days != 0) out += "days=" + std::to_string(days);
  if (seconds != 0) out += std::string(days != 0 ? ", " : "") + "seconds=" + std::to_string(seconds);
  return out + ")";
}

// The ValueError datetime.date/datetime/timezone raise, in Python's order.
void check_timestamp(const Timestamp& t) {
  if (t.has_tz && (t.tz_minutes <= -24 * 60 || t.tz_minutes >= 24 * 60)) {
    throw ConstructError{0,
                         "offset must be a timedelta strictly between -timedelta(hours=24) and "
                         "timedelta(hours=24), not " +
                             timedelta_repr(t.tz_minutes) + "."};
  }
  if (t.year < 1) throw ConstructError{0, "year " + std::to_string(t.year) + " is out of range"};
  if (t.month < 1 || t.month > 12) throw ConstructError{0, "month must be in 1..12"};
  if (t.day < 1 || t.day > days_in_month(t.year, t.month)) throw ConstructError{0, "day is out of range for month"};
  if (!t.has_time) return;
  if (t.hour > 23) throw ConstructError{0, "hour must be in 0..23"};
  if (t.minute > 59) throw ConstructError{0, "minute must be in 0..59"};
  if (t.second > 59) throw ConstructError{0, "second must be in 0..59"};
}

std::string two(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }
std::string date_iso(const Timestamp& t) {
  std::string y = std::to_string(t.year);
  return std::string(4 - std::min<std::size_t>(4, y.size()), '0') + y + "-" + two(t.month) + "-" + two(t.day);
}
std::string offset_text(int minutes) {
  const int a = std::abs(minutes);
  return std::string(minutes < 0 ? "-" : "+") + two(a / 60) + ":" + two(a % 60);
}
std::string timestamp_str(const Timestamp& t) {
  if (!t.has_time) return date_iso(t);
  std::string out = date_iso(t) + " " + two(t.hour) + ":" + two(t.minute) + ":" + two(t.second);
  if (t.microsecond != 0) {
    std::string us = std::to_string(t.microsecond);
    out += "." + std::string(6 - us.size(), '0') + us;
  }
  if (t.has_tz) out += offset_text(t.tz_minutes);
  return out;
}
std::string timestamp_repr(const Timestamp& t) {
  const std::string ymd = std::to_string(t.year) + ", " + std::to_string(t.month) + ", " + std::to_string(t.day);
  if (!t.has_time) return "datetime.date(" + ymd + ")";
  std::string out = "datetime.datetime(" + ymd + ", " + std::to_string(t.hour) + ", " + std::to_string(t.minute);
  if (t.second != 0 || t.microsecond != 0) out += ", " + std::to_string(t.second);
  if (t.microsecond != 0) out += ", " + std::to_string(t.microsecond);
  if (t.has_tz) {
    out += t.tz_minutes == 0 ? ", tzinfo=datetime.timezone.utc"
                             : ", tzinfo=datetime.timezone(" + timedelta_repr(t.tz_minutes) + ")";
  }
  return out + ")";
}
long long days_from_civil(int y, int m, int d) {
  y -= m <= 2 ? 1 : 0;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const long long yoe = y - era * 400;
  const long long doy = (153LL * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}
// Dict-key class: dates and naive datetimes by value, aware ones by instant.
std::string timestamp_key(const Timestamp& t) {
  if (!t.has_time) return "D" + date_iso(t);
  if (!t.has_tz) return "T" + timestamp_str(t);
  const long long minutes = days_from_civil(t.year, t.month, t.day) * 1440 + t.hour * 60 + t.minute - t.tz_minutes;
  return "Z" + std::to_string(minutes) + ":" + std::to_string(t.second) + "." + std::to_string(t.microsecond);
}

// --- integers of any size, as decimal strings ---
void mul_add(std::string& digits, unsigned mul, unsigned add) {
  unsigned carry = add;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const unsigned v = static_cast<unsigned>(*it - '0') * mul + carry;
    *it = static_cast<char>('0' + v % 10);
    carry = v / 10;
  }
  while (carry > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + carry % 10));
    carry /= 10;
  }
  const std::size_t nz = digits.find_first_not_of('0');
  digits = nz == std::string::npos ? "0" : digits.substr(nz);
}
std::string add_decimal(const std::string& a, const std::string& b) {
  std::string out;
  int carry = 0;
  for (std::size_t i = 0; i < std::max(a.size(), b.size()) || carry; ++i) {
    const int da = i < a.size() ? a[a.size() - 1 - i] - '0' : 0;
    const int db = i < b.size() ? b[b.size() - 1 - i] - '0' : 0;
    const int v = da + db + carry;
    out.push_back(static_cast<char>('0' + v % 10));
    carry = v / 10;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

struct PyInt {
  bool negative = false;
  std::string digits = "0";
};
std::string int_text(const PyInt& v) { return (v.negative && v.digits != "0" ? "-" : "") + v.digits; }

// Python's int(text, base); throws the ValueError text.
PyInt python_int(std::string_view text, unsigned base) {
  const std::string bad = "invalid literal for int() with base " + std::to_string(base) + ": " + util::py_repr(text);
  std::string_view s = util::strip(text);
  PyInt v;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    v.negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.size() >= 2 && s[0] == '0') {
    const char p = static_cast<char>(s[1] | 0x20);
    if ((p == 'x' && base == 16) || (p == 'o' && base == 8) || (p == 'b' && base == 2)) s.remove_prefix(2);
  }
  if (s.empty()) throw ConstructError{0, bad};
  for (char c : s) {
    const int d = digit_value(c);
    if (d >= static_cast<int>(base)) throw ConstructError{0, bad};
    mul_add(v.digits, base, static_cast<unsigned>(d));
  }
  return v;
}

// SafeConstructor.construct_yaml_int.
PyInt construct_int(const std::string& text) {
  std::string value = text;
  value.erase(std::remove(value.begin(), value.end(), '_'), value.end());
  if (value.empty()) throw ConstructError{0, "string index out of range"};
  const bool negative = value[0] == '-';
  if (value[0] == '-' || value[0] == '+') value.erase(0, 1);
  PyInt v;
  if (value == "0") return v;
  if (util::starts_with(value, "0b")) {
    v = python_int(std::string_view(value).substr(2), 2);
  } else if (util::starts_with(value, "0x")) {
    v = python_int(std::string_view(value).substr(2), 16);
  } else if (!value.empty() && value[0] == '0') {
    v = python_int(value, 8);
  } else if (value.find(':') != std::string::npos) {
    std::string_view rest = value;
    std::string total = "0";
    for (;;) {
      const std::size_t colon = std::min(rest.find(':'), rest.size());
      const PyInt part = python_int(rest.substr(0, colon), 10);
      mul_add(total, 60, 0);
      total = add_decimal(total, part.digits);  // parts are unsigned here
      if (colon == rest.size()) break;
      rest.remove_prefix(colon + 1);
    }
    v.digits = total;
  } else {
    v = python_int(value, 10);
  }
  if (negative) v.negative = !v.negative;
  return v;
}

// Python's float(text); throws the ValueError text.
double python_float(std::string_view text) {
  const std::string bad = "could not convert string to float: " + util::py_repr(text);
  std::string_view s = util::strip(text);
  double sign = 1.0;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    sign = s[0] == '-' ? -1.0 : 1.0;
    s.remove_prefix(1);
  }
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return static_cast<char>(c | (c >= 'A' && c <= 'Z' ? 0x20 : 0)); });
  if (lower == "inf" || lower == "infinity") return sign * HUGE_VAL;
  if (lower == "nan") return std::nan("");
  const std::size_t int_end = std::min(s.find_first_not_of("0123456789"), s.size());
  std::size_t pos = int_end;
  std::size_t frac = 0;
  if (pos < s.size() && s[pos] == '.') {
    frac = std::min(s.find_first_not_of("0123456789", pos + 1), s.size()) - pos - 1;
    pos += 1 + frac;
  }
  if (int_end + frac == 0) throw ConstructError{0, bad};
  if (pos < s.size() && (s[pos] == 'e' || s[pos] == 'E')) {
    std::size_t e = pos + 1;
    if (e < s.size() && (s[e] == '+' || s[e] == '-')) ++e;
    const std::size_t ed = std::min(s.find_first_not_of("0123456789", e), s.size());
    if (ed == e) throw ConstructError{0, bad};
    pos = ed;
  }
  if (pos != s.size()) throw ConstructError{0, bad};
  double v = 0.0;
  const auto res = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
  if (res.ec == std::errc::result_out_of_range) v = HUGE_VAL;  // Python rounds overflow to inf, underflow to 0
  if (res.ec == std::errc::result_out_of_range && s.find_first_of("eE") != std::string_view::npos &&
      s[s.find_first_of("eE") + 1] == '-') {
    v = 0.0;
  }
  return sign * v;
}

// SafeConstructor.construct_yaml_float.
double construct_float(const std::string& text) {
  std::string value = text;
  value.erase(std::remove(value.begin(), value.end(), '_'), value.end());
  std::transform(value.begin(), value.end(), value.begin(),
                 [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c | 0x20 : c); });
  if (value.empty()) throw ConstructError{0, "string index out of range"};
  const double sign = value[0] == '-' ? -1.0 : 1.0;
  if (value[0] == '-' || value[0] == '+') value.erase(0, 1);
  if (value == ".inf") return sign * HUGE_VAL;
  if (value == ".nan") return std::nan("");
  if (value.find(':') == std::string::npos) return sign * python_float(value);
  std::vector<double> parts;
  std::string_view rest = value;
  for (;;) {
    const std::size_t colon = std::min(rest.find(':'), rest.size());
    parts.push_back(python_float(rest.substr(0, colon)));
    if (colon == rest.size()) break;
    rest.remove_prefix(colon + 1);
  }
  double total = 0.0;
  double base = 1.0;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    total += *it * base;
    base *= 60;
  }
  return sign * total;
}

// Python's repr(float).
std::string float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  if (v == 0.0) return std::signbit(v) ? "-0.0" : "0.0";
  std::array<char, 64> buf{};
  const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::scientific);
  const std::string sci(buf.data(), res.ptr);  // "-d.ddde+XX"
  const bool negative = sci[0] == '-';
  const std::size_t e = sci.find('e');
  std::string digits = sci.substr(negative ? 1 : 0, e - (negative ? 1 : 0));
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int decpt = std::stoi(sci.substr(e + 1)) + 1;
  const int n = static_cast<int>(digits.size());
  std::string out;
  if (decpt <= -4 || decpt > 16) {
    out = digits.substr(0, 1) + (n > 1 ? "." + digits.substr(1) : "");
    const int exp = decpt - 1;
    out += std::string("e") + (exp < 0 ? "-" : "+") + (std::abs(exp) < 10 ? "0" : "") + std::to_string(std::abs(exp));
  } else if (decpt <= 0) {
    out = "0." + std::string(static_cast<std::size_t>(-decpt), '0') + digits;
  } else if (decpt >= n) {
    out = digits + std::string(static_cast<std::size_t>(decpt - n), '0') + ".0";
  } else {
    out = digits.substr(0, static_cast<std::size_t>(decpt)) + "." + digits.substr(static_cast<std::size_t>(decpt));
  }
  return (negative ? "-" : "") + out;
}

// Dict-key class of a float: integral floats equal the int of the same value.
std::string float_key(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v) || v != std::floor(v)) return "F" + float_repr(v);
  std::array<char, 400> buf{};
  const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), std::fabs(v), std::chars_format::fixed, 0);
  const std::string digits(buf.data(), res.ptr);
  return "I" + std::string(v < 0 && digits != "0" ? "-" : "") + digits;
}

// Python's repr(bytes).
std::string bytes_repr(std::string_view b) {
  const bool single = b.find('\'') != std::string_view::npos;
  const bool dbl = b.find('"') != std::string_view::npos;
  const char quote = single && !dbl ? '"' : '\'';
  std::string out = "b";
  out += quote;
  for (const char ch : b) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == static_cast<unsigned char>(quote) || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c >= 0x7F) {
      std::array<char, 8> hex{};
      std::snprintf(hex.data(), hex.size(), "\\x%02x", c);
      out += hex.data();
    } else {
      out += ch;
    }
  }
  return out + quote;
}

// base64.decodebytes: CPython's binascii.a2b_base64 in non-strict mode.
// Throws the binascii.Error text.
std::string decode_base64(std::string_view s) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  int quad = 0;
  int pads = 0;
  unsigned left = 0;
  for (const char c : s) {
    if (c == '=') {
      if (quad >= 2 && quad + ++pads >= 4) return out;
      continue;
    }
    const int v = value(c);
    if (v < 0) continue;
    const auto bits = static_cast<unsigned>(v);
    pads = 0;
    switch (quad) {
      case 0:
        left = bits;
        break;
      case 1:
        out += static_cast<char>(((left << 2) | (bits >> 4)) & 0xFF);
        left = bits & 0x0F;
        break;
      case 2:
        out += static_cast<char>(((left << 4) | (bits >> 2)) & 0xFF);
        left = bits & 0x03;
        break;
      default:
        out += static_cast<char>(((left << 6) | bits) & 0xFF);
        left = 0;
        break;
    }
    quad = (quad + 1) % 4;
  }
  if (quad == 1) {
    throw std::string("Invalid base64-encoded string: number of data characters (" +
                      std::to_string(out.size() / 3 * 4 + 1) + ") cannot be 1 more than a multiple of 4");
  }
  if (quad != 0) throw std::string("Incorrect padding");
  return out;
}

// ===========================================================================
// Pass 3: SafeConstructor.
// ===========================================================================

std::string tag_of(std::string_view name) { return std::string(k_yaml_tag_prefix) + std::string(name); }

// BaseResolver.resolve for a plain scalar.
std::string resolve_plain(std::string_view value) {
  if (value.empty()) return tag_of("null");
  const std::string_view v = dollar_body(value);
  const char c = value[0];
  static constexpr std::array<std::string_view, 18> k_bools = {"yes",  "Yes",  "YES",  "no",    "No",    "NO",
                                                               "true", "True", "TRUE", "false", "False", "FALSE",
                                                               "on",   "On",   "ON",   "off",   "Off",   "OFF"};
  if (std::string_view("yYnNtTfFoO").find(c) != std::string_view::npos &&
      std::find(k_bools.begin(), k_bools.end(), v) != k_bools.end()) {
    return tag_of("bool");
  }
  if (std::string_view("-+0123456789.").find(c) != std::string_view::npos && match_float(v)) return tag_of("float");
  if (std::string_view("-+0123456789").find(c) != std::string_view::npos && match_int(v)) return tag_of("int");
  if (c == '<' && v == "<<") return tag_of("merge");
  if ((c == '~' || c == 'n' || c == 'N') && (v == "~" || v == "null" || v == "Null" || v == "NULL")) {
    return tag_of("null");
  }
  if (is_digit(c) && match_timestamp(v)) return tag_of("timestamp");
  if (c == '=' && v == "=") return tag_of("value");
  return tag_of("str");
}

std::string_view node_id(const YamlNode& n) {
  switch (n.kind) {
    case YamlKind::sequence:
      return "sequence";
    case YamlKind::mapping:
      return "mapping";
    default:
      return "scalar";
  }
}

bool is_scalar_node(const YamlNode& n) { return n.kind == YamlKind::null || n.kind == YamlKind::scalar; }

bool hashable(PyType t) { return t != PyType::list && t != PyType::dict && t != PyType::set; }

class Constructor {
 public:
  explicit Constructor(YamlDoc& doc) : m_doc(doc) {}

  // Constructs the document as SafeConstructor.construct_document: the root,
  // then collections breadth first (its state generators). Throws ConstructError.
  void run(const YamlNode& root) {
    construct_object(root);
    while (!m_queue.empty()) {
      const YamlNode* n = m_queue.front();
      m_queue.pop_front();
      fill_collection(*n);
    }
  }

 private:
  std::string effective_tag(const YamlNode& n) const {
    if (!n.tag.empty()) return n.tag;
    switch (n.kind) {
      case YamlKind::null:
        return tag_of("null");
      case YamlKind::sequence:
        return tag_of("seq");
      case YamlKind::mapping:
        return tag_of("map");
      case YamlKind::scalar:
        break;
    }
    return n.quoted ? tag_of("str") : resolve_plain(n.text);
  }

  void construct_object(const YamlNode& node) {
    if (node.id < m_seen.size() && m_seen[node.id]) return;
    if (node.id >= m_seen.size()) m_seen.resize(node.id + 1);
    m_seen[node.id] = true;
    YamlNode& n = m_doc.mutable_node(node);
    const std::string tag = effective_tag(n);
    if (!util::starts_with(tag, k_yaml_tag_prefix)) unknown_tag(n, tag);
    const std::string_view name = std::string_view(tag).substr(k_yaml_tag_prefix.size());
    if (name == "seq" || name == "omap" || name == "pairs") {
      n.type = PyType::list;
      n.tuples = name != "seq";
    } else if (name == "map" || name == "set") {
      n.type = name == "map" ? PyType::dict : PyType::set;
    } else {
      construct_scalar(n, name, tag);
      return;
    }
    m_queue.push_back(&n);
  }

  [[noreturn]] static void unknown_tag(const YamlNode& n, const std::string& tag) {
    construct_fail(n.line, "could not determine a constructor for the tag " + util::py_repr(tag));
  }

  void construct_scalar(YamlNode& n, std::string_view name, const std::string& tag) {
    static constexpr std::array<std::string_view, 7> k_scalar_tags = {"null",   "bool",      "int", "float",
                                                                      "binary", "timestamp", "str"};
    if (std::find(k_scalar_tags.begin(), k_scalar_tags.end(), name) == k_scalar_tags.end()) unknown_tag(n, tag);
    if (!is_scalar_node(n)) construct_fail(n.line, "expected a scalar node, but found " + std::string(node_id(n)));
    set_scalar(n, name);
  }

  static void set_value(YamlNode& n, PyType type, std::string str, std::string repr, std::string key) {
    n.type = type;
    n.scalar_str = std::move(str);
    n.scalar_repr = std::move(repr);
    n.dict_key = std::move(key);
  }

  static void set_scalar(YamlNode& n, std::string_view name) {
    if (name == "null") return set_value(n, PyType::none, "None", "None", "N");
    if (name == "str") return set_value(n, PyType::str, n.text, util::py_repr(n.text), "S" + n.text);
    if (name == "bool") return set_bool(n);
    if (name == "int") {
      const std::string v = int_text(construct_int(n.text));
      return set_value(n, PyType::int_, v, v, "I" + v);
    }
    if (name == "float") {
      const double v = construct_float(n.text);
      const bool singleton_nan = std::isnan(v);  // PyYAML's nan_value is one object
      return set_value(n, PyType::float_, float_repr(v), float_repr(v),
                       singleton_nan && !is_dot_nan(n.text) ? "NaN#" + std::to_string(n.id) : float_key(v));
    }
    if (name == "timestamp") return set_timestamp(n);
    set_binary(n);
  }
  static bool is_dot_nan(const std::string& text) {
    std::string v;
    for (char c : text) {
      if (c != '_') v += static_cast<char>(c >= 'A' && c <= 'Z' ? c | 0x20 : c);
    }
    return v == ".nan" || v == "+.nan" || v == "-.nan";
  }
  static void set_bool(YamlNode& n) {
    std::string lower = n.text;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c | 0x20 : c); });
    bool v = false;
    if (lower == "yes" || lower == "true" || lower == "on") {
      v = true;
    } else if (lower != "no" && lower != "false" && lower != "off") {
      throw ConstructError{0, util::py_repr(lower)};  // KeyError
    }
    set_value(n, PyType::bool_, v ? "True" : "False", v ? "True" : "False", v ? "I1" : "I0");
  }
  static void set_timestamp(YamlNode& n) {
    const auto t = parse_timestamp(n.text);
    if (!t) throw ConstructError{0, "'NoneType' object has no attribute 'groupdict'"};
    check_timestamp(*t);
    set_value(n, t->has_time ? PyType::datetime : PyType::date, timestamp_str(*t), timestamp_repr(*t),
              timestamp_key(*t));
  }
  static void set_binary(YamlNode& n) {
    std::size_t index = 0;
    for (std::size_t pos = 0; pos < n.text.size(); ++index) {
      const char32_t c = util::next_code_point(n.text, pos);
      if (c >= 0x80) {
        throw ConstructError{n.line, "failed to convert base64 data into ascii: 'ascii' codec can't encode character " +
                                         char_repr(c) + " in position " + std::to_string(index) +
                                         ": ordinal not in range(128)"};
      }
    }
    try {
      const std::string bytes = decode_base64(n.text);
      set_value(n, PyType::bytes, bytes_repr(bytes), bytes_repr(bytes), "B" + bytes);
    } catch (const std::string& e) {
      throw ConstructError{n.line, "failed to decode base64 data: " + e};
    }
  }

  void fill_collection(const YamlNode& node) {
    YamlNode& n = m_doc.mutable_node(node);
    const std::string tag = effective_tag(n);
    if (tag == tag_of("seq")) {
      if (n.kind != YamlKind::sequence) {
        construct_fail(n.line, "expected a sequence node, but found " + std::string(node_id(n)));
      }
      for (const YamlNode* item : n.items) construct_object(*item);
    } else if (tag == tag_of("map") || tag == tag_of("set")) {
      construct_mapping(n);
    } else {
      construct_pairs(n);
    }
  }

  void construct_pairs(const YamlNode& n) {
    if (n.kind != YamlKind::sequence) {
      construct_fail(n.line, "expected a sequence, but found " + std::string(node_id(n)));
    }
    for (const YamlNode* sub : n.items) {
      if (sub->kind != YamlKind::mapping) {
        construct_fail(sub->line, "expected a mapping of length 1, but found " + std::string(node_id(*sub)));
      }
      if (sub->entries.size() != 1) {
        construct_fail(sub->line,
                       "expected a single mapping item, but found " + std::to_string(sub->entries.size()) + " items");
      }
      construct_object(*sub->entries[0].key);
      construct_object(*sub->entries[0].value);
    }
  }

  void construct_mapping(YamlNode& n) {
    if (n.kind == YamlKind::mapping) flatten_mapping(n, 0);
    if (n.kind != YamlKind::mapping) {
      construct_fail(n.line, "expected a mapping node, but found " + std::string(node_id(n)));
    }
    for (const YamlEntry& e : n.entries) {
      construct_object(*e.key);
      if (!hashable(e.key->type)) construct_fail(e.key->line, "found unhashable key");
      construct_object(*e.value);
    }
  }

  // SafeConstructor.flatten_mapping: `<<` merge keys, `=` value keys.
  void flatten_mapping(YamlNode& n, int depth) {
    if (depth > 400) throw ConstructError{0, "maximum recursion depth exceeded"};
    std::vector<YamlEntry> merge;
    for (std::size_t i = 0; i < n.entries.size();) {
      const YamlEntry e = n.entries[i];
      const std::string key_tag = effective_tag(*e.key);
      if (key_tag == tag_of("merge")) {
        n.entries.erase(n.entries.begin() + static_cast<std::ptrdiff_t>(i));
        merge_value(*e.value, merge, depth);
        continue;
      }
      if (key_tag == tag_of("value")) m_doc.mutable_node(*e.key).tag = tag_of("str");
      ++i;
    }
    if (merge.empty()) return;
    for (YamlEntry& e : merge) e.merged = true;
    n.entries.insert(n.entries.begin(), merge.begin(), merge.end());
  }
  void merge_value(const YamlNode& value, std::vector<YamlEntry>& merge, int depth) {
    if (value.kind == YamlKind::mapping) {
      YamlNode& v = m_doc.mutable_node(value);
      flatten_mapping(v, depth + 1);
      merge.insert(merge.end(), v.entries.begin(), v.entries.end());
      return;
    }
    if (value.kind != YamlKind::sequence) {
      construct_fail(value.line,
                     "expected a mapping or list of mappings for merging, but found " + std::string(node_id(value)));
    }
    std::vector<const std::vector<YamlEntry>*> submerge;
    for (const YamlNode* sub : value.items) {
      if (sub->kind != YamlKind::mapping) {
        construct_fail(sub->line, "expected a mapping for merging, but found " + std::string(node_id(*sub)));
      }
      YamlNode& s = m_doc.mutable_node(*sub);
      flatten_mapping(s, depth + 1);
      submerge.push_back(&s.entries);
    }
    for (auto it = submerge.rbegin(); it != submerge.rend(); ++it)
      merge.insert(merge.end(), (*it)->begin(), (*it)->end());
  }

  YamlDoc& m_doc;
  std::vector<bool> m_seen;
  std::deque<const YamlNode*> m_queue;
};

// ===========================================================================
// Python str()/repr() of collections.
// ===========================================================================

void append_repr(std::string& out, const YamlNode& n, std::vector<const YamlNode*>& path);

void append_dict(std::string& out, const YamlNode& n, std::vector<const YamlNode*>& path) {
  out += '{';
  bool first = true;
  for (const PyDictItem& item : py_dict_items(n)) {
    if (!first) out += ", ";
    first = false;
    append_repr(out, *item.key, path);
    if (n.type == PyType::dict) {
      out += ": ";
      append_repr(out, *item.value, path);
    }
  }
  out += '}';
}

void append_item(std::string& out, const YamlNode& list, std::size_t i, std::vector<const YamlNode*>& path) {
  const YamlNode& item = *list.items[i];
  if (list.tuples && item.kind == YamlKind::mapping && !item.entries.empty()) {
    out += '(';
    append_repr(out, *item.entries[0].key, path);
    out += ", ";
    append_repr(out, *item.entries[0].value, path);
    out += ')';
  } else {
    append_repr(out, item, path);
  }
}

void append_list(std::string& out, const YamlNode& n, std::vector<const YamlNode*>& path) {
  out += '[';
  for (std::size_t i = 0; i < n.items.size(); ++i) {
    if (i > 0) out += ", ";
    append_item(out, n, i, path);
  }
  out += ']';
}

void append_repr(std::string& out, const YamlNode& n, std::vector<const YamlNode*>& path) {
  const bool collection = n.type == PyType::list || n.type == PyType::dict || n.type == PyType::set;
  if (!collection) {
    out += n.scalar_repr;
    return;
  }
  if (std::find(path.begin(), path.end(), &n) != path.end()) {
    out += n.type == PyType::list ? "[...]" : "{...}";
    return;
  }
  path.push_back(&n);
  if (n.type == PyType::list) {
    append_list(out, n, path);
  } else if (n.type == PyType::set && py_dict_items(n).empty()) {
    out += "set()";
  } else {
    append_dict(out, n, path);
  }
  path.pop_back();
}

// The text yaml-cpp reads: PyYAML's tags become the bare `!` (node tags come
// from pass 1 anyway; yaml-cpp rejects some tag characters PyYAML takes) and
// an anchor or alias glued to the next character (`&key: v`) is ended with a
// space, as PyYAML ends it. Lines and indentation are unchanged.
std::string respell_properties(std::string_view text, const std::vector<PropertySpan>& spans) {
  if (spans.empty()) return std::string(text);
  std::string out;
  out.reserve(text.size() + spans.size());
  std::size_t index = 0;  // code point index of `pos`
  std::size_t pos = 0;
  auto copy_until = [&](std::size_t target, std::string* sink) {
    while (index < target && pos < text.size()) {
      const std::size_t from = pos;
      util::next_code_point(text, pos);
      if (sink) sink->append(text.substr(from, pos - from));
      ++index;
    }
  };
  for (const PropertySpan& span : spans) {
    copy_until(span.begin, &out);
    std::string token;
    copy_until(span.end, &token);
    out += span.is_tag ? "!" : token;
    const char next = pos < text.size() ? text[pos] : '\0';
    if (!span.is_tag && next != '\0' && next != ' ' && next != '\t' && next != '\n' && next != '\r') out += ' ';
  }
  out.append(text.substr(pos));
  return out;
}

// PyYAML reads `\r\n`, `\r`, NEL, LS and PS as line breaks; yaml-cpp only
// `\n` (and `\r\n`). The text yaml-cpp sees has them all as `\n`, so its
// lines agree with PyYAML's marks.
std::string normalize_breaks(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
      out += '\n';
    } else if (text.substr(i, 2) == "\xC2\x85") {
      out += '\n';
      i += 1;
    } else if (text.substr(i, 3) == "\xE2\x80\xA8" || text.substr(i, 3) == "\xE2\x80\xA9") {
      out += '\n';
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// yaml-cpp rejects some tags PyYAML scans (`!!str,`, `![x]`); PyYAML then
// fails constructing them. The first such tag in document order.
std::optional<YamlError> unknown_tag_error(const std::vector<PyNodeInfo>& infos) {
  static constexpr std::array<std::string_view, 12> k_known = {"null", "bool",  "int", "float", "binary", "timestamp",
                                                               "omap", "pairs", "set", "str",   "seq",    "map"};
  for (const PyNodeInfo& info : infos) {
    if (!info.tag || *info.tag == "!") continue;
    const std::string_view tag = *info.tag;
    const bool known = util::starts_with(tag, k_yaml_tag_prefix) &&
                       std::find(k_known.begin(), k_known.end(), tag.substr(k_yaml_tag_prefix.size())) != k_known.end();
    if (!known) return YamlError{info.line, "could not determine a constructor for the tag " + util::py_repr(tag)};
  }
  return std::nullopt;
}

}  // namespace

// ===========================================================================
// Public API.
// ===========================================================================

YamlLoad load_yaml(std::string_view text) {
  YamlLoad result;
  GrammarView view;
  if (auto e = check_grammar(text, view)) {
    result.error = std::move(e);
    return result;
  }
  const std::vector<PyNodeInfo>& infos = view.nodes;
  if (infos.empty()) return result;  // no document
  const std::string yaml_text = normalize_breaks(respell_properties(text, view.properties));
  try {
    std::istringstream in{yaml_text};
    YAML::Parser parser(in);
    TreeBuilder builder(result.doc, infos);
    parser.HandleNextDocument(builder);
    if (const auto line = builder.divergence()) {
      result.error = YamlError{*line, "yaml-cpp reads this document differently from PyYAML"};
    } else if (result.doc.root()) {
      Constructor(result.doc).run(*result.doc.root());
    }
  } catch (const YAML::Exception& e) {
    result.error =
        unknown_tag_error(infos).value_or(YamlError{e.mark.is_null() ? 0 : e.mark.line + 1, "yaml-cpp: " + e.msg});
  } catch (const ConstructError& e) {
    result.error = YamlError{e.line, e.text};
  } catch (const std::exception& e) {
    result.error = YamlError{0, e.what()};
  }
  if (result.error) result.doc.set_root(nullptr);
  return result;
}

std::string_view py_type_name(const YamlNode& n) {
  switch (n.type) {
    case PyType::none:
      return "NoneType";
    case PyType::str:
      return "str";
    case PyType::int_:
      return "int";
    case PyType::float_:
      return "float";
    case PyType::bool_:
      return "bool";
    case PyType::date:
      return "date";
    case PyType::datetime:
      return "datetime";
    case PyType::bytes:
      return "bytes";
    case PyType::list:
      return "list";
    case PyType::dict:
      return "dict";
    case PyType::set:
      return "set";
  }
  return "NoneType";
}

std::string py_repr(const YamlNode& n) {
  std::string out;
  std::vector<const YamlNode*> path;
  append_repr(out, n, path);
  return out;
}

std::string py_str(const YamlNode& n) {
  const bool collection = n.type == PyType::list || n.type == PyType::dict || n.type == PyType::set;
  return collection ? py_repr(n) : n.scalar_str;
}

std::string py_item_repr(const YamlNode& list, std::size_t i) {
  std::string out;
  std::vector<const YamlNode*> path{&list};
  append_item(out, list, i, path);
  return out;
}

std::optional<std::string> utf8_decode_error(std::string_view bytes) {
  const auto bad = util::find_invalid_utf8(bytes);
  if (!bad) return std::nullopt;
  return utf8_error_text(bytes, bad->offset);
}

std::vector<PyDictItem> py_dict_items(const YamlNode& mapping) {
  std::vector<PyDictItem> items;
  if (mapping.kind != YamlKind::mapping) return items;
  std::unordered_map<std::string, std::size_t> index;
  for (const YamlEntry& e : mapping.entries) {
    // Unhashable keys cannot occur in a constructed document; keep them apart.
    const std::string key = hashable(e.key->type) ? e.key->dict_key : "#" + std::to_string(e.key->id);
    const auto [it, inserted] = index.emplace(key, items.size());
    if (inserted) items.push_back(PyDictItem{e.key, e.value, {}});
    PyDictItem& item = items[it->second];
    item.value = e.value;
    item.occurrences.push_back(&e);
  }
  return items;
}

}  // namespace lg::ledger
