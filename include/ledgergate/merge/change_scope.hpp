// Judging a change rather than a tree (`--scope change` of trial-merge and
// land): one tree's cortex-projects state (rules::ProjectsState), built
// without judging a ledger, moved by the plain tree diff to the trees
// compared with it, and judged only at the paths a move touched. Every
// finding elsewhere is the same on both trees, so the new and fixed
// findings and the verdict under the gate `new` are a whole check's; the
// unchanged findings are not counted (diag::Attribution::whole false).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/projects_state.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::git {
class Repository;
}

namespace lg::merge {

class ChangeScope {
 public:
  // Whether a change can be judged alone under `gate` with `pol`'s check
  // (`check`): the gate `new` and an era-R ledger (rules::ProjectsState::applies).
  static bool applies(diag::Gate gate, const rules::CheckOptions& check, const policy::RepoPolicy& pol);

  // The state of `from` (tree `from_id`, whose diffs `repo` reads; both
  // outlive the scope, as `cache` does).
  static Result<ChangeScope> of(const git::Repository& repo, git::TreeSource& from, const git::ObjectId& from_id,
                                const rules::CheckOptions& check, rules::CheckCache& cache);

  // `from`'s state moved to `tree` (`id`), the paths whose findings may
  // differ added to `touched`. nullopt: a change the state does not follow
  // (the policy file, open-requirements files, a writer's temporary file,
  // projects.yaml added or deleted, the layout), which must be judged whole.
  Result<std::optional<rules::ProjectsState>> moved(git::TreeSource& tree, const git::ObjectId& id,
                                                    std::set<std::string>& touched);
  // The findings of `state` (of `tree`) at `paths`, judged where they were
  // not yet, with the policy's severities.
  Result<std::vector<diag::Finding>> at(rules::ProjectsState& state, git::TreeSource& tree,
                                        const std::set<std::string>& paths);
  // `from`'s findings at `paths`.
  Result<std::vector<diag::Finding>> at_from(const std::set<std::string>& paths) { return at(m_from, *m_tree, paths); }

 private:
  ChangeScope(const git::Repository& repo, git::TreeSource& tree, const git::ObjectId& id,
              const rules::CheckOptions& check, rules::CheckCache& cache)
      : m_repo(&repo), m_tree(&tree), m_id(id), m_check(&check), m_cache(&cache) {}

  const git::Repository* m_repo;
  git::TreeSource* m_tree;
  git::ObjectId m_id;
  const rules::CheckOptions* m_check;
  rules::CheckCache* m_cache;
  rules::ProjectsState m_from;
};

// The change from `from` (tree `from_id`) to `to` (`to_id`) judged alone:
// `to`'s findings at the paths it touches, each judged against `from`'s
// (introduced or pre-existing), and what it fixes of `from`'s. nullopt: a
// change ChangeScope does not follow (judge the whole tree then).
struct ChangeFindings {
  std::vector<diag::Finding> findings;
  std::vector<diag::Finding> fixed;
  std::string profile;  // the cortex-projects pass's (open-requirements files beside it are not named)
};
Result<std::optional<ChangeFindings>> judge_tree_change(const git::Repository& repo, git::TreeSource& from,
                                                        const git::ObjectId& from_id, git::TreeSource& to,
                                                        const git::ObjectId& to_id, const rules::CheckOptions& check,
                                                        rules::CheckCache& cache);

}  // namespace lg::merge
