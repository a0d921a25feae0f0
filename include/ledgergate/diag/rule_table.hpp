// The rule catalogue: every rule ledgergate knows, one row each — its id,
// spec label, profiles, default severity, summary and rationale. Rows
// reproducing the reference checker carry its spec label
// (tests/data/spec/cortex-ledger.md); rows that close one of its gaps (§10) default to
// `warning` so an existing clean ledger stays clean. The row is the rule's
// one declaration: an emit site names it by a RuleId, checked against this
// table at compile time, and `ledgergate rules` / `explain` print it. Pure
// data in diag, below both the rules that emit findings and the policy that
// sets their severities.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"

namespace lg::diag {

// What `ledgergate fix` (and the editor's quick fix) can do about a rule's
// finding. Every row declares one: `undeclared` is only the value of a row
// that forgot, and rule_table.cpp refuses to compile such a table.
enum class FixKind {
  undeclared,
  certain,    // one right answer: `fix` applies it
  suggested,  // a likely answer: offered, applied only when asked for by rule id (`fix --rule ID`)
  none,       // a human's call
};
std::string_view to_string(FixKind kind);

struct FixDecl {
  FixKind kind = FixKind::undeclared;
  std::string_view what;  // what the fix does (certain, suggested), or why there is none
};

struct RuleInfo {
  std::string_view id;       // stable kebab-case id, e.g. "ledger-run-listed-once"
  std::string_view ref;      // the spec's label, e.g. "R-F07" ("" for ours); a rule shared by
                             // eras lists each era's label, space-separated: "P-F01 T-F01"
  std::string_view profile;  // "cortex-projects", "input", ...; space-separated when shared
  Severity severity;         // default severity
  std::string_view summary;  // one line
  std::string_view detail;   // rationale and an example
  FixDecl fix;               // the fix column (fix/fixers.cpp holds the fixers of the certain and suggested rows)

  std::vector<std::string_view> labels() const;    // the words of `ref`
  std::vector<std::string_view> profiles() const;  // the words of `profile`
};

}  // namespace lg::diag

namespace lg::diag::table {

inline constexpr Severity E = Severity::error;
inline constexpr Severity W = Severity::warning;

// The fix column's cells.
constexpr FixDecl certain(std::string_view what) { return {FixKind::certain, what}; }
constexpr FixDecl suggested(std::string_view what) { return {FixKind::suggested, what}; }
constexpr FixDecl by_hand(std::string_view why) { return {FixKind::none, why}; }
// Reasons many rows share.
inline constexpr std::string_view k_yaml_is_code =
    "projects.yaml is code, not ledger (spec §5): which value a row needs is its owner's call";
inline constexpr std::string_view k_p1_yaml_is_code =
    "projects.yaml is code, not ledger (spec §5.2): how to bring a line into the subset is its owner's call";
inline constexpr std::string_view k_ruling_is_filed =
    "a ruling file is append-only once filed (spec §6.1): it is answered by a new ruling, not edited";
inline constexpr std::string_view k_history =
    "a finding about a commit already made: history is not rewritten, a newer commit answers it";
inline constexpr std::string_view k_orl_history =
    "a finding between two versions: the older version is history, and the protocol's verbs (`req`) make the next one";

inline constexpr std::array k_rules = {
    // Input: files the checker cannot read as text, or should not accept as ledger.
    RuleInfo{"input-not-utf8", "G-07", "input", E, "a ledger file is not valid UTF-8",
             "The reference checker crashes with a traceback (exit 1, like drift). ledgergate reports the "
             "first invalid byte's line and exits 2: the tree cannot be judged.",
             by_hand("which characters the bad bytes were meant to be is not known")},
    RuleInfo{"input-unreadable", "G-07", "input", E, "a ledger file could not be read",
             "An object that is missing, unreadable or larger than the size limit cannot be judged; "
             "the verdict is exit 2, never a pass.",
             by_hand("not a text problem: the object or file has to be restored")},
    RuleInfo{"input-not-a-file", "G-19", "input", E,
             "a ledger path is a directory, symlink or submodule, not a regular file",
             "Only regular blobs are ledger. A symlink could point anywhere; a submodule or a "
             "directory named `x.md` is not a ledger file (the reference crashes or follows it).",
             by_hand("what the path should hold instead (the link's target, the folder's files) is a human's call")},
    RuleInfo{"input-bom", "G-08", "input", W, "a ledger file starts with a UTF-8 byte-order mark",
             "The reference keeps U+FEFF as part of line 1, so the file has no title. Save without a BOM.",
             certain("delete the byte-order mark")},
    RuleInfo{"input-line-endings", "G-08", "input", W, "a ledger file uses CR or CRLF line endings",
             "Universal newlines make them equivalent for the checker, but diffs and merges of mixed "
             "endings are noisy. Use LF.", certain("rewrite every CR LF and lone CR as LF")},
    RuleInfo{"input-unchecked-file", "G-03", "input", W,
             "a file under a ledger directory that `check` does not read",
             "The merge gate lands every path under projects/ as ledger, but the checker reads only "
             "projects/*.md: e.g. projects/x.txt or projects/a/b.md would land unchecked.",
             by_hand("moving or renaming a file is a human's call (and not a text edit)")},
    RuleInfo{"input-writer-temp-file", "", "input", E,
             "a writer's temporary file (`.NAME.ledgergate-PID-N`) is in the tree",
             "A ledgergate writer killed mid-write by an older version (or staging beside a file on "
             "another filesystem than its git directory) leaves the new content under that name beside the "
             "file it was writing. Nothing reads it, yet the merge gate would land it as ledger: a stray "
             "full copy of a ledger. Writers stage in the git directory and remove what dead writers left; "
             "remove a committed one with `git rm`.",
             by_hand("removing a file is `git rm`, not a text edit; compare it with the file beside it first")},
    RuleInfo{"input-control-char", "G-08", "input", W,
             "a ledger file holds a NUL or another C0 control character (tab, LF and CR aside)",
             "git treats a file with a NUL byte as binary, so `git diff` and a review show nothing of "
             "what changed; the other control characters do not show in a diff or an editor either. "
             "The reference does not report them (`--format cortex` does not either).",
             suggested("delete the control characters (one may stand for a character that was lost)")},

    // projects.yaml (spec §5.1)
    RuleInfo{"projects-yaml-present", "Y-01", "cortex-projects cortex-tasks cortex-phases", E, "projects.yaml exists",
             "Every era's checker validates projects.yaml; without it no ledger has a row.", by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-parses", "Y-02", "cortex-projects cortex-tasks cortex-phases", E, "projects.yaml is valid YAML",
             "Parsed with YAML 1.1 semantics (PyYAML safe_load); the problem and its line are reported.",
             by_hand("which of the readings of broken YAML was meant is not known")},
    RuleInfo{"projects-yaml-is-mapping", "Y-03", "cortex-projects cortex-tasks cortex-phases", E,
             "the document is a mapping of project keys", "An empty or comment-only document has no rows and no finding.",
             by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-key-grammar", "Y-04", "cortex-projects cortex-tasks cortex-phases", E, "a project key matches ^[a-z][a-z0-9_]*$",
             "A row with a bad key is skipped.",
             by_hand("renaming a key renames the project everywhere: a human's call")},
    RuleInfo{"projects-yaml-row-is-mapping", "Y-05", "cortex-projects cortex-tasks cortex-phases", E, "a row is a mapping of fields",
             "A row that is not a mapping is skipped.", by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-field-known", "Y-06", "cortex-projects cortex-tasks cortex-phases", E, "a row holds only known fields",
             "Known: remote, local_path, ral_root, mirror, sync_cli, sync_verbs, ledger, assistant, "
             "witness_file, partition, status, note.",
             suggested("rename the field to the known field its name is closest to, when one is close and the row "
                       "lacks it")},
    RuleInfo{"projects-yaml-sync-verbs-list", "Y-07", "cortex-projects cortex-tasks cortex-phases", E, "sync_verbs is a list",
             "Example: `sync_verbs: [push, pull]`.", by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-sync-verbs-words", "Y-08", "cortex-projects cortex-tasks cortex-phases", E,
             "sync_verbs holds bare words ^[a-z][a-z0-9_-]*$", "Non-string items are bad and dropped.",
             by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-field-has-value", "Y-09", "cortex-projects cortex-tasks cortex-phases", E, "a field is not null",
             "A null field is kept as \"\" (so field-not-empty fires too, as in the reference).",
             by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-field-is-string", "Y-10", "cortex-projects cortex-tasks cortex-phases", E, "a field is a string",
             "YAML 1.1 typing: `5`, `yes`, `2026-09-01` are int, bool and date, not strings. Quote them.",
             suggested("quote the plain scalar (`5` → `\"5\"`) so it reads as the string written; a list or mapping "
                       "is not offered")},
    RuleInfo{"projects-yaml-required-fields", "Y-11", "cortex-projects cortex-tasks cortex-phases", E, "a row has every required field",
             "Required: remote, local_path, ral_root, mirror, sync_cli, sync_verbs, ledger, assistant, "
             "witness_file, partition, status.", by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-field-not-empty", "Y-12", "cortex-projects cortex-tasks cortex-phases", E, "a string field is not blank", "",
             by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-partition-enum", "Y-13", "cortex-projects cortex-tasks cortex-phases", E, "partition is gpu | ral | both", "",
             by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-status-enum", "Y-14", "cortex-projects cortex-tasks cortex-phases", E,
             "status is active | dormant | planned | retired", "", by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-remote-shape", "Y-15", "cortex-projects cortex-tasks cortex-phases", E, "remote is owner/repo or none", "",
             by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-absolute-paths", "Y-16", "cortex-projects cortex-tasks cortex-phases", E,
             "local_path and ral_root are absolute paths", "", by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-mirror-shape", "Y-17", "cortex-projects cortex-tasks cortex-phases", E, "mirror is an absolute path or none", "",
             by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-assistant-shape", "Y-18", "cortex-projects cortex-tasks cortex-phases", E,
             "assistant is none or a bare directory name", "", by_hand(k_yaml_is_code)},
    RuleInfo{"projects-yaml-duplicate-key", "G-04", "cortex-projects cortex-tasks cortex-phases", W,
             "a project key or a field appears twice",
             "The YAML loader silently keeps the last of two equal keys; the first is lost without a word.",
             by_hand("which of the two rows or fields is meant is a human's call")},

    // Era R ledgers: projects/<key>.md (spec §4.3)
    RuleInfo{"ledger-file-name", "R-L01", "cortex-projects", E, "a ledger is named projects/<key>.md",
             "The key is ^[a-z][a-z0-9_]*$; a file with another name is ignored.",
             by_hand("the key is chosen by a human, and a rename is not a text edit")},
    RuleInfo{"ledger-sections-exact", "R-P01", "cortex-projects", E,
             "sections are exactly ## Now, ## Runs, ## Log in that order", "",
             certain("insert the missing `## Now`, `## Runs` or `## Log` (empty, blank lines around it) where the "
                     "found sections are those in order; a renamed, extra or reordered section is not offered")},
    RuleInfo{"ledger-run-continuation-orphan", "R-P02", "cortex-projects", E,
             "a continuation line under ## Runs follows a run line", "",
             by_hand("which run the line belongs to is not known")},
    RuleInfo{"ledger-run-line-parses", "R-P03", "cortex-projects", E, "a run line parses",
             "`- <ident> — open|running — <partition> — YYYY-MM-DD — <what>`",
             certain("write the separators as ` — ` when that alone makes the line parse (` - `, ` – `, `--`); any "
                     "other problem is not offered")},
    RuleInfo{"ledger-log-continuation-orphan", "R-P04", "cortex-projects", E,
             "a continuation line under ## Log follows a log line", "",
             by_hand("which entry the line belongs to is not known")},
    RuleInfo{"ledger-log-line-parses", "R-P05", "cortex-projects", E, "a log line parses",
             "`- YYYY-MM-DD — run|result|lesson|note — <text>`",
             certain("write the separators as ` — ` when that alone makes the line parse (` - `, ` – `, `--`); any "
                     "other problem is not offered")},
    RuleInfo{"ledger-title-present", "R-P06", "cortex-projects", E, "line 1 is a `# ` title", "",
             certain("add the `# ` to a line 1 that reads `<key> — <summary>` with the file's key; any other line 1 "
                     "is not offered")},
    RuleInfo{"ledger-title-names-key", "R-P07", "cortex-projects", E,
             "the title is `# <key> — <summary>` with the file's key", "",
             certain("write the file's key, and ` — ` as the separator, in a title that reads `# <word> <dash> "
                     "<summary>`")},
    RuleInfo{"ledger-summary-word-cap", "R-P08", "cortex-projects", E, "the summary is at most 15 words", "",
             by_hand("which words to drop is the author's call")},
    RuleInfo{"ledger-has-row", "R-F01", "cortex-projects", E, "every ledger has a projects.yaml row", "",
             by_hand("a projects.yaml row is code (spec §5), written by a human")},
    RuleInfo{"ledger-header-required", "R-F02", "cortex-projects", E, "the header holds Project: and Issue:", "",
             certain("add `Project: <key>` under the title; a missing `Issue:` is not offered (which issue is the "
                     "author's call)")},
    RuleInfo{"ledger-header-closed", "R-F03", "cortex-projects", E, "the header holds only Project and Issue", "",
             by_hand("the unknown line may be content that belongs elsewhere: a human's call")},
    RuleInfo{"ledger-project-equals-key", "R-F04", "cortex-projects", E, "`Project:` equals the file's key", "",
             certain("set `Project:` to the file's key")},
    RuleInfo{"ledger-issue-grammar", "R-F05", "cortex-projects", E,
             "`Issue:` is Repo#N, an issue URL or none", "", by_hand("which issue was meant is not known")},
    RuleInfo{"ledger-now-on-active", "R-F06", "cortex-projects", E, "an active project says where it is in ## Now",
             "", by_hand("where the project stands is the author's words")},
    RuleInfo{"ledger-run-listed-once", "R-F07", "cortex-projects", E, "a run ident is listed once", "",
             suggested("delete a later run line (with its continuations) that repeats an earlier one byte for byte; "
                       "two different lines are not offered")},
    RuleInfo{"ledger-run-ident-grammar", "R-F08", "cortex-projects", E, "a run ident is a SLURM job id",
             "`3002`, `3002_1`, `3002_[0-3,5]`", by_hand("which job id was meant is not known")},
    RuleInfo{"ledger-run-date-real", "R-F09", "cortex-projects", E, "a run's date is a real date", "",
             by_hand("which date was meant is not known")},
    RuleInfo{"ledger-run-partition-agrees", "R-F10", "cortex-projects", E,
             "a run's partition agrees with the project's", "",
             suggested("give the run the project's partition (the row may be the one that is out of date)")},
    RuleInfo{"ledger-log-date-real", "R-F11", "cortex-projects", E, "a log entry's date is a real date", "",
             by_hand("which date was meant is not known")},
    RuleInfo{"ledger-log-newest-first", "R-F12", "cortex-projects", E, "the log is newest first", "",
             certain("sort the log's entries newest first (stable: entries of one day keep their order), when every "
                     "entry is a dated log line")},
    RuleInfo{"ledger-retired-has-no-runs", "R-F13", "cortex-projects", E, "a retired project lists no runs", "",
             by_hand("each run needs its outcome recorded (`done`), or the row reopened: a human's call")},
    RuleInfo{"ledger-active-has-ledger", "R-X01", "cortex-projects", E,
             "every active projects.yaml row has projects/<key>.md", "",
             by_hand("the new ledger's summary and state are the author's words (`project new`)")},
    RuleInfo{"ledger-run-overlap", "G-05", "cortex-projects", W,
             "two runs of one job overlap (3002 covers 3002_1 and 3002_[0-3])",
             "The reference compares ident strings only, so one array job can be listed twice under "
             "different spellings.", by_hand("which spelling of the job is right is not known")},
    RuleInfo{"ledger-run-tasks-ascending", "G-05", "cortex-projects", W,
             "an array run's task set is ascending and disjoint", "`3002_[3-1]` or `3002_[0-3,2]` are malformed.",
             suggested("write the task set ascending, merged into ranges, without repeats (a reversed range may "
                       "stand for another set)")},
    RuleInfo{"ledger-heading-in-fence", "G-06", "cortex-projects", W,
             "a `## ` line inside a fenced code block counts as a section heading",
             "The reference does not track code fences, so a fenced `## Log` changes the section list.",
             by_hand("whether the fenced line is a heading or an example is the author's call")},
    RuleInfo{"ledger-duplicate-section", "G-06", "cortex-projects", W, "a section heading appears twice",
             "Only the first copy is read; lines in the second are invisible to every rule.",
             by_hand("how to merge the two sections' lines is the author's call")},
    RuleInfo{"ledger-non-ascii-digit", "G-08", "cortex-projects", W,
             "a date or run ident uses non-ASCII digits",
             "Python's \\d matches any Unicode digit, so `２０２６` passes the grammar. ledgergate treats "
             "such a date as not a real date and says why.",
             certain("write the date's or ident's digits as ASCII 0-9 (the same numbers)")},
    RuleInfo{"ledger-header-duplicate-key", "G-04", "cortex-projects", W, "a header key appears twice",
             "The first occurrence wins silently in the reference.",
             suggested("delete the later lines of a repeated header key (what the reference reads stays; the later "
                       "line may be the one meant)")},

    // Eras P and T: phases/ or tasks/, rulings/ (spec §2, §3). One id per rule shared by the
    // two eras; the label column holds both eras' labels (P-… T-…).
    RuleInfo{"pt-path-grammar", "P-T01 T-T01", "cortex-phases cortex-tasks", E, "a phase/task file is phases|tasks/<project>/<slug>.md",
             "A file elsewhere under phases/ or tasks/ is not read.",
             by_hand("moving a file is a human's call (and not a text edit)")},
    RuleInfo{"pt-ruling-path", "P-T02 T-T02", "cortex-phases cortex-tasks", E, "a ruling file is rulings/<YYYY>/<MM>/R-<YYYYMMDD>-<nn>.md",
             "rulings/AGENTS.md is exempt; a file elsewhere is not read.",
             by_hand("moving a ruling is a human's call (and not a text edit)")},
    RuleInfo{"pt-ruling-dir-date", "P-T03 T-T03", "cortex-phases cortex-tasks", E, "a ruling is filed under the YYYY/MM of its id",
             "", by_hand("moving a ruling is a human's call (and not a text edit)")},
    RuleInfo{"pt-run-task-set-ascending", "P-R01 T-R01", "cortex-phases cortex-tasks", E, "an array run's task set is strictly ascending",
             "`342091_[0-8,10]`, not `342091_[5-3]` or `_[0-4,2]`.",
             suggested("write the task set ascending, merged into ranges, without repeats (a reversed range may "
                       "stand for another set)")},
    RuleInfo{"pt-run-continuation-orphan", "P-R02 T-R02", "cortex-phases cortex-tasks", E, "a continuation line under ## Runs follows a run line",
             "", by_hand("which run the line belongs to is not known")},
    RuleInfo{"pt-run-line-parses", "P-R03 T-R03", "cortex-phases cortex-tasks", E, "a line under ## Runs is a run line or a continuation",
             "`- <stem>[_<task>|_[<tasks>]]: <state> — <partition> — submitted YYYY-MM-DD — wall H:MM[ — <note>]`, continuations `    pulled_to|after|resumes|where|ruled: <value>`.",
             certain("write the separators as ` — ` when that alone makes the line parse (` - `, ` – `, `--`); any "
                     "other problem is not offered")},
    RuleInfo{"pt-title-present", "P-F01 T-F01", "cortex-phases cortex-tasks", E, "line 1 is `# <title>`",
             "", by_hand("the title is the author's words")},
    RuleInfo{"pt-required-header-key", "P-F02 T-F02", "cortex-phases cortex-tasks", E, "the header holds Project, Phase (P) or Summary (T), and State",
             "An empty value counts as missing.", by_hand("the missing value (summary, phase, state) is the author's")},
    RuleInfo{"task-retired-phase-key", "T-F03", "cortex-tasks", E, "a task has no `Phase:` header (retired by decision 59)",
             "", certain("delete the `Phase:` line (decision 59 retired it: a task's order is its file name)")},
    RuleInfo{"pt-known-header-key", "P-F03 T-F04", "cortex-phases cortex-tasks", E, "every header key is one the era knows",
             "", by_hand("the unknown key may be a misspelling or content that belongs elsewhere: a human's call")},
    RuleInfo{"task-summary-word-cap", "T-F05", "cortex-tasks", E, "`Summary:` is at most 10 words",
             "", by_hand("which words to drop is the author's call")},
    RuleInfo{"pt-required-section", "P-F04 T-F06", "cortex-phases cortex-tasks", E, "sections Question, Witness, Where to look, Runs, Ruling are present",
             "", by_hand("the section's content is the author's words")},
    RuleInfo{"pt-project-equals-directory", "P-F05 T-F07", "cortex-phases cortex-tasks", E, "`Project:` equals the project directory",
             "", certain("set `Project:` to the directory the file is in")},
    RuleInfo{"pt-project-is-row", "P-F06 T-F08", "cortex-phases cortex-tasks", E, "`Project:` is a projects.yaml key",
             "", by_hand("a projects.yaml row is code (spec §5), written by a human")},
    RuleInfo{"phase-number-integer", "P-F07", "cortex-phases", E, "`Phase:` is an integer",
             "", by_hand("which number was meant is not known")},
    RuleInfo{"phase-number-unique", "P-F08", "cortex-phases", E, "`Phase:` is unique within the project directory",
             "Compared as strings (see phase-number-equal-value).", by_hand("renumbering phases is a human's call")},
    RuleInfo{"pt-state-legal", "P-F09 T-F09", "cortex-phases cortex-tasks", E, "`State:` is a phase/task state",
             "planned gated ready submitted running pulled awaiting-ruling accepted rerun dropped",
             by_hand("which state was meant is not known (the verbs move states)")},
    RuleInfo{"pt-gates-ref-grammar", "P-F10 T-F10", "cortex-phases cortex-tasks", E, "each `Gates:` ref is Repo#N or an issue/PR URL",
             "owner/Repo#N is refused.", by_hand("which repository was meant is not known")},
    RuleInfo{"pt-date-format", "P-F11 T-F11", "cortex-phases cortex-tasks", E, "`Filed:` (and P1 `Gates-cleared:`) is YYYY-MM-DD",
             "The shape only; see pt-date-real.", by_hand("which date was meant is not known")},
    RuleInfo{"pt-budget-format", "P-F12 T-F12", "cortex-phases cortex-tasks", E, "`Budget:` is H+:MM",
             "", by_hand("which budget was meant is not known")},
    RuleInfo{"pt-review-minutes-integer", "P-F13 T-F13", "cortex-phases cortex-tasks", E, "`Review-minutes:` is an integer",
             "", by_hand("which number was meant is not known")},
    RuleInfo{"phase-lane-value", "P-F14", "cortex-phases", E, "`Lane:` is local-dev (P1 only)",
             "", by_hand("the phase's lane is a human's call")},
    RuleInfo{"pt-gated-needs-gates", "P-F15 T-F14", "cortex-phases cortex-tasks", E, "a gated phase/task has at least one valid gate ref",
             "", by_hand("what the phase/task waits on is the author's call")},
    RuleInfo{"phase-gates-clearance", "P-F16", "cortex-phases", E, "past gated with `Gates:`, `Gates-cleared:` or `Gate-override:` is recorded (P1 only)",
             "", by_hand("whether and when the gates cleared is a fact only a human has")},
    RuleInfo{"pt-witness-required", "P-F17 T-F15", "cortex-phases cortex-tasks", E, "a state from submitted on needs `Witness:`",
             "", by_hand("the witness is a fact only a human has")},
    RuleInfo{"pt-ruled-state-needs-ruling", "P-F18 T-F16", "cortex-phases cortex-tasks", E, "accepted, rerun and dropped need `Ruling:`",
             "", by_hand("a ruling is a human's judgement (`rule`)")},
    RuleInfo{"pt-ruling-id-grammar", "P-F19 T-F17", "cortex-phases cortex-tasks", E, "`Ruling:` is a ruling id R-YYYYMMDD-nn",
             "", by_hand("which ruling was meant is not known")},
    RuleInfo{"pt-ruling-resolves", "P-F20 T-F18", "cortex-phases cortex-tasks", E, "`Ruling:` names a ruling file",
             "", by_hand("which ruling was meant is not known")},
    RuleInfo{"pt-ruling-chain-head", "P-F21 T-F19", "cortex-phases cortex-tasks", E, "`Ruling:` is the head of its chain (not superseded)",
             "", by_hand("whether the head ruling applies is a human's judgement")},
    RuleInfo{"pt-ruling-names-target", "P-F22 T-F20", "cortex-phases cortex-tasks", E, "the head ruling names this phase/task",
             "", by_hand("which ruling was meant is not known")},
    RuleInfo{"pt-head-verb-fits-state", "P-F23 T-F21", "cortex-phases cortex-tasks", E, "the head ruling's verb agrees with `State:`",
             "accept ⇒ accepted; drop ⇒ dropped; rerun ⇒ rerun ready submitted running pulled awaiting-ruling; leave-to-finish ⇒ not dropped.",
             by_hand("whether the state or the ruling is wrong is a human's judgement")},
    RuleInfo{"pt-where-to-look", "P-F24 T-F22", "cortex-phases cortex-tasks", E, "past planned, ## Where to look names a real place (P3, T)",
             "At least one bullet that is not the placeholder '(the output path, once there is one)'.",
             by_hand("where the output is, is a fact only a human has")},
    RuleInfo{"pt-partial-pull-needs-ltf", "P-F25 T-F23", "cortex-phases cortex-tasks", E, "pulled with a live run needs a leave-to-finish ruling head",
             "", by_hand("a ruling is a human's judgement (`rule leave-to-finish`)")},
    RuleInfo{"pt-run-sets-disjoint", "P-F26 T-F24", "cortex-phases cortex-tasks", E, "two runs of one stem do not overlap",
             "A bare stem overlaps every run of that stem.", by_hand("which run line is right is not known")},
    RuleInfo{"pt-runs-header-stem", "P-F27 T-F25", "cortex-phases cortex-tasks", E, "each `Runs:` header token is a job stem",
             "", by_hand("which job was meant is not known")},
    RuleInfo{"pt-runs-header-equals-body", "P-F28 T-F26", "cortex-phases cortex-tasks", E, "the `Runs:` header equals the set of body stems",
             "", by_hand("whether the header or the body is out of date is not known")},
    RuleInfo{"pt-pulled-needs-pulled-to", "P-F29 T-F27", "cortex-phases cortex-tasks", E, "pulled needs a done or legacy run with pulled_to:",
             "", by_hand("where the run was pulled to is a fact only a human has")},
    RuleInfo{"pt-legacy-needs-where", "P-F30 T-F28", "cortex-phases cortex-tasks", E, "a legacy or legacy_wrong run has where:",
             "", by_hand("where the legacy output is, is a fact only a human has")},
    RuleInfo{"pt-after-resumes-resolve", "P-F31 T-F29", "cortex-phases cortex-tasks", E, "after: and resumes: name another run of the same phase/task",
             "", by_hand("which run was meant is not known")},
    RuleInfo{"pt-ruled-continuation-resolves", "P-F32 T-F30", "cortex-phases cortex-tasks", E, "a run's ruled: names a ruling file",
             "", by_hand("which ruling was meant is not known")},
    RuleInfo{"pt-ruling-id-unique", "P-G01 T-G01", "cortex-phases cortex-tasks", E, "a ruling id is used by one file",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-ruling-title", "P-G02 T-G02", "cortex-phases cortex-tasks", E, "a ruling's title is `# <id>` or `# <id> — <summary>`",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-ruling-required-key", "P-G03 T-G03", "cortex-phases cortex-tasks", E, "a ruling holds Project, Phase (P) or Task (T), and Ruling",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"task-ruling-retired-phase-key", "T-G04", "cortex-tasks", E, "a ruling has no `Phase:` header in era T",
             "`Task:` names the task's path.", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-ruling-known-key", "P-G04 T-G05", "cortex-phases cortex-tasks", E, "every ruling header key is one the era knows",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-ruling-required-section", "P-G05 T-G06", "cortex-phases cortex-tasks", E, "a ruling has ## Ruling and ## Evidence",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-ruling-verb", "P-G06 T-G07", "cortex-phases cortex-tasks", E, "`Ruling:` is accept, rerun, drop or leave-to-finish",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-ruling-target-resolves", "P-G07 T-G08", "cortex-phases cortex-tasks", E, "a ruling's `Phase:`/`Task:` names a phase/task file",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-ruling-target-project", "P-G08 T-G09", "cortex-phases cortex-tasks", E, "a ruling's target belongs to its `Project:`",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-ruling-runs-subset", "P-G09 T-G10", "cortex-phases cortex-tasks", E, "a ruling's `Runs:` are runs of its target",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-supersedes-not-self", "P-G10 T-G11", "cortex-phases cortex-tasks", E, "a ruling does not supersede itself",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-supersedes-resolves", "P-G11 T-G12", "cortex-phases cortex-tasks", E, "`Supersedes:` names a ruling file",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-supersedes-earlier", "P-G12 T-G13", "cortex-phases cortex-tasks", E, "`Supersedes:` names an earlier ruling",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-supersedes-same-target", "P-G13 T-G14", "cortex-phases cortex-tasks", E, "`Supersedes:` names a ruling of the same project and phase/task",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-single-successor", "P-G14 T-G15", "cortex-phases cortex-tasks", E, "a ruling is superseded at most once (a chain, not a tree)",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-batch-resolves", "P-G15 T-G16", "cortex-phases cortex-tasks", E, "a ruling's `Batch:` names batches/<Batch>.md",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-review-minutes-actual-integer", "P-G16 T-G17", "cortex-phases cortex-tasks", E, "`Review-minutes-actual:` is an integer",
             "", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-follow-up-ref-grammar", "P-G17 T-G18", "cortex-phases cortex-tasks", E, "each `Follow-ups:` ref is Repo#N or an issue/PR URL",
             "", by_hand(k_ruling_is_filed)},
    // Era P1 only: batch records and reviews (spec §2.5, §2.6.5).
    RuleInfo{"phase-batch-slot-name", "P-B01", "cortex-phases", E, "a batch record is named batches/<YYYY-MM-DD>-<slot>.md",
             "", by_hand("a batch record is closed history (era P1), not edited")},
    RuleInfo{"phase-batch-member-parses", "P-B02", "cortex-phases", E, "a record's member line parses",
             "", by_hand("a batch record is closed history (era P1), not edited")},
    RuleInfo{"phase-batch-member-path", "P-B03", "cortex-phases", E, "a member's path is a phase file",
             "", by_hand("a batch record is closed history (era P1), not edited")},
    RuleInfo{"phase-batch-member-slug", "P-B04", "cortex-phases", E, "a member's slug is its phase's file stem",
             "", by_hand("a batch record is closed history (era P1), not edited")},
    RuleInfo{"phase-batch-member-runs", "P-B05", "cortex-phases", E, "a member's runs are runs of its phase",
             "", by_hand("a batch record is closed history (era P1), not edited")},
    RuleInfo{"phase-batch-member-minutes", "P-B06", "cortex-phases", E, "a member's review minutes are an integer",
             "", by_hand("a batch record is closed history (era P1), not edited")},
    RuleInfo{"phase-batch-member-state", "P-B07", "cortex-phases", E, "a member's state is a phase state",
             "", by_hand("a batch record is closed history (era P1), not edited")},
    RuleInfo{"phase-batch-review-resolves", "P-B08", "cortex-phases", E, "a record's `- review:` path exists",
             "", by_hand("a batch record is closed history (era P1), not edited")},
    RuleInfo{"phase-review-title", "P-V01", "cortex-phases", E, "a review's title is `# Batch review <slot>`",
             "", by_hand("a batch review is closed history (era P1), not edited")},
    RuleInfo{"phase-review-partial-number", "P-V02", "cortex-phases", E, "a partial review is -r2 or later (P1c)",
             "", by_hand("a batch review is closed history (era P1), not edited")},
    RuleInfo{"phase-review-has-record", "P-V03", "cortex-phases", E, "a review has its batch record",
             "", by_hand("a batch review is closed history (era P1), not edited")},
    RuleInfo{"phase-review-heading", "P-V04", "cortex-phases", E, "a review section heading is `## <slug> — <HEALTH>`",
             "", by_hand("a batch review is closed history (era P1), not edited")},
    RuleInfo{"phase-review-health", "P-V05", "cortex-phases", E, "a health is HEALTHY, SUSPECT, FAILED or RUNNING",
             "", by_hand("a batch review is closed history (era P1), not edited")},
    RuleInfo{"phase-review-section-member", "P-V06", "cortex-phases", E, "a review section names a member of the record",
             "", by_hand("a batch review is closed history (era P1), not edited")},
    RuleInfo{"phase-review-decision-ruled", "P-V07", "cortex-phases", E, "a review section has `- decision:` and `- ruled:`",
             "", by_hand("a batch review is closed history (era P1), not edited")},
    RuleInfo{"phase-review-decision-verb", "P-V08", "cortex-phases", E, "a decision is a ruling verb or (none)",
             "", by_hand("a batch review is closed history (era P1), not edited")},
    RuleInfo{"phase-review-ruled-yes-no", "P-V09", "cortex-phases", E, "ruled is yes or no",
             "", by_hand("a batch review is closed history (era P1), not edited")},
    RuleInfo{"phase-review-ruled-needs-verb", "P-V10", "cortex-phases", E, "ruled: yes needs a decision verb",
             "", by_hand("a batch review is closed history (era P1), not edited")},
    // Era P1 only: projects.yaml's restricted subset (spec §5.2).
    RuleInfo{"projects-yaml-p1-duplicate-row", "Y1-01", "cortex-phases", E, "a project key appears once",
             "", by_hand(k_p1_yaml_is_code)},
    RuleInfo{"projects-yaml-p1-field-known", "Y1-02", "cortex-phases", E, "a row holds only known fields",
             "", by_hand(k_p1_yaml_is_code)},
    RuleInfo{"projects-yaml-p1-field-unique", "Y1-03", "cortex-phases", E, "a field appears once in a row",
             "", by_hand(k_p1_yaml_is_code)},
    RuleInfo{"projects-yaml-p1-sync-verbs-flow", "Y1-04", "cortex-phases", E, "sync_verbs is a flow list `[a, b]`",
             "", by_hand(k_p1_yaml_is_code)},
    RuleInfo{"projects-yaml-p1-sync-verbs-bare", "Y1-05", "cortex-phases", E, "sync_verbs holds bare words",
             "", by_hand(k_p1_yaml_is_code)},
    RuleInfo{"projects-yaml-p1-field-has-value", "Y1-06", "cortex-phases", E, "a field has a value",
             "", by_hand(k_p1_yaml_is_code)},
    RuleInfo{"projects-yaml-p1-quotes", "Y1-07", "cortex-phases", E, "a quoted value is one balanced pair of double quotes",
             "", by_hand(k_p1_yaml_is_code)},
    RuleInfo{"projects-yaml-p1-scalar-quoting", "Y1-08", "cortex-phases", E, "a scalar with `#`, `:` or a YAML indicator is quoted",
             "", by_hand(k_p1_yaml_is_code)},
    RuleInfo{"projects-yaml-p1-outside-subset", "Y1-09", "cortex-phases", E, "every line is inside the restricted subset",
             "", by_hand(k_p1_yaml_is_code)},
    // Eras P and T: gaps of the reference (spec §10), warnings by default.
    RuleInfo{"pt-non-ascii-digit", "G-08", "cortex-phases cortex-tasks", W, "a number, date or run ident uses non-ASCII digits",
             "Python's \\d matches any Unicode digit, so `２０２６-09-01` passes the reference's grammars.",
             certain("write the number's, date's or ident's digits as ASCII 0-9 (the same numbers)")},
    RuleInfo{"phase-number-equal-value", "G-08", "cortex-phases", W, "two phases of a directory have numerically equal `Phase:` values",
             "The reference compares the strings, so `07` and `7` are not duplicates.",
             by_hand("renumbering phases is a human's call")},
    RuleInfo{"pt-date-real", "G-11", "cortex-phases cortex-tasks", W, "a date (`Filed:`, `Gates-cleared:`, a run's submitted date, a ruling id) is a real calendar date",
             "`R-20261399-01` and `Filed: 2026-02-30` pass the reference's shape check.",
             by_hand("which date was meant is not known")},
    RuleInfo{"pt-reviewed-at-shape", "G-11", "cortex-phases cortex-tasks", W, "a ruling's `Reviewed-at:` is YYYY-MM-DDTHH:MM[:SS]Z",
             "The reference never validates it.", by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-minutes-under-60", "G-11", "cortex-phases cortex-tasks", W, "the minutes of a wall or `Budget:` time are under 60",
             "`wall 1:75` passes the reference's H+:MM shape.", by_hand("which time was meant is not known")},
    RuleInfo{"pt-header-line-dropped", "G-12", "cortex-phases cortex-tasks", W, "a line inside the header block is neither `Key: value` nor `- item`",
             "The reference ignores it silently, so a typo such as `state: ready` or `State:ready` disappears.",
             by_hand("what the line was meant to say is not known")},
    RuleInfo{"pt-header-duplicate-key", "G-04", "cortex-phases cortex-tasks", W, "a header key appears twice",
             "The first occurrence wins silently in the reference.",
             suggested("delete the later lines of a repeated header key (what the reference reads stays; the later "
                       "line may be the one meant)")},
    RuleInfo{"pt-heading-in-fence", "G-06", "cortex-phases cortex-tasks", W, "a `## ` line inside a fenced code block counts as a section heading",
             "", by_hand("whether the fenced line is a heading or an example is the author's call")},
    RuleInfo{"pt-duplicate-section", "G-06", "cortex-phases cortex-tasks", W, "a section heading appears twice",
             "Only the first copy is read: run lines under a second `## Runs` are invisible to every rule.",
             by_hand("how to merge the two sections' lines is the author's call")},
    RuleInfo{"pt-chain-invalid-edge", "G-10", "cortex-phases cortex-tasks", W, "a chain finding counts a successor whose `Supersedes:` edge is itself invalid",
             "A ruling that supersedes itself, a later ruling or a ruling of another phase/task still makes its target \"not a chain head\" in the reference.",
             by_hand(k_ruling_is_filed)},
    RuleInfo{"pt-ltf-head-early-state", "G-16", "cortex-phases cortex-tasks", W, "a leave-to-finish ruling heads a planned, gated or ready phase/task",
             "`rule leave-to-finish` is only written on running, pulled or awaiting-ruling; the reference accepts it on any state but dropped.",
             by_hand("whether the state or the ruling is wrong is a human's judgement")},

    // The open-requirements ledger (spec/open-requirements.md): one version.
    RuleInfo{"orl-yaml", "", "open-requirements", E, "the ledger file parses as YAML",
             "The message carries the 1-based line and the parser's problem.",
             by_hand("which of the readings of broken YAML was meant is not known")},
    RuleInfo{"orl-shape", "", "open-requirements", E, "the document is a mapping, a sequence or empty; entries is a list",
             "Canonical: a mapping with `entries:` (and optionally `topology_repair:`). An empty file is an empty ledger.",
             by_hand("what the document was meant to hold is not known")},
    RuleInfo{"orl-bare-list", "", "open-requirements", W, "the document is a bare list of entries (v1's loose form)",
             "Accepted, but write the entries under `entries:` so the budget has a home.",
             by_hand("the protocol's writer (`req`) owns the file's layout; the two forms read alike")},
    RuleInfo{"orl-top-keys", "", "open-requirements", W, "a top-level key other than topology_repair, entries", "",
             by_hand("the unknown key may be content that belongs elsewhere: a human's call")},
    RuleInfo{"orl-duplicate-key", "", "open-requirements", E, "a mapping holds the same key twice",
             "YAML loaders keep the last of two equal keys silently; the first is lost.",
             by_hand("which of the two values is meant is not known")},
    RuleInfo{"orl-entry-mapping", "", "open-requirements", E, "each entry is a mapping", "",
             by_hand("what the entry was meant to hold is not known")},
    RuleInfo{"orl-entry-fields", "", "open-requirements", W, "an entry holds only known fields",
             "Known: id, status, kind, blocking, raised_by, step, unmet, missing, resolved_by, supersedes, note, "
             "units, because (catches `resolved-by`, `raisedBy`).",
             by_hand("the unknown field may be a misspelling or a note: a human's call")},
    RuleInfo{"orl-id", "", "open-requirements", E, "`id` is present, a string, kebab-case",
             "^[a-z0-9]+(-[a-z0-9]+)*$, e.g. `sccmec-evidence-missing`.",
             by_hand("an entry's id is never renamed once used (orl-h-no-delete): a human's call")},
    RuleInfo{"orl-id-unique", "", "open-requirements", E, "no two entries share an id", "",
             by_hand("an entry's id is never renamed once used (orl-h-no-delete): a human's call")},
    RuleInfo{"orl-status", "", "open-requirements", E, "`status` is open, resolved or surrendered", "",
             by_hand("which status was meant is the protocol's call (`req`)")},
    RuleInfo{"orl-kind", "", "open-requirements", E, "`kind`, when present, is gap or dropped", "",
             by_hand("which kind was meant is not known")},
    RuleInfo{"orl-kind-gap-explicit", "", "open-requirements", Severity::info, "`kind: gap` is written out",
             "gap is the default; the seed says to omit kind for a plain gap.",
             certain("delete the `kind: gap` line (gap is the default)")},
    RuleInfo{"orl-blocking-bool", "", "open-requirements", E, "`blocking`, when present, is a boolean", "",
             by_hand("which value was meant is not known")},
    RuleInfo{"orl-blocking-gap-only", "", "open-requirements", W, "`blocking: true` on a dropped entry",
             "blocking is only for a computability gap.", by_hand("whether the entry blocks is a human's judgement")},
    RuleInfo{"orl-provenance", "", "open-requirements", E, "`raised_by` is present and non-empty", "",
             by_hand("who raised the entry is a fact only a human has")},
    RuleInfo{"orl-unmet-missing", "", "open-requirements", E, "`unmet` and `missing` are present and non-empty",
             "Enough for a later step to act without re-reading the source.",
             by_hand("what is unmet is a fact only a human has")},
    RuleInfo{"orl-resolved-by", "", "open-requirements", E,
             "resolved has `resolved_by`; open and surrendered have none", "",
             by_hand("what resolved the entry is a fact only a human has")},
    RuleInfo{"orl-surrender-note", "", "open-requirements", E, "a surrendered entry has a non-empty `note`",
             "A labelled gap says why.", by_hand("why the entry was surrendered is the author's words")},
    RuleInfo{"orl-dropped-fields", "", "open-requirements", E, "a dropped entry has non-empty `units` and `because`",
             "A superseded drop's `because` may be struck (emptied).",
             by_hand("what was dropped, and why, is the author's words")},
    RuleInfo{"orl-uncited-drop", "", "open-requirements", W, "a dropped entry's `because` carries no citation",
             "A citation is a `backticked` command or construct, a URL, #123 or owner/repo#123, a file path, or a "
             "dated search (\"searched 2026-08-29\"). An uncited drop is a debt. A struck `because` is not judged.",
             by_hand("the citation is a fact only a human has")},
    RuleInfo{"orl-supersedes-resolves", "", "open-requirements", E,
             "`supersedes` names an existing entry other than its own", "",
             by_hand("which entry was meant is not known")},
    RuleInfo{"orl-supersedes-on-resolved", "", "open-requirements", E, "an entry carrying `supersedes` is resolved",
             "", by_hand("the protocol's call (`req`)")},
    RuleInfo{"orl-superseded-reopened", "", "open-requirements", E,
             "a superseded entry is open, its `because` struck and its `note` quoting the contradiction",
             "Struck: wrapped in ~~…~~, or emptied. (A reopened entry may later be surrendered.)",
             by_hand("the protocol's call (`req`), and the note quotes a contradiction only a human knows")},
    RuleInfo{"orl-budget-types", "", "open-requirements", E,
             "topology_repair: escalations int >= 0, cap int >= 1, open_history list of ints >= 0", "",
             by_hand("which number was meant is not known")},
    RuleInfo{"orl-budget-length", "", "open-requirements", E,
             "open_history holds escalations or escalations + 1 counts (an optional baseline first)", "",
             by_hand("which counts are missing is not known")},
    RuleInfo{"orl-budget-cap", "", "open-requirements", E, "escalations <= cap", "",
             by_hand("the budget is the protocol's (`req`)")},
    RuleInfo{"orl-non-convergent", "", "open-requirements", E, "open_history is strictly decreasing",
             "A repair that fails to lower the open blocking count trips the gate at once.",
             by_hand("the count is history; the protocol (`req`) answers it")},
    RuleInfo{"orl-cap-surrender", "", "open-requirements", E,
             "at the cap, no blocking entry is still open (they are surrendered)", "",
             by_hand("surrendering an entry is a human's call (`req surrender`)")},

    // The open-requirements ledger: between two versions of one file.
    RuleInfo{"orl-h-no-delete", "", "open-requirements", E, "every entry id of the previous version is still present",
             "Resolving is not deleting.", by_hand(k_orl_history)},
    RuleInfo{"orl-h-no-reword", "", "open-requirements", E,
             "raised_by, kind, step, unmet, missing, units never change; because only by being struck on a supersede",
             "", by_hand(k_orl_history)},
    RuleInfo{"orl-h-order", "", "open-requirements", E,
             "existing entries keep their order; new entries are appended after them", "Never renumber.",
             by_hand(k_orl_history)},
    RuleInfo{"orl-h-transition", "", "open-requirements", E, "status moves only as the protocol allows",
             "open→resolved (with resolved_by), open→surrendered, resolved→open only when an entry gains "
             "`supersedes` naming it; surrendered is terminal; resolved_by is fixed while resolved.",
             by_hand(k_orl_history)},
    RuleInfo{"orl-h-budget", "", "open-requirements", E,
             "escalations grows by at most one; open_history only appends, one per escalation; cap never changes",
             "The first escalation may also record a baseline count.", by_hand(k_orl_history)},
    RuleInfo{"orl-h-escalation-count", "", "open-requirements", W,
             "an escalation appends the number of open blocking entries", "", by_hand(k_orl_history)},

    // `audit`: between consecutive commits of a history (spec §6.3, §6.4).
    RuleInfo{"audit-log-entry-edited", "", "audit", E, "a log entry of the previous commit was edited",
             "Entries are never edited: a wrong entry is answered by a newer one (§4.4, §6.3).", by_hand(k_history)},
    RuleInfo{"audit-log-entry-removed", "", "audit", E, "a log entry of the previous commit was removed",
             "The log after a commit is zero or more new entries plus the previous log, unchanged.",
             by_hand(k_history)},
    RuleInfo{"audit-log-entry-inserted", "", "audit", E, "a new log entry was added below the head of the log",
             "New entries are prepended (newest first), never inserted between older ones.", by_hand(k_history)},
    RuleInfo{"audit-log-date-backwards", "", "audit", E,
             "a new log entry is dated before the previous head entry", "New entries' dates are >= the previous head date.",
             by_hand(k_history)},
    RuleInfo{"audit-run-without-log", "", "audit", E,
             "a run line appeared without a new `{id} submitted` log entry",
             "`run <project> <id>` appends the run line and prepends `run — {id} submitted: …` in one commit.",
             by_hand(k_history)},
    RuleInfo{"audit-run-removed-without-log", "", "audit", E,
             "a run line left without a new `{id} finished` or `{id} failed` log entry",
             "`done <project> <id>` removes the run line and prepends `run — {id} finished|failed…` in one commit.",
             by_hand(k_history)},
    RuleInfo{"audit-archive-changed", "", "audit", E, "a path under archive/ changed after archive/ was created",
             "archive/** never changes after the migration commit (decision 60).", by_hand(k_history)},
    RuleInfo{"audit-archive-move-edited", "", "audit", E, "a file moved into archive/ with changed content",
             "The migration renames tasks/, rulings/, batches/ under archive/; the content must move unchanged.",
             by_hand(k_history)},
    RuleInfo{"audit-state-edge", "", "audit", E, "a phase/task State: change that is not an edge of the transition table",
             "Spec §6.1 (§2.9, §3.4): e.g. planned → accepted, or anything out of the terminal dropped. A ruling "
             "is never unset.", by_hand(k_history)},
    RuleInfo{"audit-state-edge-evidence", "", "audit", E,
             "a State: edge without the evidence its verb writes in the same commit",
             "Spec §6.1: e.g. awaiting-ruling → accepted needs an added `accept` ruling naming the task that is "
             "its new Ruling:; ready → submitted needs a Witness: and a new submitted run line.", by_hand(k_history)},
    RuleInfo{"audit-run-state-backwards", "", "audit", W, "a run line's state moved backwards",
             "Spec §6.2 (our table): submitted → running | done | failed | timeout | void; running → a final "
             "state; final and legacy states never change.", by_hand(k_history)},
    RuleInfo{"audit-run-line-changed", "", "audit", W,
             "a run line's ident, partition, date or a continuation changed, wall went down, or lines were reordered",
             "Spec §6.2 (our table): run lines are appended; only their state, wall and new continuations change.",
             by_hand(k_history)},
    RuleInfo{"audit-run-line-removed", "", "audit", W, "a run line of a phase/task was removed",
             "Spec §6.2: run lines are never removed.", by_hand(k_history)},
    RuleInfo{"audit-ruling-changed", "", "audit", E, "a ruling file was modified, renamed or deleted",
             "Spec §6.1: ruling files are append-only (the merge gate enforces it in eras P and T, §7.4).",
             by_hand(k_history)},
    RuleInfo{"audit-ruling-id-reused", "", "audit", E, "a ruling id that an earlier commit had used was filed again",
             "Spec §6.1: ids are never reused, even after the file was (wrongly) deleted.", by_hand(k_history)},
    RuleInfo{"audit-migration", "", "audit", Severity::info, "a schema migration commit, recognised as moves",
             "Spec §6.4: phases → tasks and tasks → archive/ are bulk moves, not state edges.", by_hand(k_history)},
    RuleInfo{"audit-migration-edited", "", "audit", W,
             "a file moved by a schema migration changed more than the migration changes",
             "Spec §6.4: a phase becoming a task loses Phase: (and the P1 keys) and gains Summary:; a ruling's "
             "Phase: phases/… becomes Task: tasks/…; anything else must move unchanged.", by_hand(k_history)},
    RuleInfo{"audit-merge-manual-resolution", "", "audit", Severity::info,
             "a merge commit's tree differs from the clean trial merge of its parents",
             "A human resolved or amended the merge; worth a look, not a violation.", by_hand(k_history)},
    RuleInfo{"audit-ledger-merge-unclean", "", "audit", E,
             "a merge made by the ledger-merge job was not ledger-only or not check-clean",
             "The job (its message names `ledger-merge`) may land only ledger-only branches whose merge checks clean.",
             by_hand(k_history)},
    RuleInfo{"audit-not-checked", "", "audit", Severity::info,
             "a merge the audit could not judge",
             "A merge whose parents cannot be trial-merged (unrelated histories; a criss-cross history whose "
             "virtual base trial-merge does not reproduce, e.g. a rename inside it) is reported, not judged, and "
             "the walk goes on.", by_hand(k_history)},

    // `trial-merge` and `land`: what the trial merge of a branch onto its base finds besides the
    // merged tree's check (each a located result of `--format sarif`).
    RuleInfo{"merge-conflict", "", "merge", E, "the trial merge leaves a path conflicted",
             "git's merge of the branch onto its base (as `git merge` would do it: renames, modes and "
             "file/directory clashes included) conflicts at this path, and the record merge of ledger files "
             "could not resolve it, so nothing can land and the merged tree is not checked.",
             by_hand("a conflict is resolved by a human")},
    RuleInfo{"merge-semantic-conflict", "", "merge", E,
             "both sides changed the same ledger records in ways that do not combine",
             "The merge is textually clean but the two sides disagree about the ledger: the same run added "
             "on both sides, log entries interleaved out of date order, or a project retired on one side "
             "while the other adds runs to it.", by_hand("which side's records are right is a human's call")},
    RuleInfo{"merge-code-path", "", "merge", E, "the branch changes a path that is not ledger",
             "The merge gate lands ledger-only changes without a human (spec §7): a path the policy's "
             "classifier calls code (outside the ledger dirs and files, a dot-path such as "
             "`.ledgergate.yaml`, an excluded name, a frozen dir, an append-only file changed) needs a "
             "human's review, so the branch is left for one.",
             by_hand("a change to code needs a human's review, not an edit")},
};

}  // namespace lg::diag::table

namespace lg::diag {

// A registered rule, named by its id where a finding is emitted:
// `make_finding("orl-id", ...)` converts the literal here at compile time, so
// an id without a row in the table does not compile, and the handle is the
// row's index (make_finding looks nothing up).
//
// Under clang the conversion is constexpr, not consteval: clang (seen with
// 14; llvm/llvm-project#60709) misplaces the cleanups of a full-expression
// holding an immediate invocation, so at `e.peer("id", line, a + b)` the
// std::string temporaries of the other arguments were destroyed at the wrong
// time (bad free, use after scope, SEGV: the check_tree fuzz findings and the
// clang unit-test crashes). gcc keeps consteval, so an unknown id still fails
// to compile there; under clang it is folded by the optimiser or looked up
// at run time.
#if defined(__clang__)
#define LG_RULE_ID_EVAL constexpr
#else
#define LG_RULE_ID_EVAL consteval
#endif
class RuleId {
 public:
  // Implicit: an emit site passes the id's literal.
  template <std::size_t N>
  LG_RULE_ID_EVAL RuleId(const char (&id)[N]) : m_index(index_of(std::string_view(id, N - 1))) {}
  const RuleInfo& info() const { return table::k_rules[m_index]; }
  std::string_view id() const { return info().id; }
  friend bool operator==(RuleId, RuleId) = default;

 private:
  static LG_RULE_ID_EVAL std::size_t index_of(std::string_view id) {
    for (std::size_t i = 0; i < table::k_rules.size(); ++i) {
      if (table::k_rules[i].id == id) return i;
    }
    throw "not a registered rule id: add its row to diag/rule_table.hpp";
  }
  std::size_t m_index;
};
#undef LG_RULE_ID_EVAL

std::span<const RuleInfo> all_rules();
// Finds a rule by id or by spec label (case-insensitive for labels); nullptr if unknown.
const RuleInfo* find_rule(std::string_view id_or_ref);

}  // namespace lg::diag
