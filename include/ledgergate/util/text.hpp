// Text helpers with the reference checker's (Python 3) semantics: UTF-8
// decoding with the first bad byte located, universal newlines, Unicode
// whitespace for strip/split, the `\d`/`\w`/`\S` classes, and repr().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lg::util {

// Decodes one code point at `pos`; advances `pos`. Returns U+FFFD and
// advances one byte on a malformed sequence.
char32_t next_code_point(std::string_view s, std::size_t& pos);
void append_utf8(std::string& out, char32_t cp);

struct Utf8Problem {
  std::size_t offset = 0;  // byte offset of the first invalid byte
  int line = 0;            // 1-based line holding it
};
// Returns the first invalid UTF-8 sequence, if any (overlongs, surrogates and
// code points past U+10FFFF are invalid, as in Python's strict decoder).
std::optional<Utf8Problem> find_invalid_utf8(std::string_view s);
// Replaces every invalid sequence by U+FFFD.
std::string sanitize_utf8(std::string_view s);

// Python text mode: "\r\n" and a lone "\r" become "\n", then split on "\n"
// (a trailing newline yields a final empty line).
std::vector<std::string> split_universal_lines(std::string_view text);

bool is_space(char32_t cp);      // str.isspace / regex \s
bool is_decimal(char32_t cp);    // regex \d (Unicode Nd)
// The value 0..9 of a character for which is_decimal() holds, as Python's int() reads it.
int decimal_value(char32_t cp);
bool is_word(char32_t cp);       // regex \w (str.isalnum() or '_')
bool is_printable(char32_t cp);  // str.isprintable
bool is_ascii_digit(char32_t cp);

std::string_view strip(std::string_view s);   // str.strip()
std::string_view rstrip(std::string_view s);  // str.rstrip()
std::string_view lstrip(std::string_view s);  // str.lstrip()
std::vector<std::string_view> split_words(std::string_view s);  // str.split()
bool is_blank(std::string_view s);  // s.strip() == ""

// ` -- ` → ` — ` (spec §1.5).
std::string dash(std::string_view s);

// Python repr() of a str, and of a list of str.
std::string py_repr(std::string_view s);
std::string py_list_repr(const std::vector<std::string>& items);

bool starts_with(std::string_view s, std::string_view prefix);
// Whether `path` lies below the directory `dir` ("a/b" is under "a", "a" and "ab" are not).
bool is_under(std::string_view path, std::string_view dir);
std::string join(const std::vector<std::string>& parts, std::string_view sep);

// Code-point classes over a whole string.
bool all_code_points(std::string_view s, bool (*pred)(char32_t));
bool has_non_ascii_digit(std::string_view s);

// A calendar-valid ASCII YYYY-MM-DD date (datetime.date.fromisoformat).
bool is_real_date(std::string_view s);
// The days from 1970-01-01 to a calendar-valid ASCII YYYY-MM-DD date
// (is_real_date); nullopt for anything else.
std::optional<long> day_number(std::string_view date);
// `\d{4}-\d{2}-\d{2}` with Unicode \d: the reference's DATE shape.
bool is_date_shape(std::string_view s);
// A date as Python 3.11's date.fromisoformat reads it (YYYY-MM-DD, YYYYMMDD,
// and the ISO week dates YYYY-Www, YYYY-Www-D, YYYYWww, YYYYWwwD, a missing
// D meaning Monday; ASCII digits, years 0001-9999), written YYYY-MM-DD;
// nullopt when it does not read.
std::optional<std::string> iso_date(std::string_view s);
// An integer as Python's int(str) reads it (Unicode whitespace around, a
// sign, Unicode decimal digits, single underscores between digits, at most
// 4,300 digits), as its canonical decimal ("-12", "0"); nullopt otherwise.
std::optional<std::string> py_int(std::string_view s);
// A path as Python prints a pathlib.Path of it: repeated '/' collapsed, '.'
// components and a trailing '/' dropped, a leading "//" kept ("" is ".").
std::string py_path_text(std::string_view path);

// A YAML flow sequence written on one line, `[a, b, c]`, at the start of
// `s` (s[0] == '['), its items single words: `word(rest)` measures the item
// at the start of `rest` (its length; 0: none there) and `item(word)` takes
// it. The position of the closing ']', or npos when the text is not of that
// shape (a missing item, a trailing comma, no ']'). What follows the ']' is
// the caller's. For the YAML reader's fast path and projects.yaml's row
// reader, each with its own words.
template <class Word, class Item>
std::size_t one_line_flow_words(std::string_view s, const Word& word, const Item& item) {
  std::size_t i = 1;
  const auto skip = [&] {
    while (i < s.size() && s[i] == ' ') ++i;
  };
  skip();
  if (i < s.size() && s[i] != ']') {
    for (;;) {
      const std::size_t n = word(s.substr(i));
      if (n == 0) return std::string_view::npos;
      item(s.substr(i, n));
      i += n;
      skip();
      if (i < s.size() && s[i] == ']') break;
      if (i == s.size() || s[i] != ',') return std::string_view::npos;
      ++i;
      skip();
      if (i == s.size() || s[i] == ']') return std::string_view::npos;  // a trailing comma
    }
  }
  return i == s.size() ? std::string_view::npos : i;
}

}  // namespace lg::util
