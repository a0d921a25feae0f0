// PyYAML 6.0's reader, scanner, parser and composer, ported: composes the one
// document of a text as `yaml.safe_load` reads it into an untyped YamlNode
// tree, or gives PyYAML's exact problem text and line. It reads the UTF-8
// bytes with a code-point cursor; a line-based fast path takes documents of
// the common projects.yaml shape, feeding the composer the same events.
#include "yaml_grammar.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <map>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ledgergate/util/text.hpp"
#include "ledgergate/util/word_bytes.hpp"

namespace lg::ledger::grammar {
namespace {

// Deepest node nesting PyYAML composes before its recursive composer raises
// RecursionError under Python's default limit (491..494, by the shape).
constexpr std::size_t k_max_depth = 492;

struct Mark {
  std::size_t index = 0;  // code points from the start
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

// --- characters (PyYAML's string sets; NUL is the end of the stream) ---

constexpr bool is_break(char32_t c) { return c == U'\n' || c == U'\r' || c == 0x85 || c == 0x2028 || c == 0x2029; }
constexpr bool is_nul_break(char32_t c) { return c == 0 || is_break(c); }
constexpr bool is_nul_space_break(char32_t c) { return c == U' ' || is_nul_break(c); }
constexpr bool is_nul_blank_break(char32_t c) { return c == U' ' || c == U'\t' || is_nul_break(c); }
constexpr bool is_hex_digit(char32_t c) {
  return (c >= U'0' && c <= U'9') || (c >= U'A' && c <= U'F') || (c >= U'a' && c <= U'f');
}
constexpr bool is_flow_indicator(char32_t c) { return c == U',' || c == U'[' || c == U']' || c == U'{' || c == U'}'; }
// One of the ASCII characters of `set` (never NUL).
bool in_ascii(char32_t c, std::string_view set) {
  return c != 0 && c < 0x80 && set.find(static_cast<char>(c)) != std::string_view::npos;
}

// ASCII character classes, for the scanner's runs.
enum : std::uint16_t {
  c_space = 1,      // ' '
  c_tab = 2,        // '\t'
  c_break = 4,      // '\r' '\n'
  c_colon = 8,      // ':'
  c_flow = 16,      // ',' '[' ']' '{' '}'
  c_question = 32,  // '?'
  c_quote = 64,     // '\'' '"' '\\'
  c_name = 128,     // [0-9A-Za-z_-]
  c_digit = 256,    // [0-9]
  c_uri = 512,      // URI characters of a tag, but '%'
  c_blank = c_space | c_tab,
};

constexpr std::array<std::uint16_t, 128> make_classes() {
  std::array<std::uint16_t, 128> t{};
  const auto add = [&t](std::string_view chars, std::uint16_t cls) {
    for (const char c : chars)
      t[static_cast<std::size_t>(c)] = static_cast<std::uint16_t>(t[static_cast<std::size_t>(c)] | cls);
  };
  add(" ", c_space);
  add("\t", c_tab);
  add("\r\n", c_break);
  add(":", c_colon);
  add(",[]{}", c_flow);
  add("?", c_question);
  add("'\"\\", c_quote);
  add("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_", c_name);
  add("0123456789", c_digit);
  add("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-;/?:@&=+$,_.!~*'()[]", c_uri);
  return t;
}
constexpr std::array<std::uint16_t, 128> k_classes = make_classes();

int hex_value(char32_t c) {
  if (c <= U'9') return static_cast<int>(c - U'0');
  return static_cast<int>((c | 0x20) - U'a') + 10;
}

unsigned char byte_of(std::string_view s, std::size_t p) { return static_cast<unsigned char>(s[p]); }

constexpr std::uint64_t k_high_bits = 0x8080808080808080ULL;

// The eight bytes at `p`, in memory order.
std::uint64_t word_at(std::string_view s, std::size_t p) {
  std::uint64_t w = 0;
  std::memcpy(&w, s.data() + p, sizeof w);
  return w;
}

std::size_t sequence_length(unsigned char b) { return b < 0x80 ? 1 : (b < 0xE0 ? 2 : (b < 0xF0 ? 3 : 4)); }

// Decodes the (well-formed) sequence at `p`.
char32_t decode_at(std::string_view s, std::size_t p) {
  const unsigned char b = byte_of(s, p);
  if (b < 0x80) return b;
  const auto cont = [&](std::size_t i) { return static_cast<char32_t>(byte_of(s, p + i) & 0x3F); };
  if (b < 0xE0) return (static_cast<char32_t>(b & 0x1F) << 6) | cont(1);
  if (b < 0xF0) return (static_cast<char32_t>(b & 0x0F) << 12) | (cont(1) << 6) | cont(2);
  return (static_cast<char32_t>(b & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3);
}


// A line break as scan_line_break returns it ('\n', U+2028, U+2029; 0 = none).
void append_break(std::string& out, char32_t line_break) {
  if (line_break != 0) util::append_utf8(out, line_break);
}

// Python's str of the UnicodeDecodeError for the bad sequence at `offset`.
struct Utf8Fault {
  std::size_t length = 1;  // bytes the error covers
  std::string_view reason;
};
Utf8Fault utf8_fault(std::string_view s, std::size_t offset) {
  const unsigned char b = byte_of(s, offset);
  if (b < 0xC2 || b > 0xF4) return {1, "invalid start byte"};
  const std::size_t need = b < 0xE0 ? 2 : (b < 0xF0 ? 3 : 4);
  for (std::size_t i = 1; i < need; ++i) {
    if (offset + i >= s.size()) return {s.size() - offset, "unexpected end of data"};
    const unsigned char c = byte_of(s, offset + i);
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    if (i == 1 && b == 0xE0) lo = 0xA0;
    if (i == 1 && b == 0xED) hi = 0x9F;
    if (i == 1 && b == 0xF0) lo = 0x90;
    if (i == 1 && b == 0xF4) hi = 0x8F;
    if (c < lo || c > hi) return {i, "invalid continuation byte"};
  }
  return {0, ""};
}

// ===========================================================================
// Tokens.
// ===========================================================================

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
  nothing,  // the queue is empty (after the stream end was taken)
};

std::string_view token_id(Tok t) {
  static constexpr std::array<std::string_view, 21> k_ids = {"<stream start>",
                                                             "<stream end>",
                                                             "<directive>",
                                                             "<document start>",
                                                             "<document end>",
                                                             "<block sequence start>",
                                                             "<block mapping start>",
                                                             "<block end>",
                                                             "[",
                                                             "{",
                                                             "]",
                                                             "}",
                                                             "?",
                                                             ":",
                                                             "-",
                                                             ",",
                                                             "<alias>",
                                                             "<anchor>",
                                                             "<tag>",
                                                             "<scalar>",
                                                             ""};
  return k_ids[static_cast<std::size_t>(t)];
}

enum class Directive : std::uint8_t { other, yaml, tag };

struct Token {
  Tok type = Tok::stream_start;
  bool plain = false;        // a plain scalar
  bool has_handle = false;   // a tag with a handle (`!!str`, `!e!x`, `!x`)
  bool version_one = false;  // a %YAML directive whose major version is 1
  Directive directive = Directive::other;
  Mark start;
  // Indexes in the scanner's text store (a token stays trivially movable):
  std::uint32_t text = 0;    // scalar text, anchor/alias name, tag suffix; TAG directive: the prefix
  std::uint32_t handle = 0;  // tag handle; TAG directive: the handle
};

struct SimpleKey {
  int level = 0;  // the flow level it was saved at
  std::size_t token_number = 0;
  bool required = false;
  Mark mark;
};

enum class Chomping : std::uint8_t { clip, keep, strip };

// ===========================================================================
// Reader and scanner (reader.py, scanner.py).
// ===========================================================================

class Scanner {
 public:
  explicit Scanner(std::string_view text) : m_text(text) { push(Tok::stream_start, mark()); }

  // The next token's type (check_token), scanning as far as PyYAML would.
  Tok next() {
    fill();
    return queued() != 0 ? m_tokens[m_head].type : Tok::nothing;
  }
  // The next token (its text may be moved out before skip()).
  Token& peek() {
    fill();
    if (queued() == 0) push(Tok::stream_end, mark());  // never past the end
    return m_tokens[m_head];
  }
  // A token's text and handle.
  std::string& text_of(const Token& t) { return m_texts[t.text]; }
  std::string& handle_of(const Token& t) { return m_texts[t.handle]; }
  // get_token() when only the token's start matters.
  Mark take() {
    const Mark start = peek().start;
    skip();
    return start;
  }
  void skip() {
    fill();
    if (queued() == 0) return;
    ++m_head;
    ++m_tokens_taken;
    if (m_head == m_tokens.size()) {
      m_tokens.clear();
      m_texts.clear();
      m_head = 0;
    }
  }

 private:
  // --- reader ---
  std::size_t size() const { return m_text.size(); }
  // peek(): the current character, NUL at the end.
  char32_t at() const {
    if (m_pos >= size()) return 0;
    const unsigned char b = byte_of(m_text, m_pos);
    return b < 0x80 ? b : decode_at(m_text, m_pos);
  }
  // peek(k).
  char32_t at(std::size_t k) const {
    std::size_t p = m_pos;
    for (; k > 0 && p < size(); --k) p += sequence_length(byte_of(m_text, p));
    return p < size() ? decode_at(m_text, p) : 0;
  }
  void forward_one() {
    const unsigned char b = byte_of(m_text, m_pos);
    ++m_index;
    if (b < 0x80) {
      ++m_pos;
      if (b == '\n' || (b == '\r' && (m_pos == size() || m_text[m_pos] != '\n'))) {
        ++m_line;
        m_column = 0;
      } else {
        ++m_column;
      }
      return;
    }
    const char32_t c = decode_at(m_text, m_pos);
    m_pos += sequence_length(b);
    if (c == 0x85 || c == 0x2028 || c == 0x2029) {
      ++m_line;
      m_column = 0;
    } else if (c != 0xFEFF) {
      ++m_column;
    }
  }
  void forward(std::size_t n = 1) {
    for (; n > 0 && m_pos < size(); --n) forward_one();
  }
  // Forwards over ASCII characters of the classes `keep`; returns them.
  std::string_view forward_in(std::uint16_t keep) {
    const std::size_t begin = m_pos;
    while (m_pos < size() && byte_of(m_text, m_pos) < 0x80 && (k_classes[byte_of(m_text, m_pos)] & keep) != 0) ++m_pos;
    const std::size_t n = m_pos - begin;
    m_index += n;
    m_column += static_cast<int>(n);
    return m_text.substr(begin, n);
  }
  // Forwards up to an ASCII character of the classes `stop` or a line break
  // (any other non-ASCII character is taken); returns what it passed.
  std::string_view forward_until(std::uint16_t stop) {
    const std::uint16_t stops = stop | c_break;
    const std::size_t begin = m_pos;
    while (m_pos < size()) {
      const unsigned char b = byte_of(m_text, m_pos);
      if (b < 0x80) {
        if ((k_classes[b] & stops) != 0) break;
        ++m_pos;
        ++m_column;
      } else {
        const char32_t c = decode_at(m_text, m_pos);
        if (is_break(c)) break;
        m_pos += sequence_length(b);
        if (c != 0xFEFF) ++m_column;
      }
      ++m_index;
    }
    return m_text.substr(begin, m_pos - begin);
  }
  void skip_spaces() { forward_in(c_space); }
  void skip_to_break() { forward_until(0); }
  // prefix(n) when the next n characters are ASCII.
  std::string_view ascii_ahead(std::size_t n) const { return m_text.substr(m_pos, n); }
  Mark mark() const { return Mark{m_index, m_line, m_column}; }
  bool at_document_separator() const {
    const std::string_view p = ascii_ahead(3);
    return (p == "---" || p == "...") && is_nul_blank_break(at(3));
  }
  // Appends a token to the queue.
  Token& push(Tok type, const Mark& start) {
    Token& t = m_tokens.emplace_back();
    t.type = type;
    t.start = start;
    return t;
  }
  // Stores a token text; returns its index.
  std::uint32_t add_text(std::string text = {}) {
    m_texts.push_back(std::move(text));
    return static_cast<std::uint32_t>(m_texts.size() - 1);
  }
  // Inserts a token `ahead` places after the queue's head.
  void insert(std::size_t ahead, Tok type, const Mark& start) {
    Token t;
    t.type = type;
    t.start = start;
    m_tokens.insert(m_tokens.begin() + static_cast<std::ptrdiff_t>(m_head + ahead), std::move(t));
  }
  std::size_t queued() const { return m_tokens.size() - m_head; }

  // --- token queue ---
  void fill() {
    while (need_more_tokens()) fetch_more_tokens();
  }
  bool need_more_tokens() {
    if (m_done) return false;
    if (queued() == 0) return true;
    if (m_simple_keys.empty()) return false;
    stale_possible_simple_keys();
    return next_possible_simple_key() == std::optional<std::size_t>(m_tokens_taken);
  }
  std::optional<std::size_t> next_possible_simple_key() const {
    std::optional<std::size_t> min;
    for (const SimpleKey& key : m_simple_keys) {
      if (!min || key.token_number < *min) min = key.token_number;
    }
    return min;
  }
  void stale_possible_simple_keys() {
    for (auto it = m_simple_keys.begin(); it != m_simple_keys.end();) {
      if (it->mark.line != m_line || m_index - it->mark.index > 1024) {
        if (it->required) fail(mark(), "could not find expected ':'");
        it = m_simple_keys.erase(it);
      } else {
        ++it;
      }
    }
  }
  std::vector<SimpleKey>::iterator simple_key_here() {
    return std::find_if(m_simple_keys.begin(), m_simple_keys.end(),
                        [&](const SimpleKey& k) { return k.level == m_flow_level; });
  }
  void save_possible_simple_key() {
    const bool required = m_flow_level == 0 && m_indent == m_column;
    if (!m_allow_simple_key) return;
    remove_possible_simple_key();
    m_simple_keys.push_back(SimpleKey{m_flow_level, m_tokens_taken + queued(), required, mark()});
  }
  void remove_possible_simple_key() {
    const auto it = simple_key_here();
    if (it == m_simple_keys.end()) return;
    if (it->required) fail(mark(), "could not find expected ':'");
    m_simple_keys.erase(it);
  }
  void unwind_indent(int column) {
    if (m_flow_level != 0) return;
    while (m_indent > column) {
      m_indent = m_indents.back();
      m_indents.pop_back();
      push(Tok::block_end, mark());
    }
  }
  bool add_indent(int column) {
    if (m_indent >= column) return false;
    m_indents.push_back(m_indent);
    m_indent = column;
    return true;
  }

  // --- fetchers ---
  void fetch_more_tokens() {
    scan_to_next_token();
    stale_possible_simple_keys();
    unwind_indent(m_column);
    const char32_t c = at();
    if (c == 0) return fetch_stream_end();
    if (c == U'%' && m_column == 0) return fetch_directive();
    if (c == U'-' && m_column == 0 && at_document_separator()) return fetch_document_indicator(Tok::document_start);
    if (c == U'.' && m_column == 0 && at_document_separator()) return fetch_document_indicator(Tok::document_end);
    if (c == U'[') return fetch_flow_collection_start(Tok::flow_sequence_start);
    if (c == U'{') return fetch_flow_collection_start(Tok::flow_mapping_start);
    if (c == U']') return fetch_flow_collection_end(Tok::flow_sequence_end);
    if (c == U'}') return fetch_flow_collection_end(Tok::flow_mapping_end);
    if (c == U',') return fetch_flow_entry();
    if (c == U'-' && is_nul_blank_break(at(1))) return fetch_block_entry();
    if (c == U'?' && (m_flow_level != 0 || is_nul_blank_break(at(1)))) return fetch_key();
    if (c == U':' && (m_flow_level != 0 || is_nul_blank_break(at(1)))) return fetch_value();
    if (c == U'*' || c == U'&') return fetch_anchor_or_alias();
    if (c == U'!') return fetch_tag();
    if ((c == U'|' || c == U'>') && m_flow_level == 0) return fetch_block_scalar(c == U'>');
    if (c == U'\'' || c == U'"') return fetch_flow_scalar(c == U'"');
    if (check_plain()) return fetch_plain();
    fail(mark(), "found character " + char_repr(c) + " that cannot start any token");
  }
  bool check_plain() const {
    const char32_t c = at();
    return !(is_nul_blank_break(c) || in_ascii(c, "-?:,[]{}#&*!|>'\"%@`")) ||
           (!is_nul_blank_break(at(1)) && (c == U'-' || (m_flow_level == 0 && (c == U'?' || c == U':'))));
  }

  void fetch_stream_end() {
    unwind_indent(-1);
    remove_possible_simple_key();
    m_allow_simple_key = false;
    m_simple_keys.clear();
    push(Tok::stream_end, mark());
    m_done = true;
  }
  void fetch_directive() {
    unwind_indent(-1);
    remove_possible_simple_key();
    m_allow_simple_key = false;
    scan_directive(push(Tok::directive, mark()));
  }
  void fetch_document_indicator(Tok type) {
    unwind_indent(-1);
    remove_possible_simple_key();
    m_allow_simple_key = false;
    const Mark start = mark();
    forward(3);
    push(type, start);
  }
  void fetch_flow_collection_start(Tok type) {
    save_possible_simple_key();
    ++m_flow_level;
    m_allow_simple_key = true;
    const Mark start = mark();
    forward();
    push(type, start);
  }
  void fetch_flow_collection_end(Tok type) {
    remove_possible_simple_key();
    --m_flow_level;  // PyYAML 6.0 lets a stray closer take it below zero
    m_allow_simple_key = false;
    const Mark start = mark();
    forward();
    push(type, start);
  }
  void fetch_flow_entry() {
    m_allow_simple_key = true;
    remove_possible_simple_key();
    const Mark start = mark();
    forward();
    push(Tok::flow_entry, start);
  }
  void fetch_block_entry() {
    if (m_flow_level == 0) {
      if (!m_allow_simple_key) fail(mark(), "sequence entries are not allowed here");
      if (add_indent(m_column)) push(Tok::block_sequence_start, mark());
    }
    m_allow_simple_key = true;
    remove_possible_simple_key();
    const Mark start = mark();
    forward();
    push(Tok::block_entry, start);
  }
  void fetch_key() {
    if (m_flow_level == 0) {
      if (!m_allow_simple_key) fail(mark(), "mapping keys are not allowed here");
      if (add_indent(m_column)) push(Tok::block_mapping_start, mark());
    }
    m_allow_simple_key = m_flow_level == 0;
    remove_possible_simple_key();
    const Mark start = mark();
    forward();
    push(Tok::key, start);
  }
  void fetch_value() {
    const auto it = simple_key_here();
    if (it != m_simple_keys.end()) {
      const SimpleKey key = *it;
      m_simple_keys.erase(it);
      const std::size_t ahead = key.token_number - m_tokens_taken;
      insert(ahead, Tok::key, key.mark);
      if (m_flow_level == 0 && add_indent(key.mark.column)) insert(ahead, Tok::block_mapping_start, key.mark);
      m_allow_simple_key = false;
    } else {
      if (m_flow_level == 0) {
        if (!m_allow_simple_key) fail(mark(), "mapping values are not allowed here");
        if (add_indent(m_column)) push(Tok::block_mapping_start, mark());
      }
      m_allow_simple_key = m_flow_level == 0;
      remove_possible_simple_key();
    }
    const Mark start = mark();
    forward();
    push(Tok::value, start);
  }
  void fetch_anchor_or_alias() {
    save_possible_simple_key();
    m_allow_simple_key = false;
    scan_anchor(push(at() == U'*' ? Tok::alias : Tok::anchor, mark()));
  }
  void fetch_tag() {
    save_possible_simple_key();
    m_allow_simple_key = false;
    scan_tag(push(Tok::tag, mark()));
  }
  void fetch_block_scalar(bool folded) {
    m_allow_simple_key = true;
    remove_possible_simple_key();
    Token& t = push(Tok::scalar, mark());
    t.text = add_text();
    scan_block_scalar(folded, m_texts[t.text]);
  }
  void fetch_flow_scalar(bool double_quoted) {
    save_possible_simple_key();
    m_allow_simple_key = false;
    Token& t = push(Tok::scalar, mark());
    t.text = add_text();
    scan_flow_scalar(double_quoted, m_texts[t.text]);
  }
  void fetch_plain() {
    save_possible_simple_key();
    m_allow_simple_key = false;
    Token& t = push(Tok::scalar, mark());
    t.plain = true;
    t.text = add_text();
    scan_plain(m_texts[t.text]);
  }

  // --- scanners ---
  char32_t scan_line_break() {
    const char32_t c = at();
    if (c == U'\r' || c == U'\n' || c == 0x85) {
      forward(c == U'\r' && at(1) == U'\n' ? 2 : 1);
      return U'\n';
    }
    if (c == 0x2028 || c == 0x2029) {
      forward();
      return c;
    }
    return 0;
  }
  void scan_to_next_token() {
    if (m_index == 0 && at() == 0xFEFF) forward();
    for (;;) {
      skip_spaces();
      if (at() == U'#') skip_to_break();
      if (scan_line_break() == 0) return;
      if (m_flow_level == 0) m_allow_simple_key = true;
    }
  }

  void scan_directive(Token& t) {
    forward();
    const std::string_view name = scan_directive_name();
    if (name == "YAML") {
      t.directive = Directive::yaml;
      t.version_one = scan_yaml_directive_value();
    } else if (name == "TAG") {
      t.directive = Directive::tag;
      skip_spaces();
      t.handle = add_text(scan_tag_handle());
      if (at() != U' ') fail(mark(), "expected ' ', but found " + char_repr(at()));
      skip_spaces();
      t.text = add_text(scan_tag_uri());
      if (!is_nul_space_break(at())) fail(mark(), "expected ' ', but found " + char_repr(at()));
    } else {
      skip_to_break();
    }
    scan_directive_ignored_line();
  }
  std::string_view scan_directive_name() {
    const std::string_view name = forward_in(c_name);
    if (name.empty()) fail(mark(), "expected alphabetic or numeric character, but found " + char_repr(at()));
    if (!is_nul_space_break(at())) {
      fail(mark(), "expected alphabetic or numeric character, but found " + char_repr(at()));
    }
    return name;
  }
  bool scan_yaml_directive_value() {
    skip_spaces();
    const std::string_view major = scan_yaml_directive_number();
    if (at() != U'.') fail(mark(), "expected a digit or '.', but found " + char_repr(at()));
    forward();
    scan_yaml_directive_number();
    if (!is_nul_space_break(at())) fail(mark(), "expected a digit or ' ', but found " + char_repr(at()));
    const auto first = major.find_first_not_of('0');
    return first != std::string_view::npos && major.substr(first) == "1";
  }
  std::string_view scan_yaml_directive_number() {
    if (!(at() >= U'0' && at() <= U'9')) fail(mark(), "expected a digit, but found " + char_repr(at()));
    return forward_in(c_digit);
  }
  void scan_directive_ignored_line() {
    skip_spaces();
    if (at() == U'#') skip_to_break();
    if (!is_nul_break(at())) fail(mark(), "expected a comment or a line break, but found " + char_repr(at()));
    scan_line_break();
  }

  void scan_anchor(Token& t) {
    forward();
    const std::string_view name = forward_in(c_name);
    if (name.empty()) fail(mark(), "expected alphabetic or numeric character, but found " + char_repr(at()));
    if (!(is_nul_blank_break(at()) || in_ascii(at(), "?:,]}%@`"))) {
      fail(mark(), "expected alphabetic or numeric character, but found " + char_repr(at()));
    }
    t.text = add_text(std::string(name));
  }

  void scan_tag(Token& t) {
    const char32_t next = at(1);
    if (next == U'<') {
      forward(2);
      t.text = add_text(scan_tag_uri());
      if (at() != U'>') fail(mark(), "expected '>', but found " + char_repr(at()));
      forward();
    } else if (is_nul_blank_break(next)) {
      t.text = add_text("!");
      forward();
    } else {
      if (tag_has_handle()) {
        t.handle = add_text(scan_tag_handle());
      } else {
        t.handle = add_text("!");
        forward();
      }
      t.has_handle = true;
      t.text = add_text(scan_tag_uri());
    }
    if (!is_nul_space_break(at())) fail(mark(), "expected ' ', but found " + char_repr(at()));
  }
  // Whether a second '!' follows before a space or break (`!e!x`, `!!str`).
  bool tag_has_handle() const {
    std::size_t p = m_pos + 1;
    while (p < size()) {
      const char32_t c = decode_at(m_text, p);
      if (c == U'!') return true;
      if (is_nul_space_break(c)) return false;
      p += sequence_length(byte_of(m_text, p));
    }
    return false;
  }
  std::string scan_tag_handle() {
    if (at() != U'!') fail(mark(), "expected '!', but found " + char_repr(at()));
    const std::size_t begin = m_pos;
    forward();
    if (at() != U' ') {
      forward_in(c_name);
      if (at() != U'!') fail(mark(), "expected '!', but found " + char_repr(at()));
      forward();
    }
    return std::string(m_text.substr(begin, m_pos - begin));
  }
  std::string scan_tag_uri() {
    std::string value;
    bool any = false;
    for (;;) {
      const std::string_view run = forward_in(c_uri);
      value += run;
      any = any || !run.empty();
      if (at() != U'%') break;
      value += scan_uri_escapes();
      any = true;
    }
    if (!any) fail(mark(), "expected URI, but found " + char_repr(at()));
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
      bytes += static_cast<char>(hex_value(at()) * 16 + hex_value(at(1)));
      forward(2);
    }
    if (const auto bad = first_bad_utf8(bytes)) fail(start, utf8_error_text(bytes, *bad));
    return bytes;
  }

  void scan_block_scalar(bool folded, std::string& chunks) {
    forward();
    int increment = 0;
    const Chomping chomping = scan_block_scalar_indicators(increment);
    scan_block_scalar_ignored_line();
    const int min_indent = std::max(m_indent + 1, 1);
    std::string breaks;
    int indent = 0;
    if (increment == 0) {
      indent = std::max(min_indent, scan_block_scalar_indentation(breaks));
    } else {
      indent = min_indent + increment - 1;
      scan_block_scalar_breaks(indent, breaks);
    }
    char32_t line_break = 0;
    while (m_column == indent && at() != 0) {
      chunks += breaks;
      const bool leading_non_space = at() != U' ' && at() != U'\t';
      chunks += forward_until(0);
      line_break = scan_line_break();
      breaks.clear();
      scan_block_scalar_breaks(indent, breaks);
      if (m_column != indent || at() == 0) break;
      // PyYAML folds by the specification's rule, not Clark Evans's.
      if (folded && line_break == U'\n' && leading_non_space && at() != U' ' && at() != U'\t') {
        if (breaks.empty()) chunks += ' ';
      } else {
        append_break(chunks, line_break);
      }
    }
    if (chomping != Chomping::strip) append_break(chunks, line_break);
    if (chomping == Chomping::keep) chunks += breaks;
  }
  // Returns the chomping; sets `increment` to the indentation indicator (0 = none).
  Chomping scan_block_scalar_indicators(int& increment) {
    Chomping chomping = Chomping::clip;
    auto read_chomping = [&] {
      if (at() != U'+' && at() != U'-') return false;
      chomping = at() == U'+' ? Chomping::keep : Chomping::strip;
      forward();
      return true;
    };
    auto read_increment = [&] {
      if (!(at() >= U'0' && at() <= U'9')) return false;
      increment = static_cast<int>(at() - U'0');
      if (increment == 0) fail(mark(), "expected indentation indicator in the range 1-9, but found 0");
      forward();
      return true;
    };
    if (read_chomping()) {
      read_increment();
    } else if (read_increment()) {
      read_chomping();
    }
    if (!is_nul_space_break(at())) {
      fail(mark(), "expected chomping or indentation indicators, but found " + char_repr(at()));
    }
    return chomping;
  }
  void scan_block_scalar_ignored_line() {
    skip_spaces();
    if (at() == U'#') skip_to_break();
    if (!is_nul_break(at())) fail(mark(), "expected a comment or a line break, but found " + char_repr(at()));
    scan_line_break();
  }
  int scan_block_scalar_indentation(std::string& breaks) {
    int max_indent = 0;
    while (at() == U' ' || is_break(at())) {
      if (at() != U' ') {
        append_break(breaks, scan_line_break());
      } else {
        forward();
        max_indent = std::max(max_indent, m_column);
      }
    }
    return max_indent;
  }
  void scan_block_scalar_breaks(int indent, std::string& breaks) {
    while (m_column < indent && at() == U' ') forward();
    while (is_break(at())) {
      append_break(breaks, scan_line_break());
      while (m_column < indent && at() == U' ') forward();
    }
  }

  void scan_flow_scalar(bool double_quoted, std::string& chunks) {
    const char32_t quote = at();
    forward();
    if (scan_one_line_quoted(double_quoted, chunks)) return;
    scan_flow_scalar_non_spaces(double_quoted, chunks);
    while (at() != quote) {
      scan_flow_scalar_spaces(chunks);
      scan_flow_scalar_non_spaces(double_quoted, chunks);
    }
    forward();
  }
  // The common quoted scalar: its closing quote on the same line, with no
  // escape, no `''` and no break before it. Its value is then the text
  // between the quotes (PyYAML keeps a line's inner blanks as they are).
  // Returns false, having read nothing, for any other.
  bool scan_one_line_quoted(bool double_quoted, std::string& chunks) {
    const char quote = double_quoted ? '"' : '\'';
    std::size_t p = m_pos;
    std::size_t count = 0;
    int columns = 0;
    for (; p < size(); ++count) {
      const unsigned char b = byte_of(m_text, p);
      if (b < 0x80) {
        if (b == static_cast<unsigned char>(quote) || b == '\\' || b == '\r' || b == '\n') break;
        ++p;
        ++columns;
        continue;
      }
      const char32_t c = decode_at(m_text, p);
      if (is_break(c)) return false;
      p += sequence_length(b);
      if (c != 0xFEFF) ++columns;
    }
    if (p >= size() || m_text[p] != quote) return false;  // a break, an escape or the end
    if (!double_quoted && p + 1 < size() && m_text[p + 1] == '\'') return false;
    chunks.assign(m_text.substr(m_pos, p - m_pos));
    m_pos = p;
    m_index += count;
    m_column += columns;
    forward();  // the closing quote
    return true;
  }
  void scan_flow_scalar_non_spaces(bool double_quoted, std::string& chunks) {
    for (;;) {
      chunks += forward_until(c_quote | c_blank);
      const char32_t c = at();
      if (!double_quoted && c == U'\'' && at(1) == U'\'') {
        chunks += '\'';
        forward(2);
      } else if ((double_quoted && c == U'\'') || (!double_quoted && (c == U'"' || c == U'\\'))) {
        chunks += static_cast<char>(c);
        forward();
      } else if (double_quoted && c == U'\\') {
        forward();
        scan_escape(chunks);
      } else {
        return;
      }
    }
  }
  static std::optional<char32_t> escape_replacement(char32_t c) {
    switch (c) {
      case U'0':
        return U'\0';
      case U'a':
        return U'\x07';
      case U'b':
        return U'\x08';
      case U't':
      case U'\t':
        return U'\x09';
      case U'n':
        return U'\x0A';
      case U'v':
        return U'\x0B';
      case U'f':
        return U'\x0C';
      case U'r':
        return U'\x0D';
      case U'e':
        return U'\x1B';
      case U' ':
      case U'"':
      case U'\\':
      case U'/':
        return c;
      case U'N':
        return char32_t{0x85};
      case U'_':
        return char32_t{0xA0};
      case U'L':
        return char32_t{0x2028};
      case U'P':
        return char32_t{0x2029};
      default:
        return std::nullopt;
    }
  }
  void scan_escape(std::string& chunks) {
    const char32_t c = at();
    if (const auto replacement = escape_replacement(c)) {
      util::append_utf8(chunks, *replacement);
      forward();
    } else if (c == U'x' || c == U'u' || c == U'U') {
      const std::size_t length = c == U'x' ? 2 : (c == U'u' ? 4 : 8);
      forward();
      std::uint64_t code = 0;
      for (std::size_t k = 0; k < length; ++k) {
        const char32_t digit = at(k);
        if (!is_hex_digit(digit)) {
          fail(mark(), "expected escape sequence of " + std::to_string(length) + " hexadecimal numbers, but found " +
                           char_repr(digit));
        }
        code = code * 16 + static_cast<std::uint64_t>(hex_value(digit));
      }
      if (code > 0x10FFFF) throw UnmarkedError{"chr() arg not in range(0x110000)"};
      util::append_utf8(chunks, static_cast<char32_t>(code));
      forward(length);
    } else if (is_break(c)) {
      scan_line_break();
      scan_flow_scalar_breaks(chunks);
    } else {
      fail(mark(), "found unknown escape character " + char_repr(c));
    }
  }
  void scan_flow_scalar_spaces(std::string& chunks) {
    const std::string_view whitespaces = forward_in(c_blank);
    const char32_t c = at();
    if (c == 0) fail(mark(), "found unexpected end of stream");
    if (!is_break(c)) {
      chunks += whitespaces;
      return;
    }
    const char32_t line_break = scan_line_break();
    std::string breaks;
    scan_flow_scalar_breaks(breaks);
    if (line_break != U'\n') {
      append_break(chunks, line_break);
    } else if (breaks.empty()) {
      chunks += ' ';
    }
    chunks += breaks;
  }
  void scan_flow_scalar_breaks(std::string& breaks) {
    for (;;) {
      if (at_document_separator()) fail(mark(), "found unexpected document separator");
      forward_in(c_blank);
      if (!is_break(at())) return;
      append_break(breaks, scan_line_break());
    }
  }

  void scan_plain(std::string& chunks) {
    const int indent = m_indent + 1;
    std::string spaces;
    for (;;) {
      if (at() == U'#') break;
      const std::size_t begin = m_pos;
      scan_plain_chunk();
      if (m_pos == begin) break;
      m_allow_simple_key = false;
      chunks += spaces;
      chunks.append(m_text.substr(begin, m_pos - begin));
      spaces.clear();
      scan_plain_spaces(spaces);
      if (spaces.empty() || at() == U'#' || (m_flow_level == 0 && m_column < indent)) break;
    }
  }
  // Forwards over one chunk of a plain scalar (up to a blank, a break, a
  // ':' before a blank, or in flow context a flow indicator).
  void scan_plain_chunk() {
    const bool flow = m_flow_level != 0;
    const auto stop = static_cast<std::uint16_t>(c_blank | c_colon | (flow ? c_question | c_flow : 0));
    for (;;) {
      forward_until(stop);
      if (at() != U':') return;
      const char32_t next = at(1);
      if (is_nul_blank_break(next) || (flow && is_flow_indicator(next))) return;
      forward_one();
    }
  }
  // The folded whitespace after a chunk; left empty where PyYAML's returns
  // None or [] (the scalar ends).
  void scan_plain_spaces(std::string& spaces) {
    const std::string_view whitespaces = forward_in(c_space);
    if (!is_break(at())) {
      spaces += whitespaces;
      return;
    }
    const char32_t line_break = scan_line_break();
    m_allow_simple_key = true;
    if (at_document_separator()) return;
    std::string breaks;
    while (at() == U' ' || is_break(at())) {
      if (at() == U' ') {
        skip_spaces();
      } else {
        append_break(breaks, scan_line_break());
        if (at_document_separator()) return;
      }
    }
    if (line_break != U'\n') {
      append_break(spaces, line_break);
    } else if (breaks.empty()) {
      spaces += ' ';
    }
    spaces += breaks;
  }

  std::string_view m_text;
  std::size_t m_pos = 0;    // byte offset
  std::size_t m_index = 0;  // code point index
  int m_line = 0;
  int m_column = 0;
  bool m_done = false;
  int m_flow_level = 0;
  std::vector<Token> m_tokens;       // the queue is [m_head, end)
  std::vector<std::string> m_texts;  // the queued tokens' texts
  std::size_t m_head = 0;
  std::size_t m_tokens_taken = 0;
  int m_indent = -1;
  std::vector<int> m_indents;
  bool m_allow_simple_key = true;
  std::vector<SimpleKey> m_simple_keys;  // PyYAML's possible_simple_keys, in insertion order
};

// ===========================================================================
// Events and the composer (events.py, composer.py).
// ===========================================================================

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
  bool has_anchor = false;
  bool has_tag = false;
  bool implicit = false;  // a scalar PyYAML types by its text (implicit[0])
  bool plain = false;     // a plain scalar, or an empty node
  Mark start;
  std::string anchor;  // the anchor, or the alias's name
  std::string tag;     // the resolved explicit tag ("!" for the bare `!`)
  std::string value;   // a scalar's text
  std::string_view source;  // the same text as a slice of the input, when it is one (SimpleReader)
};

bool is_null_word(std::string_view v) {
  return v.size() <= 4 && (v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL");
}

// Composer.compose_document, fed one event at a time (PyYAML's composer pulls
// them one at a time too, so its checks run in the same order). Also
// get_single_node's check that the stream holds one document.
class Composer {
 public:
  explicit Composer(YamlDoc& doc) : m_doc(doc) {}

  // Ready for another stream into the same document (cleared by the caller).
  void restart() {
    m_documents = 0;
    m_stack.clear();
    m_items.clear();
    m_entries.clear();
    m_anchors.clear();
  }

  void on_event(Event& e) {
    switch (e.type) {
      case Ev::stream_start:
      case Ev::stream_end:
        return;
      case Ev::document_start:
        if (m_documents++ > 0) fail(e.start, "but found another document");
        return;
      case Ev::document_end:
        m_anchors.clear();
        return;
      case Ev::alias:
        return on_alias(e);
      case Ev::scalar:
        attach(new_node(e, YamlKind::scalar));
        return;
      case Ev::sequence_start:
      case Ev::mapping_start: {
        YamlNode& n = new_node(e, e.type == Ev::sequence_start ? YamlKind::sequence : YamlKind::mapping);
        attach(n);
        m_stack.push_back(Frame{&n, nullptr, m_items.size(), m_entries.size()});
        return;
      }
      case Ev::sequence_end:
      case Ev::mapping_end:
        close_collection();
        return;
    }
  }

 private:
  // A collection being composed: its children so far are the tails of
  // m_items / m_entries from `items_from` / `entries_from` (a stack shared by
  // all open collections, moved into the document's arenas when one closes).
  struct Frame {
    YamlNode* node = nullptr;
    const YamlNode* pending_key = nullptr;
    std::size_t items_from = 0;
    std::size_t entries_from = 0;
  };

  void close_collection() {
    const Frame top = m_stack.back();
    m_stack.pop_back();
    if (top.node->kind == YamlKind::sequence) {
      m_doc.set_items(*top.node, std::span<const YamlNode* const>(m_items).subspan(top.items_from));
    } else {
      m_doc.set_entries(*top.node, std::span<const YamlEntry>(m_entries).subspan(top.entries_from));
    }
    m_items.resize(top.items_from);
    m_entries.resize(top.entries_from);
  }

  void on_alias(const Event& e) {
    const auto it = m_anchors.find(e.anchor);
    if (it == m_anchors.end()) fail(e.start, "found undefined alias " + str_repr(e.anchor));
    attach(*it->second);
  }

  YamlNode& new_node(Event& e, YamlKind kind) {
    if (m_stack.size() >= k_max_depth) throw UnmarkedError{"maximum recursion depth exceeded"};
    if (e.has_anchor && m_anchors.count(e.anchor) != 0) fail(e.start, "second occurrence");
    YamlNode& n = m_doc.add_node();
    n.line = e.start.line + 1;
    if (e.has_tag && e.tag != "!") n.mutable_extra().tag = std::move(e.tag);
    if (kind == YamlKind::scalar) {
      n.plain = e.implicit;
      n.quoted = !e.implicit && !e.has_tag;
      if (e.plain && !e.has_tag && is_null_word(e.value)) {
        kind = YamlKind::null;  // untagged null words are the null kind, with no text
      } else {
        m_doc.set_text(n, e.source.data() != nullptr ? e.source : std::string_view(e.value));
      }
    }
    n.kind = kind;
    if (e.has_anchor) m_anchors.emplace(std::move(e.anchor), &n);
    return n;
  }

  void attach(const YamlNode& n) {
    if (m_stack.empty()) {
      m_doc.set_root(&n);
      return;
    }
    Frame& top = m_stack.back();
    if (top.node->kind == YamlKind::sequence) {
      m_items.push_back(&n);
    } else if (!top.pending_key) {
      top.pending_key = &n;
    } else {
      m_entries.push_back(YamlEntry{top.pending_key, &n, false});
      top.pending_key = nullptr;
    }
  }

  YamlDoc& m_doc;
  int m_documents = 0;
  std::vector<Frame> m_stack;
  std::vector<const YamlNode*> m_items;
  std::vector<YamlEntry> m_entries;
  std::unordered_map<std::string, const YamlNode*> m_anchors;
};

// ===========================================================================
// The parser (parser.py).
// ===========================================================================

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

// PyYAML's Parser: the same state machine, each event handed to the composer
// as soon as it is parsed.
class Parser {
 public:
  explicit Parser(Scanner& scanner) : m_s(scanner) {}

  void parse(Composer& composer) {
    while (m_state != St::none) {
      Event e = run(m_state);
      composer.on_event(e);
    }
  }

 private:
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
    Event e;
    e.type = Ev::scalar;
    e.start = mark;
    e.implicit = true;
    e.plain = true;
    return e;
  }
  [[noreturn]] void fail_found(std::string_view expected) {
    const Token& t = m_s.peek();
    fail(t.start, std::string(expected) + str_repr(token_id(t.type)));
  }
  static bool is_any(Tok t, std::initializer_list<Tok> choices) {
    return std::find(choices.begin(), choices.end(), t) != choices.end();
  }

  Event run(St s) {
    switch (s) {
      case St::none:
        break;
      case St::stream_start:
        m_state = St::implicit_document_start;
        return event(Ev::stream_start, m_s.take());
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
        m_s.skip();
        return block_sequence_entry();
      case St::block_sequence_entry:
        return block_sequence_entry();
      case St::indentless_sequence_entry:
        return indentless_sequence_entry();
      case St::block_mapping_first_key:
        m_s.skip();
        return block_mapping_key();
      case St::block_mapping_key:
        return block_mapping_key();
      case St::block_mapping_value:
        return block_mapping_value();
      case St::flow_sequence_first_entry:
        m_s.skip();
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
        m_s.skip();
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
    if (is_any(m_s.next(), {Tok::directive, Tok::document_start, Tok::stream_end})) return document_start();
    m_tag_handles = {{"!", "!"}, {"!!", std::string(k_yaml_tag_prefix)}};
    m_states.push_back(St::document_end);
    m_state = St::block_node;
    return event(Ev::document_start, m_s.peek().start);
  }
  Event document_start() {
    while (m_s.next() == Tok::document_end) m_s.skip();
    if (m_s.next() == Tok::stream_end) {
      m_state = St::none;
      return event(Ev::stream_end, m_s.take());
    }
    const Mark start = m_s.peek().start;
    process_directives();
    if (m_s.next() != Tok::document_start) fail_found("expected '<document start>', but found ");
    m_s.skip();
    m_states.push_back(St::document_end);
    m_state = St::document_content;
    return event(Ev::document_start, start);
  }
  Event document_end() {
    const Mark start = m_s.peek().start;
    if (m_s.next() == Tok::document_end) m_s.skip();
    m_state = St::document_start;
    return event(Ev::document_end, start);
  }
  Event document_content() {
    if (is_any(m_s.next(), {Tok::directive, Tok::document_start, Tok::document_end, Tok::stream_end})) {
      m_state = pop_state();
      return empty_scalar(m_s.peek().start);
    }
    return parse_node(true, false);
  }
  void process_directives() {
    bool have_version = false;
    m_tag_handles.clear();
    for (; m_s.next() == Tok::directive; m_s.skip()) {
      const Token& t = m_s.peek();
      if (t.directive == Directive::yaml) {
        if (have_version) fail(t.start, "found duplicate YAML directive");
        if (!t.version_one) fail(t.start, "found incompatible YAML document (version 1.* is required)");
        have_version = true;
      } else if (t.directive == Directive::tag) {
        const std::string& handle = m_s.handle_of(t);
        if (m_tag_handles.count(handle) != 0) fail(t.start, "duplicate tag handle " + str_repr(handle));
        m_tag_handles[handle] = m_s.text_of(t);
      }
    }
    m_tag_handles.emplace("!", "!");
    m_tag_handles.emplace("!!", std::string(k_yaml_tag_prefix));
  }

  Event parse_node(bool block, bool indentless_sequence) {
    Event e;
    const Tok first = m_s.next();
    if (first == Tok::alias) {
      e.type = Ev::alias;
      e.start = m_s.peek().start;
      take_anchor(e);
      m_state = pop_state();
      return e;
    }
    std::optional<Mark> start;
    if (first == Tok::anchor) {
      start = m_s.peek().start;
      take_anchor(e);
      if (m_s.next() == Tok::tag) take_tag(e);
    } else if (first == Tok::tag) {
      start = m_s.peek().start;
      take_tag(e);
      if (m_s.next() == Tok::anchor) take_anchor(e);
    }
    e.start = start ? *start : m_s.peek().start;
    node_content(block, indentless_sequence, e);
    return e;
  }
  // Takes the anchor (or alias) token.
  void take_anchor(Event& e) {
    e.has_anchor = true;
    e.anchor = std::move(m_s.text_of(m_s.peek()));
    m_s.skip();
  }
  // Takes the tag token, resolving its handle.
  void take_tag(Event& e) {
    Token& tag = m_s.peek();
    e.has_tag = true;
    if (!tag.has_handle) {
      e.tag = std::move(m_s.text_of(tag));
    } else {
      const std::string& handle = m_s.handle_of(tag);
      const auto it = m_tag_handles.find(handle);
      if (it == m_tag_handles.end()) fail(tag.start, "found undefined tag handle " + str_repr(handle));
      e.tag = it->second + m_s.text_of(tag);
    }
    m_s.skip();
  }
  void node_content(bool block, bool indentless_sequence, Event& e) {
    const bool bare_tag = e.has_tag && e.tag == "!";
    const Tok next = m_s.next();
    if (indentless_sequence && next == Tok::block_entry) {
      m_state = St::indentless_sequence_entry;
      e.type = Ev::sequence_start;
    } else if (next == Tok::scalar) {
      Token& t = m_s.peek();
      m_state = pop_state();
      e.type = Ev::scalar;
      e.implicit = (t.plain && !e.has_tag) || bare_tag;
      e.plain = t.plain;
      e.value = std::move(m_s.text_of(t));
      m_s.skip();
    } else if (next == Tok::flow_sequence_start) {
      m_state = St::flow_sequence_first_entry;
      e.type = Ev::sequence_start;
    } else if (next == Tok::flow_mapping_start) {
      m_state = St::flow_mapping_first_key;
      e.type = Ev::mapping_start;
    } else if (block && next == Tok::block_sequence_start) {
      m_state = St::block_sequence_first_entry;
      e.type = Ev::sequence_start;
    } else if (block && next == Tok::block_mapping_start) {
      m_state = St::block_mapping_first_key;
      e.type = Ev::mapping_start;
    } else if (e.has_anchor || e.has_tag) {
      m_state = pop_state();
      e.type = Ev::scalar;
      e.implicit = !e.has_tag || bare_tag;
      e.plain = true;
    } else {
      fail_found("expected the node content, but found ");
    }
  }

  Event close_collection(Ev type) {
    m_state = pop_state();
    return event(type, m_s.take());
  }
  // The entry after an indicator (`-`, `?`, `:`): a node, unless one of
  // `empty_before` follows, then an empty scalar at the indicator.
  Event entry_node(St next_state, std::initializer_list<Tok> empty_before, bool block, bool indentless) {
    const Mark start = m_s.take();
    if (!is_any(m_s.next(), empty_before)) {
      m_states.push_back(next_state);
      return parse_node(block, indentless);
    }
    m_state = next_state;
    return empty_scalar(start);
  }
  Event block_sequence_entry() {
    const Tok next = m_s.next();
    if (next == Tok::block_entry) {
      return entry_node(St::block_sequence_entry, {Tok::block_entry, Tok::block_end}, true, false);
    }
    if (next != Tok::block_end) fail_found("expected <block end>, but found ");
    return close_collection(Ev::sequence_end);
  }
  Event indentless_sequence_entry() {
    if (m_s.next() == Tok::block_entry) {
      return entry_node(St::indentless_sequence_entry, {Tok::block_entry, Tok::key, Tok::value, Tok::block_end}, true,
                        false);
    }
    m_state = pop_state();
    return event(Ev::sequence_end, m_s.peek().start);
  }
  Event block_mapping_key() {
    const Tok next = m_s.next();
    if (next == Tok::key) {
      return entry_node(St::block_mapping_value, {Tok::key, Tok::value, Tok::block_end}, true, true);
    }
    if (next != Tok::block_end) fail_found("expected <block end>, but found ");
    return close_collection(Ev::mapping_end);
  }
  Event block_mapping_value() {
    if (m_s.next() == Tok::value) {
      return entry_node(St::block_mapping_key, {Tok::key, Tok::value, Tok::block_end}, true, true);
    }
    m_state = St::block_mapping_key;
    return empty_scalar(m_s.peek().start);
  }
  Event flow_sequence_entry(bool first) {
    if (m_s.next() != Tok::flow_sequence_end) {
      if (!first) {
        if (m_s.next() != Tok::flow_entry) fail_found("expected ',' or ']', but got ");
        m_s.skip();
      }
      const Tok next = m_s.next();
      if (next == Tok::key) {
        m_state = St::flow_sequence_entry_mapping_key;
        return event(Ev::mapping_start, m_s.peek().start);
      }
      if (next != Tok::flow_sequence_end) {
        m_states.push_back(St::flow_sequence_entry);
        return parse_node(false, false);
      }
    }
    return close_collection(Ev::sequence_end);
  }
  Event flow_sequence_entry_mapping_key() {
    return entry_node(St::flow_sequence_entry_mapping_value, {Tok::value, Tok::flow_entry, Tok::flow_sequence_end},
                      false, false);
  }
  Event flow_sequence_entry_mapping_value() {
    if (m_s.next() == Tok::value) {
      return entry_node(St::flow_sequence_entry_mapping_end, {Tok::flow_entry, Tok::flow_sequence_end}, false, false);
    }
    m_state = St::flow_sequence_entry_mapping_end;
    return empty_scalar(m_s.peek().start);
  }
  Event flow_mapping_key(bool first) {
    if (m_s.next() != Tok::flow_mapping_end) {
      if (!first) {
        if (m_s.next() != Tok::flow_entry) fail_found("expected ',' or '}', but got ");
        m_s.skip();
      }
      const Tok next = m_s.next();
      if (next == Tok::key) {
        return entry_node(St::flow_mapping_value, {Tok::value, Tok::flow_entry, Tok::flow_mapping_end}, false, false);
      }
      if (next != Tok::flow_mapping_end) {
        m_states.push_back(St::flow_mapping_empty_value);
        return parse_node(false, false);
      }
    }
    return close_collection(Ev::mapping_end);
  }
  Event flow_mapping_value() {
    if (m_s.next() == Tok::value) {
      return entry_node(St::flow_mapping_key, {Tok::flow_entry, Tok::flow_mapping_end}, false, false);
    }
    m_state = St::flow_mapping_key;
    return empty_scalar(m_s.peek().start);
  }

  Scanner& m_s;
  St m_state = St::stream_start;
  std::vector<St> m_states;
  std::map<std::string, std::string> m_tag_handles;  // handle -> prefix
};

// ===========================================================================
// The simple reader: a fast path for the common shape of a projects.yaml.
// ===========================================================================

// Reads documents made only of block mappings (at consistent indentation) of
// simple keys (`[A-Za-z0-9_][A-Za-z0-9_./-]*`) whose values are one-line
// plain scalars, one-line quoted scalars without escapes, one-line flow
// sequences of plain words, or nested block mappings, with comments and
// blank lines anywhere. It feeds the composer the events PyYAML's parser
// would, with the same lines. Anything else, errors included, it leaves to
// the full port (run() returns false). The text has no tab, '\r', NEL, LS,
// PS or BOM (see check_input), so lines end at '\n' only.
class SimpleReader {
 public:
  SimpleReader(std::string_view text, Composer& composer, int first_line = 0)
      : m_text(text), m_c(composer), m_number(first_line) {}

  // The root mapping one entry at a time (compose_entries): each entry is
  // fed to the composer as a document of its own, a one-entry mapping, and
  // `each` gets that document; the lines are the whole document's.
  bool run_entries(YamlDoc& doc, const std::function<bool(YamlDoc&)>& each) {
    if (!next_line()) return false;
    const std::size_t indent = m_line.indent;
    ++m_depth;  // the root mapping's level
    do {
      doc.clear();
      m_c.restart();
      emit(Ev::stream_start, 0);
      emit(Ev::document_start, m_line.number);
      emit(Ev::mapping_start, m_line.number);
      if (!entry(indent)) return false;
      emit(Ev::mapping_end, m_number);
      emit(Ev::document_end, m_number);
      emit(Ev::stream_end, m_number);
      if (!each(doc)) return false;
    } while (m_has_line && m_line.indent == indent);
    return !m_has_line;  // a line left over: between two levels, or less indented
  }

  bool run() {
    if (!next_line()) return false;
    emit(Ev::stream_start, 0);
    emit(Ev::document_start, m_line.number);
    if (!mapping(m_line.indent) || m_has_line) return false;
    emit(Ev::document_end, m_number);
    emit(Ev::stream_end, m_number);
    return true;
  }

 private:
  struct Line {
    std::string_view content;  // after the indentation
    std::size_t indent = 0;
    int number = 0;  // 0-based
  };
  static constexpr std::size_t k_max_depth = 64;
  static constexpr std::size_t k_max_key = 1000;  // PyYAML's simple keys end at 1024 characters

  // Moves to the next line that is neither blank nor a comment.
  bool next_line() {
    while (m_pos <= m_text.size()) {
      const std::size_t newline = std::min(m_text.find('\n', m_pos), m_text.size());
      const std::string_view raw = m_text.substr(m_pos, newline - m_pos);
      const int number = m_number++;
      m_pos = newline + 1;
      const std::size_t indent = raw.find_first_not_of(' ');
      if (indent == std::string_view::npos || raw[indent] == '#') continue;
      m_line = Line{raw.substr(indent), indent, number};
      return m_has_line = true;
    }
    return m_has_line = false;
  }

  void emit(Ev type, int line) {
    Event e;
    e.type = type;
    e.start.line = line;
    m_c.on_event(e);
  }
  void emit_scalar(int line, std::string_view text, bool plain) {
    Event& e = m_scalar;  // reused: the composer moves its text out
    e.type = Ev::scalar;
    e.start.line = line;
    e.implicit = plain;
    e.plain = plain;
    e.value.assign(text);
    e.source = text;  // a slice of m_text
    m_c.on_event(e);
  }

  // A block mapping whose first key is the current line.
  bool mapping(std::size_t indent) {
    if (++m_depth > k_max_depth) return false;
    emit(Ev::mapping_start, m_line.number);
    do {
      if (!entry(indent)) return false;
    } while (m_has_line && m_line.indent == indent);
    if (m_has_line && m_line.indent > indent) return false;  // between two levels
    emit(Ev::mapping_end, m_line.number);
    --m_depth;
    return true;
  }

  static bool is_key_start(char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  }
  static bool is_key_char(char c) { return is_key_start(c) || c == '.' || c == '/' || c == '-'; }
  static std::string_view skip_spaces(std::string_view s) {
    const std::size_t n = s.find_first_not_of(' ');
    return n == std::string_view::npos ? std::string_view() : s.substr(n);
  }
  // What may follow a value: nothing, or blanks and a comment.
  static bool is_line_end(std::string_view rest) {
    const std::string_view t = skip_spaces(rest);
    return t.empty() || (t[0] == '#' && t.size() < rest.size());
  }

  // One `key: value` line, or a `key:` line and the mapping nested under it.
  bool entry(std::size_t indent) {
    const Line line = m_line;
    const std::string_view s = line.content;
    if (!is_key_start(s[0])) return false;
    std::size_t k = 1;
    while (k < s.size() && is_key_char(s[k])) ++k;
    if (k > k_max_key || k == s.size() || s[k] != ':' || (k + 1 < s.size() && s[k + 1] != ' ')) return false;
    emit_scalar(line.number, s.substr(0, k), true);
    const std::string_view rest = skip_spaces(s.substr(k + 1));
    if (rest.empty() || rest[0] == '#') {  // no value on the line
      next_line();
      if (m_has_line && m_line.indent > indent) return mapping(m_line.indent);
      emit_scalar(line.number, "", true);  // the empty scalar at the ':'
      return true;
    }
    if (!value(line.number, rest)) return false;
    next_line();
    return !(m_has_line && m_line.indent > indent);  // a deeper line would continue or break the value
  }

  bool value(int line, std::string_view s) {
    if (s[0] == '"' || s[0] == '\'') return quoted(line, s);
    if (s[0] == '[') return flow_sequence(line, s);
    const bool starts_plain = !in_ascii(static_cast<unsigned char>(s[0]), "-?:,[]{}#&*!|>'\"%@`") ||
                              (s[0] == '-' && s.size() > 1 && s[1] != ' ');
    if (!starts_plain) return false;
    std::size_t end = s.size();
    for (std::size_t i = 1; i < s.size(); ++i) {
      if (s[i] == ':' && (i + 1 == s.size() || s[i + 1] == ' ')) return false;  // a mapping value
      if (s[i] == '#' && s[i - 1] == ' ') {
        end = i;  // a comment
        break;
      }
    }
    const std::string_view text = s.substr(0, end);
    emit_scalar(line, text.substr(0, text.find_last_not_of(' ') + 1), true);
    return true;
  }

  bool quoted(int line, std::string_view s) {
    const char quote = s[0];
    const std::size_t close = s.find(quote, 1);
    if (close == std::string_view::npos) return false;
    const std::string_view inner = s.substr(1, close - 1);
    if (quote == '"' && inner.find('\\') != std::string_view::npos) return false;
    if (quote == '\'' && close + 1 < s.size() && s[close + 1] == '\'') return false;  // a '' escape
    if (!is_line_end(s.substr(close + 1))) return false;
    emit_scalar(line, inner, false);
    return true;
  }

  static bool is_word_char(char c) { return !in_ascii(static_cast<unsigned char>(c), " ,[]{}#:?'\"&*!|>%@`"); }

  // `[a, b]` on one line, the items plain words.
  bool flow_sequence(int line, std::string_view s) {
    emit(Ev::sequence_start, line);
    const std::size_t close = util::one_line_flow_words(
        s,
        [](std::string_view rest) {
          if (rest[0] == '-') return std::size_t{0};
          std::size_t n = 0;
          while (n < rest.size() && is_word_char(rest[n])) ++n;
          return n;
        },
        [&](std::string_view word) { emit_scalar(line, word, true); });
    if (close == std::string_view::npos || !is_line_end(s.substr(close + 1))) return false;
    emit(Ev::sequence_end, line);
    return true;
  }

  std::string_view m_text;
  Composer& m_c;
  int m_number = 0;  // the next line's number
  std::size_t m_pos = 0;
  Line m_line;
  bool m_has_line = false;
  std::size_t m_depth = 0;
  Event m_scalar;
};

// The simple reader's attempt; false leaves `doc` to be reset.
bool compose_simple(std::string_view text, YamlDoc& doc) {
  try {
    Composer composer(doc);
    return SimpleReader(text, composer).run();
  } catch (const GrammarError&) {
    return false;
  } catch (const UnmarkedError&) {
    return false;
  }
}

bool compose_simple_entries(std::string_view text, YamlDoc& doc, const std::function<bool(YamlDoc&)>& each,
                            int first_line) {
  try {
    Composer composer(doc);
    return SimpleReader(text, composer, first_line).run_entries(doc, each);
  } catch (const GrammarError&) {
    return false;
  } catch (const UnmarkedError&) {
    return false;
  }
}

// ===========================================================================
// The reader's input checks.
// ===========================================================================

// The text as PyYAML's reader holds it: each malformed UTF-8 byte read as
// U+FFFD (`storage` keeps a repaired copy when one is needed).
std::string_view repaired_text(std::string_view text, std::string& storage) {
  if (!util::find_invalid_utf8(text)) return text;
  storage.reserve(text.size() + 16);
  for (std::size_t pos = 0; pos < text.size();) util::append_utf8(storage, util::next_code_point(text, pos));
  return storage;
}

bool is_yaml_printable(char32_t c) {
  return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

// Eight bytes of printable ASCII (0x20..0x7E) or LF? Each LF is first made
// a '*' (an exact test: util/word_bytes.hpp), so a text's line ends stay on
// the word path; the test for the rest may flag a byte that passes (a
// borrow), never pass one that does not.
bool printable_ascii_word(std::uint64_t w) {
  constexpr std::uint64_t k_ones = 0x0101010101010101ULL;
  w |= util::bytes_equal(w, '\n') >> 2;  // LF (0x0A) | 0x20 = '*'
  const bool below_space = ((w - 0x20 * k_ones) & ~w & k_high_bits) != 0;
  const std::uint64_t del = w ^ (0x7F * k_ones);
  const bool has_del = ((del - k_ones) & ~del & k_high_bits) != 0;
  return (w & k_high_bits) == 0 && !below_space && !has_del;
}

struct InputCheck {
  std::optional<YamlError> error;  // check_printable's
  bool unusual = false;            // a tab, '\r', NEL, LS, PS or BOM: not for the simple reader
};

// PyYAML's Reader.check_printable on a str input (well-formed UTF-8 here).
InputCheck check_input(std::string_view text) {
  InputCheck check;
  std::size_t index = 0;
  for (std::size_t pos = 0; pos < text.size(); ++index) {
    if (pos + 8 <= text.size() && printable_ascii_word(word_at(text, pos))) {
      pos += 8;
      index += 7;
      continue;
    }
    const unsigned char b = byte_of(text, pos);
    if ((b >= 0x20 && b <= 0x7E) || b == '\n') {
      ++pos;
      continue;
    }
    const char32_t c = decode_at(text, pos);
    pos += sequence_length(b);
    check.unusual = check.unusual || c == U'\t' || c == U'\r' || is_break(c) || c == 0xFEFF;
    if (is_yaml_printable(c)) continue;
    std::array<char, 16> hex{};
    std::snprintf(hex.data(), hex.size(), "#x%04x", static_cast<unsigned>(c));
    check.error = YamlError{0, "unacceptable character " + std::string(hex.data()) +
                                   ": special characters are not allowed\n  in \"<unicode string>\", position " +
                                   std::to_string(index)};
    return check;
  }
  return check;
}

// Byte classes for str_repr.

}  // namespace

// ===========================================================================
// Shared entry points.
// ===========================================================================

std::optional<YamlError> compose(std::string_view text, YamlDoc& doc, bool simple_reader) {
  std::string storage;
  const std::string_view input = repaired_text(text, storage);
  InputCheck check = check_input(input);
  if (check.error) return std::move(check.error);
  if (simple_reader && !check.unusual) {
    if (compose_simple(input, doc)) return std::nullopt;
    doc = YamlDoc();  // not of the simple shape: start over with the full port
  }
  try {
    Scanner scanner(input);
    Parser parser(scanner);
    Composer composer(doc);
    parser.parse(composer);
  } catch (const GrammarError& e) {
    doc.set_root(nullptr);
    return YamlError{e.mark.line + 1, e.problem};
  } catch (const UnmarkedError& e) {
    doc.set_root(nullptr);
    return YamlError{0, e.text};
  }
  return std::nullopt;
}

bool simple_input(std::string_view text) {
  // As compose() reads the text: invalid bytes (repaired), a character
  // PyYAML refuses, or one the simple reader leaves to the full port are
  // the whole-document path's.
  if (util::find_invalid_utf8(text)) return false;
  const InputCheck check = check_input(text);
  return !check.error && !check.unusual;
}

bool compose_entries(std::string_view text, YamlDoc& doc, const std::function<bool(YamlDoc&)>& each,
                     int first_line) {
  if (!simple_input(text)) return false;
  return compose_simple_entries(text, doc, each, first_line);
}

// Python's repr() of a str (util::py_repr, which also spells lone surrogates).
std::string str_repr(std::string_view s) { return util::py_repr(s); }

std::string char_repr(char32_t c) {
  std::string s;
  util::append_utf8(s, c);
  return str_repr(s);
}

std::optional<std::size_t> first_bad_utf8(std::string_view bytes) {
  for (std::size_t pos = 0; pos < bytes.size();) {
    if (pos + 8 <= bytes.size() && (word_at(bytes, pos) & k_high_bits) == 0) {
      pos += 8;
      continue;
    }
    const unsigned char b = byte_of(bytes, pos);
    if (b < 0x80) {
      ++pos;
      continue;
    }
    if (utf8_fault(bytes, pos).length != 0) return pos;
    pos += sequence_length(b);
  }
  return std::nullopt;
}

std::string utf8_error_text(std::string_view bytes, std::size_t offset) {
  const Utf8Fault fault = utf8_fault(bytes, offset);
  const std::size_t length = std::max<std::size_t>(fault.length, 1);
  std::string where;
  if (length == 1) {
    std::array<char, 8> hex{};
    std::snprintf(hex.data(), hex.size(), "0x%02x", static_cast<unsigned>(byte_of(bytes, offset)));
    where = "byte " + std::string(hex.data()) + " in position " + std::to_string(offset);
  } else {
    where = "bytes in position " + std::to_string(offset) + "-" + std::to_string(offset + length - 1);
  }
  return "'utf-8' codec can't decode " + where + ": " + std::string(fault.reason);
}

}  // namespace lg::ledger::grammar
