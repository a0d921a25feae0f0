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
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "libgit2.hpp"

namespace lg::git {

// libgit2's object cache keeps no tree this large or larger (Libgit2Session
// sets it; libgit2's own default is 4 KiB).
inline constexpr std::size_t k_cached_tree_limit = std::size_t{2} << 20;

// A tree as its raw bytes with its entries parsed once (names and ids
// point into the bytes): read without libgit2's tree parser, whose cost
// per entry is some five times this one's (a wide tree of 20,000 entries:
// 3 M instructions). Only a tree libgit2 would read the same is taken:
// every entry "<octal mode> <name>\0<20-byte id>" with one of git's five
// modes and a name check_tree_names accepts, in git's order (each name
// after the last, a directory's compared as if it ended in '/').
//
// An item is 8 bytes, where its name and id are found in the bytes: the
// three sides' projects/ folders a trial merge at 20,000 projects keeps
// through the merged tree's check (with the merged folder) held 3.8 MB of
// 32-byte items (a name view, an id pointer, a mode; reserved at one per
// 32 bytes of tree) beside 3.8 MB of tree bytes, now 0.96 MB: the heap in
// use at the end of that check 33.7 -> 30.9 MB, the cold trial merge's
// peak memory 62.5 -> 61.2 MB, its instructions the same (2-core Intel
// Xeon VM). A tree of 4 GiB or more, or with a name over 65,535 bytes
// (which libgit2 does not read either), is not one RawTree takes (the
// caller goes libgit2's way).
struct RawTree {
  struct Item {
    std::uint32_t name_at;    // offset of the name in the bytes; the id follows its NUL
    std::uint16_t name_size;
    std::uint16_t mode;  // one of git's five: as git_tree_entry_filemode gives it
  };
  OdbObjectPtr object;
  const char* bytes = nullptr;  // the object's data (no call into libgit2 per item)
  std::vector<Item> items;      // in the tree's order

  std::string_view data() const {
    return {static_cast<const char*>(git_odb_object_data(object.get())), git_odb_object_size(object.get())};
  }
  std::string_view name(const Item& e) const { return {bytes + e.name_at, e.name_size}; }
  const unsigned char* id(const Item& e) const {
    return reinterpret_cast<const unsigned char*>(bytes) + e.name_at + e.name_size + 1;
  }
  // What holding it costs: its bytes and its items.
  std::size_t memory() const { return data().size() + items.size() * sizeof(Item); }

  // The entry named `name`; null when none (a binary search: the items are
  // in git's order).
  const Item* find(std::string_view name) const;
};

// The tree `id` read from `repo`'s object database as a RawTree; null when
// it is not one RawTree takes (a missing object, another type, a mode or
// name or order libgit2's path handles: the caller goes that way, with its
// errors).
std::shared_ptr<const RawTree> read_raw_tree(git_repository* repo, const ObjectId& id);

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

  // Wide trees (k_wide_bytes or more) read raw a second time (from the
  // first, k_cached_tree_limit or more) are kept here, the newest first,
  // within k_wide_budget bytes (one larger is kept alone): a trial merge reads
  // each side's projects/ folder (959 KB at 20,000 projects) in the merge,
  // the path look-ups and the checks.
  static constexpr std::size_t k_wide_bytes = std::size_t{64} << 10;
  static constexpr std::size_t k_wide_budget = std::size_t{8} << 20;
  // The raw tree `id`: kept, else read_raw_tree (and kept when wide, from
  // the first read with `keep_first`: a merge's sides, which the look-ups
  // and checks after it read again).
  std::shared_ptr<const RawTree> raw(git_repository* repo, const ObjectId& id, bool keep_first = false);
  // The kept raw tree `id`; null when not kept.
  std::shared_ptr<const RawTree> find_raw(const ObjectId& id) const;
  // The raw tree `id` for a look-up: raw(), except that a narrow tree is
  // read so once and then left to libgit2 (whose cache keeps it parsed);
  // null then, or when it is not one RawTree takes.
  std::shared_ptr<const RawTree> wide(git_repository* repo, const ObjectId& id);

 private:
  std::unordered_map<ObjectId, TreePtr> m_trees;
  std::deque<ObjectId> m_order;  // oldest first
  std::size_t m_entries = 0;
  std::unordered_set<ObjectId> m_small;  // trees of many entries found under the limit
  static constexpr std::size_t k_max_narrow = 65536;
  std::unordered_set<ObjectId> m_narrow;     // trees wide() read narrow
  std::unordered_set<ObjectId> m_read_once;  // wide trees read once, not kept
  std::unordered_map<ObjectId, std::shared_ptr<const RawTree>> m_raw;
  std::deque<ObjectId> m_raw_order;  // oldest first
  std::size_t m_raw_bytes = 0;
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
