// YAML loading with PyYAML `safe_load` semantics: the PyYAML grammar port
// (yaml_grammar.cpp) composes the document, then a constructor pass types each
// node as SafeConstructor would; also the Python views of the result (str(),
// repr(), dict items with Python key equality).
#include "ledgergate/ledger/yaml_doc.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ledgergate/util/text.hpp"
#include "yaml_grammar.hpp"

namespace lg::ledger {
namespace {

using grammar::char_repr;
using grammar::k_yaml_tag_prefix;
using grammar::str_repr;

// ===========================================================================
// Python values of YAML 1.1 scalars.
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
  const std::string bad = "invalid literal for int() with base " + std::to_string(base) + ": " + str_repr(text);
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
PyInt construct_int(std::string_view text) {
  std::string value(text);
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
  const std::string bad = "could not convert string to float: " + str_repr(text);
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
double construct_float(std::string_view text) {
  std::string value(text);
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
// SafeConstructor.
// ===========================================================================

// The tags SafeConstructor knows (and `merge`/`value`, which only the
// resolver and flatten_mapping use); `other` is any other tag.
enum class TagId : std::uint8_t {
  null,
  bool_,
  int_,
  float_,
  binary,
  timestamp,
  str,
  seq,
  omap,
  pairs,
  map,
  set,
  merge,
  value,
  other
};

constexpr std::array<std::string_view, 14> k_tag_names = {"null",      "bool", "int",   "float", "binary",
                                                          "timestamp", "str",  "seq",   "omap",  "pairs",
                                                          "map",       "set",  "merge", "value"};

TagId tag_id(std::string_view tag) {
  if (!util::starts_with(tag, k_yaml_tag_prefix)) return TagId::other;
  const std::string_view name = tag.substr(k_yaml_tag_prefix.size());
  const auto it = std::find(k_tag_names.begin(), k_tag_names.end(), name);
  return it == k_tag_names.end() ? TagId::other : static_cast<TagId>(it - k_tag_names.begin());
}

std::string tag_text(TagId id) {
  return std::string(k_yaml_tag_prefix) + std::string(k_tag_names[static_cast<std::size_t>(id)]);
}

bool is_scalar_tag(TagId id) { return id <= TagId::str; }

// The first characters of PyYAML's implicit resolvers (but merge, null and value).
bool starts_bool(char c) {
  const char lower = static_cast<char>(c | 0x20);  // only letters map onto these
  return lower == 'y' || lower == 'n' || lower == 't' || lower == 'f' || lower == 'o';
}
bool starts_number(char c) { return is_digit(c) || c == '-' || c == '+'; }

// BaseResolver.resolve for a plain scalar.
TagId resolve_plain(std::string_view value) {
  if (value.empty()) return TagId::null;
  const std::string_view v = dollar_body(value);
  const char c = value[0];
  static constexpr std::array<std::string_view, 18> k_bools = {"yes",  "Yes",  "YES",  "no",    "No",    "NO",
                                                               "true", "True", "TRUE", "false", "False", "FALSE",
                                                               "on",   "On",   "ON",   "off",   "Off",   "OFF"};
  if (starts_bool(c) && std::find(k_bools.begin(), k_bools.end(), v) != k_bools.end()) {
    return TagId::bool_;
  }
  if ((starts_number(c) || c == '.') && match_float(v)) return TagId::float_;
  if (starts_number(c) && match_int(v)) return TagId::int_;
  if (c == '<' && v == "<<") return TagId::merge;
  if ((c == '~' || c == 'n' || c == 'N') && (v == "~" || v == "null" || v == "Null" || v == "NULL")) {
    return TagId::null;
  }
  if (is_digit(c) && match_timestamp(v)) return TagId::timestamp;
  if (c == '=' && v == "=") return TagId::value;
  return TagId::str;
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

void append(std::vector<YamlEntry>& out, std::span<const YamlEntry> entries) {
  out.insert(out.end(), entries.begin(), entries.end());
}
std::vector<YamlEntry> to_vector(std::span<const YamlEntry> entries) { return {entries.begin(), entries.end()}; }

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
  // The node's tag as PyYAML's composer resolved it.
  static TagId effective_tag(const YamlNode& n) {
    if (!n.tag().empty()) return tag_id(n.tag());
    switch (n.kind) {
      case YamlKind::null:
        return TagId::null;
      case YamlKind::sequence:
        return TagId::seq;
      case YamlKind::mapping:
        return TagId::map;
      case YamlKind::scalar:
        break;
    }
    return n.quoted ? TagId::str : resolve_plain(n.text());
  }

  void construct_object(const YamlNode& node) {
    if (node.id < m_seen.size() && m_seen[node.id]) return;
    if (node.id >= m_seen.size()) m_seen.resize(node.id + 1);
    m_seen[node.id] = true;
    YamlNode& n = m_doc.mutable_node(node);
    const TagId tag = effective_tag(n);
    if (tag == TagId::seq || tag == TagId::omap || tag == TagId::pairs) {
      n.type = PyType::list;
      n.tuples = tag != TagId::seq;
    } else if (tag == TagId::map || tag == TagId::set) {
      n.type = tag == TagId::map ? PyType::dict : PyType::set;
    } else {
      construct_scalar(n, tag);
      return;
    }
    m_queue.push_back(&n);
  }

  [[noreturn]] static void unknown_tag(const YamlNode& n, TagId tag) {
    const std::string text = n.tag().empty() ? tag_text(tag) : n.tag();
    construct_fail(n.line, "could not determine a constructor for the tag " + str_repr(text));
  }

  static void construct_scalar(YamlNode& n, TagId tag) {
    if (!is_scalar_tag(tag)) unknown_tag(n, tag);
    if (!is_scalar_node(n)) construct_fail(n.line, "expected a scalar node, but found " + std::string(node_id(n)));
    set_scalar(n, tag);
  }

  static void set_value(YamlNode& n, PyType type, std::string str, std::string repr, std::string key) {
    n.type = type;
    YamlNode::Extra& x = n.mutable_extra();
    x.scalar_str = std::move(str);
    x.scalar_repr = std::move(repr);
    x.dict_key = std::move(key);
  }

  static void set_scalar(YamlNode& n, TagId tag) {
    switch (tag) {
      case TagId::null:
        return set_value(n, PyType::none, "None", "None", "N");
      case TagId::str:  // str(), repr() and the dict key derive from the text on demand
        n.type = PyType::str;
        return;
      case TagId::bool_:
        return set_bool(n);
      case TagId::int_: {
        const std::string v = int_text(construct_int(n.text()));
        return set_value(n, PyType::int_, v, v, "I" + v);
      }
      case TagId::float_: {
        const double v = construct_float(n.text());
        const bool singleton_nan = std::isnan(v);  // PyYAML's nan_value is one object
        return set_value(n, PyType::float_, float_repr(v), float_repr(v),
                         singleton_nan && !is_dot_nan(n.text()) ? "NaN#" + std::to_string(n.id) : float_key(v));
      }
      case TagId::timestamp:
        return set_timestamp(n);
      default:
        return set_binary(n);
    }
  }
  static bool is_dot_nan(std::string_view text) {
    std::string v;
    for (char c : text) {
      if (c != '_') v += static_cast<char>(c >= 'A' && c <= 'Z' ? c | 0x20 : c);
    }
    return v == ".nan" || v == "+.nan" || v == "-.nan";
  }
  static void set_bool(YamlNode& n) {
    std::string lower(n.text());
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c | 0x20 : c); });
    bool v = false;
    if (lower == "yes" || lower == "true" || lower == "on") {
      v = true;
    } else if (lower != "no" && lower != "false" && lower != "off") {
      throw ConstructError{0, str_repr(lower)};  // KeyError
    }
    set_value(n, PyType::bool_, v ? "True" : "False", v ? "True" : "False", v ? "I1" : "I0");
  }
  static void set_timestamp(YamlNode& n) {
    const auto t = parse_timestamp(n.text());
    if (!t) throw ConstructError{0, "'NoneType' object has no attribute 'groupdict'"};
    check_timestamp(*t);
    set_value(n, t->has_time ? PyType::datetime : PyType::date, timestamp_str(*t), timestamp_repr(*t),
              timestamp_key(*t));
  }
  static void set_binary(YamlNode& n) {
    std::size_t index = 0;
    for (std::size_t pos = 0; pos < n.text().size(); ++index) {
      const char32_t c = util::next_code_point(n.text(), pos);
      if (c >= 0x80) {
        throw ConstructError{n.line, "failed to convert base64 data into ascii: 'ascii' codec can't encode character " +
                                         char_repr(c) + " in position " + std::to_string(index) +
                                         ": ordinal not in range(128)"};
      }
    }
    try {
      const std::string bytes = decode_base64(n.text());
      set_value(n, PyType::bytes, bytes_repr(bytes), bytes_repr(bytes), "B" + bytes);
    } catch (const std::string& e) {
      throw ConstructError{n.line, "failed to decode base64 data: " + e};
    }
  }

  void fill_collection(const YamlNode& node) {
    YamlNode& n = m_doc.mutable_node(node);
    const TagId tag = effective_tag(n);
    if (tag == TagId::seq) {
      if (n.kind != YamlKind::sequence) {
        construct_fail(n.line, "expected a sequence node, but found " + std::string(node_id(n)));
      }
      for (const YamlNode* item : n.items()) construct_object(*item);
    } else if (tag == TagId::map || tag == TagId::set) {
      construct_mapping(n);
    } else {
      construct_pairs(n);
    }
  }

  void construct_pairs(const YamlNode& n) {
    if (n.kind != YamlKind::sequence) {
      construct_fail(n.line, "expected a sequence, but found " + std::string(node_id(n)));
    }
    for (const YamlNode* sub : n.items()) {
      if (sub->kind != YamlKind::mapping) {
        construct_fail(sub->line, "expected a mapping of length 1, but found " + std::string(node_id(*sub)));
      }
      if (sub->entries().size() != 1) {
        construct_fail(sub->line,
                       "expected a single mapping item, but found " + std::to_string(sub->entries().size()) + " items");
      }
      for (const YamlEntry& only : sub->entries()) {
        construct_object(*only.key);
        construct_object(*only.value);
      }
    }
  }

  void construct_mapping(YamlNode& n) {
    if (n.kind == YamlKind::mapping) flatten_mapping(n, 0);
    if (n.kind != YamlKind::mapping) {
      construct_fail(n.line, "expected a mapping node, but found " + std::string(node_id(n)));
    }
    for (const YamlEntry& e : n.entries()) {
      construct_object(*e.key);
      if (!hashable(e.key->type)) construct_fail(e.key->line, "found unhashable key");
      construct_object(*e.value);
    }
  }

  // SafeConstructor.flatten_mapping: `<<` merge keys, `=` value keys.
  void flatten_mapping(YamlNode& n, int depth) {
    if (depth > 400) throw ConstructError{0, "maximum recursion depth exceeded"};
    std::vector<YamlEntry> merge;
    for (std::size_t i = 0; i < n.entries().size();) {
      const YamlEntry e = n.entries()[i];
      const TagId key_tag = effective_tag(*e.key);
      if (key_tag == TagId::merge) {
        // `del node.value[index]` before the value is flattened (it may be
        // this very mapping); the old span stays valid, arenas never move.
        std::vector<YamlEntry> rest = to_vector(n.entries());
        rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
        m_doc.set_entries(n, rest);
        merge_value(*e.value, merge, depth);
        continue;
      }
      if (key_tag == TagId::value) m_doc.mutable_node(*e.key).mutable_extra().tag = tag_text(TagId::str);
      ++i;
    }
    if (merge.empty()) return;
    drop_repeated_pairs(merge);
    for (YamlEntry& e : merge) e.merged = true;
    append(merge, n.entries());
    m_doc.set_entries(n, merge);
  }
  // The same entry merged in again (a mapping merged through several
  // aliases, at several levels) only between its first and its last
  // occurrence is dropped: a dict keeps each key's first position and last
  // value, so what it reads is unchanged, and merges nested through aliases
  // (PyYAML's list grows ninefold per level for `<<: [*a, *a, ...]`) stay
  // as long as the document's distinct entries.
  static void drop_repeated_pairs(std::vector<YamlEntry>& merge) {
    struct Seen {
      std::size_t first, last;
    };
    const auto pair_key = [](const YamlEntry& e) {
      return std::pair<const YamlNode*, const YamlNode*>(e.key, e.value);
    };
    std::map<std::pair<const YamlNode*, const YamlNode*>, Seen> seen;
    for (std::size_t i = 0; i < merge.size(); ++i) {
      auto [it, fresh] = seen.try_emplace(pair_key(merge[i]), Seen{i, i});
      if (!fresh) it->second.last = i;
    }
    if (seen.size() == merge.size()) return;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < merge.size(); ++i) {
      const Seen& s = seen.at(pair_key(merge[i]));
      if (i == s.first || i == s.last) merge[kept++] = merge[i];
    }
    merge.resize(kept);
  }

  void merge_value(const YamlNode& value, std::vector<YamlEntry>& merge, int depth) {
    if (value.kind == YamlKind::mapping) {
      YamlNode& v = m_doc.mutable_node(value);
      flatten_mapping(v, depth + 1);
      append(merge, v.entries());
      return;
    }
    if (value.kind != YamlKind::sequence) {
      construct_fail(value.line,
                     "expected a mapping or list of mappings for merging, but found " + std::string(node_id(value)));
    }
    std::vector<const YamlNode*> submerge;  // their entries as they are once all are flattened
    for (const YamlNode* sub : value.items()) {
      if (sub->kind != YamlKind::mapping) {
        construct_fail(sub->line, "expected a mapping for merging, but found " + std::string(node_id(*sub)));
      }
      YamlNode& s = m_doc.mutable_node(*sub);
      flatten_mapping(s, depth + 1);
      submerge.push_back(&s);
    }
    for (auto it = submerge.rbegin(); it != submerge.rend(); ++it) append(merge, (*it)->entries());
  }

  YamlDoc& m_doc;
  std::vector<bool> m_seen;
  std::deque<const YamlNode*> m_queue;
};

// ===========================================================================
// Python str()/repr() of collections, bounded.
// ===========================================================================

bool is_collection(const YamlNode& n) {
  return n.type == PyType::list || n.type == PyType::dict || n.type == PyType::set;
}

std::string scalar_repr(const YamlNode& n) { return n.type == PyType::str ? str_repr(n.text()) : n.extra->scalar_repr; }

std::string_view recursion_mark(const YamlNode& n) { return n.type == PyType::list ? "[...]" : "{...}"; }

// A rendering that stops growing once it is past `limit` bytes: the walk
// below a shared node is abandoned as soon as the text is long enough to
// be cut, so an alias that expands to gigabytes costs the limit.
struct Rendering {
  std::string out;
  std::size_t limit;
  bool full() const { return out.size() > limit; }
};

void append_repr(Rendering& r, const YamlNode& n, std::vector<const YamlNode*>& path);

void append_dict(Rendering& r, const YamlNode& n, std::vector<const YamlNode*>& path) {
  r.out += '{';
  bool first = true;
  for (const PyDictItem& item : py_dict_items(n)) {
    if (r.full()) return;
    if (!first) r.out += ", ";
    first = false;
    append_repr(r, *item.key, path);
    if (n.type == PyType::dict) {
      r.out += ": ";
      append_repr(r, *item.value, path);
    }
  }
  r.out += '}';
}

void append_item(Rendering& r, const YamlNode& list, std::size_t i, std::vector<const YamlNode*>& path) {
  const YamlNode& item = *list.items()[i];
  const std::span<const YamlEntry> entries = item.entries();
  if (list.tuples && !entries.empty()) {
    const YamlEntry& pair = entries.front();
    r.out += '(';
    append_repr(r, *pair.key, path);
    r.out += ", ";
    append_repr(r, *pair.value, path);
    r.out += ')';
  } else {
    append_repr(r, item, path);
  }
}

void append_list(Rendering& r, const YamlNode& n, std::vector<const YamlNode*>& path) {
  r.out += '[';
  for (std::size_t i = 0; i < n.items().size(); ++i) {
    if (r.full()) return;
    if (i > 0) r.out += ", ";
    append_item(r, n, i, path);
  }
  r.out += ']';
}

void append_repr(Rendering& r, const YamlNode& n, std::vector<const YamlNode*>& path) {
  if (r.full()) return;
  if (!is_collection(n)) {
    r.out += scalar_repr(n);
    return;
  }
  if (std::find(path.begin(), path.end(), &n) != path.end()) {
    r.out += recursion_mark(n);
    return;
  }
  path.push_back(&n);
  if (n.type == PyType::list) {
    append_list(r, n, path);
  } else if (n.type == PyType::set && py_dict_items(n).empty()) {
    r.out += "set()";
  } else {
    append_dict(r, n, path);
  }
  path.pop_back();
}

// A polynomial hash of a text modulo 2^61 - 1, with base^length: two
// texts' digests combine into their concatenation's, so a rendering's
// digest is built from its parts' without the text.
struct TextDigest {
  static constexpr std::uint64_t k_mod = (std::uint64_t{1} << 61) - 1;
  static constexpr std::uint64_t k_base = 0x1f3a5c7e9b1d;  // < k_mod
  std::uint64_t hash = 0;
  std::uint64_t power = 1;  // k_base^length

  __extension__ using Wide = unsigned __int128;
  static std::uint64_t mul(std::uint64_t a, std::uint64_t b) {
    const Wide p = static_cast<Wide>(a) * b;
    const std::uint64_t folded = static_cast<std::uint64_t>(p & k_mod) + static_cast<std::uint64_t>(p >> 61);
    return folded >= k_mod ? folded - k_mod : folded;
  }
  static TextDigest of(std::string_view text) {
    TextDigest d;
    for (const char c : text) {
      d.hash = mul(d.hash, k_base) + static_cast<unsigned char>(c) + 1;
      if (d.hash >= k_mod) d.hash -= k_mod;
      d.power = mul(d.power, k_base);
    }
    return d;
  }
  void append(const TextDigest& tail) {
    hash = mul(hash, tail.power) + tail.hash;
    if (hash >= k_mod) hash -= k_mod;
    power = mul(power, tail.power);
  }
};

}  // namespace

// What a collection's rendering is made of, in order: literal pieces and
// the nodes rendered between them.
struct PyRender::Piece {
  std::string_view text;           // when `node` is null
  const YamlNode* node = nullptr;
};

std::vector<PyRender::Piece> PyRender::pieces(const YamlNode& n) {
  std::vector<Piece> out;
  if (n.type == PyType::list) {
    out.push_back({"["});
    for (std::size_t i = 0; i < n.items().size(); ++i) {
      if (i > 0) out.push_back({", "});
      const YamlNode& item = *n.items()[i];
      if (n.tuples && !item.entries().empty()) {
        const YamlEntry& pair = item.entries().front();
        out.insert(out.end(), {{"("}, {{}, pair.key}, {", "}, {{}, pair.value}, {")"}});
      } else {
        out.push_back({{}, &item});
      }
    }
    out.push_back({"]"});
    return out;
  }
  const std::vector<PyDictItem> items = py_dict_items(n);
  if (n.type == PyType::set && items.empty()) return {{"set()"}};
  out.push_back({"{"});
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out.push_back({", "});
    out.push_back({{}, items[i].key});
    if (n.type == PyType::dict) out.insert(out.end(), {{": "}, {{}, items[i].value}});
  }
  out.push_back({"}"});
  return out;
}

// The digest of the rendering of `root` (pieces rendered inside
// `context`, null for none), each node's computed once (a node reached
// again, through an alias, adds its digest, not its walk) and without
// recursion (a chain of aliases may be deeper than the stack). A node that
// is its own ancestor renders as Python's "[...]"; which node that is
// depends on the path, so below a cycle a node's digest is the one of the
// first path that reached it: equal documents still digest equally.
std::uint64_t PyRender::digest(const YamlNode* context, std::vector<Piece> root) {
  struct Frame {
    const YamlNode* node;
    bool keep;  // a node's digest, kept for the next time it is reached
    std::vector<Piece> pieces;
    std::size_t next = 0;
    TextDigest acc = {};
  };
  std::vector<Frame> stack;
  std::unordered_set<const YamlNode*> open;  // the nodes on the stack
  stack.push_back(Frame{context, false, std::move(root)});
  open.insert(context);
  for (;;) {
    Frame& top = stack.back();
    if (top.next == top.pieces.size()) {
      const TextDigest done = top.acc;
      if (top.keep) m_digests.emplace(top.node->id, Digest{done.hash, done.power});
      open.erase(top.node);
      stack.pop_back();
      if (stack.empty()) return done.hash;
      stack.back().acc.append(done);
      continue;
    }
    const Piece piece = top.pieces[top.next++];
    if (!piece.node) {
      top.acc.append(TextDigest::of(piece.text));
      continue;
    }
    const YamlNode& n = *piece.node;
    if (!is_collection(n)) {
      top.acc.append(TextDigest::of(scalar_repr(n)));
    } else if (const auto it = m_digests.find(n.id); it != m_digests.end()) {
      top.acc.append(TextDigest{it->second.hash, it->second.power});
    } else if (open.count(&n) != 0) {
      top.acc.append(TextDigest::of(recursion_mark(n)));
    } else {
      open.insert(&n);
      stack.push_back(Frame{&n, true, pieces(n)});
    }
  }
}

std::string PyRender::repr(const YamlNode& n) {
  if (!is_collection(n)) return scalar_repr(n);
  Rendering r{{}, k_yaml_render_limit};
  std::vector<const YamlNode*> path;
  append_repr(r, n, path);
  if (r.out.size() <= k_yaml_render_limit) return std::move(r.out);
  return cut(std::move(r.out), digest(nullptr, {{{}, &n}}));
}

std::string PyRender::str(const YamlNode& n) {
  if (is_collection(n)) return repr(n);
  return n.type == PyType::str ? std::string(n.text()) : n.extra->scalar_str;
}

std::string PyRender::item_repr(const YamlNode& list, std::size_t i) {
  Rendering r{{}, k_yaml_render_limit};
  std::vector<const YamlNode*> path{&list};
  append_item(r, list, i, path);
  if (r.out.size() <= k_yaml_render_limit) return std::move(r.out);
  const YamlNode& item = *list.items()[i];
  std::vector<Piece> whole{{{}, &item}};
  if (list.tuples && !item.entries().empty()) {
    const YamlEntry& pair = item.entries().front();
    whole = {{"("}, {{}, pair.key}, {", "}, {{}, pair.value}, {")"}};
  }
  return cut(std::move(r.out), digest(&list, std::move(whole)));
}

// A rendering past the limit, cut at it (on a UTF-8 boundary) and ended
// by the whole rendering's digest: renderings that differ anywhere still
// differ (a value's repr is the identity open-requirements versions are
// compared by).
std::string PyRender::cut(std::string text, std::uint64_t whole) {
  std::size_t at = k_yaml_render_limit;
  while (at > 0 && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
  text.resize(at);
  char tail[96];
  std::snprintf(tail, sizeof tail, " ... [cut at %zu bytes; fingerprint %016llx]", k_yaml_render_limit,
                static_cast<unsigned long long>(whole));
  return text + tail;
}

// ===========================================================================
// Public API.
// ===========================================================================

namespace {
std::uint32_t span_size(std::size_t n) {
  if (n > UINT32_MAX) throw std::length_error("node too large");
  return static_cast<std::uint32_t>(n);
}
}  // namespace

void YamlDoc::set_text(YamlNode& n, std::string_view text) {
  n.m_size = span_size(text.size());
  const std::less<const char*> before;
  if (!m_source.empty() && !before(text.data(), m_source.data()) &&
      !before(m_source.data() + m_source.size(), text.data() + text.size())) {
    n.m_data = text.data();
    return;
  }
  const std::span<char> at = m_texts.allocate(text.size());
  std::copy(text.begin(), text.end(), at.begin());
  n.m_data = at.data();
}

void YamlDoc::clear() {
  for (std::size_t i = 0; i < std::min(m_size, k_block); ++i) m_blocks[0][i] = YamlNode();
  if (m_blocks.size() > 1) m_blocks.resize(1);
  m_size = 0;
  m_root = nullptr;
  m_texts.clear();
  m_items.clear();
  m_entries.clear();
}

void YamlDoc::set_items(YamlNode& n, std::span<const YamlNode* const> items) {
  n.m_size = span_size(items.size());
  const std::span<const YamlNode*> at = m_items.allocate(items.size());
  std::copy(items.begin(), items.end(), at.begin());
  n.m_data = at.data();
}

void YamlDoc::set_entries(YamlNode& n, std::span<const YamlEntry> entries) {
  n.m_size = span_size(entries.size());
  const std::span<YamlEntry> at = m_entries.allocate(entries.size());
  std::copy(entries.begin(), entries.end(), at.begin());
  n.m_data = at.data();
}

YamlLoad load_yaml(std::string_view text, YamlTexts texts) {
  YamlLoad result;
  if (texts == YamlTexts::borrowed) result.doc.borrow(text);
  try {
    result.error = grammar::compose(text, result.doc);
    if (!result.error && result.doc.root()) Constructor(result.doc).run(*result.doc.root());
  } catch (const ConstructError& e) {
    result.error = YamlError{e.line, e.text};
  } catch (const std::exception& e) {
    result.error = YamlError{0, e.what()};
  }
  if (result.error) result.doc.set_root(nullptr);
  return result;
}

bool load_yaml_entries(std::string_view text, YamlTexts texts, const std::function<bool(const YamlEntry&)>& each,
                       int first_line) {
  YamlDoc doc;
  if (texts == YamlTexts::borrowed) doc.borrow(text);
  try {
    return grammar::compose_entries(
        text, doc,
        [&](YamlDoc& d) {
          const YamlNode* root = d.root();
          if (!root || root->entries().size() != 1) return false;
          Constructor(d).run(*root);
          return each(root->entries()[0]);
        },
        first_line);
  } catch (const ConstructError&) {
    return false;
  } catch (const std::exception&) {
    return false;
  }
}

bool yaml_simple_input(std::string_view text) { return grammar::simple_input(text); }

std::optional<std::size_t> root_entry_cut(std::string_view text, std::size_t near) {
  std::optional<std::size_t> root;  // the first read line's indentation
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
    // The simple reader skips a line of spaces and a comment line.
    if (indent < line.size() && line[indent] != '#') {
      if (!root) {
        root = indent;
      } else if (pos >= near && indent == *root) {
        return pos;
      }
    }
    pos = end + 1;
    // Once the root's indentation is known, the lines before `near` are not read.
    if (root && pos < near) {
      const std::size_t before = text.rfind('\n', near - 1);
      if (before != std::string_view::npos && before + 1 > pos) pos = before + 1;
    }
  }
  return std::nullopt;
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

std::string py_repr(const YamlNode& n) { return PyRender().repr(n); }
std::string py_str(const YamlNode& n) { return PyRender().str(n); }
std::string py_item_repr(const YamlNode& list, std::size_t i) { return PyRender().item_repr(list, i); }

std::optional<std::string> utf8_decode_error(std::string_view bytes) {
  const auto bad = grammar::first_bad_utf8(bytes);
  if (!bad) return std::nullopt;
  return grammar::utf8_error_text(bytes, *bad);
}

namespace {
// The equality class of a hashable value as a dict key ("Sx" for 'x', "I1"
// for 1, 1.0 and True); str nodes derive theirs from the text.
std::string dict_key_of(const YamlNode& n) { return n.type == PyType::str ? "S" + std::string(n.text()) : n.extra->dict_key; }
// dict_key_of(a) == dict_key_of(b), without building two strings for two str keys.
bool same_dict_key(const YamlNode& a, const YamlNode& b) {
  if (a.type == PyType::str && b.type == PyType::str) return a.text() == b.text();
  return dict_key_of(a) == dict_key_of(b);
}
}  // namespace

std::vector<PyDictItem> py_dict_items(const YamlNode& mapping) {
  std::vector<PyDictItem> items;
  if (mapping.kind != YamlKind::mapping) return items;
  items.reserve(mapping.entries().size());
  // Small mappings (a row's fields) compare keys directly; large ones hash.
  constexpr std::size_t k_linear = 24;
  const bool linear = mapping.entries().size() <= k_linear;
  std::unordered_map<std::string, std::size_t> index;
  if (!linear) index.reserve(mapping.entries().size());
  for (const YamlEntry& e : mapping.entries()) {
    // Unhashable keys cannot occur in a constructed document; keep them apart.
    std::size_t at = items.size();
    if (hashable(e.key->type)) {
      if (linear) {
        for (std::size_t i = 0; i < items.size(); ++i) {
          if (hashable(items[i].key->type) && same_dict_key(*items[i].key, *e.key)) {
            at = i;
            break;
          }
        }
      } else {
        at = index.emplace(dict_key_of(*e.key), items.size()).first->second;
      }
    }
    if (at == items.size()) items.push_back(PyDictItem{e.key, e.value, {}});
    PyDictItem& item = items[at];
    item.value = e.value;
    item.occurrences.push_back(&e);
  }
  return items;
}

}  // namespace lg::ledger

// The node's packing (see yaml_node.hpp), on a 64-bit target.
static_assert(sizeof(void*) != 8 || sizeof(lg::ledger::YamlNode) <= 40);
