// A three-way merge of trees, done the way `git merge-tree` does it at the
// tree level: descend only into subtrees whose ids differ, take a side's
// version wherever the other side left a path as it was in the merge base,
// and merge file contents (libgit2's file merge) only where both sides
// changed one file. New blobs and trees go to the trial repository's memory.
// Where renames could change the answer (a path deleted on one side and
// changed on the other, both sides deleting one path, add/add, file vs
// directory) it asks whether git would detect a rename (diffcore's
// similarity estimate): if not, the path-by-path answer stands (merge-ort's
// without renames); if so, libgit2's rename-aware whole-tree merge decides.
// Criss-cross histories use the two other entry points below: the merge of
// merge bases into a virtual base (merge-ort's rules at call_depth > 0) and
// the final merge over it, both path by path after following the renames
// git would detect, where they can be known for certain (see
// virtual_base.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/git/trial_repo.hpp"

namespace lg::merge {

// The kinds git's merge-ort names in its "CONFLICT (...)" messages, spelled
// as git spells them (to_string): "content", "add/add", "modify/delete",
// "rename/delete", "rename/rename", "file/directory"; "mode" where the sides
// set different modes.
enum class ConflictKind { content, add_add, modify_delete, rename_delete, rename_rename, file_directory, mode };
std::string_view to_string(ConflictKind kind);

// One conflicted path, as `git merge-tree --write-tree --name-only` lists
// it. A conflict a rename takes part in is reported where git leaves the
// file: renamed on one side and changed on the other, a content conflict
// at the new name (add/add when the other side added a file there too);
// renamed on one side and deleted on the other, rename/delete at the new
// name; renamed differently on each side, rename/rename at the base's name
// and at both new names.
struct Conflict {
  std::string path;
  ConflictKind kind = ConflictKind::content;
  // Set where `path` is a rename's new name: the file's path in the merge
  // base. A side that did not rename the file has it there.
  std::optional<std::string> old_path;
};

struct TreeMerge {
  git::ObjectId tree;              // the merged tree (meaningful when there are no conflicts)
  std::vector<Conflict> conflicts; // sorted by path
  bool full_merge = false;         // libgit2's rename-aware merge decided (git would detect a rename)
  // The entries of the widest directory the path-by-path merge read (what
  // reading them left cached grows with it); 0 when not known.
  std::size_t widest = 0;
};

// Merges `theirs` into `ours` with `base` as the merge base (all tree ids).
// Errors: unreadable objects.
Result<TreeMerge> merge_trees(git::TrialRepo& repo, const git::ObjectId& base, const git::ObjectId& ours,
                              const git::ObjectId& theirs);

// The merge of two merge bases into a virtual merge base at recursion depth
// `depth` (>= 1), as git's merge-ort does it at call_depth > 0: conflicts are
// resolved into the tree (content conflicts keep their markers, labelled
// "Temporary merge branch 1"/"2"; modify/delete keeps the base's version;
// see tree_merge.cpp). Returns the tree id (in the trial repository's
// memory). Renames git would detect are followed where git's pairs are
// certain (see merge_trees_exact). Refuses (invalid_input) where git's
// answer depends on what is not reproduced: any other rename git would
// detect, a content conflict in a renamed file, a file/directory conflict,
// submodules changed on both sides, a symlink added on both sides.
Result<git::ObjectId> merge_trees_virtual(git::TrialRepo& repo, const git::ObjectId& base, const git::ObjectId& ours,
                                          const git::ObjectId& theirs, int depth);

// The final merge over a virtual base: the three-way merge path by path.
// It first asks which renames git would detect between the virtual base and
// either side (diffcore's similarity estimate, see tree_merge.cpp). Where
// git's pairs are certain (identical blobs one to one, or a similar file
// with no other candidate, no directory rename in play) the renamed files'
// other versions are moved to the new names first; exact renames that
// cannot be moved so (deleted or renamed on the other side too) are left to
// libgit2's rename-aware merge, which pairs them as git does. Any other
// rename is refused (invalid_input): libgit2's similarity measure is not
// git's.
Result<TreeMerge> merge_trees_exact(git::TrialRepo& repo, const git::ObjectId& base, const git::ObjectId& ours,
                                    const git::ObjectId& theirs);

}  // namespace lg::merge
