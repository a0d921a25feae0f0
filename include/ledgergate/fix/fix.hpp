// A fix is data: the edits that repair a finding, each a byte range of a
// file as read and the text that replaces it, computed by the fixer its rule
// declares (rule_table.hpp's fix column; fix/fixers.hpp). `fix` applies
// them through the writer verbs' validate-before-write path, `check
// --format json|sarif` prints them, and the language server offers them as
// quick fixes. Nothing here writes.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/rule_table.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::fix {

// Where an edit's offset lies, as each consumer counts: the 0-based line
// and the 0-based column in bytes (LSP's utf-8), code points (JSON) and
// UTF-16 code units (SARIF, LSP's default). fix_for fills them in.
struct Place {
  int line = 0;
  int byte = 0;
  int code_point = 0;
  int utf16 = 0;
  friend bool operator==(const Place&, const Place&) = default;
};

// Bytes [begin, end) of the file at `path`, as read, become `text`.
struct Edit {
  std::string path;
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
  Place from{}, to{};  // where `begin` and `end` lie
  friend bool operator==(const Edit&, const Edit&) = default;
};

struct Fix {
  std::string rule;
  diag::FixKind kind = diag::FixKind::certain;
  std::string title;         // what it does, for a person: "sort the log newest first"
  std::vector<Edit> edits;   // sorted by path and offset, none overlapping
};

// Whether two edits of one file touch the same bytes (two insertions at one
// offset count as overlapping: their order would be a guess).
bool overlaps(const Edit& a, const Edit& b);

// `bytes` with `edits` (all of one file, none overlapping) applied.
// Errors: an edit past the end, or two that overlap.
Result<std::string> apply_edits(std::string_view bytes, std::vector<Edit> edits);

}  // namespace lg::fix
