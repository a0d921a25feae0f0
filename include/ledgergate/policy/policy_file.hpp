// `.ledgergate.yaml`: a repository's own policy (ledger dirs and files,
// excluded names, frozen and append-only dirs, the birth exception, rule
// severities, the profile). Read from the tree that judges: for a merge, the
// target (BASE) side, never the branch under judgement. Schema: docs/policy.md.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/baseline.hpp"
#include "ledgergate/diag/finding.hpp"
#include "ledgergate/diag/verdict.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/ledger/check_options.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/policy/classifier.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::policy {

inline constexpr std::string_view k_policy_path = ".ledgergate.yaml";

// The classifier keys a policy file sets, applied over the built-in base.
struct PathOverrides {
  std::optional<std::vector<std::string>> ledger_dirs, ledger_files, excluded_names, frozen_dirs, append_only_dirs;
  std::optional<bool> birth_exception;
};

// How the trial merge treats a ledger path that git's textual merge left
// conflicted: `records` retries it with the record-level merge
// (merge/record_merge.hpp), `git` keeps git's conflict (`merge: git`).
enum class LedgerMerge { records, git };

struct RepoPolicy {
  Policy paths;                   // the classifier's policy (resolved: base + overrides)
  std::string profile = "auto";   // the check profile
  std::string base_policy;        // `base_policy:` (e.g. "LM-T"); "" = the one the profile implies
  PathOverrides overrides;        // the file's classifier keys
  // Files of the open-requirements profile (a glob; `**/` is any depth).
  std::string open_requirements_glob = std::string(ledger::k_default_open_requirements_glob);
  std::map<std::string, diag::Severity, std::less<>> severities;  // rule id → severity
  std::set<std::string, std::less<>> off;                          // rule ids set to `off`
  LedgerMerge merge = LedgerMerge::records;  // `merge: records | git`
  // `protected: [main]`: the branches (names under refs/heads/) whose pushes
  // the pre-push hook gates with a trial merge; a push elsewhere is checked only.
  std::vector<std::string> protected_branches{"main"};
  // `gate: new | all`: a change (a commit, a push, a merge) fails on the
  // error findings it introduces, or on every error finding of its tree.
  diag::Gate gate = diag::Gate::introduced;
  // `baseline: PATH`: a committed baseline file (docs/baseline.md) whose
  // findings never fail a change judged by this policy ("" none).
  std::string baseline;
  // `board_stale_days: N`: the board marks a run open or running for more
  // than N days as stale (docs/board.md).
  int board_stale_days = 14;
  bool from_file = false;         // false: the built-in policy
  // The layout of the tree the policy was read from, detected once by
  // load_policy when the profile is "auto" (unset otherwise); a check of
  // that same tree takes it (CheckOptions::detected) instead of detecting again.
  std::optional<ledger::Layout> detected;

  // The layout the policy judges by: the pinned profile's, else the detected
  // one (none when neither names a known layout).
  ledger::Layout layout() const;
};

// Parses policy text. Errors name the line: ".ledgergate.yaml:4: unknown key `ledger_dir`".
// `paths` is resolved without a tree: the base policy named, else the one a
// pinned profile implies, else LM-R2 (load_policy resolves by the layout).
Result<RepoPolicy> parse_policy(std::string_view text);

// Sets `policy.paths` to the built-in base — `base_policy` when set, else
// the one the pinned `profile` implies, else the one `layout` (the judging
// tree's detected layout) implies — with the file's keys on top.
// Errors: an unknown sub-era in the profile.
Result<void> resolve_paths(RepoPolicy& policy, ledger::Layout layout);

// The check settings a policy carries: profile, rule severities, the
// open-requirements glob, as the value rules::check_tree takes. Every
// caller of `check_tree` goes through this.
ledger::CheckOptions check_options(const RepoPolicy& policy);
// The same for a check of the very tree the policy was read from: the
// layout load_policy detected is carried over, not detected again.
ledger::CheckOptions check_options_for_own_tree(const RepoPolicy& policy);

// The baseline file `policy.baseline` names, read from `tree` (the tree the
// policy was read from); nullopt when the policy names none. Errors: the
// file is missing, not a regular file, or not a baseline.
Result<std::optional<diag::Baseline>> load_baseline(git::TreeSource& tree, const RepoPolicy& policy);

// Reads `.ledgergate.yaml` at the root of `tree`; the built-in policy when
// the file is absent. The classifier's constants follow the profile (spec
// §7.3): `profile_override` (a `--profile` flag) pins it, else the file's
// `profile:`, else the layout of `tree` (ledger::detect_layout, kept in
// `detected`) decides: phases/ → LM-P3, tasks/ → LM-T, otherwise LM-R2.
// Errors: unreadable or invalid file, an unknown sub-era.
Result<RepoPolicy> load_policy(git::TreeSource& tree, std::string_view profile_override = {});
// The built-in policy for the layout of `tree`, whatever policy file `tree`
// holds (a judge that has no trusted copy of the policy: the file in the
// change under judgement is never read). Errors: an unreadable tree.
Result<RepoPolicy> load_builtin_policy(git::TreeSource& tree);

// The text of a policy file that spells out every key of `policy` with a
// comment saying what it does (`ledgergate init` writes it for the
// built-in policy): parse_policy reads it back to the same policy.
std::string policy_file_text(const RepoPolicy& policy);

}  // namespace lg::policy
