// Tree sources: a git tree read by object id, the index's stage-0 entries,
// and a folder on disk. All three list children sorted by name bytes and
// report entry kinds, so the checker sees one model whatever it reads.
#include "ledgergate/git/tree_source.hpp"

#include "ledgergate/git/index_file.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/util/fd.hpp"
#include "libgit2.hpp"
#include "loose_guard.hpp"
#include "tree_memo.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace lg::git {

std::string_view to_string(EntryKind kind) {
  switch (kind) {
    case EntryKind::file: return "file";
    case EntryKind::executable: return "executable file";
    case EntryKind::symlink: return "symlink";
    case EntryKind::submodule: return "submodule";
    case EntryKind::directory: return "directory";
  }
  return "file";
}

EntryKind entry_kind_of_mode(unsigned mode) {
  switch (static_cast<unsigned>(canonical_mode(mode))) {
    case GIT_FILEMODE_BLOB_EXECUTABLE: return EntryKind::executable;
    case GIT_FILEMODE_LINK: return EntryKind::symlink;
    case GIT_FILEMODE_COMMIT: return EntryKind::submodule;
    case GIT_FILEMODE_TREE: return EntryKind::directory;
    default: return EntryKind::file;
  }
}

namespace {

// The libgit2 id of a git source's entry (the zero id, which no object has,
// for an entry without one).
git_oid oid_of(const Entry& entry) { return to_git(entry.content_id.value_or(ObjectId{})); }

Result<std::string> read_blob(git_repository* repo, const Entry& entry) {
  const git_oid oid = oid_of(entry);
  git_odb* raw_odb = nullptr;
  int rc = git_repository_odb(&raw_odb, repo);
  if (rc < 0) return libgit2_error(rc, "opening object database");
  OdbPtr odb(raw_odb);
  std::size_t size = 0;
  git_object_t type = GIT_OBJECT_INVALID;
  rc = git_odb_read_header(&size, &type, odb.get(), &oid);
  if (rc < 0) return libgit2_error(rc, "reading blob " + oid_hex(oid));
  if (size > k_max_blob_bytes) {
    return make_error(ErrorKind::invalid_input, std::to_string(size) + " bytes is over the " +
                                                    std::to_string(k_max_blob_bytes) + "-byte limit");
  }
  auto blob = lookup_blob(repo, from_git(oid));
  if (!blob) return blob.error().with_context("reading blob " + oid_hex(oid));
  return blob_bytes(std::move(*blob));
}

// Sorts a listing by name bytes; a listing already in order (the usual
// case: 20,000 ledgers in one directory) costs one pass.
void sort_by_name(std::vector<EntryView>& entries) {
  const auto by_name = [](const EntryView& a, const EntryView& b) { return a.name < b.name; };
  if (!std::is_sorted(entries.begin(), entries.end(), by_name)) std::sort(entries.begin(), entries.end(), by_name);
}

// A listing's entries as entries of their own (list() of the sources that
// list views first).
Result<std::optional<std::vector<Entry>>> entries_of(Result<std::optional<Listing>> listed) {
  if (!listed) return listed.error();
  if (!*listed) return std::optional<std::vector<Entry>>{};
  std::vector<Entry> out;
  const Listing& listing = **listed;
  out.reserve(listing.size());
  for (std::size_t i = 0; i < listing.size(); ++i) out.push_back(listing[i].entry());
  return std::optional<std::vector<Entry>>(std::move(out));
}

EntryView view_of(const git_tree_entry* te) {
  return EntryView{git_tree_entry_name(te), from_git(*git_tree_entry_id(te)),
                   entry_kind_of_mode(git_tree_entry_filemode_raw(te)), true};
}

// A reader with its own handle on `repo`'s object database, for another thread.
TreeSource::BlobReader blob_reader_for(git_repository* repo) {
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, git_repository_path(repo), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) < 0) {
    return {};
  }
  auto handle = std::make_shared<RepositoryPtr>(raw);
  if (guard_loose_reads(raw) < 0) return {};
  return [handle](const Entry& entry) { return read_blob(handle->get(), entry); };
}

class GitTreeSource final : public TreeSource {
 public:
  GitTreeSource(const Repository& repo, TreePtr root, std::string rev)
      : m_repo(repo.raw()),
        m_trees(repo.trees()),
        m_root(std::move(root)),
        m_rev(std::move(rev)),
        m_reopenable(repo.can_reopen_object_database()) {}

  const std::string& rev() const override { return m_rev; }

  Result<std::optional<std::vector<Entry>>> list(std::string_view dir) override { return entries_of(list_view(dir)); }

  Result<std::optional<std::vector<Entry>>> list_entry(std::string_view dir, const Entry& entry) override {
    return entries_of(list_entry_view(dir, entry));
  }

  Result<std::optional<Listing>> list_view(std::string_view dir) override {
    if (dir.empty()) return std::optional<Listing>(views_of(m_root.get(), nullptr));
    LG_TRY(std::optional<Entry> e, stat(dir));
    if (!e) return std::optional<Listing>{};
    return list_entry_view(dir, *e);
  }

  BlobReader thread_reader() const override { return blob_reader_for(m_repo); }
  std::string cache_home() const override { return git_repository_commondir(m_repo); }
  Result<void> confirm(std::span<const ObjectId> ids) override { return confirm_objects(m_repo, ids); }

  Entry root_entry() const override {
    return Entry{"", EntryKind::directory, from_git(*git_tree_id(m_root.get()))};
  }

  // Walked from the tree's raw bytes (RawTree, a wide one kept by the
  // memo): the walk of every tree (the open-requirements glob) kept a
  // parsed git_tree in libgit2's object cache per tree read, whose cap
  // counts raw bytes only (the entries' array is as large again: 8.7 MB
  // held at a check's peak at 20,000 projects). Anything else (a missing
  // object, another type, bytes RawTree does not take) goes the way of
  // every tree read by id, with its errors.
  Result<bool> for_each_child(std::string_view dir, const Entry& entry, const ChildFn& fn) override {
    if (entry.kind != EntryKind::directory) return false;
    if (entry.content_id) {
      if (const std::shared_ptr<const RawTree> raw = m_trees.raw(m_repo, *entry.content_id)) {
        for (const RawTree::Item& e : raw->items) {
          fn(raw->name(e), entry_kind_of_mode(e.mode), std::optional<ObjectId>(ObjectId::from_bytes(raw->id(e))));
        }
        return true;
      }
    }
    LG_TRY(const TreePtr tree, tree_at(dir, entry));
    const std::size_t n = git_tree_entrycount(tree.get());
    for (std::size_t i = 0; i < n; ++i) {
      const git_tree_entry* te = git_tree_entry_byindex(tree.get(), i);
      fn(git_tree_entry_name(te), entry_kind_of_mode(git_tree_entry_filemode_raw(te)),
         std::optional<ObjectId>(from_git(*git_tree_entry_id(te))));
    }
    return true;
  }

  // The tree's entries as views into it; `keep` holds it (null: the root,
  // which the source holds).
  static Listing views_of(const git_tree* tree, std::shared_ptr<const void> keep) {
    std::vector<EntryView> entries;
    const std::size_t n = git_tree_entrycount(tree);
    entries.reserve(n);
    for (std::size_t i = 0; i < n; ++i) entries.push_back(view_of(git_tree_entry_byindex(tree, i)));
    // git orders trees as if directory names ended in '/'; callers want plain
    // byte order (most trees already are: sorted only when not).
    sort_by_name(entries);
    return Listing(std::move(entries), std::move(keep));
  }

  Result<std::optional<Entry>> stat(std::string_view path) override {
    auto found = entry_by_path(m_repo, m_trees, m_root.get(), path);
    if (!found) return found.error().with_context("looking up " + std::string(path));
    if (!*found) return std::optional<Entry>{};
    const PathEntry& e = **found;
    return std::optional<Entry>(Entry{e.name, entry_kind_of_mode(e.raw_mode), from_git(e.id)});
  }

  Result<std::string> read(std::string_view, const Entry& entry) override {
    return read_blob(m_repo, entry);
  }

  // The handle's parsed objects this source holds (the root, the memo's
  // trees) stay: they are counted references, apart from the object
  // database and the object cache, which reopen_object_database empties.
  Result<bool> release_read_caches() override {
    if (!m_reopenable) return false;
    if (auto r = reopen_object_database(m_repo); !r) return r.error();
    return true;
  }

 private:
  Result<std::optional<Listing>> list_entry_view(std::string_view dir, const Entry& entry) const {
    if (entry.kind != EntryKind::directory) return std::optional<Listing>{};
    if (entry.content_id) {
      if (std::shared_ptr<const RawTree> raw = m_trees.wide(m_repo, *entry.content_id)) {
        std::vector<EntryView> entries;
        entries.reserve(raw->items.size());
        for (const RawTree::Item& e : raw->items) {
          entries.push_back(
              EntryView{raw->name(e), ObjectId::from_bytes(raw->id(e)), entry_kind_of_mode(e.mode), true});
        }
        sort_by_name(entries);
        return std::optional<Listing>(Listing(std::move(entries), std::move(raw)));
      }
    }
    LG_TRY(TreePtr sub, tree_at(dir, entry));
    auto kept = std::make_shared<const TreePtr>(std::move(sub));
    const git_tree* tree = kept->get();
    return std::optional<Listing>(views_of(tree, std::move(kept)));
  }

  // The subtree `entry`, found at `dir`, names.
  Result<TreePtr> tree_at(std::string_view dir, const Entry& entry) const {
    auto tree = m_trees.get(m_repo, entry.content_id.value_or(ObjectId{}));
    if (!tree) return tree.error().with_context("reading tree " + std::string(dir));
    return tree;
  }

  git_repository* m_repo;
  TreeMemo& m_trees;  // the repository's: a large tree is read once, whichever source asks
  TreePtr m_root;
  std::string m_rev;
  bool m_reopenable;  // Repository::can_reopen_object_database
};

// The index's stage-0 entries, in the index's own order (byte order of the
// whole path): no map is built, the paths lie in one buffer, directories are
// implied by paths. A listing is a binary search for the directory's range.
class IndexSource final : public TreeSource {
 public:
  IndexSource(git_repository* repo, IndexListing files) : m_repo(repo), m_files(std::move(files)) {}

  const std::string& rev() const override { return m_rev; }
  BlobReader thread_reader() const override { return blob_reader_for(m_repo); }
  std::string cache_home() const override { return git_repository_commondir(m_repo); }
  Result<void> confirm(std::span<const ObjectId> ids) override { return confirm_objects(m_repo, ids); }

  Result<std::optional<std::vector<Entry>>> list(std::string_view dir) override { return entries_of(list_view(dir)); }

  // Views into the index's own path buffer (the source outlives them), by
  // the items' positions.
  Result<std::optional<Listing>> list_view(std::string_view dir) override {
    std::string prefix(dir);
    if (!prefix.empty()) prefix += '/';
    std::vector<std::uint32_t> positions;
    std::vector<EntryView> dirs;  // implied directories
    auto it = lower_bound(prefix);
    if (!prefix.empty()) {
      // At most one entry per path in the range: grown once, not by doubling.
      std::string past = prefix;
      past.back() = '0';  // '0' follows '/'
      positions.reserve(static_cast<std::size_t>(lower_bound(past) - it));
    }
    while (it != m_files.items.end()) {
      const std::string_view path = m_files.path(*it);
      if (path.substr(0, prefix.size()) != prefix) break;
      const std::string_view rest = path.substr(prefix.size());
      const std::size_t slash = rest.find('/');
      if (slash == std::string_view::npos) {
        positions.push_back(static_cast<std::uint32_t>(it - m_files.items.begin()));
        ++it;
        continue;
      }
      // An implied directory: its paths are the range up to "<dir>0" ('0'
      // follows '/'), skipped in one search.
      positions.push_back(Listing::k_own + static_cast<std::uint32_t>(dirs.size()));
      dirs.push_back(EntryView{rest.substr(0, slash), ObjectId{}, EntryKind::directory, false});
      std::string past = prefix;
      past.append(rest.substr(0, slash)).push_back('0');
      it = lower_bound(past);
    }
    if (positions.empty() && !dir.empty()) return std::optional<Listing>{};
    const auto name = [&](std::uint32_t p) {
      return (p & Listing::k_own) ? dirs[p - Listing::k_own].name : m_files.path(m_files.items[p]).substr(prefix.size());
    };
    // Index order is the listing's, but for implied directories ('.' < '/').
    const auto by_name = [&](std::uint32_t a, std::uint32_t b) { return name(a) < name(b); };
    if (!dirs.empty() && !std::is_sorted(positions.begin(), positions.end(), by_name)) {
      std::sort(positions.begin(), positions.end(), by_name);
    }
    // A file and a directory of one name (a broken index): the first kept.
    if (!dirs.empty()) {
      positions.erase(std::unique(positions.begin(), positions.end(),
                                  [&](std::uint32_t a, std::uint32_t b) { return name(a) == name(b); }),
                      positions.end());
    }
    return std::optional<Listing>(Listing(&m_files, &item_at, prefix.size(), std::move(positions), std::move(dirs)));
  }

  Result<std::optional<Entry>> stat(std::string_view path) override {
    const std::string_view name = path.substr(path.rfind('/') + 1);
    auto it = lower_bound(path);
    if (it != m_files.items.end() && m_files.path(*it) == path) return std::optional<Entry>(view_of(*it, name).entry());
    std::string below(path);
    below += '/';
    it = lower_bound(below);
    if (it != m_files.items.end() && m_files.path(*it).substr(0, below.size()) == below) {
      return std::optional<Entry>(Entry{std::string(name), EntryKind::directory, std::nullopt});
    }
    return std::optional<Entry>{};
  }

  Result<std::string> read(std::string_view, const Entry& entry) override {
    return read_blob(m_repo, entry);
  }

  // Front to back through the index's paths: a mapped file's pages go back
  // behind the walk (all 270,000 paths of a big index are passed).
  bool for_each_file(const FileFn& fn) const override {
    util::PagesBehind behind(m_files.file.get());
    for (const IndexListing::Item& item : m_files.items) {
      const std::string_view path = m_files.path(item);
      fn(path, entry_kind_of_mode(item.mode));
      behind.passed(path.data());
    }
    behind.finish();
    return true;
  }

 private:
  using Items = std::vector<IndexListing::Item>;
  Items::const_iterator lower_bound(std::string_view path) const {
    return std::lower_bound(m_files.items.begin(), m_files.items.end(), path,
                            [this](const IndexListing::Item& f, std::string_view p) { return m_files.path(f) < p; });
  }
  static EntryView view_of(const IndexListing::Item& item, std::string_view name) {
    return EntryView{name, item.id, entry_kind_of_mode(item.mode), true};
  }
  static EntryView item_at(const void* files, std::uint32_t position, std::size_t skip) {
    const auto& listing = *static_cast<const IndexListing*>(files);
    const IndexListing::Item& item = listing.items[position];
    return view_of(item, listing.path(item).substr(skip));
  }

  git_repository* m_repo;
  IndexListing m_files;
  std::string m_rev = ":index";
};

// A folder on disk, read below its root without following a symbolic link
// anywhere in a path (util::open_dir_beneath): a symlinked folder is an
// entry of kind symlink, as it is in a git tree, never the folder it points
// at, so the worktree is judged as `check HEAD` judges the commit of it.
class DirectorySource final : public TreeSource {
 public:
  explicit DirectorySource(util::Fd fd) : m_fd(std::move(fd)) {}

  const std::string& rev() const override { return m_rev; }

  Result<std::optional<std::vector<Entry>>> list(std::string_view dir) override {
    auto at = util::open_dir_beneath(m_fd.get(), dir);
    if (!at) return std::optional<std::vector<Entry>>{};
    const int fd = at->get();
    DIR* d = ::fdopendir(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
    if (!d) return std::optional<std::vector<Entry>>{};
    std::vector<Entry> out;
    while (const dirent* de = readdir(d)) {
      const std::string name = de->d_name;
      if (name == "." || name == ".." || (dir.empty() && name == ".git")) continue;
      if (auto kind = kind_at(fd, name)) out.push_back(Entry{name, *kind, std::nullopt});
    }
    closedir(d);
    std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
    return std::optional<std::vector<Entry>>(std::move(out));
  }

  Result<std::optional<Entry>> stat(std::string_view path) override {
    const auto [parent, name] = util::split_parent(path);
    if (name.empty()) return std::optional<Entry>{};
    auto at = util::open_dir_beneath(m_fd.get(), parent);
    if (!at) return std::optional<Entry>{};
    const auto kind = kind_at(at->get(), std::string(name));
    if (!kind) return std::optional<Entry>{};
    return std::optional<Entry>(Entry{std::string(name), *kind, std::nullopt});
  }

  Result<std::string> read(std::string_view path, const Entry&) override {
    const auto [parent, name] = util::split_parent(path);
    LG_TRY(const util::Fd at, util::open_dir_beneath(m_fd.get(), parent));
    // O_NOFOLLOW: a symlink is not read through; O_NONBLOCK: a FIFO does not block.
    util::Fd fd(::openat(at.get(), std::string(name).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat st {};
    if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0) return make_error(ErrorKind::io, "cannot open for reading");
    if (!S_ISREG(st.st_mode)) return make_error(ErrorKind::io, "not a regular file");
    if (static_cast<std::size_t>(st.st_size) > k_max_blob_bytes) {
      return make_error(ErrorKind::invalid_input, std::to_string(st.st_size) + " bytes is over the " +
                                                      std::to_string(k_max_blob_bytes) + "-byte limit");
    }
    std::string out;
    char buf[65536];
    while (true) {
      const ssize_t n = ::read(fd.get(), buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return make_error(ErrorKind::io, "read error");
      if (n == 0) break;
      out.append(buf, static_cast<std::size_t>(n));
      if (out.size() > k_max_blob_bytes) {
        return make_error(ErrorKind::invalid_input, "over the " + std::to_string(k_max_blob_bytes) + "-byte limit");
      }
    }
    return out;
  }

 private:
  static std::optional<EntryKind> kind_at(int dir, const std::string& name) {
    struct stat st {};
    if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return std::nullopt;
    if (S_ISLNK(st.st_mode)) return EntryKind::symlink;
    if (S_ISDIR(st.st_mode)) return EntryKind::directory;
    if (S_ISREG(st.st_mode)) return (st.st_mode & S_IXUSR) ? EntryKind::executable : EntryKind::file;
    return EntryKind::submodule;  // sockets, fifos, devices: not a file either
  }

  util::Fd m_fd;  // the root, opened once (the root itself may be reached through a symlink)
  std::string m_rev;
};

}  // namespace

Result<std::optional<Listing>> TreeSource::list_view(std::string_view dir) {
  LG_TRY(auto entries, list(dir));
  if (!entries) return std::optional<Listing>{};
  auto kept = std::make_shared<const std::vector<Entry>>(std::move(*entries));
  std::vector<EntryView> views;
  views.reserve(kept->size());
  for (const Entry& e : *kept) {
    views.push_back(EntryView{e.name, e.content_id.value_or(ObjectId{}), e.kind, e.content_id.has_value()});
  }
  return std::optional<Listing>(Listing(std::move(views), std::move(kept)));
}

Result<std::optional<std::string>> read_regular_file(TreeSource& tree, const std::string& path) {
  LG_TRY(auto entry, tree.stat(path));
  if (!entry || (entry->kind != EntryKind::file && entry->kind != EntryKind::executable)) {
    return std::optional<std::string>{};
  }
  LG_TRY(std::string bytes, tree.read(path, *entry));
  return std::optional<std::string>(std::move(bytes));
}

namespace {
Result<void> list_below(TreeSource& tree, const std::string& dir, std::vector<std::pair<std::string, Entry>>& out) {
  LG_TRY(auto entries, tree.list(dir));
  if (!entries) return {};
  for (Entry& e : *entries) {
    std::string path = dir + "/" + e.name;
    const bool is_dir = e.kind == EntryKind::directory;
    out.emplace_back(path, std::move(e));
    if (is_dir) {
      if (auto r = list_below(tree, path, out); !r) return r.error();
    }
  }
  return {};
}
}  // namespace

Result<std::vector<std::pair<std::string, Entry>>> list_recursive(TreeSource& tree, const std::string& dir) {
  std::vector<std::pair<std::string, Entry>> out;
  if (auto r = list_below(tree, dir, out); !r) return r.error();
  return out;
}

Result<bool> is_directory(TreeSource& tree, std::string_view path) {
  LG_TRY(auto entry, tree.stat(path));
  return entry && entry->kind == EntryKind::directory;
}

Result<std::optional<ObjectId>> entry_id(TreeSource& tree, const std::string& path) {
  LG_TRY(auto entry, tree.stat(path));
  if (!entry) return std::optional<ObjectId>{};
  return entry->content_id;
}

Result<std::unique_ptr<TreeSource>> open_tree_source(const Repository& repo, const ObjectId& tree_id,
                                                     std::string rev_label) {
  auto tree = lookup_tree(repo, tree_id);
  if (!tree) return tree.error().with_context("reading tree " + tree_id.hex());
  return std::unique_ptr<TreeSource>(std::make_unique<GitTreeSource>(repo, std::move(*tree), std::move(rev_label)));
}

namespace {

Error unmerged_error() {
  return make_error(ErrorKind::invalid_input, "the index has unmerged paths: resolve them first");
}

// libgit2's reading of the index, for what read_index_file declines.
Result<IndexListing> libgit2_index_listing(const Repository& repo) {
  git_index* raw = nullptr;
  const int rc = repo.index_file().empty() ? git_repository_index(&raw, repo.raw())
                                           : git_index_open(&raw, repo.index_file().c_str());
  if (rc < 0) return libgit2_error(rc, repo.index_file().empty() ? "reading the index" : "reading GIT_INDEX_FILE");
  IndexPtr index(raw);
  IndexListing listing;
  if (git_index_has_conflicts(index.get())) {
    listing.unmerged = true;
    return listing;
  }
  const std::size_t n = git_index_entrycount(index.get());
  listing.items.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const git_index_entry* ie = git_index_get_byindex(index.get(), i);
    const std::string_view path = ie->path;
    if (listing.paths.size() + path.size() > std::numeric_limits<std::uint32_t>::max()) {
      return make_error(ErrorKind::invalid_input, "the index's paths are over 4 GiB");
    }
    IndexListing::Item item;
    item.offset = static_cast<std::uint32_t>(listing.paths.size());
    item.size = static_cast<std::uint32_t>(path.size());
    item.mode = ie->mode;
    item.id = from_git(ie->id);
    listing.paths.append(path);
    listing.items.push_back(item);
  }
  // libgit2 keeps the entries sorted by path (case-folded under
  // core.ignorecase); sorted by bytes here, and the first of equal paths
  // kept, as a map would.
  const auto by_path = [&listing](const IndexListing::Item& a, const IndexListing::Item& b) {
    return listing.path(a) < listing.path(b);
  };
  if (!std::is_sorted(listing.items.begin(), listing.items.end(), by_path)) {
    std::stable_sort(listing.items.begin(), listing.items.end(), by_path);
  }
  listing.items.erase(std::unique(listing.items.begin(), listing.items.end(),
                                  [&listing](const IndexListing::Item& a, const IndexListing::Item& b) {
                                    return listing.path(a) == listing.path(b);
                                  }),
                      listing.items.end());
  return listing;
}

}  // namespace

Result<std::unique_ptr<TreeSource>> open_index_source(const Repository& repo) {
  const std::string path = repo.index_path();
  // The tree a commit of the index makes is the one git's cache-tree
  // extension records for the root, when that entry is valid: `git commit`
  // brings it up to date (writing its trees) before it runs the pre-commit
  // hook, and git invalidates it up to the root when a path is staged, an
  // entry is intent-to-add or unmerged. That tree is read from the object
  // database like a commit's, and the entries are only stepped over; an
  // invalid root, or a tree the object database lacks, reads every entry.
  if (const std::optional<IndexTree> scan = read_index_tree(path)) {
    if (scan->unmerged) return unmerged_error();
    if (const std::optional<ObjectId> root = scan->root) {
      if (auto tree = lookup_tree(repo, *root)) {
        return std::unique_ptr<TreeSource>(std::make_unique<GitTreeSource>(repo, std::move(*tree), ":index"));
      }
    }
  }
  std::optional<IndexListing> listing = read_index_file(path);
  if (!listing) {
    LG_TRY(IndexListing read, libgit2_index_listing(repo));
    listing = std::move(read);
  }
  if (listing->unmerged) return unmerged_error();
  return std::unique_ptr<TreeSource>(std::make_unique<IndexSource>(repo.raw(), std::move(*listing)));
}

Result<std::unique_ptr<TreeSource>> open_directory_source(const std::string& root) {
  util::Fd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) return make_error(ErrorKind::usage, root + " is not a directory");
  return std::unique_ptr<TreeSource>(std::make_unique<DirectorySource>(std::move(fd)));
}

}  // namespace lg::git
