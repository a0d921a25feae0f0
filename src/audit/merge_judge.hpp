// Merge judging: each merge commit's tree against the trial merge of its
// parents (a manual resolution when they differ), and a merge the
// ledger-merge job made judged as `land` would (unclean when its trial
// merge does not pass). The trial repository lives here, opened at the
// first merge. Private to audit/.
#pragma once

#include <optional>

#include "findings.hpp"
#include "walk.hpp"
#include "ledgergate/git/trial_repo.hpp"

namespace lg::audit {

class MergeJudge {
 public:
  explicit MergeJudge(const git::Repository& repo) : m_repo(repo) {}

  // The events of merge `c` (two parents or more). Errors: the trial
  // repository cannot be opened; a merge that cannot be tried is an event.
  Result<void> judge(const CommitFacts& c, Events& events);

 private:
  const git::Repository& m_repo;
  std::optional<git::TrialRepo> m_trial;
};

}  // namespace lg::audit
