// The audit's check of one commit: in full (the policy, the profile, then
// check_tree, or the era-R state rebuilt in incremental mode), or
// incrementally from the first parent's era-R state when that is the state
// held and only what that check follows changed. The parse cache and the
// era-R state live here, between commits. Private to audit/.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "findings.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/rules/projects_state.hpp"
#include "walk.hpp"

namespace lg::audit {

struct Checked {
  std::string profile;      // as reports spell it ("cortex-tasks@t2+open-requirements"; "" for no ledger)
  ledger::Profile checked;  // the profile the passes read (layout none: no ledger)
  std::vector<diag::Finding> findings;  // all of them (a full check)
  rules::CheckOptions options;
  // The findings of the paths whose findings may have changed since the
  // commit judged before (an empty list: none left), severities applied.
  PathFindings changed;
};

class CommitCheck {
 public:
  explicit CommitCheck(const AuditOptions& options);

  // A full check of `tree`, commit `commit`'s.
  Result<Checked> full(git::TreeSource& tree, const CommitFacts& commit);
  // `c` checked from its first parent's state, `diff` being the change
  // from it and `standing` the findings of the commit judged last (by
  // path); nullopt: check in full. `parent_judged_last`: that commit is the
  // first parent.
  Result<std::optional<Checked>> incremental(const CommitFacts& c, git::TreeSource& tree,
                                             const std::vector<git::DiffEntry>& diff, const PathFindings& standing,
                                             bool parent_judged_last);

  // Whether an era-R state is held (the next commit may be checked from it).
  bool holds_state() const { return m_projects != nullptr; }
  rules::CheckCache& cache() { return m_cache; }
  std::size_t full_checks() const { return m_full_checks; }

 private:
  Result<void> verify(const CommitFacts& c, git::TreeSource& tree);

  const AuditOptions& m_options;
  rules::CheckCache m_cache;
  std::unique_ptr<rules::ProjectsState> m_projects;  // the era-R state of m_projects_commit (incremental mode)
  git::ObjectId m_projects_commit;
  std::size_t m_full_checks = 0;
};

}  // namespace lg::audit
