// `.ledgergate.yaml`: a repository's own policy (ledger dirs and files,
// excluded names, frozen and append-only dirs, the birth exception, rule
// severities, the profile). Read from the tree that judges: for a merge, the
// target (BASE) side, never the branch under judgement. Schema: docs/policy.md.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/policy/classifier.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::policy {

inline constexpr std::string_view k_policy_path = ".ledgergate.yaml";

// The classifier keys a policy file sets, applied over the built-in base.
struct PathOverrides {
  std::optional<std::vector<std::string>> ledger_dirs, ledger_files, excluded_names, frozen_dirs, append_only_dirs;
  std::optional<bool> birth_exception;
};

struct RepoPolicy {
  Policy paths;                   // the classifier's policy (resolved: base + overrides)
  std::string profile = "auto";   // the check profile
  std::string base_policy;        // `base_policy:` (e.g. "LM-T"); "" = the one the profile implies
  PathOverrides overrides;        // the file's classifier keys
  // Files of the open-requirements profile (a glob; `**/` is any depth).
  std::string open_requirements_glob = "**/open-requirements.ledger.yml";
  std::map<std::string, diag::Severity, std::less<>> severities;  // rule id → severity
  bool from_file = false;         // false: the built-in policy
};

// Parses policy text. Errors name the line: ".ledgergate.yaml:4: unknown key `ledger_dir`".
// `paths` is resolved without a tree: the base policy named, else the one a
// pinned profile implies, else LM-R2 (load_policy resolves by the layout).
Result<RepoPolicy> parse_policy(std::string_view text);

// Sets `policy.paths` to the built-in base — `base_policy` when set, else
// the one the pinned `profile` implies, else the one `layout_profile` (the
// judging tree's detected profile) implies — with the file's keys on top.
// Errors: an unknown sub-era in the profile.
Result<void> resolve_paths(RepoPolicy& policy, std::string_view layout_profile);

// The check settings a policy carries: profile, rule severities, the
// open-requirements glob. Every caller of `check_tree` goes through this.
rules::CheckOptions check_options(const RepoPolicy& policy);

// Reads `.ledgergate.yaml` at the root of `tree`; the built-in policy when
// the file is absent. The classifier's constants follow the profile (spec
// §7.3): `profile_override` (a `--profile` flag) pins it, else the file's
// `profile:`, else the layout of `tree` (rules::detect_profile) decides:
// phases/ → LM-P3, tasks/ → LM-T, otherwise LM-R2. Errors: unreadable or
// invalid file, an unknown sub-era.
Result<RepoPolicy> load_policy(git::TreeSource& tree, std::string_view profile_override = {});

}  // namespace lg::policy
