// Formatters: findings → text for people, the reference's exact output, or
// one JSON document for machines. Pure functions; the CLI prints.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/diag/verdict.hpp"
#include "ledgergate/util/json.hpp"

namespace lg::report {

// "rev:path:line: severity: message [rule]" per finding ("rev:" and ":line"
// omitted when unknown). `color` wraps the severity in ANSI colour.
std::string render_text(const std::vector<diag::Finding>& findings, bool color);

// The reference checker's output, byte for byte: "cortex check: OK" or
// "cortex check: DRIFT" and "  - " lines. ledgergate's own findings are
// left out unless they are errors.
std::string render_cortex(const std::vector<diag::Finding>& findings);
// True when render_cortex would print DRIFT.
bool cortex_drift(const std::vector<diag::Finding>& findings);

struct JsonHeader {
  diag::Verdict verdict = diag::Verdict::pass;
  std::string profile;
  std::string rev;
};
// {"verdict", "profile", "rev", "findings": [{"rule", "severity", "path",
// "line", "column", "message", "rev"}]} — a stable API (README "JSON output").
std::string render_json(const std::vector<diag::Finding>& findings, const JsonHeader& header);
// The "findings" array of that document, written into `w` (a trial merge's
// or a land step's document carries the same array).
void write_findings(util::JsonWriter& w, const std::vector<diag::Finding>& findings);

// `check`'s closing line on stderr after the text findings, so a clean
// check says so: "ledgergate check LABEL: VERDICT (PROFILE): N error(s), M warning(s)".
std::string render_check_summary(const std::vector<diag::Finding>& findings, const JsonHeader& header);

}  // namespace lg::report
