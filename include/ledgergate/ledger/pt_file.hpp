// The era-P and era-T ledger files (spec §1.2–§1.4, §2.2–§2.4, §3.2): a
// phase file (`phases/<project>/<slug>.md`), a task file
// (`tasks/<project>/<slug>.md`) and a ruling (`rulings/YYYY/MM/R-….md`) share
// one shape — a `# ` title, a light header of `Key: value` lines (first
// occurrence wins, `- item` lines extend the last key), `## ` sections, and
// for phases and tasks a `## Runs` section of run lines with continuations.
// The parse is pure and independent of the file's path and era, so one parse
// serves every commit holding the same blob; eras differ only in the rules
// (rules/cortex_eras) that read it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/ledger/text_file.hpp"

namespace lg::ledger {

// The light header (§1.3): the block starts at the first `Key:` line among
// file lines 2..30 and ends before the first blank line or after line 30.
struct PtHeader {
  std::vector<HeaderField> fields;      // first occurrences in order; `- item` lines joined with ", "
  std::vector<HeaderField> duplicates;  // later occurrences of a seen key (ignored by the reference)
  // Lines inside the block that are neither a `Key: value` line nor a `- item`
  // line under a key (G-12): `key` is empty, `value` is the raw line.
  std::vector<HeaderField> dropped;
  int first_line = 0;  // 1-based line of the block's first line; 0 = no header
  int last_line = 0;   // 1-based line of the block's last line

  // The field's value ("" when absent: the reference treats empty as absent).
  std::string_view value(std::string_view key) const;
  const HeaderField* find(std::string_view key) const;
};

// One number of a task set, as its value in ASCII digits without leading
// zeros ("0" for zero); Unicode decimal digits count, as Python's int() reads them.
struct TaskNumber {
  std::string digits;
  friend bool operator==(const TaskNumber&, const TaskNumber&) = default;
  friend bool operator<(const TaskNumber& a, const TaskNumber& b) {
    return a.digits.size() != b.digits.size() ? a.digits.size() < b.digits.size() : a.digits < b.digits;
  }
};

struct TaskRange {
  TaskNumber lo, hi;  // inclusive; lo > hi is an empty range
};

// A run line (§2.3) with its continuations.
struct PtRun {
  std::string ident;  // the text before the colon: stem, stem_task or stem_[tasks]
  std::string stem;
  bool whole_job = true;          // a bare stem: the whole job, overlapping every run of the stem
  std::vector<TaskRange> tasks;   // `_N` = {N}; `_[…]` = its parts in order
  bool ascending = true;          // each part starts after the previous part's end, hi >= lo
  std::string state, partition, date, wall, note;
  int line = 0;
  // Continuation values (`    key: value`, the value as written); the last wins.
  std::optional<std::string> pulled_to, after, resumes, where, ruled;
};

enum class PtProblemKind {
  not_ascending,        // P-R01: `text` = the run's ident
  orphan_continuation,  // P-R02
  unparsed,             // P-R03: `text` = the raw line, stripped
};
struct PtProblem {
  PtProblemKind kind;
  int line = 0;
  std::string text;
};

struct PtFile {
  TextFacts input;                     // what was odd about the bytes
  std::optional<std::string> title;    // line 1 after "# ", stripped; nullopt = no title
  PtHeader header;
  std::vector<Section> sections;       // every "## " line in order (fences recorded, first name wins)
  std::vector<PtRun> runs;             // the first `## Runs` section's run lines, in line order
  std::vector<PtProblem> problems;     // run-section problems in line order (P-R01..R03)
  // Whether the first `## Where to look` holds a line starting "- " that is
  // not "-" alone and does not contain the placeholder (§2.6.3 P-F24).
  bool where_names_a_place = false;

  // The first section named `name`, or nullptr.
  const Section* section(std::string_view name) const;
  // The distinct job stems of the run lines, sorted by string.
  std::vector<std::string> body_stems() const;
};

// Parses `bytes` (UTF-8, universal newlines; invalid bytes are replaced and
// recorded in `input`). Never fails: what does not parse is recorded.
PtFile parse_pt_file(std::string_view bytes);

// ---- grammars shared with the rules and the writers (Python `re` semantics) ----

// A run line after dash normalisation (RUN_LINE_RE); nullopt if it does not match.
std::optional<PtRun> match_pt_run_line(std::string_view line);
// RUN_CONT_RE: `    pulled_to|after|resumes|where|ruled: \S.*` → (key, value).
std::optional<std::pair<std::string, std::string>> match_pt_continuation(std::string_view line);
// Two runs of one stem overlap (a bare stem overlaps everything of its stem).
bool runs_overlap(const PtRun& a, const PtRun& b);

// GATE_REF_RE, full match: `Repo#N` or a github.com issue/PR URL.
bool is_gate_ref(std::string_view token);
// The canonical issues URL of a gate ref (`Repo#N` → PyAutoLabs/Repo; a
// `/pull/` URL becomes `/issues/`); "" if `ref` is not a gate ref.
std::string gate_url(std::string_view ref);
// A header list value split on ",", each part stripped, empty parts dropped.
std::vector<std::string> split_refs(std::string_view value);
// RULING_ID_RE: R-YYYYMMDD-nn (Unicode digits, as the reference).
bool is_ruling_id(std::string_view value);
// `\d+`, `\d+:\d{2}` (Unicode digits).
bool is_int_text(std::string_view value);
bool is_wall_text(std::string_view value);

struct RulingPath {
  std::string year, month, id;  // directory YYYY, MM and the file stem
};
// RULING_FILE_RE on a repository path; nullopt if it does not match.
std::optional<RulingPath> match_ruling_path(std::string_view path);

struct PtPath {
  std::string project, slug;
};
// `^<dir>/([a-z][a-z0-9_]*)/([^/]+)\.md$` (dir = "phases" or "tasks").
std::optional<PtPath> match_pt_path(std::string_view path, std::string_view dir);

// The code points [begin, end) of `s` (Python slicing on str).
std::string code_point_slice(std::string_view s, std::size_t begin, std::size_t end);
// The value of a `\d+` text in ASCII digits without leading zeros.
TaskNumber number_value(std::string_view digits);

}  // namespace lg::ledger
