// `.ledgergate.yaml`: a repository's own policy (ledger dirs and files,
// excluded names, frozen and append-only dirs, the birth exception, rule
// severities, the profile). Read from the tree that judges: for a merge, the
// target (BASE) side, never the branch under judgement. Schema: docs/policy.md.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/policy/classifier.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::policy {

inline constexpr std::string_view k_policy_path = ".ledgergate.yaml";

struct RepoPolicy {
  Policy paths;                   // the classifier's policy
  std::string profile = "auto";   // the check profile
  // Files of the open-requirements profile (a glob; `**/` is any depth).
  std::string open_requirements_glob = "**/open-requirements.ledger.yml";
  std::map<std::string, diag::Severity, std::less<>> severities;  // rule id → severity
  bool from_file = false;         // false: the built-in policy
};

// Parses policy text. Errors name the line: ".ledgergate.yaml:4: unknown key `ledger_dir`".
Result<RepoPolicy> parse_policy(std::string_view text);

// The check settings a policy carries: profile, rule severities, the
// open-requirements glob. Every caller of `check_tree` goes through this.
rules::CheckOptions check_options(const RepoPolicy& policy);

// Reads `.ledgergate.yaml` at the root of `tree`; the built-in policy when
// the file is absent. Errors: unreadable or invalid file.
Result<RepoPolicy> load_policy(git::TreeSource& tree);

}  // namespace lg::policy
