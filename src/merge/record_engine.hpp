// The format-independent half of the record merge (merge/record_merge.hpp):
// a file is a list of parts, a part a list of items (a record, or a glue line
// such as a blank line), and each part merges three-way as a diff3 over its
// items aligned by key. Where both sides changed the same stretch of a part,
// the part's kind decides: keyed records merge record by record, dated log
// entries interleave newest-first, appended notes go ours-then-theirs, free
// text conflicts. Whatever the alignment, a merged part must agree with each
// record's own three-way merge (a record a side removed is gone, one both
// sides kept is there, one removed on a side and changed on the other is a
// conflict, a key a side lists twice is a conflict): where it does not, the
// part is a conflict. The format files (record_project.cpp ...) only cut
// bytes into parts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/merge/record_merge.hpp"

namespace lg::merge::record {

struct Item {
  std::string key;         // identity for alignment: "run 3002", "field Issue"; "" = the bytes are the identity
  std::string_view bytes;  // the raw bytes, line endings included
  std::string date;        // a dated record's date (log entries); "" otherwise
  bool record = false;     // a record (counted, unique by key) rather than glue
  // A record's own fields (a projects.yaml row's keys): when both sides
  // changed the record, it merges field by field as a keyed part of these.
  std::vector<Item> fields;

  std::string_view id() const { return key.empty() ? bytes : std::string_view(key); }
  // Alignment: the same kind of item with the same identity.
  bool same_as(const Item& other) const { return record == other.record && id() == other.id(); }
};

enum class PartKind {
  text,      // free text: both sides changing it differently is a conflict
  keyed,     // records by key; a record deleted on one side and changed on the other conflicts
  dated,     // log entries, newest first; both sides' new entries interleave by date
  appended,  // notes; both sides' new records at one place → ours' then theirs'
};

struct Part {
  std::string name;        // "header", "## Runs", "row foo": names conflicts
  std::string noun;        // counts' prefix: "runs" → runs_added ...
  PartKind kind = PartKind::text;
  std::vector<Item> items;
  // A record added on both sides is a conflict even when both added the same
  // bytes (open-requirements ids: two writers raised the same gap).
  bool same_add_conflicts = false;
};

// The raw lines of `bytes`, each with its ending, split on universal
// newlines ("\r\n", "\r", "\n") as ledger::TextFile counts them.
std::vector<std::string_view> raw_lines(std::string_view bytes);

// One glue item per line of `lines` [begin, end).
std::vector<Item> line_items(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end);

// The bytes spanned by lines [begin, end) of `lines` (which view one buffer).
std::string_view span_of(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end);

// Merges three versions of a file cut into parts. Errors (invalid_input):
// the sides' part lists differ by name, or a part is too large to align.
Result<RecordMerge> merge_parts(const std::vector<Part>& base, const std::vector<Part>& ours,
                                const std::vector<Part>& theirs, const MergeLabels& labels);

// A git-style conflict block of `ours` against `theirs` (each ended by a newline when not empty).
std::string conflict_block(std::string_view ours, std::string_view theirs, const MergeLabels& labels,
                           std::string_view eol);

}  // namespace lg::merge::record
