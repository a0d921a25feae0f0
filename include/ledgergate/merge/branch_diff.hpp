// What a branch changes, as the merge gate judges it: the diff from the merge
// base to the branch head (three-dot, renames found explicitly, a rename
// judged as the deletion of its old path plus its new path), and whether a
// projects.yaml change is a birth (spec §7.6).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/policy/classifier.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/projects_yaml.hpp"

namespace lg::merge {

// The changes from tree `from` to tree `to`, as classifier input.
Result<std::vector<policy::Change>> tree_changes(const git::Repository& repo, const git::ObjectId& from, const git::ObjectId& to);

// LM-R2's birth exception, decided (G-28): projects.yaml exists on both sides
// and parses as a mapping; every row of `base` is unchanged in `head` (field
// order aside); at least one row is new; and each new key k arrives with an
// added projects/k.md whose `Project:` is k. The new row's validity is left to
// `check`, which every verdict runs on the branch tip or the merged tree.
// `cache` parses each projects.yaml blob once (shared with later checks).
Result<bool> is_birth(git::TreeSource& base, git::TreeSource& head, const std::vector<policy::Change>& changes,
                      rules::CheckCache& cache);

// The classification of what a branch brings, from each of its merge bases
// (commits) to tree `head`: with one base, the three-dot diff's
// classification; with several (a criss-cross history), the union — a path
// is code when it is code from any base (the merge takes HEAD's version of
// a path only where HEAD differs from the virtual base, and then it differs
// from some merge base: the first base alone, which `git diff A...B` uses,
// can miss such a path), and a projects.yaml change is a birth only when it
// is one from every base where projects.yaml changed. `birth` receives that
// decision; `first_changes`, when given, is the diff from bases[0] already
// computed.
Result<policy::Classification> classify_from_bases(const git::Repository& repo, const std::vector<git::ObjectId>& bases,
                                                   const git::ObjectId& head, const policy::RepoPolicy& pol,
                                                   rules::CheckCache& cache, bool& birth,
                                                   const std::vector<policy::Change>* first_changes = nullptr);

// The merge gate's verdict on a branch (`classify --base`): the diff
// merge-base(base, head) → head (from every merge base in a criss-cross
// history, as classify_from_bases), judged by the policy of `base`'s tree (its
// `.ledgergate.yaml` and layout; `profile` pins the profile when non-empty)
// with the birth exception where that policy has it.
Result<policy::Classification> classify_branch(const git::Repository& repo, const git::ObjectId& base, const git::ObjectId& head,
                                               std::string_view profile = {});

}  // namespace lg::merge
