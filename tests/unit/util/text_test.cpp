#include "ledgergate/util/text.hpp"

#include <catch2/catch.hpp>

using namespace lg::util;

TEST_CASE("text: universal newlines turn CRLF and a lone CR into line breaks", "[util][text]") {
  CHECK(split_universal_lines("a\r\nb\rc\n") == std::vector<std::string>{"a", "b", "c", ""});
  CHECK(split_universal_lines("") == std::vector<std::string>{""});
}

TEST_CASE("text: strip and split use Python's Unicode whitespace", "[util][text]") {
  CHECK(strip("\u00a0 x \u3000\x1f") == "x");
  CHECK(strip(" \t ") == "");
  CHECK(split_words("a\u2003b  c\u0085d") == std::vector<std::string_view>{"a", "b", "c", "d"});
  CHECK(is_blank("\u2028 \t"));
  CHECK_FALSE(is_blank("\u200b"));  // ZERO WIDTH SPACE is not whitespace in Python
}

TEST_CASE("text: repr follows Python's quoting and escapes", "[util][text]") {
  CHECK(py_repr("nonsense") == "'nonsense'");
  CHECK(py_repr("") == "''");
  CHECK(py_repr("it's") == "\"it's\"");
  CHECK(py_repr("a'b\"c") == "'a\\'b\"c'");
  CHECK(py_repr("tab\there\\") == "'tab\\there\\\\'");
  CHECK(py_repr("\x01\u00a0\u200b\u00e9") == "'\\x01\\xa0\\u200b\u00e9'");
  CHECK(py_list_repr({"a", "Not A Verb"}) == "['a', 'Not A Verb']");
}

TEST_CASE("text: dash normalisation replaces only spaced double hyphens", "[util][text]") {
  CHECK(dash("a -- b--c -- d") == "a \u2014 b--c \u2014 d");
}

TEST_CASE("text: UTF-8 validation finds the first bad byte and its line", "[util][text]") {
  CHECK_FALSE(find_invalid_utf8("ok \u2014 fine\n").has_value());
  const auto bad = find_invalid_utf8("line1\nline2 \xff\n");
  REQUIRE(bad);
  CHECK(bad->line == 2);
  CHECK(bad->offset == 12);
  CHECK(find_invalid_utf8("\xed\xa0\x80").has_value());  // a surrogate
  CHECK(find_invalid_utf8("\xc0\xaf").has_value());      // an overlong '/'
  CHECK(sanitize_utf8("a\xffz") == "a\ufffdz");
}

TEST_CASE("text: dates are calendar-checked and ASCII only", "[util][text]") {
  CHECK(is_real_date("2026-09-01"));
  CHECK(is_real_date("2024-02-29"));
  CHECK_FALSE(is_real_date("2026-02-29"));
  CHECK_FALSE(is_real_date("2026-02-30"));
  CHECK_FALSE(is_real_date("2026-13-01"));
  CHECK_FALSE(is_real_date("0000-01-01"));
  CHECK(is_date_shape("\uff12\uff10\uff12\uff16-09-01"));  // Python's \d takes fullwidth digits
  CHECK_FALSE(is_real_date("\uff12\uff10\uff12\uff16-09-01"));
  CHECK(has_non_ascii_digit("\u0663"));
  CHECK_FALSE(has_non_ascii_digit("2026"));
}

TEST_CASE("text: code point classes match Python", "[util][text]") {
  CHECK(is_word(U'\u00e9'));
  CHECK(is_word(U'_'));
  CHECK_FALSE(is_word(U'-'));
  CHECK(is_decimal(U'\u0966'));
  CHECK_FALSE(is_decimal(U'\u00b2'));  // superscript two is a digit but not decimal
  CHECK(is_space(U'\u0085'));
  CHECK_FALSE(is_printable(U'\u00ad'));
}

TEST_CASE("text: iso_date reads what Python 3.11's date.fromisoformat reads", "[util][text]") {
  CHECK(iso_date("2026-09-03") == "2026-09-03");
  CHECK(iso_date("20260903") == "2026-09-03");
  // ISO week dates: a missing day is Monday; week 1 holds January 4th.
  CHECK(iso_date("2026-W41-1") == "2026-10-05");
  CHECK(iso_date("2026W411") == "2026-10-05");
  CHECK(iso_date("2026-W41") == "2026-10-05");
  CHECK(iso_date("2026W41") == "2026-10-05");
  CHECK(iso_date("2026-W01-1") == "2025-12-29");  // a week of the year before
  CHECK(iso_date("2020-W53-7") == "2021-01-03");  // 2020 starts on a Wednesday and is a leap year
  CHECK(iso_date("2026-W53-1") == "2026-12-28");  // 2026 starts on a Thursday
  CHECK(iso_date("0001-01-01") == "0001-01-01");
  for (const char* bad : {"2025-W53", "2026-W00", "2026-W41-8", "2026-W41-0", "2026-02-30", "0000-01-01",
                          "2026-9-3", "2026-09-3", "2026/09/03", " 2026-09-03", "2026-09-03 ", "2026-0903",
                          "202609-03", "2026W41-1", "2026-W411", "2026-09", "2026", "", "yesterday",
                          "\xd9\xa2\xd9\xa0\xd9\xa2\xd9\xa6-09-03"}) {
    INFO(bad);
    CHECK_FALSE(iso_date(bad));
  }
}

TEST_CASE("text: py_int reads what Python's int(str) reads", "[util][text]") {
  CHECK(py_int("5") == "5");
  CHECK(py_int("-1") == "-1");
  CHECK(py_int("+7") == "7");
  CHECK(py_int(" 1_0 ") == "10");
  CHECK(py_int("007") == "7");
  CHECK(py_int("-0") == "0");
  CHECK(py_int("\xd9\xa3") == "3");  // ARABIC-INDIC DIGIT THREE
  CHECK(py_int("\xe3\x80\x80" "12\n") == "12");  // U+3000 and LF are whitespace
  CHECK(py_int("99999999999999999999999") == "99999999999999999999999");
  for (const char* bad : {"", " ", "x", "1.0", "1__0", "_1", "1_", "- 1", "+-1", "0x10", "1e3", "--1"}) {
    INFO(bad);
    CHECK_FALSE(py_int(bad));
  }
  CHECK_FALSE(py_int(std::string(4301, '1')));  // past int_max_str_digits
  CHECK(py_int(std::string(4300, '1')));
}

TEST_CASE("text: py_path_text prints a path as pathlib does", "[util][text]") {
  CHECK(py_path_text("/a//x/./y/") == "/a/x/y");
  CHECK(py_path_text("./nonexist") == "nonexist");
  CHECK(py_path_text("//srv/x") == "//srv/x");
  CHECK(py_path_text("///srv") == "/srv");
  CHECK(py_path_text("a/../b") == "a/../b");
  CHECK(py_path_text("") == ".");
  CHECK(py_path_text(".") == ".");
  CHECK(py_path_text("/") == "/");
}
