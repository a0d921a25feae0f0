// The changes of one commit from its first parent, as the audit judges
// them: the tree walk of git::TreeDiffer, or the rename-aware diff_trees
// when a file was both added and deleted. Private to audit/.
#pragma once

#include <vector>

#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/tree_diff.hpp"
#include "walk.hpp"

namespace lg::audit {

// The changes from `parent`'s tree to `c`'s. `verify`: the walk is compared
// with diff_trees, a difference an internal error.
Result<std::vector<git::DiffEntry>> commit_changes(const git::Repository& repo, git::TreeDiffer& trees,
                                                   const CommitFacts& c, const CommitFacts& parent, bool verify);

}  // namespace lg::audit
