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

struct TextFile {
  std::string text;                 // valid UTF-8 (bad bytes → U+FFFD), "\n" line ends
  std::vector<std::string> lines;   // text split on "\n"
  bool bom = false;                 // starts with U+FEFF (kept in line 1, as the reference does)
  int cr_line = 0;                  // first line ended by CR or CRLF (0 = none)
  std::optional<util::Utf8Problem> bad_utf8;  // first invalid sequence
};

TextFile decode_text(std::string_view bytes);

}  // namespace lg::ledger
