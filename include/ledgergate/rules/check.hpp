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
#include "ledgergate/util/result.hpp"

namespace lg::ledger {
struct ProjectLedger;
}

namespace lg::rules {

struct ProjectsTable;

struct CheckOptions {
  std::string profile = "auto";  // "auto" or a profile name
  std::map<std::string, diag::Severity, std::less<>> severities;  // rule id → severity override
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
// profile, or a tree with no ledger.
Result<CheckReport> check_tree(git::TreeSource& tree, const CheckOptions& options, CheckCache& cache);

}  // namespace lg::rules
