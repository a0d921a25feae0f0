// What a check of a tree is asked for: the profile (pinned, or "auto" with
// the layout when the caller has detected it), rule severity overrides and
// the open-requirements glob. A plain value below both its producer and its
// consumer: a repository's policy yields one (policy::check_options) and
// rules::check_tree takes it, so policy needs nothing from rules.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/ledger/profile.hpp"

namespace lg::ledger {

struct CheckOptions {
  std::string profile = "auto";  // "auto", a profile name, or name@sub-era ("cortex-phases@p1c")
  // The checked tree's layout when the caller has detected it already (the
  // policy read from the same tree did: RepoPolicy::detected); unset, an
  // "auto" check detects it.
  std::optional<Layout> detected;
  std::map<std::string, diag::Severity, std::less<>> severities;  // rule id → severity override
  // Rules turned off (policy `severities: {RULE: off}`): they leave no finding at all.
  std::set<std::string, std::less<>> off;
  // Files of the open-requirements profile, checked in any tree (policy key
  // `open_requirements_glob`).
  std::string open_requirements_glob = std::string(k_default_open_requirements_glob);

  // Gives `f` the severity the options set for its rule, if any.
  void apply_severity(diag::Finding& f) const {
    if (auto it = severities.find(f.rule); it != severities.end()) f.severity = it->second;
  }
  bool is_off(const diag::Finding& f) const { return off.count(f.rule) != 0; }
  // Drops the findings of rules turned off and gives the rest their severity.
  void apply_severities(std::vector<diag::Finding>& findings) const {
    std::erase_if(findings, [this](const diag::Finding& f) { return is_off(f); });
    for (diag::Finding& f : findings) apply_severity(f);
  }
};

// The layout the caller detected (`options.detected`), else the tree's
// (detect_layout): the one place a check (rules::check_tree, the audit's
// per-commit check) decides which layout it is looking at.
inline Result<Layout> detected_layout(git::TreeSource& tree, const CheckOptions& options) {
  if (options.detected) return *options.detected;
  return detect_layout(tree);
}

}  // namespace lg::ledger
