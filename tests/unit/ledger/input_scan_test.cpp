// The word-at-a-time scans of a file's bytes — the first C0 control
// character (decode_text) and the YAML reader's input check (a character
// PyYAML refuses, or one the simple reader leaves to the full port) — read
// exactly as a byte-by-byte scan, on random texts of the bytes they treat
// apart, at every alignment.
#include <catch2/catch.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ledgergate/ledger/text_file.hpp"
#include "ledgergate/ledger/yaml_doc.hpp"
#include "ledgergate/util/text.hpp"

namespace {

// Characters the scans treat apart (UTF-8), and plain ones.
const std::vector<std::string> k_pieces = {
    "a",        "b c",      "\n",       "\t",        "\r",        "\r\n",      std::string(1, '\0'),
    "\x01",     "\x1f",     "\x0b",     "\x7f",      "\x7e",      " ",         "\xc3\xa9" /* é */,
    "\xc2\x85" /* NEL */,   "\xc2\x80", "\xc2\xa0",  "\xe2\x80\xa8" /* LS */,  "\xef\xbb\xbf" /* BOM */,
    "\xef\xbf\xbe" /* U+FFFE */,        "\xf0\x9f\x99\x82", "abcdefgh", "key: value\n"};

std::string random_text(std::mt19937& rng, bool plain_mostly) {
  std::string out;
  const int n = std::uniform_int_distribution<int>(0, 40)(rng);
  for (int i = 0; i < n; ++i) {
    const bool plain = plain_mostly && std::uniform_int_distribution<int>(0, 9)(rng) != 0;
    static const std::size_t k_plain[] = {0, 21, 22};  // "a", "abcdefgh", "key: value\n"
    const std::size_t k = plain ? k_plain[std::uniform_int_distribution<std::size_t>(0, 2)(rng)]
                                : std::uniform_int_distribution<std::size_t>(0, k_pieces.size() - 1)(rng);
    out += k_pieces[k];
  }
  return out;
}

bool is_control(unsigned char c) { return c < 0x20 && c != '\t' && c != '\n' && c != '\r'; }

// The first control character, byte by byte, located as decode_text says.
std::optional<lg::ledger::ControlChar> control_of(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size() && !is_control(static_cast<unsigned char>(text[at]))) ++at;
  if (at == text.size()) return std::nullopt;
  lg::ledger::ControlChar out{1, 1, static_cast<unsigned char>(text[at])};
  for (std::size_t i = 0; i < at; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || (c == '\r' && (i + 1 == at || text[i + 1] != '\n'))) {
      ++out.line;
      out.column = 1;
    } else if (c != '\r' && (c & 0xC0) != 0x80) {
      ++out.column;
    }
  }
  return out;
}

bool is_yaml_printable(char32_t c) {
  return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

// The YAML input check, character by character: the position of the first
// character PyYAML refuses (nullopt: none), and whether one the simple
// reader leaves to the full port comes before it.
struct Scan {
  std::optional<std::size_t> refused;
  bool unusual = false;
};
Scan scan_of(std::string_view text) {
  Scan out;
  std::size_t index = 0;
  for (std::size_t pos = 0; pos < text.size(); ++index) {
    const char32_t c = lg::util::next_code_point(text, pos);
    if (!is_yaml_printable(c)) {
      out.refused = index;
      return out;
    }
    out.unusual = out.unusual || c == U'\t' || c == U'\r' || c == 0x85 || c == 0x2028 || c == 0x2029 || c == 0xFEFF;
  }
  return out;
}

std::string position_of(const std::string& problem) {
  const std::size_t at = problem.rfind("position ");
  return at == std::string::npos ? "" : problem.substr(at + 9);
}

}  // namespace

TEST_CASE("input scans: word at a time, as byte by byte", "[ledger][text][yaml_doc]") {
  std::mt19937 rng(17);
  int controls = 0, refused = 0, unusual = 0, simple = 0;
  for (int round = 0; round < 4000; ++round) {
    const std::string body = random_text(rng, round % 2 == 0);
    for (const std::string& lead : {std::string(), std::string("x"), std::string("abc"), std::string("abcdefg")}) {
      const std::string text = lead + body;  // every alignment of the pieces against the eight-byte words
      INFO("round " << round << ": " << lg::util::py_repr(text));
      const auto want = control_of(text);
      const auto got = lg::ledger::decode_text(text).facts.control;
      REQUIRE(want.has_value() == got.has_value());
      if (want) {
        ++controls;
        CHECK(got->line == want->line);
        CHECK(got->column == want->column);
        CHECK(got->code == want->code);
      }
      const Scan scan = scan_of(text);
      CHECK(lg::ledger::yaml_simple_input(text) == (!scan.refused && !scan.unusual));
      if (scan.refused) {
        ++refused;
        const lg::ledger::YamlLoad load = lg::ledger::load_yaml(text);
        REQUIRE(load.error.has_value());
        CHECK(position_of(load.error->problem) == std::to_string(*scan.refused));
      } else {
        unusual += scan.unusual ? 1 : 0;
        simple += scan.unusual ? 0 : 1;
      }
    }
  }
  // Each way out was taken.
  CHECK(controls > 1000);
  CHECK(refused > 1000);
  CHECK(unusual > 1000);
  CHECK(simple > 1000);
}
