#include "ledgergate/util/json.hpp"

#include <catch2/catch.hpp>

using namespace lg::util;

namespace {
const std::string k_fffd = "\xef\xbf\xbd";  // U+FFFD in UTF-8
}

TEST_CASE("json: strings escape quotes, backslashes and every control character", "[util][json]") {
  CHECK(json_string("") == "\"\"");
  CHECK(json_string("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(json_string("\n\r\t") == "\"\\n\\r\\t\"");
  CHECK(json_string(std::string("\x00\x01\x08\x0c\x1f", 5)) == "\"\\u0000\\u0001\\u0008\\u000c\\u001f\"");
  // DEL, '/' and non-ASCII text are not control characters: they stay as they are.
  CHECK(json_string("\x7f/\xc3\xa9\xe2\x82\xac") == "\"\x7f/\xc3\xa9\xe2\x82\xac\"");
}

TEST_CASE("json: invalid UTF-8 becomes one U+FFFD per invalid byte", "[util][json]") {
  CHECK(json_string("projects/\xff.md") == "\"projects/" + k_fffd + ".md\"");
  CHECK(json_string("\xe2\x82") == "\"" + k_fffd + k_fffd + "\"");               // a truncated sequence
  CHECK(json_string("\xc0\xaf") == "\"" + k_fffd + k_fffd + "\"");               // an overlong '/'
  CHECK(json_string("\xed\xa0\x80") == "\"" + k_fffd + k_fffd + k_fffd + "\"");  // a surrogate
  CHECK(json_string("\xff\n") == "\"" + k_fffd + "\\n\"");                        // then escaped as usual
}

TEST_CASE("json: the writer nests inline containers with \", \" and \": \"", "[util][json]") {
  JsonWriter w;
  w.begin_object().key("a").number(1).key("b").begin_array().number(-2).boolean(true).null().string("x");
  w.end_array().key("c").begin_object().end_object().key("d").begin_array().end_array();
  w.key("e").begin_object().key("f").number(std::size_t{18446744073709551615u}).end_object().end_object();
  CHECK(w.str() == "{\"a\": 1, \"b\": [-2, true, null, \"x\"], \"c\": {}, \"d\": [], \"e\": {\"f\": 18446744073709551615}}");
}

TEST_CASE("json: keys and values are escaped, and string_or_null writes null for an empty string", "[util][json]") {
  JsonWriter w;
  w.begin_object().key("k\"\x01").string("v\xff").key("empty").string_or_null("").key("set").string_or_null("s");
  w.end_object();
  CHECK(w.str() == "{\"k\\\"\\u0001\": \"v" + k_fffd + "\", \"empty\": null, \"set\": \"s\"}");
}

TEST_CASE("json: a container on lines puts each item on its own indented line", "[util][json]") {
  JsonWriter w;
  w.begin_object().key("list").begin_array(JsonLayout::lines(2));
  w.begin_object().key("n").number(1).end_object().begin_object().key("n").number(2).end_object();
  w.end_array().key("none").begin_array(JsonLayout::lines(2)).end_array().end_object();
  CHECK(w.str() == "{\"list\": [\n  {\"n\": 1},\n  {\"n\": 2}\n], \"none\": []}");
}

TEST_CASE("json: on lines, the closing bracket may follow the last item", "[util][json]") {
  JsonWriter w;
  w.begin_object().key("paths").begin_array(JsonLayout::lines(2, false)).number(1).number(2).end_array();
  w.key("none").begin_array(JsonLayout::lines(2, false)).end_array().end_object();
  CHECK(w.str() == "{\"paths\": [\n  1,\n  2], \"none\": []}");
}

TEST_CASE("json: containers on lines nest with their own indents (SARIF's shape)", "[util][json]") {
  JsonWriter w;
  w.begin_array().begin_object(JsonLayout::lines(2));
  w.key("rules").begin_array(JsonLayout::lines(4)).string("r1").string("r2").end_array();
  w.key("results").begin_array(JsonLayout::lines(4)).end_array();
  w.end_object().end_array();
  CHECK(w.str() == "[{\n  \"rules\": [\n    \"r1\",\n    \"r2\"\n  ],\n  \"results\": []\n}]");
}
