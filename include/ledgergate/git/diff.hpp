// Tree diffs as the merge gate needs them: merge bases, and name-status
// entries between two trees with rename detection switched on explicitly, so
// the user's git configuration never changes a verdict. Paths are raw bytes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"

namespace lg::git {

struct DiffEntry {
  std::string status;    // "A", "M", "D", "T", "R<similarity>" (git's letters)
  std::string path;      // the new path (the old one for "D")
  std::string old_path;  // renames: the path before
  EntryKind new_kind = EntryKind::file;
  bool has_new = true;   // false for deletions
  std::optional<ObjectId> old_id;  // nullopt for an added path
  std::optional<ObjectId> new_id;  // nullopt for a deleted path
};

// The merge base of `a` and `b`. Errors: none exists (unrelated histories),
// or several do (criss-cross: refused rather than guessed).
Result<ObjectId> merge_base(const Repository& repo, const ObjectId& a, const ObjectId& b);
// Every merge base of `a` and `b` (several in a criss-cross history), in
// libgit2's order. Errors: none exists (unrelated histories).
Result<std::vector<ObjectId>> merge_bases(const Repository& repo, const ObjectId& a, const ObjectId& b);

// Entries from tree `from` to tree `to` (either may be null = empty tree),
// with renames detected at git's default 50% similarity. libgit2's diff is
// asked only when a file was added and another deleted; otherwise the
// answer is TreeDiffer's (tree_diff.hpp), which never reads the subtrees
// both sides share.
Result<std::vector<DiffEntry>> diff_trees(const Repository& repo, const ObjectId* from, const ObjectId* to);
// The same entries, always from libgit2's rename-aware diff: for a caller
// that has walked the trees already and found a possible rename, and for a
// check of the walk against it.
Result<std::vector<DiffEntry>> diff_trees_with_renames(const Repository& repo, const ObjectId* from,
                                                       const ObjectId* to);

}  // namespace lg::git
