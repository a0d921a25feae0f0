// A tree source is what a check reads: a commit's tree from the object
// database, the tree the index would commit, or files on disk. Entries carry
// their kind (regular, executable, symlink, submodule, directory) so the
// checker can refuse what is not a regular file, and a content id so parses
// can be cached by blob id.
#pragma once

#include <functional>
#include <cstdint>
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

enum class EntryKind { file, executable, symlink, submodule, directory };
std::string_view to_string(EntryKind kind);
// The kind of a git file mode (100644, 100755, 120000, 160000, 040000).
EntryKind entry_kind_of_mode(unsigned mode);

struct Entry {
  std::string name;        // the last path component, raw bytes
  EntryKind kind = EntryKind::file;
  // The blob id (a directory: its tree id) in git sources; nullopt where
  // there is none (files on disk, the directories an index implies).
  std::optional<ObjectId> content_id;
};

// A child as list_view gives it: its name a view, no string of its own.
struct EntryView {
  std::string_view name;
  ObjectId id;  // the content id, when has_id
  EntryKind kind = EntryKind::file;
  bool has_id = false;

  std::optional<ObjectId> content_id() const { return has_id ? std::optional<ObjectId>(id) : std::nullopt; }
  Entry entry() const { return Entry{std::string(name), kind, content_id()}; }
};

// A directory's children as views, sorted by name bytes. The names lie in
// what `keep` holds, or in the source itself (which must then outlive the
// listing and not change while it lives). A source may list by position
// (the index: 20,000 ledgers are 20,000 positions of 4 bytes, each entry
// made when it is asked for, not a vector of 48-byte entries built first).
class Listing {
 public:
  // The entry at `position` of `source`, its name `skip` bytes into its path.
  using At = EntryView (*)(const void* source, std::uint32_t position, std::size_t skip);

  Listing() = default;
  // Entries built whole.
  explicit Listing(std::vector<EntryView> entries, std::shared_ptr<const void> keep = {})
      : m_entries(std::move(entries)), m_keep(std::move(keep)) {}
  // Entries at `positions` of `source`, in that order, through `at`; a
  // position with k_own set is `own[position - k_own]` instead.
  static constexpr std::uint32_t k_own = 0x80000000u;
  Listing(const void* source, At at, std::size_t skip, std::vector<std::uint32_t> positions,
          std::vector<EntryView> own)
      : m_entries(std::move(own)), m_positions(std::move(positions)), m_source(source), m_at(at), m_skip(skip) {}

  std::size_t size() const { return m_at ? m_positions.size() : m_entries.size(); }
  bool empty() const { return size() == 0; }
  EntryView operator[](std::size_t i) const {
    if (!m_at) return m_entries[i];
    const std::uint32_t p = m_positions[i];
    return (p & k_own) ? m_entries[p - k_own] : m_at(m_source, p, m_skip);
  }

 private:
  std::vector<EntryView> m_entries;  // the entries built whole, or by position those of k_own
  std::vector<std::uint32_t> m_positions;
  const void* m_source = nullptr;
  At m_at = nullptr;
  std::size_t m_skip = 0;
  std::shared_ptr<const void> m_keep;
};

// Files larger than this are not read: the check reports them and cannot judge.
inline constexpr std::size_t k_max_blob_bytes = 16u * 1024 * 1024;

class TreeSource {
 public:
  virtual ~TreeSource() = default;
  // The revision label used in locations ("HEAD", "main", ":index", "").
  virtual const std::string& rev() const = 0;
  // Children of directory `dir` ("" is the root), sorted by name bytes;
  // nullopt when `dir` does not exist or is not a directory.
  virtual Result<std::optional<std::vector<Entry>>> list(std::string_view dir) = 0;
  // The same children as views (see Listing): a directory of 20,000 ledgers
  // is listed without 20,000 strings. By default, list()'s entries, kept.
  virtual Result<std::optional<Listing>> list_view(std::string_view dir);
  // Children of the directory `entry` found at `dir` by an earlier listing:
  // git sources read the tree by its id instead of walking the path again.
  virtual Result<std::optional<std::vector<Entry>>> list_entry(std::string_view dir, const Entry& entry) {
    (void)entry;
    return list(dir);
  }
  // Reads a blob by its entry from another thread: each reader owns its own
  // repository handle. Empty when the source cannot be read that way.
  using BlobReader = std::function<Result<std::string>(const Entry&)>;
  virtual BlobReader thread_reader() const { return {}; }
  // The root directory as an entry (its content id is the tree id in git sources).
  // A source whose content is not exactly its root's tree id must not give one.
  virtual Entry root_entry() const { return Entry{"", EntryKind::directory, std::nullopt}; }
  // Calls `fn(name, kind, content_id)` for each child of the directory
  // `entry` at `dir`, in no particular order, without building a listing:
  // the cheap way to walk a whole tree. Returns false when `entry` is not a
  // directory.
  using ChildFn = std::function<void(std::string_view name, EntryKind kind, const std::optional<ObjectId>& content_id)>;
  virtual Result<bool> for_each_child(std::string_view dir, const Entry& entry, const ChildFn& fn) {
    LG_TRY(auto children, list_entry(dir, entry));
    if (!children) return false;
    for (const Entry& e : *children) fn(e.name, e.kind, e.content_id);
    return true;
  }
  // Calls `fn(path, kind)` for every non-directory entry of the whole
  // source, by full path, in no particular order, when the source holds
  // such a flat listing anyway (the index): a glob over every path is then
  // one pass over it instead of a walk of implied directories. Returns false
  // (without calling `fn`) for sources that do not.
  using FileFn = std::function<void(std::string_view path, EntryKind kind)>;
  virtual bool for_each_file(const FileFn& fn) const {
    (void)fn;
    return false;
  }
  // The common git directory of the repository the source reads, where a
  // persistent cache of its checks may live (cache/store.hpp); "" when there
  // is none (folders on disk, sources layered over another).
  virtual std::string cache_home() const { return {}; }
  // Confirms that the objects `ids` (blobs a cached result stands for
  // instead of reading them) are present and intact: confirm_objects in
  // the repository the source reads. A source with a cache home must
  // answer it; one without (no persistent cache) has nothing to confirm.
  virtual Result<void> confirm(std::span<const ObjectId> ids) {
    (void)ids;
    return {};
  }
  // Lets go of what reading has cached below the source (a git source over
  // a repository's own objects: libgit2's pack files, with their delta-base
  // cache, reopened from disk; Repository::reopen_object_database), once a
  // walk of every tree has filled it and before the rest of a check. Reads
  // see the same objects after. False when the source has nothing to let go.
  // No other thread may read through the source meanwhile.
  virtual Result<bool> release_read_caches() { return false; }
  // The entry at `path`; nullopt when absent.
  virtual Result<std::optional<Entry>> stat(std::string_view path) = 0;
  // The bytes of a file or executable entry at `path`. Errors: missing object,
  // I/O, or a file over k_max_blob_bytes (ErrorKind::invalid_input).
  virtual Result<std::string> read(std::string_view path, const Entry& entry) = 0;
};

// The bytes of the regular (or executable) file at `path`; nullopt when the
// path is absent or not a file. Errors: unreadable objects.
Result<std::optional<std::string>> read_regular_file(TreeSource& tree, const std::string& path);
// Every entry below the directory `dir` with its path, directories included,
// depth first in listing order (a directory, then what it holds); empty when
// `dir` is absent or not a directory.
Result<std::vector<std::pair<std::string, Entry>>> list_recursive(TreeSource& tree, const std::string& dir);
// Whether `path` is a directory of `tree`.
Result<bool> is_directory(TreeSource& tree, std::string_view path);
// The content id of the entry at `path`; nullopt when absent or when the
// source has no ids (files on disk).
Result<std::optional<ObjectId>> entry_id(TreeSource& tree, const std::string& path);

// A commit's (or any) tree in `repo`.
Result<std::unique_ptr<TreeSource>> open_tree_source(const Repository& repo, const ObjectId& tree,
                                                     std::string rev_label);
// The tree the index would commit (stage 0 entries). Fails when the index
// has unmerged paths.
Result<std::unique_ptr<TreeSource>> open_index_source(const Repository& repo);
// A folder on disk (the working tree or a plain directory); ".git" is skipped.
Result<std::unique_ptr<TreeSource>> open_directory_source(const std::string& root);

}  // namespace lg::git
