// RawLines: line edits that keep every other byte, line ends included.
#include <catch2/catch.hpp>

#include "../../../src/write/raw_lines.hpp"

using lg::write::RawLines;

TEST_CASE("RawLines splits as universal newlines and gives the bytes back", "[write]") {
  const std::string bytes = "a\r\nb\rc\nd";
  RawLines lines(bytes);
  REQUIRE(lines.size() == 4);
  CHECK(lines.text(1) == "b");
  CHECK(lines.text(3) == "d");
  CHECK(lines.bytes() == bytes);
}

TEST_CASE("RawLines: new lines end as the first line does; the file ends as it did", "[write]") {
  RawLines crlf("x\r\ny\r\n");
  crlf.insert(1, "new");
  CHECK(crlf.bytes() == "x\r\nnew\r\ny\r\n");
  crlf.replace(2, 3, {"tail"});
  CHECK(crlf.bytes() == "x\r\nnew\r\ntail\r\n");
  RawLines open_end("x\ny");
  open_end.replace(1, 2, {"y", "z"});
  CHECK(open_end.bytes() == "x\ny\nz");
  RawLines one("solo");
  one.insert(1, "next");
  CHECK(one.bytes() == "solo\nnext");
}
