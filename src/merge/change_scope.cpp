// A change judged alone: one tree's cortex-projects state moved by the plain
// tree diff (change_scope.hpp).
#include "ledgergate/merge/change_scope.hpp"

#include <algorithm>

#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/tree_diff.hpp"
#include "ledgergate/rules/change.hpp"

namespace lg::merge {

bool ChangeScope::applies(diag::Gate gate, const rules::CheckOptions& check, const policy::RepoPolicy& pol) {
  return gate == diag::Gate::introduced && rules::ProjectsState::applies(check, pol.layout());
}

Result<ChangeScope> ChangeScope::of(const git::Repository& repo, git::TreeSource& from, const git::ObjectId& from_id,
                                    const rules::CheckOptions& check, rules::CheckCache& cache) {
  ChangeScope scope(repo, from, from_id, check, cache);
  if (auto r = scope.m_from.rebuild_unjudged(from, check, cache); !r) return r.error();
  return scope;
}

Result<std::optional<rules::ProjectsState>> ChangeScope::moved(git::TreeSource& tree, const git::ObjectId& id,
                                                               std::set<std::string>& touched) {
  // Without rename detection: the state follows a rename as the deletion
  // of one path and the addition of another, the same findings either way
  // (libgit2's rename-aware diff walks every tree of the two; at 20,000
  // projects a third of a run).
  git::TreeDiffer walk(*m_repo);
  LG_TRY(const std::vector<git::DiffEntry> diff, walk.changes(&m_id, &id));
  const bool policy_changed = std::any_of(diff.begin(), diff.end(), [](const git::DiffEntry& e) {
    return e.path == policy::k_policy_path || e.old_path == policy::k_policy_path;
  });
  if (policy_changed) return std::optional<rules::ProjectsState>();
  std::optional<rules::ProjectsState> state = m_from;
  LG_TRY(const bool followed, state->update(tree, diff, *m_cache, touched));
  if (!followed) return std::optional<rules::ProjectsState>();
  return state;
}

Result<std::vector<diag::Finding>> ChangeScope::at(rules::ProjectsState& state, git::TreeSource& tree,
                                                   const std::set<std::string>& paths) {
  if (auto r = state.judge(tree, paths, *m_cache); !r) return r.error();
  std::vector<diag::Finding> out = state.findings_in(paths);
  m_check->apply_severities(out);
  return out;
}

Result<std::optional<ChangeFindings>> judge_tree_change(const git::Repository& repo, git::TreeSource& from,
                                                        const git::ObjectId& from_id, git::TreeSource& to,
                                                        const git::ObjectId& to_id, const rules::CheckOptions& check,
                                                        rules::CheckCache& cache) {
  LG_TRY(ChangeScope scope, ChangeScope::of(repo, from, from_id, check, cache));
  std::set<std::string> touched;
  LG_TRY(std::optional<rules::ProjectsState> on_to, scope.moved(to, to_id, touched));
  if (!on_to) return std::optional<ChangeFindings>();
  ChangeFindings out;
  LG_TRY(out.findings, scope.at(*on_to, to, touched));
  LG_TRY(const std::vector<diag::Finding> reference, scope.at_from(touched));
  LG_TRY(out.fixed, rules::attribute_between(from, to, out.findings, reference));
  out.profile = on_to->profile();
  return std::optional<ChangeFindings>(std::move(out));
}

}  // namespace lg::merge
