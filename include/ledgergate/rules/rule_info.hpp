// One row of the rule table (rule_table.hpp).
#pragma once

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

}  // namespace lg::rules
