// Criss-cross histories (several merge bases) merged as git's merge-ort
// does it: the merge bases, in the order git lists them, are merged into a
// virtual base, recursively, and that is the base of the final three-way
// merge.
#pragma once

#include <vector>

#include "ledgergate/git/trial_repo.hpp"

namespace lg::merge {

// All merge bases of `a` and `b` in the order git's get_merge_bases() gives
// them (commit-reach.c: newest committer date first, equal dates in the
// order paint_down_to_common() finds them) — the first is the one
// `git diff a...b` uses. Empty for unrelated histories. Refuses when the
// order cannot be reproduced: equal dates among the bases in a repository
// with a commit-graph (git then orders by generation numbers).
Result<std::vector<git::ObjectId>> merge_bases_git_order(git::TrialRepo& repo, const git::ObjectId& a, const git::ObjectId& b);

// The tree to use as the merge base of `ours` and `theirs` (commits) given
// their merge bases `bases` in git's order (at least two): merge-ort's
// merge_ort_internal() folds the reversed list, merging each virtual base so
// far with the next one ("Temporary merge branch 1"/"2", recursively over
// their own merge bases). New objects stay in the trial repository's memory.
// Refuses what merge_trees_virtual() refuses.
Result<git::ObjectId> virtual_merge_base(git::TrialRepo& repo, const std::vector<git::ObjectId>& bases);

}  // namespace lg::merge
