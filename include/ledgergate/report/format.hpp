// Formatters: findings → text for people, the reference's exact output, or
// one JSON document for machines. Pure functions; the CLI prints.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <optional>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/diag/verdict.hpp"
#include "ledgergate/fix/fix.hpp"
#include "ledgergate/util/json.hpp"

namespace lg::report {

// "path:line:col: severity: message [rule]" per finding, the shape editors
// and terminals open; "rev:path:line:col: ..." for a finding in a revision
// (a commit, ":index"). ":line" and ":col" are omitted when unknown. A
// worktree finding's (no rev) path is printed under `base`, the way from the
// current directory to the tree's root ("" when it is the root). `color`
// wraps the severity in ANSI colour.
std::string render_text(const std::vector<diag::Finding>& findings, bool color, std::string_view base = {});

// The reference checker's output, byte for byte: "cortex check: OK" or
// "cortex check: DRIFT" and "  - " lines. ledgergate's own findings are
// left out unless they are errors.
std::string render_cortex(const std::vector<diag::Finding>& findings);
// True when render_cortex would print DRIFT.
bool cortex_drift(const std::vector<diag::Finding>& findings);

// The version of the JSON vocabulary (docs/json.md): every document opens
// with {"schema": "ledgergate-COMMAND/2", "verdict": "pass" | "fail" | "error"}.
inline constexpr int k_json_schema_version = 2;
// Opens a command's document in `w` (the object is left open) with those two members.
void write_json_head(util::JsonWriter& w, std::string_view command, diag::Verdict verdict);
// The document of a command that could not run (exit 2):
// {"schema", "verdict": "error", "error": {"message"}}.
std::string render_json_error(std::string_view command, std::string_view message);

// The fix each finding offers (fix::fixes_for), one entry per finding.
using FindingFixes = std::vector<std::optional<fix::Fix>>;

struct JsonHeader {
  diag::Verdict verdict = diag::Verdict::pass;
  std::string profile;
  std::string rev;
  std::size_t suppressed = 0;  // findings the baseline holds (left out of "findings")
  const diag::Attribution* change = nullptr;  // `check --against`: the change's attribution
  const FindingFixes* fixes = nullptr;  // set: a finding with a fix carries "fix" (SARIF: `fixes`)
};
// {"schema", "verdict", "profile", "rev", "suppressed", "findings": [{"rule",
// "severity", "path", "line", "column", "message", "rev", "fingerprint"}]},
// with a change's members (write_change_fields) when `header.change` is set
// — a stable API (docs/json.md, docs/schemas/check.schema.json).
std::string render_json(const std::vector<diag::Finding>& findings, const JsonHeader& header);
// The "findings" array of that document, written into `w` (a trial merge's
// or a land step's document carries the same array); with `fixes`, a
// finding that has one carries it as "fix" (report/fix.hpp).
void write_findings(util::JsonWriter& w, const std::vector<diag::Finding>& findings,
                    const FindingFixes* fixes = nullptr);
// One finding's members (the object is opened and closed by the caller, who
// may add members of its own: audit's introduced_in and fixed_in); "state"
// ("new" | "unchanged") when the finding was judged against a reference.
void write_finding_fields(util::JsonWriter& w, const diag::Finding& f);
// "new" or "unchanged" (a finding judged against a reference); "" unjudged.
std::string_view state_name(diag::FindingState s);

// A change judged against a reference (diag::Attribution), in the members
// of a document (an object open in `w`): "gate", "reference", "counts":
// {"new", "unchanged", "fixed", "suppressed"} and "fixed": the reference's
// findings the change no longer has.
void write_change_fields(util::JsonWriter& w, const std::vector<diag::Finding>& findings,
                         const diag::Attribution& change);
// What a change's check judged, as JSON's "scope" spells it: "tree" (the
// whole tree) or "change" (only what the change touches: Attribution::whole false).
inline const char* scope_name(const diag::Attribution& change) { return change.whole ? "tree" : "change"; }

// What a text or an annotation lists of a change's findings: under the gate
// `new`, the ones it introduced (pre-existing ones are counted, not listed);
// every one otherwise.
std::vector<diag::Finding> shown_findings(const std::vector<diag::Finding>& findings, const diag::Attribution& change);
// The lines that follow them: "2 pre-existing error(s) on BASE (not
// introduced by this change; --gate all to fail on them)", "fixes 1", "N
// finding(s) in the baseline suppressed" (each only when there are such).
std::vector<std::string> change_lines(const std::vector<diag::Finding>& findings, const diag::Attribution& change);
// Those lines as text, each ended by a newline (`check --against` prints them after its summary).
std::string render_change_notes(const std::vector<diag::Finding>& findings, const diag::Attribution& change);

// `check`'s closing line on stderr after the text findings, so a clean
// check says so: "ledgergate check LABEL: VERDICT (PROFILE): N error(s), M warning(s)".
std::string render_check_summary(const std::vector<diag::Finding>& findings, const JsonHeader& header,
                                 bool color = false);
// "pass", "fail" or "error"; with `color`, in ANSI green, red or yellow.
std::string render_verdict_word(diag::Verdict verdict, bool color);
// `--statistics`: one "COUNT  SEVERITY  RULE" line per rule that has
// findings (its highest severity), most findings first, then by rule id.
std::string render_statistics(const std::vector<diag::Finding>& findings);
// "ledgergate: N finding(s) in the baseline suppressed", after that summary.
std::string render_suppressed_note(std::size_t suppressed);

}  // namespace lg::report
