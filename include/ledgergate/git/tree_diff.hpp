// Tree diffs for a walk over consecutive commits (the audit's): what
// changed between two trees, found by descending only into subtrees whose
// ids differ, with the trees read for one diff kept for the next (a child
// commit's diff reads its parent's trees again). Cheaper than diff_trees
// over a long history, and without rename detection.
#pragma once

#include <memory>
#include <vector>

#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::git {

class TreeDiffer {
 public:
  // Reads from `repo`, which must outlive it (one thread at a time).
  explicit TreeDiffer(const Repository& repo);
  ~TreeDiffer();
  TreeDiffer(const TreeDiffer&) = delete;
  TreeDiffer& operator=(const TreeDiffer&) = delete;

  // The entries that differ from tree `from` to tree `to` (either may be
  // null: the empty tree), in diff_trees' order and with its statuses (A,
  // D, M, T; with typechanges, without rename detection). Identical
  // subtrees are skipped without being read, and within two versions of a
  // tree only the entries between their common prefix and common suffix
  // (bytes) are compared: the cost follows what changed, not the tree's
  // size.
  Result<std::vector<DiffEntry>> changes(const ObjectId* from, const ObjectId* to);
  // Drops the trees not read since the call before: the trees read while
  // diffing one commit are still at hand when the next commit (its child)
  // reads them as its parent's.
  void next_generation();

  class Trees;  // the trees kept (tree_diff.cpp)

 private:
  std::unique_ptr<Trees> m_trees;
};

// Whether rename detection could pair entries of `changes` (a file added
// and another deleted): only then does a caller need diff_trees.
bool may_have_renames(const std::vector<DiffEntry>& changes);

}  // namespace lg::git
