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
