// git's index file read as it lies on disk, for the tree a commit of the
// index would make (check --index, the pre-commit hook). libgit2 reads the
// same file, but hashes the whole of it first and allocates every entry;
// this reader does neither (git itself does not verify the trailing
// checksum on read), and keeps every path in one buffer.
//
// It reads only what it is sure of: index versions 2, 3 and 4, SHA-1 ids,
// entries in git's order, the optional extensions (TREE, REUC, UNTR, ...)
// skipped. It declines — returns nullopt, and the caller asks libgit2,
// whose answer or error then stands — a split index ("link"), a sparse index
// ("sdir", directory entries), any other required extension, another
// version, anything malformed, and any path libgit2 refuses to read or may
// treat apart (empty, "." or ".." components, ".git" in any case and its
// look-alikes such as ".git.", not ".github"; backslashes). Declining is
// never wrong, only slower.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/util/file_bytes.hpp"

namespace lg::git {

// What git recorded of a working file when it last wrote or refreshed the
// entry (each field as stored: 32 bits), for telling an unchanged file by
// lstat alone, as git does.
struct IndexStat {
  std::uint32_t ctime_s = 0;
  std::uint32_t ctime_ns = 0;
  std::uint32_t mtime_s = 0;
  std::uint32_t mtime_ns = 0;
  std::uint32_t dev = 0;
  std::uint32_t ino = 0;
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::uint32_t size = 0;
  bool flagged = false;  // skip-worktree or intent-to-add: git does not compare the file by stat
};

struct IndexListing {
  struct Item {
    std::uint32_t offset = 0;  // of the path in `paths`, or in the file (see `file`)
    std::uint32_t size = 0;
    std::uint32_t mode = 0;    // git's file mode (100644, 100755, 120000, 160000)
    ObjectId id;
  };
  // Every path, one after another, each followed by a NUL (items give the
  // bounds): a path's bytes end as a C string, as they do in the file.
  std::string paths;
  // When set, the paths are not copied: offsets are into the index file's
  // own bytes (versions 2 and 3 store every path whole; version 4's are
  // rebuilt into `paths`).
  std::shared_ptr<const util::FileBytes> file;
  // The stage-0 entries sorted by path bytes, each path once.
  std::vector<Item> items;
  // Some entry is at a stage above 0 (a merge left unmerged paths); then
  // `items` may be incomplete and must not be used.
  bool unmerged = false;
  // Each item's stat data, in the order of `items`; filled only by
  // read_index_stat.
  std::vector<IndexStat> stats;
  // The bytes of git's cache-tree extension ("TREE"), when the index has
  // one; kept only by read_index_stat (see cached_tree_id).
  std::string cache_tree;

  // The item's path; the NUL after it may be read (see `paths`).
  std::string_view path(const Item& item) const {
    return {(file ? file->bytes().data() : paths.data()) + item.offset, item.size};
  }
};

// Parses the bytes of an index file; nullopt when it declines (see above).
std::optional<IndexListing> parse_index_file(std::string_view bytes);
// The same for a file read whole: a version 2 or 3 listing's paths point
// into it (and the listing holds it) instead of being copied.
std::optional<IndexListing> parse_index_file(std::shared_ptr<const util::FileBytes> file);

// Reads and parses the index file at `path`; nullopt when the file cannot be
// read (missing included: libgit2 then takes it as an empty index) or the
// parse declines.
std::optional<IndexListing> read_index_file(const std::string& path);

// The paths to keep of an index: each a literal path, or every path below a
// folder when it ends in '/'.
bool path_in(std::span<const std::string> only, std::string_view path);

// read_index_file keeping only the entries at the paths `only` names
// (path_in), with their stat data (`stats`). The whole file is still read:
// the header, the extensions and each entry it keeps are checked as
// read_index_file checks them (the kept paths in git's order among
// themselves); a version 2 or 3 entry it does not keep is stepped over by
// its recorded length, its mode checked, unread, so a file whose other
// entries are damaged may read here where read_index_file declines it
// (what is kept is then still well formed). An index of 270,000 entries is
// read this way in a pass over its bytes, without a listing of every entry.
std::optional<IndexListing> read_index_stat(const std::string& path, std::span<const std::string> only);

// Where in an index file read_index_stat found what it kept: the header's
// version and entry count, the file offsets of the first entry it kept (or
// found at a stage above 0) and of the end of the last one, their entry
// numbers, where the extensions start, and the file's trailing checksum
// (git's hash of the rest). With no such entry, begin, end
// and extensions are equal. Recorded for versions 2 and 3 (a version 4
// path is cut from the previous entry's, so a read cannot start midway):
// version 0 otherwise.
struct IndexSpan {
  std::uint32_t version = 0;
  std::uint32_t count = 0;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint32_t first = 0;  // the entry number at `begin`
  std::uint32_t last = 0;   // the one at `end`: one past the last entry kept
  std::uint64_t extensions = 0;
  ObjectId checksum;  // the file's trailing checksum
};

// read_index_stat, also giving the span of what it kept and the opened
// file's stat data (which recognize the same file for a later read).
std::optional<IndexListing> read_index_stat(const std::string& path, std::span<const std::string> only,
                                            IndexSpan& span, struct stat& st);

// read_index_stat of a file an earlier read_index_stat(..., span, st) read,
// reading only the header, the entries `span` covers and the extensions
// (at 2,000 projects, 0.2 of 2.9 MB). nullopt when the opened file is not
// one `same` accepts by its stat data, its header is not the span's, or the
// entries are not where the span says, or its trailing checksum is not the
// span's: the caller then reads it whole. `same` should accept only the
// file the span was read from (git replaces the index by renaming a new
// file over it: its device, inode, size and times tell), as the checksum
// tells nothing when git was told not to write one (index.skipHash).
std::optional<IndexListing> read_index_stat_span(const std::string& path, std::span<const std::string> only,
                                                 const IndexSpan& span,
                                                 const std::function<bool(const struct stat&)>& same);

// What a commit of the index at `path` makes, when git's cache-tree
// extension says so: its valid root's tree id, and whether any entry is at
// a stage above 0. An index of 1 MiB or more is first read from its end,
// up to a quarter of it: a cache-tree found there whole (its size and every
// extension after it end at the checksum, its entries fill it) with a valid
// root counting the header's entries is taken, and the entries are not read
// (at 20,000 projects: some 1 MB read of 29.8 MB); git keeps no valid root
// beside an unmerged entry, so none is. Otherwise the entries are stepped
// over by their recorded sizes through a small buffer, never mapped nor held
// whole (at 270,000 entries, a walk of the mapped file pays a fault or a
// translation miss per page); of the extensions only the root entry of
// "TREE" is read. nullopt as read_index_file's (a split or sparse index,
// malformed bytes), and for an entry over the buffer's 64 KiB.
struct IndexTree {
  std::optional<ObjectId> root;  // nullopt: no cache-tree, or its root is invalid
  bool unmerged = false;
};
std::optional<IndexTree> read_index_tree(const std::string& path);

// The tree id git's cache-tree extension (`cache_tree`) records for the
// folder `dir` ("" the root, else "a/b" with no trailing slash): what a
// commit of the index would have there. nullopt when the extension holds no
// valid entry for it (git invalidates a folder's entry, and its parents',
// when a path below it is staged) or is malformed.
std::optional<ObjectId> cached_tree_id(std::string_view cache_tree, std::string_view dir);

}  // namespace lg::git
