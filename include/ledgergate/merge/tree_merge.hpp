// A three-way merge of trees, done the way `git merge-tree` does it at the
// tree level: descend only into subtrees whose ids differ, take a side's
// version wherever the other side left a path as it was in the merge base,
// and merge file contents (libgit2's file merge) only where both sides
// changed one file. New blobs and trees go to the trial repository's memory.
// Where renames could change the answer (a path deleted on one side and
// changed on the other, both sides deleting one path, add/add, file vs
// directory) it falls back to libgit2's rename-aware whole-tree merge.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/git/trial_repo.hpp"

namespace lg::merge {

enum class ConflictKind { content, add_add, modify_delete, rename, file_directory, mode };
std::string_view to_string(ConflictKind kind);

struct Conflict {
  std::string path;
  ConflictKind kind = ConflictKind::content;
};

struct TreeMerge {
  git_oid tree{};                  // the merged tree (meaningful when there are no conflicts)
  std::vector<Conflict> conflicts; // sorted by path
  bool full_merge = false;         // the rename-aware fallback decided
};

// Merges `theirs` into `ours` with `base` as the merge base (all tree ids).
// Errors: unreadable objects.
Result<TreeMerge> merge_trees(git::TrialRepo& repo, const git_oid& base, const git_oid& ours,
                              const git_oid& theirs);

}  // namespace lg::merge
