// The era-R project ledger (`projects/<key>.md`, spec §4.2): title, light
// header, sections, run lines and log lines, parsed once per blob and
// independent of the file's path so a parse can be shared by every commit
// that holds the same blob.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/ledger/text_file.hpp"

namespace lg::ledger {

struct Title {
  std::string written;  // the title as written (line 1 after "# ", stripped)
  bool matches = false; // dash(written) matches ^([a-z][a-z0-9_]*) — (\S.*)$
  std::string key;      // group 1
  std::string summary;  // group 2, stripped
};

struct HeaderField {
  std::string key;
  std::string value;  // stripped; may be empty (present but empty)
  int line = 0;
};

struct Section {
  std::string name;
  int line = 0;          // the heading's line
  bool in_fence = false; // the heading sits inside a fenced code block
  int body_begin = 0;    // index into lines of the first body line
  int body_end = 0;      // one past the last body line
};

struct RunLine {
  std::string ident, state, partition, date, what;
  std::string text;  // what + " " + continuation texts
  int line = 0;
};

struct LogEntry {
  std::string date, kind, text;
  int line = 0;
};

enum class ParseProblemKind { run_orphan, run_unparsed, log_orphan, log_unparsed };
struct ParseProblem {
  ParseProblemKind kind;
  int line = 0;
  std::string raw;  // the raw line, stripped
};

struct ProjectLedger {
  TextFacts input;                      // what was odd about the bytes (the text is not kept)
  std::optional<Title> title;
  std::vector<HeaderField> header;      // first occurrences, in order
  std::vector<HeaderField> header_dups; // later occurrences of a seen key
  std::vector<Section> sections;        // every "## " heading, in order
  bool has_runs = false, has_log = false;
  std::string now;                      // ## Now body joined and stripped ("" after compact())
  bool has_now = false;                 // the Now text is not empty
  std::vector<RunLine> runs;
  std::vector<LogEntry> log;
  std::vector<ParseProblem> problems;   // runs problems, then log problems, line order

  const HeaderField* header_field(std::string_view key) const;
  // Releases what no rule reads (run and log texts, the Now text), so a
  // cache of many parses stays small.
  void compact();
};

ProjectLedger parse_project_ledger(std::string_view bytes);
// The same, decoding `bytes` in place (no copy of a file read whole).
ProjectLedger parse_owned_project_ledger(std::string&& bytes);

// Pieces shared with the era-P/T parser (ledger/pt_file).
// HEADER_KEY_RE = ^([A-Z][A-Za-z0-9-]*):(?:[ \t]+(.*?))?[ \t]*$ → key and
// stripped value (line 0); nullopt when `line` is not a header line.
std::optional<HeaderField> match_header_line(std::string_view line);
// Where a light header starts: the first header line among lines 2 ..
// `max_lines` (0-based index `start`), and `limit`, the end of the scan
// (`max_lines` or the file's end); nullopt when no such line exists.
struct HeaderScan {
  int start = 0;
  int limit = 0;
};
std::optional<HeaderScan> find_header(const TextFile& file, int max_lines);
// Every "## " line of `file` as a section (fenced ones flagged), in order.
std::vector<Section> parse_sections(const TextFile& file);

// Grammars the rules share (Python `re` semantics, Unicode \d and \w).
bool is_issue_ref(std::string_view value);   // ISSUE_RE
bool is_run_ident(std::string_view ident);   // RUN_IDENT_RE (strict)

}  // namespace lg::ledger
