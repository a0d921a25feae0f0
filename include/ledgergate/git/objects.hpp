// Trees and blobs as the merge code reads and writes them: a tree's entries
// with their modes and ids, a blob's bytes, and tree writing (a builder
// over an existing tree, or path updates). Objects are written into the
// repository's object database: for a TrialRepo, into its memory. Errors
// carry libgit2's message; callers add what they were doing.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::git {

// A tree entry's mode, with git's values.
enum class FileMode : unsigned {
  none = 0,
  tree = 0040000,
  blob = 0100644,
  executable = 0100755,
  link = 0120000,
  commit = 0160000,  // a submodule
};

// A tree entry's mode as git reads it (canon_mode in git's cache.h): by its
// type alone, a regular file executable when its owner may run it, and a
// type git knows no other way a submodule. git writes only the five modes
// above; another spelling (an old tool's "100664", a zero-padded "040000",
// a folder mode with permission bits: git fsck warns of them, and accepts
// them) is read so by git's diff, merge and checkout, and so here.
// libgit2 normalises some otherwise (a "120755" link as an executable
// file): ledgergate reads every mode this way.
constexpr FileMode canonical_mode(unsigned raw) {
  switch (raw & 0170000u) {
    case 0100000u: return (raw & 0100u) != 0 ? FileMode::executable : FileMode::blob;
    case 0120000u: return FileMode::link;
    case 0040000u: return FileMode::tree;
    default: return FileMode::commit;
  }
}

struct TreeItem {
  std::string name;
  FileMode mode = FileMode::none;
  ObjectId id;
};

// The id of the tree with no entries (git's well-known empty tree).
inline const ObjectId k_empty_tree_id = *ObjectId::from_hex("4b825dc642cb6eb9a060e54bf8d69288fbee4904");

// A tree's entries as read_tree gives them: names are views into the tree
// object, which the listing keeps alive (a merge reads directories of
// 20,000 ledgers: no string of its own per entry).
struct TreeItemView {
  std::string_view name;
  FileMode mode = FileMode::none;
  ObjectId id;
};
struct TreeItems {
  std::shared_ptr<const void> keep;  // what the names lie in
  std::vector<TreeItemView> items;
  std::size_t size() const { return items.size(); }
  bool empty() const { return items.empty(); }
  const TreeItemView& operator[](std::size_t i) const { return items[i]; }
  auto begin() const { return items.begin(); }
  auto end() const { return items.end(); }
};

// The entries of tree `id`, in the tree's (git's) order.
Result<TreeItems> read_tree(const Repository& repo, const ObjectId& id);
// The entry at `path` below tree `tree`; nullopt when absent.
Result<std::optional<TreeItem>> tree_entry_at(const Repository& repo, const ObjectId& tree, const std::string& path);
// The bytes of blob `id`.
Result<std::string> read_blob(const Repository& repo, const ObjectId& id);
// Writes `bytes` as a blob into `repo`'s object database; returns its id.
Result<ObjectId> write_blob(const Repository& repo, std::string_view bytes);

// Whether the object database holds `id`. Errors: the database cannot be opened.
Result<bool> has_object(const Repository& repo, const ObjectId& id);

// Confirms that each of `ids` is present and intact as far as a cheap look
// tells — what a cached verdict checks of the objects it stands for before
// it is used, instead of reading them: a loose object's file is inflated
// and hashed by the loose guard (up to k_max_blob_bytes; a header stating
// more is taken at its word), a packed one is found in its pack's index.
// Damage inside a packed object's compressed bytes is found only by a read.
// Errors: the first object missing (ErrorKind::not_found) or damaged
// (ErrorKind::git), named.
Result<void> confirm_objects(const Repository& repo, std::span<const ObjectId> ids);

// Writes one tree: the entries of a starting tree (or none), changed. The
// starting tree's entries are copied from its bytes and only the changed
// names are placed (git's tree order), so a change to a large directory
// costs its bytes once, not a sort of every entry. Names git fsck rejects
// are refused; the ids are written as given (the merge and the writers
// name objects they read or wrote).
class TreeBuilder {
 public:
  static Result<TreeBuilder> open(const Repository& repo, const ObjectId* from);

  Result<void> insert(const std::string& name, const ObjectId& id, FileMode mode);
  // Errors: `name` is not in the tree.
  Result<void> remove(const std::string& name);
  Result<ObjectId> write();

 private:
  TreeBuilder(const Repository& repo, std::shared_ptr<const void> owner, std::string_view base)
      : m_repo(&repo), m_base_owner(std::move(owner)), m_base(base) {}
  bool has(const std::string& name) const;

  const Repository* m_repo;
  std::shared_ptr<const void> m_base_owner;  // the object the starting tree's bytes lie in
  std::string_view m_base;                   // the starting tree's bytes
  // By name: the new entry, or nullopt where the name is removed.
  std::map<std::string, std::optional<TreeItem>, std::less<>> m_edits;
};

// A change at a path of a tree: the blob `id` with `mode` there, or the
// path removed (no id).
struct TreeUpdate {
  std::string path;
  std::optional<ObjectId> id;
  FileMode mode = FileMode::blob;
};

// Tree `base` with `updates` applied (intermediate trees created or removed as needed).
Result<ObjectId> update_tree(const Repository& repo, const ObjectId& base, const std::vector<TreeUpdate>& updates);

}  // namespace lg::git
