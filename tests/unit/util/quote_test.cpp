#include "ledgergate/util/quote.hpp"

#include <catch2/catch.hpp>

using namespace lg::util;

TEST_CASE("quote: quote_path C-quotes as git's quote_c_style does", "[util][quote]") {
  // Plain names, spaces and valid UTF-8 are printed as they are.
  CHECK(quote_path("projects/a b.md") == "projects/a b.md");
  CHECK(quote_path("projects/caf\u00e9.md") == "projects/caf\u00e9.md");
  // A newline cannot start a fake line, a CR cannot overwrite one.
  CHECK(quote_path("x.md\nHEAD:projects/y.md:1: error: forged") == "\"x.md\\nHEAD:projects/y.md:1: error: forged\"");
  CHECK(quote_path("a\rb\tc") == "\"a\\rb\\tc\"");
  CHECK(quote_path("\a\b\v\f") == "\"\\a\\b\\v\\f\"");
  // ESC and other control bytes, DEL: octal.
  CHECK(quote_path("\x1b[31mred.md") == "\"\\033[31mred.md\"");
  CHECK(quote_path(std::string_view("nul\0x", 5)) == "\"nul\\000x\"");
  CHECK(quote_path("del\x7f") == "\"del\\177\"");
  // Quotes and backslashes are quoted, as git does.
  CHECK(quote_path("say \"hi\".md") == "\"say \\\"hi\\\".md\"");
  CHECK(quote_path("a\\b") == "\"a\\\\b\"");
  // Invalid UTF-8 and the C1 controls (U+009B is a one-byte CSI) are octal.
  CHECK(quote_path("bad\xff.md") == "\"bad\\377.md\"");
  CHECK(quote_path("csi\xc2\x9b" "31m") == "\"csi\\302\\23331m\"");
  CHECK(quote_path("") == "");
}

TEST_CASE("quote: escape_controls escapes what a terminal acts on, nothing else", "[util][quote]") {
  CHECK(escape_controls("renamed \"a\\b\" to c") == "renamed \"a\\b\" to c");
  CHECK(escape_controls("line\nbreak \x1b[2J") == "line\\nbreak \\033[2J");
  CHECK(escape_controls("bad\xc3") == "bad\\303");
}

TEST_CASE("quote: percent_encode_path keeps unreserved bytes and '/', encodes the rest", "[util][quote]") {
  CHECK(percent_encode_path("projects/a-b_c.d~e.md") == "projects/a-b_c.d~e.md");
  CHECK(percent_encode_path("a b#c?d%") == "a%20b%23c%3Fd%25");
  CHECK(percent_encode_path("caf\u00e9\n") == "caf%C3%A9%0A");
  CHECK(percent_encode_path(std::string_view("\0\xff", 2)) == "%00%FF");
}

TEST_CASE("quote: escape_cortex keeps the reference's bytes but what could forge or hide a line", "[util][quote]") {
  // A tab, a backslash and quotes print as they are, with no quotes around.
  CHECK(escape_cortex("projects\\x.md") == "projects\\x.md");
  CHECK(escape_cortex("a\ttab \"q\" 'q'") == "a\ttab \"q\" 'q'");
  CHECK(escape_cortex("caf\u00e9") == "caf\u00e9");
  // LF, CR, ESC, the other C0 controls and DEL are escaped.
  CHECK(escape_cortex("x.md\nHEAD:y: forged") == "x.md\\nHEAD:y: forged");
  CHECK(escape_cortex("a\rb\x1b[31m\a\x01\x7f") == "a\\rb\\033[31m\\a\\001\\177");
  // The C1 controls (U+0085 moves to a new line on a terminal that acts on
  // it) and bytes that are not UTF-8 too.
  CHECK(escape_cortex("nel\xc2\x85" "csi\xc2\x9b") == "nel\\302\\205csi\\302\\233");
  CHECK(escape_cortex("bad\xff") == "bad\\377");
}
