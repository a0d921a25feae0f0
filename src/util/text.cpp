// Python-compatible text semantics for the reference checker's grammars.
// Code-point classes come from tables generated out of Python's own Unicode
// database (scripts/gen-unicode-tables), so `\d`, `\w`, `\s` and
// isprintable() agree with the peer code point for code point.
#include "ledgergate/util/text.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>

namespace lg::util {
namespace {

struct CodeRange {
  char32_t lo;
  char32_t hi;
};

#include "unicode_tables.inc"

template <std::size_t N>
bool in_ranges(const CodeRange (&table)[N], char32_t cp) {
  const auto* end = table + N;
  const auto* it = std::upper_bound(table, end, cp,
                                    [](char32_t v, const CodeRange& r) { return v < r.lo; });
  if (it == table) return false;
  --it;
  return cp >= it->lo && cp <= it->hi;
}

// Length of a valid UTF-8 sequence starting at `pos`, or 0 if malformed.
std::size_t valid_sequence_length(std::string_view s, std::size_t pos) {
  const auto b0 = static_cast<unsigned char>(s[pos]);
  if (b0 < 0x80) return 1;
  std::size_t len = 0;
  char32_t min = 0;
  char32_t cp = 0;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2, min = 0x80, cp = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, min = 0x800, cp = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, min = 0x10000, cp = b0 & 0x07;
  } else {
    return 0;
  }
  if (pos + len > s.size()) return 0;
  for (std::size_t i = 1; i < len; ++i) {
    const auto b = static_cast<unsigned char>(s[pos + i]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

char32_t next_code_point(std::string_view s, std::size_t& pos) {
  const std::size_t len = valid_sequence_length(s, pos);
  if (len == 0) {
    ++pos;
    return 0xFFFD;
  }
  auto cp = static_cast<char32_t>(static_cast<unsigned char>(s[pos]));
  if (len > 1) {
    cp &= (len == 2) ? 0x1F : (len == 3) ? 0x0F : 0x07;
    for (std::size_t i = 1; i < len; ++i) cp = (cp << 6) | (static_cast<unsigned char>(s[pos + i]) & 0x3F);
  }
  pos += len;
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

namespace {

// The first byte at or after `pos` that is not ASCII (s.size() when none):
// eight bytes at a time, then byte by byte.
std::size_t skip_ascii(std::string_view s, std::size_t pos) {
  while (pos + 8 <= s.size()) {
    std::uint64_t word = 0;
    std::memcpy(&word, s.data() + pos, 8);
    if (word & 0x8080808080808080ull) break;
    pos += 8;
  }
  while (pos < s.size() && static_cast<unsigned char>(s[pos]) < 0x80) ++pos;
  return pos;
}

}  // namespace

std::optional<Utf8Problem> find_invalid_utf8(std::string_view s) {
  for (std::size_t pos = skip_ascii(s, 0); pos < s.size(); pos = skip_ascii(s, pos)) {
    const std::size_t len = valid_sequence_length(s, pos);
    if (len == 0) {
      const auto newlines = std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(pos), '\n');
      return Utf8Problem{pos, static_cast<int>(newlines) + 1};
    }
    pos += len;
  }
  return std::nullopt;
}

std::string sanitize_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t pos = 0; pos < s.size();) {
    const std::size_t len = valid_sequence_length(s, pos);
    if (len == 0) {
      append_utf8(out, 0xFFFD);
      ++pos;
    } else {
      out.append(s.substr(pos, len));
      pos += len;
    }
  }
  return out;
}

std::vector<std::string> split_universal_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) break;
    lines.emplace_back(text.substr(start, end - start));
    start = end + ((text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n') ? 2 : 1);
  }
  lines.emplace_back(text.substr(start));
  return lines;
}

bool is_space(char32_t cp) {
  if (cp < 0x80) return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x1F);
  return in_ranges(k_space_ranges, cp);
}
bool is_decimal(char32_t cp) {
  if (cp < 0x80) return cp >= '0' && cp <= '9';
  return in_ranges(k_decimal_ranges, cp);
}

// Nd characters come in runs of ten from zero (a Unicode stability
// guarantee), so count back to the run's start.
int decimal_value(char32_t cp) {
  if (cp >= '0' && cp <= '9') return static_cast<int>(cp - '0');
  char32_t start = cp;
  while (start > 0 && is_decimal(start - 1)) --start;
  return static_cast<int>((cp - start) % 10);
}
bool is_word(char32_t cp) {
  if (cp < 0x80) return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || cp == '_';
  return in_ranges(k_word_ranges, cp);
}
bool is_printable(char32_t cp) {
  if (cp < 0x80) return cp >= 0x20 && cp < 0x7F;
  return !in_ranges(k_unprintable_ranges, cp);
}
bool is_ascii_digit(char32_t cp) { return cp >= '0' && cp <= '9'; }

namespace {
// Byte length of the leading whitespace code points.
std::size_t leading_space_bytes(std::string_view s) {
  std::size_t pos = 0;
  while (pos < s.size()) {
    const auto b = static_cast<unsigned char>(s[pos]);
    if (b < 0x80) {
      if (!is_space(b)) break;
      ++pos;
      continue;
    }
    std::size_t next = pos;
    if (!is_space(next_code_point(s, next))) break;
    pos = next;
  }
  return pos;
}
// Byte offset where the trailing whitespace begins.
std::size_t trailing_space_start(std::string_view s) {
  std::size_t tail = s.size();
  while (tail > 0 && static_cast<unsigned char>(s[tail - 1]) < 0x80 && is_space(static_cast<unsigned char>(s[tail - 1]))) --tail;
  if (tail > 0 && static_cast<unsigned char>(s[tail - 1]) < 0x80) return tail;  // ASCII non-space ends it
  std::size_t end = 0;
  std::size_t pos = 0;
  while (pos < s.size()) {
    if (!is_space(next_code_point(s, pos))) end = pos;
  }
  return end;
}
}  // namespace

std::string_view lstrip(std::string_view s) { return s.substr(leading_space_bytes(s)); }
std::string_view rstrip(std::string_view s) { return s.substr(0, trailing_space_start(s)); }
std::string_view strip(std::string_view s) { return rstrip(lstrip(s)); }
bool is_blank(std::string_view s) { return leading_space_bytes(s) == s.size(); }

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> words;
  std::size_t pos = 0;
  std::size_t start = std::string_view::npos;
  while (pos < s.size()) {
    const std::size_t here = pos;
    const bool space = is_space(next_code_point(s, pos));
    if (space && start != std::string_view::npos) {
      words.push_back(s.substr(start, here - start));
      start = std::string_view::npos;
    } else if (!space && start == std::string_view::npos) {
      start = here;
    }
  }
  if (start != std::string_view::npos) words.push_back(s.substr(start));
  return words;
}

std::string dash(std::string_view s) {
  if (s.find(" -- ") == std::string_view::npos) return std::string(s);
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, 4, " -- ") == 0) {
      out += " \xE2\x80\x94 ";
      i += 4;
    } else {
      out += s[i++];
    }
  }
  return out;
}

namespace {
void append_escape(std::string& out, char32_t cp) {
  static constexpr std::array<char, 16> hex = {'0', '1', '2', '3', '4', '5', '6', '7',
                                               '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
  int digits = 0;
  if (cp < 0x100) {
    out += "\\x", digits = 2;
  } else if (cp < 0x10000) {
    out += "\\u", digits = 4;
  } else {
    out += "\\U", digits = 8;
  }
  for (int i = digits - 1; i >= 0; --i) out += hex[(cp >> (4 * i)) & 0xF];
}
}  // namespace

namespace {
// A lone surrogate in WTF-8 (ED A0..BF xx), as a YAML "\ud800" escape leaves
// in a Python str; 0 when `pos` holds none.
char32_t lone_surrogate_at(std::string_view s, std::size_t pos) {
  if (pos + 2 >= s.size() || static_cast<unsigned char>(s[pos]) != 0xED) return 0;
  const auto b1 = static_cast<unsigned char>(s[pos + 1]);
  const auto b2 = static_cast<unsigned char>(s[pos + 2]);
  if ((b1 & 0xE0) != 0xA0 || (b2 & 0xC0) != 0x80) return 0;
  return 0xD000 | (static_cast<char32_t>(b1 & 0x3F) << 6) | (b2 & 0x3F);
}
}  // namespace

std::string py_repr(std::string_view s) {
  const bool has_single = s.find('\'') != std::string_view::npos;
  const bool has_double = s.find('"') != std::string_view::npos;
  const char quote = (has_single && !has_double) ? '"' : '\'';
  const auto plain = [quote](char c) { return c >= 0x20 && c < 0x7F && c != quote && c != '\\'; };
  std::string out;
  out.reserve(s.size() + 2);
  out += quote;
  for (std::size_t pos = 0; pos < s.size();) {
    std::size_t run = pos;  // printable ASCII is copied in runs: the common case
    while (run < s.size() && plain(s[run])) ++run;
    out.append(s.substr(pos, run - pos));
    if (run == s.size()) break;
    pos = run;
    if (const char32_t sur = lone_surrogate_at(s, pos)) {
      append_escape(out, sur);
      pos += 3;
      continue;
    }
    const char32_t cp = next_code_point(s, pos);
    if (cp == static_cast<char32_t>(quote) || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (!is_printable(cp)) {
      append_escape(out, cp);
    } else {
      append_utf8(out, cp);
    }
  }
  out += quote;
  return out;
}

std::string py_list_repr(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += py_repr(items[i]);
  }
  return out + "]";
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool is_under(std::string_view path, std::string_view dir) {
  return path.size() > dir.size() && starts_with(path, dir) && path[dir.size()] == '/';
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

bool all_code_points(std::string_view s, bool (*pred)(char32_t)) {
  for (std::size_t pos = 0; pos < s.size();) {
    if (!pred(next_code_point(s, pos))) return false;
  }
  return true;
}

bool has_non_ascii_digit(std::string_view s) {
  for (std::size_t pos = skip_ascii(s, 0); pos < s.size(); pos = skip_ascii(s, pos)) {
    if (is_decimal(next_code_point(s, pos))) return true;
  }
  return false;
}

bool is_date_shape(std::string_view s) {
  std::size_t pos = 0;
  auto digits = [&](int n) {
    for (int i = 0; i < n; ++i) {
      if (pos >= s.size() || !is_decimal(next_code_point(s, pos))) return false;
    }
    return true;
  };
  auto hyphen = [&] { return pos < s.size() && s[pos++] == '-'; };
  const bool ok = digits(4) && hyphen() && digits(2) && hyphen() && digits(2) && pos == s.size();
  return ok;
}

namespace {

// `n` ASCII digits at `pos` as a number; nullopt when any is not one.
std::optional<long> ascii_digits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return std::nullopt;
  long v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

}  // namespace

bool is_real_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  const auto y = ascii_digits(s, 0, 4), m = ascii_digits(s, 5, 2), d = ascii_digits(s, 8, 2);
  if (!y || !m || !d) return false;
  const int year = static_cast<int>(*y), month = static_cast<int>(*m), day = static_cast<int>(*d);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  static constexpr std::array<int, 12> days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int max = days[static_cast<std::size_t>(month - 1)] + ((month == 2 && leap) ? 1 : 0);
  return day <= max;
}

namespace {

// Days from 1970-01-01 to a proleptic Gregorian date (any year).
long days_from_civil(long y, long m, long d) {
  y -= m <= 2 ? 1 : 0;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long yoe = y - era * 400;
  const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct Ymd {
  long year, month, day;
};

Ymd civil_from_days(long z) {
  z += 719468;
  const long era = (z >= 0 ? z : z - 146096) / 146097;
  const long doe = z - era * 146097;
  const long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long mp = (5 * doy + 2) / 153;
  const long d = doy - (153 * mp + 2) / 5 + 1;
  const long m = mp + (mp < 10 ? 3 : -9);
  return {yoe + era * 400 + (m <= 2 ? 1 : 0), m, d};
}

bool leap_year(long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// Monday = 0 ... Sunday = 6.
long weekday_of(long days) { return ((days % 7) + 7 + 3) % 7; }

std::string format_date(const Ymd& d) {
  char out[64];
  std::snprintf(out, sizeof out, "%04ld-%02ld-%02ld", d.year, d.month, d.day);
  return out;
}

std::optional<std::string> checked_date(const Ymd& d) {
  if (d.year < 1 || d.year > 9999 || d.month < 1 || d.month > 12 || d.day < 1) return std::nullopt;
  static constexpr std::array<long, 12> days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const long max = days[static_cast<std::size_t>(d.month - 1)] + ((d.month == 2 && leap_year(d.year)) ? 1 : 0);
  if (d.day > max) return std::nullopt;
  return format_date(d);
}

}  // namespace

std::optional<long> day_number(std::string_view date) {
  if (!is_real_date(date)) return std::nullopt;
  return days_from_civil(*ascii_digits(date, 0, 4), *ascii_digits(date, 5, 2), *ascii_digits(date, 8, 2));
}

std::optional<std::string> iso_date(std::string_view s) {
  if (s.size() != 7 && s.size() != 8 && s.size() != 10) return std::nullopt;
  const auto year = ascii_digits(s, 0, 4);
  if (!year) return std::nullopt;
  const bool dashed = s[4] == '-';
  std::size_t pos = dashed ? 5 : 4;
  if (pos < s.size() && s[pos] == 'W') {  // ISO week date: YYYY-Www[-D], YYYYWww[D]
    const auto week = ascii_digits(s, pos + 1, 2);
    if (!week) return std::nullopt;
    pos += 3;
    long day = 1;
    if (pos < s.size()) {
      if (dashed && s[pos++] != '-') return std::nullopt;
      const auto d = ascii_digits(s, pos, 1);
      if (!d) return std::nullopt;
      day = *d;
      ++pos;
    }
    if (pos != s.size()) return std::nullopt;
    const long jan1 = days_from_civil(*year, 1, 1);
    if (*week < 1 || *week > 53) return std::nullopt;
    if (*week == 53) {  // a year of 53 weeks starts on a Thursday, or a Wednesday when it is a leap year
      const long first = weekday_of(jan1);
      if (!(first == 3 || (first == 2 && leap_year(*year)))) return std::nullopt;
    }
    if (day < 1 || day > 7) return std::nullopt;
    const long jan4 = jan1 + 3;
    const long week1_monday = jan4 - weekday_of(jan4);
    return checked_date(civil_from_days(week1_monday + (*week - 1) * 7 + day - 1));
  }
  const auto month = ascii_digits(s, pos, 2);
  if (!month) return std::nullopt;
  pos += 2;
  if (dashed && (pos >= s.size() || s[pos++] != '-')) return std::nullopt;
  const auto day = ascii_digits(s, pos, 2);
  if (!day || pos + 2 != s.size()) return std::nullopt;
  return checked_date({*year, *month, *day});
}

std::optional<std::string> py_int(std::string_view s) {
  // int(str) reads Unicode whitespace as space and Unicode decimal digits
  // as ASCII ones, then skips the spaces around the number.
  std::vector<char32_t> cps;
  for (std::size_t pos = 0; pos < s.size();) {
    const std::size_t at = pos;
    const char32_t cp = next_code_point(s, pos);
    if (cp == 0xFFFD && pos == at + 1) return std::nullopt;  // not UTF-8
    cps.push_back(cp);
  }
  std::size_t b = 0, e = cps.size();
  while (b < e && is_space(cps[b])) ++b;
  while (e > b && is_space(cps[e - 1])) --e;
  bool negative = false;
  if (b < e && (cps[b] == '+' || cps[b] == '-')) negative = cps[b++] == '-';
  std::string digits;
  bool after_digit = false;
  for (std::size_t i = b; i < e; ++i) {
    if (cps[i] == '_') {
      if (!after_digit || i + 1 == e) return std::nullopt;  // only between digits
      after_digit = false;
      continue;
    }
    if (!is_decimal(cps[i])) return std::nullopt;
    digits += static_cast<char>('0' + decimal_value(cps[i]));
    after_digit = true;
  }
  if (digits.empty() || !after_digit) return std::nullopt;
  if (digits.size() > 4300) return std::nullopt;  // Python 3.11's int_max_str_digits
  const std::size_t first = std::min(digits.find_first_not_of('0'), digits.size() - 1);
  digits.erase(0, first);
  if (negative && digits != "0") digits.insert(0, 1, '-');
  return digits;
}

std::string py_path_text(std::string_view path) {
  // A leading "//" stays (POSIX leaves it to the system); one or three and more are "/".
  std::string out = path.starts_with("//") && !path.starts_with("///") ? "//" : path.starts_with("/") ? "/" : "";
  const std::size_t root = out.size();
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    const std::string_view part = path.substr(start, slash - start);
    if (!part.empty() && part != ".") {
      if (out.size() > root) out += '/';
      out += part;
    }
    start = slash + 1;
  }
  return out.empty() ? "." : out;
}

}  // namespace lg::util
