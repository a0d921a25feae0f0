// Byte offsets and positions in each unit: universal line ends, astral
// characters (two UTF-16 units, one code point, four bytes), clamping.
#include "ledgergate/fix/line_index.hpp"

#include <catch2/catch.hpp>

namespace lg::test {

TEST_CASE("line index: lines end at LF, CR LF and a lone CR", "[fix]") {
  const fix::LineIndex lines("a\r\nbc\rd\n");
  REQUIRE(lines.line_count() == 4);
  CHECK(lines.line(0) == "a");
  CHECK(lines.eol(0) == "\r\n");
  CHECK(lines.line(1) == "bc");
  CHECK(lines.eol(1) == "\r");
  CHECK(lines.line(2) == "d");
  CHECK(lines.line(3).empty());
  CHECK(lines.eol(3).empty());
  CHECK(lines.first_eol() == "\r\n");
  CHECK(fix::LineIndex("no end").first_eol() == "\n");
  // An offset inside CR LF is the line's end.
  CHECK(lines.position(2, fix::Unit::byte) == fix::Position{0, 1});
}

TEST_CASE("line index: columns in bytes, code points and UTF-16 units", "[fix]") {
  const std::string text = "x\n\xF0\x9F\x98\x80\xC3\xA9z\n";  // x / 😀éz
  const fix::LineIndex lines(text);
  const std::size_t z = text.find('z');
  CHECK(lines.position(z, fix::Unit::byte) == fix::Position{1, 6});
  CHECK(lines.position(z, fix::Unit::code_point) == fix::Position{1, 2});
  CHECK(lines.position(z, fix::Unit::utf16) == fix::Position{1, 3});
  CHECK(lines.offset(fix::Position{1, 3}, fix::Unit::utf16) == z);
  CHECK(lines.offset(fix::Position{1, 2}, fix::Unit::code_point) == z);
  // Inside the emoji's UTF-16 pair: its start.
  CHECK(lines.offset(fix::Position{1, 1}, fix::Unit::utf16) == 2);
  // Past the line's end, past the last line: clamped.
  CHECK(lines.offset(fix::Position{0, 99}, fix::Unit::utf16) == 1);
  CHECK(lines.offset(fix::Position{9, 0}, fix::Unit::utf16) == text.size());
}

}  // namespace lg::test
