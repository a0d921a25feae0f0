#include "ledgergate/ledger/text_file.hpp"

#include <catch2/catch.hpp>
#include <string>

using lg::ledger::decode_text;

TEST_CASE("text file: the first C0 control character is located; tab, LF and CR are not ones", "[ledger][text]") {
  using namespace std::string_literals;
  CHECK_FALSE(decode_text("a\tb\nc\r\nd\re\n").facts.control);
  CHECK_FALSE(decode_text("").facts.control);
  CHECK_FALSE(decode_text("\x7f and é\n").facts.control);  // DEL is not C0

  const auto nul = decode_text("# t\n\nab"s + '\0' + "c\n");
  REQUIRE(nul.facts.control);
  CHECK(nul.facts.control->line == 3);
  CHECK(nul.facts.control->column == 3);
  CHECK(nul.facts.control->code == 0);

  // Columns count code points; CRLF and a lone CR each end one line.
  const auto esc = decode_text("x\r\ny\rdé\x1b[0m\x01\n");
  REQUIRE(esc.facts.control);
  CHECK(esc.facts.control->line == 3);
  CHECK(esc.facts.control->column == 3);
  CHECK(esc.facts.control->code == 0x1b);

  const auto first = decode_text("\x0c\x0b");
  REQUIRE(first.facts.control);
  CHECK(first.facts.control->line == 1);
  CHECK(first.facts.control->column == 1);
  CHECK(first.facts.control->code == 0x0c);
}

TEST_CASE("text file: a control character is found at any offset, among line ends, tabs and UTF-8", "[ledger][text]") {
  // The scan passes over eight bytes at a time: each offset of a word, and
  // the bytes after the last whole word, are tried.
  const std::string filler = "ab\tc\xc3\xa9" "d\ne\r\nfg\xe2\x80\x94" "h";  // tab, LF, CRLF, é, em dash
  for (std::size_t at = 0; at <= 40; ++at) {
    std::string text;
    while (text.size() < at) text += filler;
    text.resize(at);
    const std::string before = text;
    text += '\x1f';
    text += "\x01 after\n";
    int line = 1;  // the control's line, counted the slow way
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (before[i] == '\n' || (before[i] == '\r' && (i + 1 == before.size() || before[i + 1] != '\n'))) ++line;
    }
    const auto file = decode_text(text);  // a UTF-8 sequence cut short is bad UTF-8, sanitised first
    REQUIRE(file.facts.control);
    CHECK(file.facts.control->code == 0x1f);
    CHECK(file.facts.control->line == line);
    CHECK_FALSE(decode_text(before + " none\n").facts.control);
  }
}

