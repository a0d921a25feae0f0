// libgit2's merge machinery as the merge module uses it: the three-way
// merge of one file's contents (xdiff, as git merge-file), and the
// rename-aware merge of whole trees for the cases the tree walk cannot
// decide alone. The algorithms that decide when to use them live in merge/.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::git {

struct MergeFileInput {
  std::string_view text;
  unsigned mode = 0;  // the file mode (0: absent)
};

// Conflict marker labels and length; unset labels are libgit2's defaults.
struct MergeFileOptions {
  const char* ancestor_label = nullptr;
  const char* our_label = nullptr;
  const char* their_label = nullptr;
  unsigned short marker_size = 0;  // 0: git's 7
};

struct MergedFile {
  bool clean = false;  // automergeable: no conflict
  std::string text;    // the merged text (with conflict markers when not clean)
};

// The merge of `ours` and `theirs` over `ancestor`, all named `path`.
Result<MergedFile> merge_file(const std::string& path, const MergeFileInput& ancestor, const MergeFileInput& ours,
                              const MergeFileInput& theirs, const MergeFileOptions* options = nullptr);

// One conflicted path of a whole-tree merge: the path on each side, absent
// where that side has none (a rename shows different paths).
struct IndexConflict {
  std::optional<std::string> ancestor, ours, theirs;
};

struct RenameMerge {
  ObjectId tree;                         // the merged tree (when there are no conflicts)
  std::vector<IndexConflict> conflicts;  // in the index's order
  // The index's NAME entries: for each conflict a rename takes part in, the
  // file's path in the merge base, in ours and in theirs (absent where a
  // side deleted it). libgit2 lists such a conflict in `conflicts` once per
  // name, each entry at one path; these say which entries belong together.
  std::vector<IndexConflict> renames;
};

// libgit2's merge of trees `ours` and `theirs` over `base` with rename
// detection; the merged tree is written into `repo`. Errors name the step.
Result<RenameMerge> merge_trees_with_renames(const Repository& repo, const ObjectId& base, const ObjectId& ours,
                                             const ObjectId& theirs);

}  // namespace lg::git
