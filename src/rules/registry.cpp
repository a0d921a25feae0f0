// The table of every rule ledgergate knows. Rows reproducing the reference
// checker carry its spec label (spec/cortex-ledger.md); rows that close one of
// its gaps (§10) default to `warning` so an existing clean ledger stays clean.
#include "ledgergate/rules/registry.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "ledgergate/util/assert.hpp"

namespace lg::rules {
namespace {

using diag::Severity;
constexpr Severity E = Severity::error;
constexpr Severity W = Severity::warning;

constexpr std::array k_rules = {
    // Input: files the checker cannot read as text, or should not accept as ledger.
    RuleInfo{"input-not-utf8", "G-07", "input", E, "a ledger file is not valid UTF-8",
             "The reference checker crashes with a traceback (exit 1, like drift). ledgergate reports the "
             "first invalid byte's line and exits 2: the tree cannot be judged."},
    RuleInfo{"input-unreadable", "G-07", "input", E, "a ledger file could not be read",
             "An object that is missing, unreadable or larger than the size limit cannot be judged; "
             "the verdict is exit 2, never a pass."},
    RuleInfo{"input-not-a-file", "G-19", "input", E,
             "a ledger path is a directory, symlink or submodule, not a regular file",
             "Only regular blobs are ledger. A symlink could point anywhere; a submodule or a "
             "directory named `x.md` is not a ledger file (the reference crashes or follows it)."},
    RuleInfo{"input-bom", "G-08", "input", W, "a ledger file starts with a UTF-8 byte-order mark",
             "The reference keeps U+FEFF as part of line 1, so the file has no title. Save without a BOM."},
    RuleInfo{"input-line-endings", "G-08", "input", W, "a ledger file uses CR or CRLF line endings",
             "Universal newlines make them equivalent for the checker, but diffs and merges of mixed "
             "endings are noisy. Use LF."},
    RuleInfo{"input-unchecked-file", "G-03", "input", W,
             "a file under a ledger directory that `check` does not read",
             "The merge gate lands every path under projects/ as ledger, but the checker reads only "
             "projects/*.md: e.g. projects/x.txt or projects/a/b.md would land unchecked."},

    // projects.yaml (spec §5.1)
    RuleInfo{"projects-yaml-present", "Y-01", "cortex-projects", E, "projects.yaml exists",
             "Every era's checker validates projects.yaml; without it no ledger has a row."},
    RuleInfo{"projects-yaml-parses", "Y-02", "cortex-projects", E, "projects.yaml is valid YAML",
             "Parsed with YAML 1.1 semantics (PyYAML safe_load); the problem and its line are reported."},
    RuleInfo{"projects-yaml-is-mapping", "Y-03", "cortex-projects", E,
             "the document is a mapping of project keys", "An empty or comment-only document has no rows and no finding."},
    RuleInfo{"projects-yaml-key-grammar", "Y-04", "cortex-projects", E, "a project key matches ^[a-z][a-z0-9_]*$",
             "A row with a bad key is skipped."},
    RuleInfo{"projects-yaml-row-is-mapping", "Y-05", "cortex-projects", E, "a row is a mapping of fields",
             "A row that is not a mapping is skipped."},
    RuleInfo{"projects-yaml-field-known", "Y-06", "cortex-projects", E, "a row holds only known fields",
             "Known: remote, local_path, ral_root, mirror, sync_cli, sync_verbs, ledger, assistant, "
             "witness_file, partition, status, note."},
    RuleInfo{"projects-yaml-sync-verbs-list", "Y-07", "cortex-projects", E, "sync_verbs is a list",
             "Example: `sync_verbs: [push, pull]`."},
    RuleInfo{"projects-yaml-sync-verbs-words", "Y-08", "cortex-projects", E,
             "sync_verbs holds bare words ^[a-z][a-z0-9_-]*$", "Non-string items are bad and dropped."},
    RuleInfo{"projects-yaml-field-has-value", "Y-09", "cortex-projects", E, "a field is not null",
             "A null field is kept as \"\" (so field-not-empty fires too, as in the reference)."},
    RuleInfo{"projects-yaml-field-is-string", "Y-10", "cortex-projects", E, "a field is a string",
             "YAML 1.1 typing: `5`, `yes`, `2026-09-01` are int, bool and date, not strings. Quote them."},
    RuleInfo{"projects-yaml-required-fields", "Y-11", "cortex-projects", E, "a row has every required field",
             "Required: remote, local_path, ral_root, mirror, sync_cli, sync_verbs, ledger, assistant, "
             "witness_file, partition, status."},
    RuleInfo{"projects-yaml-field-not-empty", "Y-12", "cortex-projects", E, "a string field is not blank", ""},
    RuleInfo{"projects-yaml-partition-enum", "Y-13", "cortex-projects", E, "partition is gpu | ral | both", ""},
    RuleInfo{"projects-yaml-status-enum", "Y-14", "cortex-projects", E,
             "status is active | dormant | planned | retired", ""},
    RuleInfo{"projects-yaml-remote-shape", "Y-15", "cortex-projects", E, "remote is owner/repo or none", ""},
    RuleInfo{"projects-yaml-absolute-paths", "Y-16", "cortex-projects", E,
             "local_path and ral_root are absolute paths", ""},
    RuleInfo{"projects-yaml-mirror-shape", "Y-17", "cortex-projects", E, "mirror is an absolute path or none", ""},
    RuleInfo{"projects-yaml-assistant-shape", "Y-18", "cortex-projects", E,
             "assistant is none or a bare directory name", ""},
    RuleInfo{"projects-yaml-duplicate-key", "G-04", "cortex-projects", W,
             "a project key or a field appears twice",
             "The YAML loader silently keeps the last of two equal keys; the first is lost without a word."},

    // Era R ledgers: projects/<key>.md (spec §4.3)
    RuleInfo{"ledger-file-name", "R-L01", "cortex-projects", E, "a ledger is named projects/<key>.md",
             "The key is ^[a-z][a-z0-9_]*$; a file with another name is ignored."},
    RuleInfo{"ledger-sections-exact", "R-P01", "cortex-projects", E,
             "sections are exactly ## Now, ## Runs, ## Log in that order", ""},
    RuleInfo{"ledger-run-continuation-orphan", "R-P02", "cortex-projects", E,
             "a continuation line under ## Runs follows a run line", ""},
    RuleInfo{"ledger-run-line-parses", "R-P03", "cortex-projects", E, "a run line parses",
             "`- <ident> — open|running — <partition> — YYYY-MM-DD — <what>`"},
    RuleInfo{"ledger-log-continuation-orphan", "R-P04", "cortex-projects", E,
             "a continuation line under ## Log follows a log line", ""},
    RuleInfo{"ledger-log-line-parses", "R-P05", "cortex-projects", E, "a log line parses",
             "`- YYYY-MM-DD — run|result|lesson|note — <text>`"},
    RuleInfo{"ledger-title-present", "R-P06", "cortex-projects", E, "line 1 is `# <key> — <summary>`", ""},
    RuleInfo{"ledger-title-names-key", "R-P07", "cortex-projects", E, "the title's key is the file's key", ""},
    RuleInfo{"ledger-summary-word-cap", "R-P08", "cortex-projects", E, "the summary is at most 15 words", ""},
    RuleInfo{"ledger-has-row", "R-F01", "cortex-projects", E, "every ledger has a projects.yaml row", ""},
    RuleInfo{"ledger-header-required", "R-F02", "cortex-projects", E, "the header holds Project: and Issue:", ""},
    RuleInfo{"ledger-header-closed", "R-F03", "cortex-projects", E, "the header holds only Project and Issue", ""},
    RuleInfo{"ledger-project-equals-key", "R-F04", "cortex-projects", E, "`Project:` equals the file's key", ""},
    RuleInfo{"ledger-issue-grammar", "R-F05", "cortex-projects", E,
             "`Issue:` is Repo#N, an issue URL or none", ""},
    RuleInfo{"ledger-now-on-active", "R-F06", "cortex-projects", E, "an active project says where it is in ## Now",
             ""},
    RuleInfo{"ledger-run-listed-once", "R-F07", "cortex-projects", E, "a run ident is listed once", ""},
    RuleInfo{"ledger-run-ident-grammar", "R-F08", "cortex-projects", E, "a run ident is a SLURM job id",
             "`3002`, `3002_1`, `3002_[0-3,5]`"},
    RuleInfo{"ledger-run-date-real", "R-F09", "cortex-projects", E, "a run's date is a real date", ""},
    RuleInfo{"ledger-run-partition-agrees", "R-F10", "cortex-projects", E,
             "a run's partition agrees with the project's", ""},
    RuleInfo{"ledger-log-date-real", "R-F11", "cortex-projects", E, "a log entry's date is a real date", ""},
    RuleInfo{"ledger-log-newest-first", "R-F12", "cortex-projects", E, "the log is newest first", ""},
    RuleInfo{"ledger-retired-has-no-runs", "R-F13", "cortex-projects", E, "a retired project lists no runs", ""},
    RuleInfo{"ledger-active-has-ledger", "R-X01", "cortex-projects", E,
             "every active projects.yaml row has projects/<key>.md", ""},
    RuleInfo{"ledger-run-overlap", "G-05", "cortex-projects", W,
             "two runs of one job overlap (3002 covers 3002_1 and 3002_[0-3])",
             "The reference compares ident strings only, so one array job can be listed twice under "
             "different spellings."},
    RuleInfo{"ledger-run-tasks-ascending", "G-05", "cortex-projects", W,
             "an array run's task set is ascending and disjoint", "`3002_[3-1]` or `3002_[0-3,2]` are malformed."},
    RuleInfo{"ledger-heading-in-fence", "G-06", "cortex-projects", W,
             "a `## ` line inside a fenced code block counts as a section heading",
             "The reference does not track code fences, so a fenced `## Log` changes the section list."},
    RuleInfo{"ledger-duplicate-section", "G-06", "cortex-projects", W, "a section heading appears twice",
             "Only the first copy is read; lines in the second are invisible to every rule."},
    RuleInfo{"ledger-non-ascii-digit", "G-08", "cortex-projects", W,
             "a date or run ident uses non-ASCII digits",
             "Python's \\d matches any Unicode digit, so `２０２６` passes the grammar. ledgergate treats "
             "such a date as not a real date and says why."},
    RuleInfo{"ledger-header-duplicate-key", "G-04", "cortex-projects", W, "a header key appears twice",
             "The first occurrence wins silently in the reference."},

    // The open-requirements ledger (spec/open-requirements.md): one version.
    RuleInfo{"orl-yaml", "", "open-requirements", E, "the ledger file parses as YAML",
             "The message carries the 1-based line and the parser's problem."},
    RuleInfo{"orl-shape", "", "open-requirements", E, "the document is a mapping, a sequence or empty; entries is a list",
             "Canonical: a mapping with `entries:` (and optionally `topology_repair:`). An empty file is an empty ledger."},
    RuleInfo{"orl-bare-list", "", "open-requirements", W, "the document is a bare list of entries (v1's loose form)",
             "Accepted, but write the entries under `entries:` so the budget has a home."},
    RuleInfo{"orl-top-keys", "", "open-requirements", W, "a top-level key other than topology_repair, entries", ""},
    RuleInfo{"orl-duplicate-key", "", "open-requirements", E, "a mapping holds the same key twice",
             "YAML loaders keep the last of two equal keys silently; the first is lost."},
    RuleInfo{"orl-entry-mapping", "", "open-requirements", E, "each entry is a mapping", ""},
    RuleInfo{"orl-entry-fields", "", "open-requirements", W, "an entry holds only known fields",
             "Known: id, status, kind, blocking, raised_by, step, unmet, missing, resolved_by, supersedes, note, "
             "units, because (catches `resolved-by`, `raisedBy`)."},
    RuleInfo{"orl-id", "", "open-requirements", E, "`id` is present, a string, kebab-case",
             "^[a-z0-9]+(-[a-z0-9]+)*$, e.g. `sccmec-evidence-missing`."},
    RuleInfo{"orl-id-unique", "", "open-requirements", E, "no two entries share an id", ""},
    RuleInfo{"orl-status", "", "open-requirements", E, "`status` is open, resolved or surrendered", ""},
    RuleInfo{"orl-kind", "", "open-requirements", E, "`kind`, when present, is gap or dropped", ""},
    RuleInfo{"orl-kind-gap-explicit", "", "open-requirements", Severity::info, "`kind: gap` is written out",
             "gap is the default; the seed says to omit kind for a plain gap."},
    RuleInfo{"orl-blocking-bool", "", "open-requirements", E, "`blocking`, when present, is a boolean", ""},
    RuleInfo{"orl-blocking-gap-only", "", "open-requirements", W, "`blocking: true` on a dropped entry",
             "blocking is only for a computability gap."},
    RuleInfo{"orl-provenance", "", "open-requirements", E, "`raised_by` is present and non-empty", ""},
    RuleInfo{"orl-unmet-missing", "", "open-requirements", E, "`unmet` and `missing` are present and non-empty",
             "Enough for a later step to act without re-reading the source."},
    RuleInfo{"orl-resolved-by", "", "open-requirements", E,
             "resolved has `resolved_by`; open and surrendered have none", ""},
    RuleInfo{"orl-surrender-note", "", "open-requirements", E, "a surrendered entry has a non-empty `note`",
             "A labelled gap says why."},
    RuleInfo{"orl-dropped-fields", "", "open-requirements", E, "a dropped entry has non-empty `units` and `because`",
             "A superseded drop's `because` may be struck (emptied)."},
    RuleInfo{"orl-uncited-drop", "", "open-requirements", W, "a dropped entry's `because` carries no citation",
             "A citation is a `backticked` command or construct, a URL, #123 or owner/repo#123, a file path, or a "
             "dated search (\"searched 2026-08-29\"). An uncited drop is a debt. A struck `because` is not judged."},
    RuleInfo{"orl-supersedes-resolves", "", "open-requirements", E,
             "`supersedes` names an existing entry other than its own", ""},
    RuleInfo{"orl-supersedes-on-resolved", "", "open-requirements", E, "an entry carrying `supersedes` is resolved",
             ""},
    RuleInfo{"orl-superseded-reopened", "", "open-requirements", E,
             "a superseded entry is open, its `because` struck and its `note` quoting the contradiction",
             "Struck: wrapped in ~~…~~, or emptied. (A reopened entry may later be surrendered.)"},
    RuleInfo{"orl-budget-types", "", "open-requirements", E,
             "topology_repair: escalations int >= 0, cap int >= 1, open_history list of ints >= 0", ""},
    RuleInfo{"orl-budget-length", "", "open-requirements", E,
             "open_history holds escalations or escalations + 1 counts (an optional baseline first)", ""},
    RuleInfo{"orl-budget-cap", "", "open-requirements", E, "escalations <= cap", ""},
    RuleInfo{"orl-non-convergent", "", "open-requirements", E, "open_history is strictly decreasing",
             "A repair that fails to lower the open blocking count trips the gate at once."},
    RuleInfo{"orl-cap-surrender", "", "open-requirements", E,
             "at the cap, no blocking entry is still open (they are surrendered)", ""},

    // The open-requirements ledger: between two versions of one file.
    RuleInfo{"orl-h-no-delete", "", "open-requirements", E, "every entry id of the previous version is still present",
             "Resolving is not deleting."},
    RuleInfo{"orl-h-no-reword", "", "open-requirements", E,
             "raised_by, kind, step, unmet, missing, units never change; because only by being struck on a supersede",
             ""},
    RuleInfo{"orl-h-order", "", "open-requirements", E,
             "existing entries keep their order; new entries are appended after them", "Never renumber."},
    RuleInfo{"orl-h-transition", "", "open-requirements", E, "status moves only as the protocol allows",
             "open→resolved (with resolved_by), open→surrendered, resolved→open only when an entry gains "
             "`supersedes` naming it; surrendered is terminal; resolved_by is fixed while resolved."},
    RuleInfo{"orl-h-budget", "", "open-requirements", E,
             "escalations grows by at most one; open_history only appends, one per escalation; cap never changes",
             "The first escalation may also record a baseline count."},
    RuleInfo{"orl-h-escalation-count", "", "open-requirements", W,
             "an escalation appends the number of open blocking entries", ""},

    // `audit`: between consecutive commits of a history (spec §6.3, §6.4).
    RuleInfo{"audit-log-entry-edited", "", "audit", E, "a log entry of the previous commit was edited",
             "Entries are never edited: a wrong entry is answered by a newer one (§4.4, §6.3)."},
    RuleInfo{"audit-log-entry-removed", "", "audit", E, "a log entry of the previous commit was removed",
             "The log after a commit is zero or more new entries plus the previous log, unchanged."},
    RuleInfo{"audit-log-entry-inserted", "", "audit", E, "a new log entry was added below the head of the log",
             "New entries are prepended (newest first), never inserted between older ones."},
    RuleInfo{"audit-log-date-backwards", "", "audit", E,
             "a new log entry is dated before the previous head entry", "New entries' dates are >= the previous head date."},
    RuleInfo{"audit-run-without-log", "", "audit", E,
             "a run line appeared without a new `{id} submitted` log entry",
             "`run <project> <id>` appends the run line and prepends `run — {id} submitted: …` in one commit."},
    RuleInfo{"audit-run-removed-without-log", "", "audit", E,
             "a run line left without a new `{id} finished` or `{id} failed` log entry",
             "`done <project> <id>` removes the run line and prepends `run — {id} finished|failed…` in one commit."},
    RuleInfo{"audit-archive-changed", "", "audit", E, "a path under archive/ changed after archive/ was created",
             "archive/** never changes after the migration commit (decision 60)."},
    RuleInfo{"audit-archive-move-edited", "", "audit", E, "a file moved into archive/ with changed content",
             "The migration renames tasks/, rulings/, batches/ under archive/; the content must move unchanged."},
    RuleInfo{"audit-merge-manual-resolution", "", "audit", diag::Severity::info,
             "a merge commit's tree differs from the clean trial merge of its parents",
             "A human resolved or amended the merge; worth a look, not a violation."},
    RuleInfo{"audit-ledger-merge-unclean", "", "audit", E,
             "a merge made by the ledger-merge job was not ledger-only or not check-clean",
             "The job (its message names `ledger-merge`) may land only ledger-only branches whose merge checks clean."},
    RuleInfo{"audit-not-checked", "", "audit", diag::Severity::info,
             "commits of a profile this build cannot check were skipped",
             "Reported once per run of such commits, e.g. the cortex-tasks era of a replayed history."},
};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::span<const RuleInfo> all_rules() { return k_rules; }

const RuleInfo* find_rule(std::string_view id_or_ref) {
  for (const RuleInfo& r : k_rules) {
    if (r.id == id_or_ref) return &r;
  }
  for (const RuleInfo& r : k_rules) {
    if (!r.ref.empty() && r.ref.substr(0, 2) != "G-" && iequals(r.ref, id_or_ref)) return &r;
  }
  return nullptr;
}

diag::Finding make_finding(std::string_view rule_id, std::string path, int line, std::string message,
                           diag::PeerForm peer) {
  const RuleInfo* info = find_rule(rule_id);
  LEDGERGATE_ASSERT(info != nullptr && info->id == rule_id);
  diag::Finding f;
  f.rule = std::string(rule_id);
  f.severity = info->severity;
  f.location.path = std::move(path);
  f.location.line = line;
  f.message = std::move(message);
  f.peer = peer;
  f.cannot_judge = rule_id == "input-not-utf8" || rule_id == "input-unreadable";
  return f;
}

}  // namespace lg::rules
