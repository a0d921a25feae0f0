// Formatters: findings → text for people, the reference's exact output, or
// one JSON document for machines. Pure functions; the CLI prints.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"

namespace lg::report {

enum class Verdict { pass, fail, error };
std::string_view to_string(Verdict v);

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
  Verdict verdict = Verdict::pass;
  std::string profile;
  std::string rev;
};
// {"verdict", "profile", "rev", "findings": [{"rule", "severity", "path",
// "line", "column", "message", "rev"}]} — a stable API (README "JSON output").
std::string render_json(const std::vector<diag::Finding>& findings, const JsonHeader& header);

std::string json_string(std::string_view s);

}  // namespace lg::report
