// `check`: detect the tree's profile, read its ledger files from a tree
// source, run the profile's rules in the reference order, and return the
// findings. Parses are cached by blob id in a CheckCache, so checking many
// trees that share files costs only what differs.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::ledger {
struct ProjectLedger;
}

namespace lg::rules {

struct ProjectsTable;

struct CheckOptions {
  std::string profile = "auto";  // "auto" or a profile name
  std::map<std::string, diag::Severity, std::less<>> severities;  // rule id → severity override
  // Files of the open-requirements profile, checked in any tree (policy key
  // `open_requirements_glob`).
  std::string open_requirements_glob = "**/open-requirements.ledger.yml";
};

struct CheckReport {
  std::string profile;
  std::vector<diag::Finding> findings;
  bool cannot_judge() const;  // some input could not be read
  bool failed() const;        // some finding is an error
};

class CheckCache {
 public:
  CheckCache();
  ~CheckCache();
  CheckCache(const CheckCache&) = delete;
  CheckCache& operator=(const CheckCache&) = delete;

  struct ProjectsYamlResult;
  std::unordered_map<std::string, std::shared_ptr<const ledger::ProjectLedger>> ledgers;
  std::unordered_map<std::string, std::shared_ptr<const ProjectsYamlResult>> projects_yaml;
  // Open-requirements findings, keyed by blob id + "\0" + path.
  std::unordered_map<std::string, std::shared_ptr<const std::vector<diag::Finding>>> open_requirements;
  // Matches of a basename-only glob below a subtree, keyed by glob + "\0" +
  // tree id, as paths relative to that subtree: trees that share
  // subtrees (a merge's sides, consecutive commits) are walked once.
  std::unordered_map<std::string, std::vector<std::string>> glob_walks;
};

struct ProfileInfo {
  std::string name;
  std::string summary;
  bool checked = false;  // false: recognised by layout, not checked by this build
};
// The profiles `check` knows, newest first.
std::vector<ProfileInfo> known_profiles();

// Names the profile of the tree from its layout: "cortex-projects" for
// projects/ or a bare projects.yaml; the older layouts are named too.
// Returns "" when the tree holds no known ledger.
Result<std::string> detect_profile(git::TreeSource& tree);

// Checks `tree`. Errors: an unreadable tree, an unknown or unsupported
// profile, or a tree with no ledger. Open-requirements files (the glob) are
// checked beside a Cortex ledger (profile "cortex-projects+open-requirements")
// or alone (profile "open-requirements").
Result<CheckReport> check_tree(git::TreeSource& tree, const CheckOptions& options, CheckCache& cache);

// projects.yaml's rows in `tree`, validated at most once per blob through
// `cache` (the check of a tree holding the same blob reuses it); null when
// the file is absent, not a regular file, or not a clean mapping.
Result<std::shared_ptr<const ProjectsTable>> projects_table(git::TreeSource& tree, CheckCache& cache);

// The paths of `tree` matching `glob` (walked recursively, `.git` skipped),
// sorted by bytes; directories are walked, every other kind is listed.
Result<std::vector<std::string>> find_open_requirements(git::TreeSource& tree, std::string_view glob,
                                                        CheckCache* cache = nullptr);

// The cross-version rules (orl-h-*) between each open-requirements file of
// `before` and the same path in `after` (a missing file is an empty ledger).
// Findings locate `after`'s files.
Result<std::vector<diag::Finding>> check_open_requirements_between(git::TreeSource& before, git::TreeSource& after,
                                                                  const CheckOptions& options,
                                                                  CheckCache* cache = nullptr);

}  // namespace lg::rules
