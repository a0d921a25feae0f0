// The rule registry: one row per rule, with a stable id, the spec reference
// it reproduces, its default severity and a summary. `ledgergate rules`
// prints it; `ledgergate explain` shows one row.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "ledgergate/diag/finding.hpp"

namespace lg::rules {

struct RuleInfo {
  std::string_view id;       // stable kebab-case id, e.g. "ledger-run-listed-once"
  std::string_view ref;      // the spec's label, e.g. "R-F07" ("" for ours); a rule shared by
                             // eras lists each era's label, space-separated: "P-F01 T-F01"
  std::string_view profile;  // "cortex-projects", "input", ...; space-separated when shared
  diag::Severity severity;   // default severity
  std::string_view summary;  // one line
  std::string_view detail;   // rationale and an example
};

std::span<const RuleInfo> all_rules();
// Finds a rule by id or by spec label (case-insensitive for labels); nullptr if unknown.
const RuleInfo* find_rule(std::string_view id_or_ref);

// Whether `rule` belongs to `profile` (one of its space-separated profiles).
bool in_profile(const RuleInfo& rule, std::string_view profile);
// The rule's label in `profile`'s era ("T-F01" of "P-F01 T-F01" for cortex-tasks); the whole
// label cell when no single label fits.
std::string_view label_in(const RuleInfo& rule, std::string_view profile);

// Builds a finding of a registered rule with its default severity. Aborts on
// an unregistered id (a programming error).
diag::Finding make_finding(std::string_view rule_id, std::string path, int line,
                           std::string message, diag::PeerForm peer);

}  // namespace lg::rules
