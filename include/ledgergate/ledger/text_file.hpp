// Decoding a ledger file the way the reference reads it (spec §1.1): UTF-8,
// universal newlines, split on "\n" — while remembering what was odd about
// the bytes (invalid UTF-8, a BOM, CR line endings) so rules can say so.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/util/text.hpp"

namespace lg::ledger {

// A C0 control character (U+0000..U+001F) other than tab, LF and CR: git
// takes a file with NUL for binary, and the others do not show in a diff.
struct ControlChar {
  int line = 0;          // 1-based, after universal newlines
  int column = 0;        // 1-based, in code points
  unsigned char code = 0;
};

// What was odd about a file's bytes: kept after parsing, when the text is gone.
struct TextFacts {
  bool bom = false;   // starts with U+FEFF (kept in line 1, as the reference does)
  int cr_line = 0;    // first line ended by CR or CRLF (0 = none)
  std::optional<util::Utf8Problem> bad_utf8;  // first invalid sequence
  std::optional<ControlChar> control;         // the first control character
};

struct TextFile {
  std::string text;  // valid UTF-8 (bad bytes → U+FFFD), "\n" line ends
  TextFacts facts;

  std::size_t line_count() const { return m_spans.size(); }
  // Line `i` (0-based) of text split on "\n"; a trailing newline yields a final empty line.
  std::string_view line(std::size_t i) const {
    return std::string_view(text).substr(m_spans[i].first, m_spans[i].second);
  }
  void index_lines();

 private:
  std::vector<std::pair<std::size_t, std::size_t>> m_spans;  // (offset, length) per line
};

TextFile decode_text(std::string_view bytes);
// The same, taking the bytes over (no copy when they are valid UTF-8 without
// CR). `index_lines` false: line() is not available (line_count() is 0), for
// a caller that reads only `text` and `facts` (projects.yaml: its YAML
// loader keeps its own marks), saving a span per line.
TextFile decode_owned_text(std::string&& bytes, bool index_lines = true);

}  // namespace lg::ledger
