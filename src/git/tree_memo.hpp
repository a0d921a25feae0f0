// Large trees read by id, kept for the life of a repository handle, and
// paths looked up through them. libgit2's object cache keeps no tree over
// its per-type limit (2 MiB: Libgit2Session), and git_tree_entry_bypath
// reads every tree on a path again from the object database: with a
// directory of 54,000 entries (a vendored folder) each path looked up
// below it inflated, hashed and parsed the whole tree again. Here each is
// read once per handle (a command; TrialRepo::release_read_memory keeps
// them), and a path is resolved name by name with binary searches.
// Private to src/git/.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "libgit2.hpp"

namespace lg::git {

// libgit2's object cache keeps no tree this large or larger (Libgit2Session
// sets it; libgit2's own default is 4 KiB).
inline constexpr std::size_t k_cached_tree_limit = std::size_t{2} << 20;

class TreeMemo {
 public:
  // At most this many entries in all (the newest trees are kept first: a
  // tree of 1,000,000 entries is some 70 MB here) and this many trees.
  static constexpr std::size_t k_max_entries = std::size_t{4} << 20;
  static constexpr std::size_t k_max_trees = 8;

  // The tree `id` of `repo` (the handle this memo belongs to): one of
  // k_cached_tree_limit bytes or more is read once while the memo keeps it
  // (smaller ones are libgit2's cache's, as before). Errors as lookup_tree's.
  Result<TreePtr> get(git_repository* repo, const ObjectId& id);

 private:
  std::unordered_map<ObjectId, TreePtr> m_trees;
  std::deque<ObjectId> m_order;  // oldest first
  std::size_t m_entries = 0;
  std::unordered_set<ObjectId> m_small;  // trees of many entries found under the limit
};

// The entry at `path` below `root` (names split at '/'), each subtree on
// the way read through `memo`; nullopt when a name is absent or a step is
// not a tree. Errors: a subtree that cannot be read.
struct PathEntry {
  std::string name;
  git_oid id;
  git_filemode_t mode;  // as git_tree_entry_filemode normalises it
  unsigned raw_mode;    // as written in the tree
};
Result<std::optional<PathEntry>> entry_by_path(git_repository* repo, TreeMemo& memo, const git_tree* root,
                                               std::string_view path);

}  // namespace lg::git
