// Byte offsets and positions in each unit: universal line ends, astral
// characters (two UTF-16 units, one code point, four bytes), clamping.
#include "ledgergate/util/line_index.hpp"

#include <catch2/catch.hpp>

namespace lg::test {

TEST_CASE("line index: lines end at LF, CR LF and a lone CR", "[util]") {
  const util::LineIndex lines("a\r\nbc\rd\n");
  REQUIRE(lines.line_count() == 4);
  CHECK(lines.line(0) == "a");
  CHECK(lines.eol(0) == "\r\n");
  CHECK(lines.line(1) == "bc");
  CHECK(lines.eol(1) == "\r");
  CHECK(lines.line(2) == "d");
  CHECK(lines.line(3).empty());
  CHECK(lines.eol(3).empty());
  CHECK(lines.first_eol() == "\r\n");
  CHECK(util::LineIndex("no end").first_eol() == "\n");
  // An offset inside CR LF is the line's end.
  CHECK(lines.position(2, util::Unit::byte) == util::Position{0, 1});
}

TEST_CASE("line index: columns in bytes, code points and UTF-16 units", "[util]") {
  const std::string text = "x\n\xF0\x9F\x98\x80\xC3\xA9z\n";  // x / 😀éz
  const util::LineIndex lines(text);
  const std::size_t z = text.find('z');
  CHECK(lines.position(z, util::Unit::byte) == util::Position{1, 6});
  CHECK(lines.position(z, util::Unit::code_point) == util::Position{1, 2});
  CHECK(lines.position(z, util::Unit::utf16) == util::Position{1, 3});
  CHECK(lines.offset(util::Position{1, 3}, util::Unit::utf16) == z);
  CHECK(lines.offset(util::Position{1, 2}, util::Unit::code_point) == z);
  // Inside the emoji's UTF-16 pair: its start.
  CHECK(lines.offset(util::Position{1, 1}, util::Unit::utf16) == 2);
  // Past the line's end, past the last line: clamped.
  CHECK(lines.offset(util::Position{0, 99}, util::Unit::utf16) == 1);
  CHECK(lines.offset(util::Position{9, 0}, util::Unit::utf16) == text.size());
}

}  // namespace lg::test
