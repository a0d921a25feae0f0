// The rules' side of the rule catalogue (diag/rule_table.hpp): the look-ups
// that need the profile module, and the finding a rule emits. The catalogue's
// names are used here as rules' own (emit sites say `RuleId`).
#pragma once

#include <string>
#include <string_view>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/diag/rule_table.hpp"

namespace lg::rules {

using diag::all_rules;
using diag::find_rule;
using diag::RuleId;
using diag::RuleInfo;

// Whether `rule` belongs to `profile` (one of its space-separated profiles).
bool in_profile(const RuleInfo& rule, std::string_view profile);
// The rule's label in `profile`'s era ("T-F01" of "P-F01 T-F01" for cortex-tasks); the whole
// label cell when no single label fits.
std::string_view label_in(const RuleInfo& rule, std::string_view profile);

// Builds a finding of `rule` with its default severity.
diag::Finding make_finding(RuleId rule, std::string path, int line, std::string message, diag::PeerForm peer);

}  // namespace lg::rules
