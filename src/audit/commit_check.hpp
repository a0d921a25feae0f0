// The audit's check of one commit: in full (the policy, the profile, then
// check_tree, or the era-R state rebuilt in incremental mode), or
// incrementally from the first parent's era-R state when only what that
// check follows changed. The parse cache and the era-R states live here,
// between commits: the state of the commit judged last, and a copy of the
// state of each commit (up to k_max_parked) that a child not yet judged
// takes as its first parent, so a walk that alternates between the lines of
// a history (a fork, a merge's parents) continues each line from where it
// left it instead of checking a tree in full. Private to audit/.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <string>
#include <vector>

#include "drift.hpp"
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

  // The walk's commits, oldest first: which states a later commit takes
  // from its first parent (those are kept when the walk leaves them).
  void plan(const std::vector<CommitFacts>& commits);
  // A full check of `tree`, commit `commit`'s.
  Result<Checked> full(git::TreeSource& tree, const CommitFacts& commit);
  // `c` checked from its first parent's state, `diff` being the change
  // from it and `drift` holding the findings of the commit judged last;
  // nullopt: check in full. `changed` is against the commit judged last,
  // the first parent or not.
  Result<std::optional<Checked>> incremental(const CommitFacts& c, git::TreeSource& tree,
                                             const std::vector<git::DiffEntry>& diff, const Drift& drift);
  // `c` judged or replayed: its first parent's state is dropped once no
  // child of it is left to judge.
  void visited(const CommitFacts& c);

  // Whether an era-R state of `commit` is held or parked (a child of it may
  // be checked from it).
  bool has_state_of(const git::ObjectId& commit) const;
  rules::CheckCache& cache() { return m_cache; }
  std::size_t full_checks() const { return m_full_checks; }

 private:
  // At most this many parked states (a wide history's oldest is dropped,
  // its children then checked in full): the peak memory stays a few
  // states' whatever the history's shape.
  static constexpr std::size_t k_max_parked = 8;
  using StatePtr = std::unique_ptr<rules::ProjectsState>;

  Result<void> verify(const CommitFacts& c, git::TreeSource& tree);
  Result<void> changed_at(const std::set<std::string>& touched, const CommitFacts& c, const PathFindings& standing,
                          Checked& out) const;
  // The state of `parent` for its child: the one held (a copy parked first
  // when another child still needs it), else the parked one; null: none.
  StatePtr take_state(const git::ObjectId& parent);
  // The held state given up: parked when a child not yet judged needs it.
  void leave_state();
  void park(const git::ObjectId& commit, StatePtr state);
  std::size_t children_left(const git::ObjectId& commit) const;

  const AuditOptions& m_options;
  rules::CheckCache m_cache;
  StatePtr m_projects;  // the era-R state of m_projects_commit (incremental mode)
  git::ObjectId m_projects_commit;
  // Per commit of the walk (and the range's base), its children not yet
  // visited that have it as first parent; absent: none.
  std::unordered_map<git::ObjectId, std::size_t, git::ObjectIdHash> m_children_left;
  std::deque<std::pair<git::ObjectId, StatePtr>> m_parked;  // oldest first
  std::size_t m_full_checks = 0;
};

}  // namespace lg::audit
