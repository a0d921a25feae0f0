// Uncommitted-change detection limited to ledger pathspecs.
//
// The question is asked of the ledger paths only, so its cost follows them,
// not the working tree: git's index file is read as it lies
// (index_file.hpp), its entries under the ledger paths are compared with
// HEAD's tree by id (a folder whose tree the index would commit, recorded
// by its cache-tree or hashed from its entries, is HEAD's is not read) and
// with the working files by the stat data git recorded (one
// lstat each, as `git status` does), and the ledger folders are listed for
// files the index does not hold. A file whose stat data
// differs (or that git could not vouch for when it wrote the index) is
// hashed as git would store it, filters applied; a file the index does not
// hold counts unless the ignore rules ignore it. What is neither a regular
// file nor absent from the index (a symbolic link, a changed executable bit,
// a submodule) is put to libgit2's status, limited to those paths.
#include "ledgergate/git/status.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <ctime>
#include <cstring>
#include <future>
#include <optional>
#include <span>
#include <string_view>
#include <thread>
#include <tuple>

#include "ledgergate/git/index_file.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/util/fd.hpp"
#include "ledgergate/util/tasks.hpp"
#include "ledgergate/util/text.hpp"
#include "libgit2.hpp"
#include "tree_bytes.hpp"

namespace lg::git {

using StatusListPtr = Owned<git_status_list, git_status_list_free>;

namespace {

// libgit2's status of the index and working tree under `pathspecs`; with
// `exact`, each pathspec is one path (no pattern, no prefix).
Result<bool> libgit2_status(const Repository& repo, const std::vector<std::string>& pathspecs, bool exact) {
  std::vector<char*> specs;
  specs.reserve(pathspecs.size());
  for (const std::string& s : pathspecs) specs.push_back(const_cast<char*>(s.c_str()));
  git_status_options opts{};
  git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION);
  opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  opts.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
               GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
  if (exact) opts.flags |= GIT_STATUS_OPT_DISABLE_PATHSPEC_MATCH;
  opts.pathspec.strings = specs.data();
  opts.pathspec.count = specs.size();
  git_status_list* raw = nullptr;
  const int rc = git_status_list_new(&raw, repo.raw(), &opts);
  if (rc < 0) return libgit2_error(rc, "reading the working tree status");
  StatusListPtr list(raw);
  return git_status_list_entrycount(list.get()) > 0;
}

// libgit2 walks the working tree from the pathspecs' common prefix: one
// walk per pathspec keeps each to its own folder.
Result<bool> libgit2_status_each(const Repository& repo, const std::vector<std::string>& pathspecs) {
  for (const std::string& spec : pathspecs) {
    LG_TRY(const bool dirty, libgit2_status(repo, {spec}, false));
    if (dirty) return true;
  }
  return false;
}

struct Blob {
  std::string path;
  std::uint32_t mode = 0;
  ObjectId id;
};

// The non-tree entries of HEAD's tree at `spec` ("dir/" a folder, else one
// path), sorted by path bytes as the index is.
Result<std::vector<Blob>> head_blobs(git_tree* root, const std::string& spec) {
  std::vector<Blob> out;
  if (!root) return out;
  const bool folder = !spec.empty() && spec.back() == '/';
  const std::string path = folder ? spec.substr(0, spec.size() - 1) : spec;
  git_tree_entry* raw = nullptr;
  const int rc = git_tree_entry_bypath(&raw, root, path.c_str());
  if (rc == GIT_ENOTFOUND) return out;
  if (rc < 0) return libgit2_error(rc, "reading HEAD's " + path);
  const TreeEntryPtr entry(raw);
  if (git_tree_entry_type(entry.get()) != GIT_OBJECT_TREE) {
    if (!folder) {
      out.push_back(Blob{path, static_cast<std::uint32_t>(canonical_mode(git_tree_entry_filemode_raw(entry.get()))),
                         from_git(*git_tree_entry_id(entry.get()))});
    }
    return out;
  }
  git_tree* sub_raw = nullptr;
  if (const int r = git_tree_lookup(&sub_raw, git_tree_owner(root), git_tree_entry_id(entry.get())); r < 0) {
    return libgit2_error(r, "reading HEAD's " + path);
  }
  const TreePtr sub(sub_raw);
  struct Walk {
    std::vector<Blob>* out;
    const std::string* base;
  } walk{&out, &path};
  const int w = git_tree_walk(
      sub.get(), GIT_TREEWALK_PRE,
      [](const char* root_path, const git_tree_entry* e, void* payload) -> int {
        auto* into = static_cast<Walk*>(payload);
        if (git_tree_entry_type(e) == GIT_OBJECT_TREE) return 0;
        std::string full = *into->base;
        full += '/';
        full += root_path;
        full += git_tree_entry_name(e);
        const auto mode = static_cast<std::uint32_t>(canonical_mode(git_tree_entry_filemode_raw(e)));
        into->out->push_back(Blob{std::move(full), mode, from_git(*git_tree_entry_id(e))});
        return 0;
      },
      &walk);
  if (w < 0) return libgit2_error(w, "reading HEAD's " + path);
  // Tree order is byte order but for folders (compared as "name/"): a
  // folder of files alone is sorted already.
  const auto by_path = [](const Blob& a, const Blob& b) { return a.path < b.path; };
  if (!std::is_sorted(out.begin(), out.end(), by_path)) std::sort(out.begin(), out.end(), by_path);
  return out;
}

// The index items `spec` covers: one path, or every path below a folder.
std::pair<std::size_t, std::size_t> items_of(const IndexListing& index, const std::string& spec) {
  const bool folder = !spec.empty() && spec.back() == '/';
  const auto less = [&index](const IndexListing::Item& item, std::string_view key) { return index.path(item) < key; };
  const auto first = std::lower_bound(index.items.begin(), index.items.end(), std::string_view(spec), less);
  auto last = first;
  if (folder) {
    // Every path below "dir/" sorts before "dir0" ('0' follows '/').
    std::string past = spec;
    past.back() = '/' + 1;
    last = std::lower_bound(first, index.items.end(), std::string_view(past), less);
  } else if (last != index.items.end() && index.path(*last) == spec) {
    ++last;
  }
  return {static_cast<std::size_t>(first - index.items.begin()), static_cast<std::size_t>(last - index.items.begin())};
}

bool indexed(const IndexListing& index, std::string_view path) {
  const auto less = [&index](const IndexListing::Item& item, std::string_view key) { return index.path(item) < key; };
  const auto at = std::lower_bound(index.items.begin(), index.items.end(), path, less);
  return at != index.items.end() && index.path(*at) == path;
}

// What stat data tells of a file or folder being the same one, unchanged
// (see UncommittedScan's memo).
struct Stamp {
  std::uint64_t dev = 0;
  std::uint64_t ino = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_s = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_s = 0;
  std::int64_t ctime_ns = 0;
  bool operator==(const Stamp&) const = default;
};

Stamp stamp_of(const struct stat& st) {
  return Stamp{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
               static_cast<std::uint64_t>(st.st_size), st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
               st.st_ctim.tv_sec, st.st_ctim.tv_nsec};
}

// Whether a folder's modification and change times are both `settled`
// behind `now`: a change to its entries from now on gives it other times.
bool settled_at(const struct stat& st, const struct timespec& now, std::chrono::nanoseconds settled) {
  const auto ns = [](const struct timespec& t) {
    return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
  };
  const auto limit = ns(now) - settled;
  return ns(st.st_mtim) < limit && ns(st.st_ctim) < limit;
}

// The memo (status.hpp) as read and written: a text of lines, the
// pathspecs it is for first.
//   ledgergate-uncommitted-memo 1
//   spec PATHSPEC                       (each, in order)
//   index STAMP CHECKSUM VERSION COUNT BEGIN END FIRST LAST EXTENSIONS KEPT
//   folder SPEC# STAMP FILES            (each folder pathspec counted)
// STAMP: device inode size mtime-s mtime-ns ctime-s ctime-ns.
struct Memo {
  struct Index {
    Stamp stamp;
    IndexSpan span;
    std::uint64_t kept = 0;  // the entries read_index_stat kept
  };
  struct Folder {
    Stamp stamp;
    std::uint64_t files = 0;
  };
  std::vector<std::string> pathspecs;
  std::optional<Index> index;
  std::vector<std::optional<Folder>> folders;  // by pathspec

  // The count of the folder pathspec `spec` when the memo's is of a
  // folder with this stamp.
  const Folder* folder(std::size_t spec, const Stamp& stamp) const {
    const std::optional<Folder>& f = folders[spec];
    return f && f->stamp == stamp ? &*f : nullptr;
  }

  std::string encode() const;
  // nullopt for a text that is not a memo of this version for `specs`.
  static std::optional<Memo> decode(std::string_view text, const std::vector<std::string>& specs);
};

constexpr std::string_view k_memo_head = "ledgergate-uncommitted-memo 1";
constexpr std::size_t k_stamp_words = 7;

void put_stamp(std::string& out, const Stamp& s) {
  for (const std::uint64_t v : {s.dev, s.ino, s.size}) out += ' ' + std::to_string(v);
  for (const std::int64_t v : {s.mtime_s, s.mtime_ns, s.ctime_s, s.ctime_ns}) out += ' ' + std::to_string(v);
}

std::string Memo::encode() const {
  std::string out(k_memo_head);
  out += '\n';
  for (const std::string& spec : pathspecs) out += "spec " + spec + "\n";
  if (index) {
    const IndexSpan& s = index->span;
    out += "index";
    put_stamp(out, index->stamp);
    out += ' ' + s.checksum.hex();
    for (const std::uint64_t v : {std::uint64_t{s.version}, std::uint64_t{s.count}, s.begin, s.end,
                                  std::uint64_t{s.first}, std::uint64_t{s.last}, s.extensions, index->kept}) {
      out += ' ' + std::to_string(v);
    }
    out += '\n';
  }
  for (std::size_t spec = 0; spec < folders.size(); ++spec) {
    if (!folders[spec]) continue;
    out += "folder " + std::to_string(spec);
    put_stamp(out, folders[spec]->stamp);
    out += ' ' + std::to_string(folders[spec]->files) + '\n';
  }
  return out;
}

// The number `word` spells whole, into `v`.
template <class T>
bool read_number(std::string_view word, T& v) {
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  return ec == std::errc() && end == word.data() + word.size();
}

// A stamp from its k_stamp_words words.
bool read_stamp(std::span<const std::string_view> w, Stamp& s) {
  return read_number(w[0], s.dev) && read_number(w[1], s.ino) && read_number(w[2], s.size) &&
         read_number(w[3], s.mtime_s) && read_number(w[4], s.mtime_ns) && read_number(w[5], s.ctime_s) &&
         read_number(w[6], s.ctime_ns);
}

// An "index" line's words after its first.
std::optional<Memo::Index> read_index_line(std::span<const std::string_view> w) {
  Memo::Index index;
  IndexSpan& s = index.span;
  if (w.size() != k_stamp_words + 9 || !read_stamp(w, index.stamp)) return std::nullopt;
  w = w.subspan(k_stamp_words);
  const std::optional<ObjectId> checksum = ObjectId::from_hex(w[0]);
  if (!checksum || !read_number(w[1], s.version) || !read_number(w[2], s.count) || !read_number(w[3], s.begin) ||
      !read_number(w[4], s.end) || !read_number(w[5], s.first) || !read_number(w[6], s.last) ||
      !read_number(w[7], s.extensions) || !read_number(w[8], index.kept)) {
    return std::nullopt;
  }
  s.checksum = *checksum;
  return index;
}

std::optional<Memo> Memo::decode(std::string_view text, const std::vector<std::string>& specs) {
  Memo memo;
  memo.folders.resize(specs.size());
  std::size_t at = 0;
  bool head = false;
  while (at < text.size()) {
    const std::size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) return std::nullopt;
    const std::string_view line = text.substr(at, nl - at);
    at = nl + 1;
    if (!head) {
      if (line != k_memo_head) return std::nullopt;
      head = true;
      continue;
    }
    if (line.starts_with("spec ")) {
      memo.pathspecs.emplace_back(line.substr(5));
      continue;
    }
    const std::vector<std::string_view> words = util::split_words(line);
    const std::span<const std::string_view> rest = std::span(words).subspan(words.empty() ? 0 : 1);
    if (!words.empty() && words[0] == "index" && !memo.index) {
      memo.index = read_index_line(rest);
      if (!memo.index) return std::nullopt;
      continue;
    }
    std::size_t spec = 0;
    Folder folder;
    if (words.empty() || words[0] != "folder" || rest.size() != k_stamp_words + 2 || !read_number(rest[0], spec) ||
        spec >= specs.size() || memo.folders[spec] || !read_stamp(rest.subspan(1), folder.stamp) ||
        !read_number(rest[k_stamp_words + 1], folder.files)) {
      return std::nullopt;
    }
    memo.folders[spec] = folder;
  }
  if (!head || memo.pathspecs != specs) return std::nullopt;
  return memo;
}

// lstat of working files by their paths in the index, each relative to its
// folder held open (the index lists a folder's files one after another), so
// that the path above them is not looked up again for each. A path is the
// index's: the NUL after it is read (IndexListing::paths), so that its name
// is handed to the system where it lies.
class FolderStat {
 public:
  explicit FolderStat(std::string workdir) : m_workdir(std::move(workdir)) {}
  // False when the file cannot be stat-ed; errno says why (ENOENT or
  // ENOTDIR: it, or its folder, is missing).
  bool lstat(std::string_view path, struct stat& st) {
    const char* const data = path.data();
    const auto* slash = static_cast<const char*>(::memrchr(data, '/', path.size()));
    const std::size_t folder = slash ? static_cast<std::size_t>(slash - data) : 0;
    if (!m_open || folder != m_folder.size() || std::memcmp(data, m_folder.data(), folder) != 0) {
      m_folder.assign(data, folder);
      m_open = true;
      m_fd = util::Fd(::open((m_workdir + m_folder).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
      m_errno = errno;
    }
    if (m_fd.get() < 0) {
      errno = m_errno;
      return false;
    }
    return ::fstatat(m_fd.get(), slash ? slash + 1 : data, &st, AT_SYMLINK_NOFOLLOW) == 0;
  }

 private:
  std::string m_workdir;
  std::string m_folder;
  bool m_open = false;
  util::Fd m_fd;
  int m_errno = 0;  // why the folder did not open
};

// Whether the working file is of the kind the entry records (a regular
// file, with the same executable bit), so that its content decides.
bool same_kind(std::uint32_t mode, const struct stat& st) {
  if (!S_ISREG(st.st_mode)) return false;
  return mode == 0100755 ? (st.st_mode & S_IXUSR) != 0 : mode == 0100644 && (st.st_mode & S_IXUSR) == 0;
}

// Whether the working file's lstat data is what git recorded for the
// entry, and git could vouch for it: a file modified in the same instant
// the index was written ("racily clean", git's racy-git rule) is not.
bool stat_clean(const IndexStat& s, std::uint32_t mode, const struct stat& st, const struct timespec& index_mtime) {
  if (s.flagged) return false;
  if (mode == 0120000 ? !S_ISLNK(st.st_mode) : !same_kind(mode, st)) return false;
  if (s.size != static_cast<std::uint32_t>(st.st_size)) return false;
  if (s.mtime_s != static_cast<std::uint32_t>(st.st_mtim.tv_sec) ||
      s.mtime_ns != static_cast<std::uint32_t>(st.st_mtim.tv_nsec)) {
    return false;
  }
  if (s.ctime_s != static_cast<std::uint32_t>(st.st_ctim.tv_sec) ||
      s.ctime_ns != static_cast<std::uint32_t>(st.st_ctim.tv_nsec)) {
    return false;
  }
  if (s.ino != static_cast<std::uint32_t>(st.st_ino)) return false;
  // Racily clean: written no earlier than the index itself.
  return std::tie(st.st_mtim.tv_sec, st.st_mtim.tv_nsec) < std::tie(index_mtime.tv_sec, index_mtime.tv_nsec);
}

// What a folder's listing found of the folder itself.
struct Listed {
  std::uint64_t files = 0;  // entries that are not folders
  bool folders = false;     // it holds a folder
  bool read = false;        // the listing was read (not only counted from a memo)
};

// Adds to `doubt` every file below the folder `rel` (no trailing slash) of
// the working tree `dir` that the index does not hold. Each of the index's
// files is known to be there (an lstat found it, or it is in doubt
// already), so a folder with as many files as the index lists in it holds
// no other: its names are looked up only when the counts differ. `known`:
// the folder's count of files a memo vouches for, a folder that holds no
// folder (then it is not listed unless the counts differ).
Listed unindexed_below(int dir, const std::string& rel, const IndexListing& index, std::vector<std::string>& doubt,
                       std::optional<std::uint64_t> known = std::nullopt) {
  Listed listed_here;
  DIR* d = ::fdopendir(dir);
  if (!d) {
    ::close(dir);
    return listed_here;
  }
  // Each entry: a file is handed to `file`, a folder walked when `walk`.
  const auto each = [&](bool walk, const auto& file) {
    while (const dirent* e = ::readdir(d)) {
      const std::string_view name = e->d_name;
      if (name == "." || name == "..") continue;
      unsigned char type = e->d_type;
      if (type == DT_UNKNOWN) {
        struct stat st {};
        if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
      }
      if (type != DT_DIR) {
        file(name);
      } else if (walk) {
        listed_here.folders = true;
        const int sub = ::openat(::dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub >= 0) unindexed_below(sub, rel + "/" + std::string(name), index, doubt);
      }
    }
  };
  // The files are counted (or their count is known); their names are
  // looked up only when the counts below differ (the folder is then read
  // again).
  std::uint64_t files = 0;
  if (known) {
    files = *known;
  } else {
    each(true, [&files](std::string_view) { ++files; });
    listed_here.read = true;
  }
  listed_here.files = files;
  // The index's files directly in the folder (a submodule's folder aside:
  // then every name is looked up).
  const std::string prefix = rel + "/";
  const auto [first, last] = items_of(index, prefix);
  std::size_t listed = 0;
  bool submodule = false;
  for (std::size_t i = first; i < last; ++i) {
    const std::string_view path = index.path(index.items[i]);
    if (path.find('/', prefix.size()) != std::string_view::npos) continue;
    ++listed;
    submodule = submodule || index.items[i].mode == 0160000;
  }
  if (listed != files || submodule) {
    ::rewinddir(d);
    each(false, [&](std::string_view name) {
      std::string path = prefix + std::string(name);
      if (!indexed(index, path)) doubt.push_back(std::move(path));
    });
  }
  ::closedir(d);
  return listed_here;
}

// The id of the tree git would write for the index items from `i` on
// below the folder that is their first `at` bytes (its trailing slash
// included), `i` advanced past them: each subfolder's tree written and
// hashed first, as git's cache-tree does. `bytes` is one buffer for every
// level (a folder's entries are written after its parent's, hashed, and
// cut off), so no path is copied. git's tree order (a folder's name
// compared as if it ended in '/') is the index's order of the full paths.
// Only a hash: it needs no repository, and runs on the reading thread.
git_oid index_tree_id(const IndexListing& index, std::size_t& i, std::size_t last, std::size_t at, std::string& bytes) {
  const std::size_t base = bytes.size();
  const std::string_view folder = index.path(index.items[i]).substr(0, at);
  while (i < last) {
    const IndexListing::Item& item = index.items[i];
    const std::string_view path = index.path(item);
    if (path.size() <= at || path.compare(0, at, folder) != 0) break;
    const std::string_view rest = path.substr(at);
    const std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos) {
      append_tree_entry(bytes, item.mode, rest, item.id.bytes());
      ++i;
      continue;
    }
    const git_oid sub = index_tree_id(index, i, last, at + slash + 1, bytes);
    append_tree_entry(bytes, GIT_FILEMODE_TREE, rest.substr(0, slash), sub.id);
  }
  git_oid id{};
  git_odb_hash(&id, bytes.data() + base, bytes.size() - base, GIT_OBJECT_TREE);
  bytes.resize(base);
  return id;
}

// For each folder pathspec ("dir/") the index holds entries under, the
// tree a commit of the index would have there: the one git's cache-tree
// records when its entry is valid (a commit leaves every folder's entry
// valid; staging below a folder invalidates it), else the one its entries
// make (index_tree_id). nullopt for a path and for a folder with no entry.
std::vector<std::optional<ObjectId>> index_folder_trees(const IndexListing& index,
                                                        const std::vector<std::string>& pathspecs) {
  std::vector<std::optional<ObjectId>> out(pathspecs.size());
  std::string bytes;
  for (std::size_t s = 0; s < pathspecs.size(); ++s) {
    const std::string& spec = pathspecs[s];
    if (spec.empty() || spec.back() != '/') continue;
    auto [first, last] = items_of(index, spec);
    if (first == last) continue;
    out[s] = index.cache_tree.empty() ? std::nullopt
                                      : cached_tree_id(index.cache_tree, std::string_view(spec).substr(0, spec.size() - 1));
    if (!out[s]) out[s] = from_git(index_tree_id(index, first, last, spec.size(), bytes));
  }
  return out;
}

// Whether HEAD's `root` has the tree `tree` at the folder `spec` ("dir/").
Result<bool> head_has_tree(git_tree* root, const std::string& spec, const ObjectId& tree) {
  if (!root) return false;
  const std::string path = spec.substr(0, spec.size() - 1);
  git_tree_entry* raw = nullptr;
  const int rc = git_tree_entry_bypath(&raw, root, path.c_str());
  if (rc == GIT_ENOTFOUND) return false;
  if (rc < 0) return libgit2_error(rc, "reading HEAD's " + path);
  const TreeEntryPtr entry(raw);
  return git_tree_entry_type(entry.get()) == GIT_OBJECT_TREE && from_git(*git_tree_entry_id(entry.get())) == tree;
}

// Staged: the index against HEAD under `spec`, by path, mode and id. A
// folder whose tree the index would commit (`tree`: index_folder_trees)
// is HEAD's is the same, and HEAD's side of it is not read; else HEAD's
// entries there are listed and compared.
Result<bool> staged_differs(git_tree* head, const IndexListing& index, const std::string& spec, std::size_t first,
                            std::size_t last, const std::optional<ObjectId>& tree) {
  if (tree) {
    LG_TRY(const bool same, head_has_tree(head, spec, *tree));
    if (same) return false;
  }
  LG_TRY(const std::vector<Blob> committed, head_blobs(head, spec));
  if (committed.size() != last - first) return true;
  for (std::size_t i = first; i < last; ++i) {
    const IndexListing::Item& item = index.items[i];
    const Blob& b = committed[i - first];
    if (index.path(item) != b.path || item.mode != b.mode || item.id != b.id) return true;
  }
  return false;
}

// What an lstat of an entry's working file tells before its content is
// read: the same as git recorded, gone, one only libgit2 can judge (a
// submodule, another kind of file, an unreadable one, or an entry git
// does not compare by stat), or one to hash.
enum class Seen : unsigned char { clean, deleted, doubt, hash };

Seen look(const IndexListing& index, std::size_t i, FolderStat& folders, const struct timespec& index_mtime) {
  const IndexListing::Item& item = index.items[i];
  if (item.mode == 0160000) return Seen::doubt;
  struct stat st {};
  if (!folders.lstat(index.path(item), st)) {
    return errno == ENOENT || errno == ENOTDIR ? Seen::deleted : Seen::doubt;
  }
  if (stat_clean(index.stats[i], item.mode, st, index_mtime)) return Seen::clean;
  if (!same_kind(item.mode, st) || index.stats[i].flagged) return Seen::doubt;
  return Seen::hash;
}

// The working tree's side of the ledger paths, looked at ahead of the
// questions on worker threads: each index entry's lstat, in chunks of
// k_chunk entries, and the files below each folder pathspec that the index
// does not hold. Nothing here goes through libgit2 (a repository handle
// serves one thread at a time): hashing a file and the ignore rules stay
// with the caller, which asks in the order a single thread would.
class WorkingScan {
 public:
  static constexpr std::size_t k_chunk = 256;
  // Below this many entries no thread is started: the lstats save less
  // than a thread costs.
  static constexpr std::size_t k_threads_from = 1024;

  WorkingScan(std::string workdir, const IndexListing& index, const std::vector<std::string>& pathspecs,
              const struct timespec& index_mtime, unsigned threads, const Memo* memo,
              std::chrono::nanoseconds settled)
      : m_workdir(std::move(workdir)),
        m_index(index),
        m_pathspecs(pathspecs),
        m_index_mtime(index_mtime),
        m_memo(memo),
        m_settled(settled),
        m_seen(index.items.size()),
        m_unindexed(pathspecs.size()),
        m_counted(pathspecs.size()),
        m_asked(pathspecs.size(), false),
        m_task_of(pathspecs.size(), k_none) {
    // The folders' listings first: each is one task, the longest ones.
    for (std::size_t s = 0; s < pathspecs.size(); ++s) {
      if (!pathspecs[s].empty() && pathspecs[s].back() == '/') {
        m_task_of[s] = m_listings.size();
        m_listings.push_back(s);
      }
    }
    const std::size_t chunks = (index.items.size() + k_chunk - 1) / k_chunk;
    const unsigned workers = index.items.size() < k_threads_from ? 1 : util::worker_count(threads);
    m_tasks.emplace(m_listings.size() + chunks, [this](std::size_t t) { run(t); }, workers - 1);
  }

  // Looks at the working files here too, until every chunk is taken.
  void help() { m_tasks->help(); }
  // Takes no further chunk but the ones asked for.
  void stop() { m_tasks->stop(); }

  Seen seen(std::size_t i) {
    m_tasks->need(m_listings.size() + i / k_chunk);
    return m_seen[i];
  }
  // The files below the folder pathspec `spec` (its place in the
  // pathspecs) that the index does not hold.
  const std::vector<std::string>& unindexed(std::size_t spec) {
    m_tasks->need(m_task_of[spec]);
    m_asked[spec] = true;
    return m_unindexed[spec];
  }
  // The file count of the folder pathspec `spec` for the memo, once
  // unindexed(spec) was asked: the memo's, or the listing's when the
  // folder holds no folder and had settled (nullopt otherwise).
  std::optional<Memo::Folder> counted(std::size_t spec) const {
    return m_asked[spec] ? m_counted[spec] : std::nullopt;
  }

 private:
  static constexpr std::size_t k_none = static_cast<std::size_t>(-1);

  void run(std::size_t task) {
    if (task < m_listings.size()) {
      list(m_listings[task]);
      return;
    }
    const std::size_t first = (task - m_listings.size()) * k_chunk;
    const std::size_t last = std::min(first + k_chunk, m_index.items.size());
    FolderStat folders{m_workdir};
    for (std::size_t i = first; i < last; ++i) m_seen[i] = look(m_index, i, folders, m_index_mtime);
  }

  // The folder pathspec `s`'s listing: its files the index does not hold,
  // and its file count for the memo.
  void list(std::size_t s) {
    const std::string rel = m_pathspecs[s].substr(0, m_pathspecs[s].size() - 1);
    const std::string path = m_workdir + rel;
    const int dir = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir < 0) return;
    struct stat before {};
    struct timespec now {};
    const bool stamped = ::fstat(dir, &before) == 0 && ::clock_gettime(CLOCK_REALTIME, &now) == 0;
    const Memo::Folder* known = stamped && m_memo ? m_memo->folder(s, stamp_of(before)) : nullptr;
    const Listed listed = unindexed_below(dir, rel, m_index, m_unindexed[s],
                                          known ? std::optional<std::uint64_t>(known->files) : std::nullopt);
    if (known) {
      m_counted[s] = *known;
      return;
    }
    // A count is kept of a folder that holds no folder (a subfolder's files
    // are its own listing's), that had settled before it was read, and
    // that was the same folder, unchanged, after.
    struct stat after {};
    if (!stamped || !listed.read || listed.folders || !settled_at(before, now, m_settled) ||
        ::lstat(path.c_str(), &after) != 0 || !(stamp_of(after) == stamp_of(before))) {
      return;
    }
    m_counted[s] = Memo::Folder{stamp_of(before), listed.files};
  }

  std::string m_workdir;
  const IndexListing& m_index;
  const std::vector<std::string>& m_pathspecs;
  struct timespec m_index_mtime;
  const Memo* m_memo;  // the memo given (null: none)
  std::chrono::nanoseconds m_settled;
  std::vector<Seen> m_seen;                            // each entry's, once its chunk has run
  std::vector<std::vector<std::string>> m_unindexed;  // each folder pathspec's, once listed
  std::vector<std::optional<Memo::Folder>> m_counted;  // each folder pathspec's, once listed
  std::vector<bool> m_asked;                           // unindexed(spec) was asked (the consumer's)
  std::vector<std::size_t> m_task_of;                  // each pathspec's listing task
  std::vector<std::size_t> m_listings;                 // the pathspec of each listing task
  std::optional<util::Tasks> m_tasks;                  // last: joined before the rest goes
};

// Unstaged: each working file of the entries [first, last) against the stat
// data of its entry; a file whose stat data differs is hashed as git would
// store it (its filters applied) and compared by id. What only libgit2 can
// judge goes to `doubt`.
Result<bool> unstaged_differs(const Repository& repo, const IndexListing& index, std::size_t first, std::size_t last,
                              WorkingScan& scan, std::vector<std::string>& doubt) {
  for (std::size_t i = first; i < last; ++i) {
    const std::string_view path = index.path(index.items[i]);
    switch (scan.seen(i)) {
      case Seen::clean:
        continue;
      case Seen::deleted:
        return true;
      case Seen::doubt:
        doubt.emplace_back(path);
        continue;
      case Seen::hash:
        break;
    }
    git_oid oid;
    const std::string name(path);
    if (const int rc = git_repository_hashfile(&oid, repo.raw(), name.c_str(), GIT_OBJECT_BLOB, nullptr); rc < 0) {
      return libgit2_error(rc, "reading " + name);
    }
    if (from_git(oid) != index.items[i].id) return true;
  }
  return false;
}

// Untracked: the files the pathspecs[spec] names that the index does not
// hold (`indexed`: whether it holds any entry there) and the ignore rules
// do not ignore.
Result<bool> untracked_under(const Repository& repo, const std::vector<std::string>& pathspecs, std::size_t spec,
                             bool indexed, WorkingScan& scan) {
  const std::string& path_spec = pathspecs[spec];
  const bool folder = !path_spec.empty() && path_spec.back() == '/';
  std::vector<std::string> single;
  struct stat st {};
  if (!folder && !indexed && ::lstat((repo.workdir() + path_spec).c_str(), &st) == 0) single.push_back(path_spec);
  for (const std::string& path : folder ? scan.unindexed(spec) : single) {
    int ignored = 0;
    if (const int rc = git_ignore_path_is_ignored(&ignored, repo.raw(), path.c_str()); rc < 0) {
      return libgit2_error(rc, "reading the ignore rules for " + path);
    }
    if (!ignored) return true;
  }
  return false;
}

}  // namespace

// The working tree's side of the question: git's index file as it lies,
// and then the working files (WorkingScan), read by has_uncommitted_changes
// itself or ahead of it on a thread of its own (UncommittedScan).
struct UncommittedScan::State {
  std::vector<std::string> pathspecs;
  unsigned threads = 1;
  std::size_t max_files = static_cast<std::size_t>(-1);
  bool over_bound = false;  // the index holds more than max_files entries under the pathspecs
  std::string index_path;
  std::string workdir;
  bool index_seen = false;  // the index file's stat data is in index_st
  struct stat index_st {};
  std::optional<IndexListing> index;
  std::optional<WorkingScan> scan;  // when the index was read, with no unmerged path
  std::vector<std::optional<ObjectId>> folder_trees;  // with `scan`: index_folder_trees
  std::string memo_text;               // the memo given
  std::optional<Memo> memo;            // it, read, when it is one for these pathspecs
  std::optional<Memo::Index> index_memo;  // this read's: the memo's, or what a whole read found
  std::chrono::nanoseconds settled = k_folder_settled;
  // Ahead of the question: the thread reading, and the end of its read
  // (the fields above are then set). Whichever of it and the question
  // comes first reads the index: a thread not yet run is never waited for.
  std::thread reader;
  std::atomic<bool> claimed{false};
  bool asked = false;  // the question claimed the read (the asking thread's)
  std::promise<void> read_promise;
  std::future<void> read = read_promise.get_future();

  State(const Repository& repo, std::vector<std::string> specs, unsigned thread_setting)
      : pathspecs(std::move(specs)),
        threads(thread_setting),
        index_path(repo.index_path()),
        workdir(repo.workdir()) {}
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() {
    if (!reader.joinable()) return;
    if (!asked && !claimed.exchange(true)) {  // never asked, never read: the reader stops at once
      reader.join();
      return;
    }
    if (!asked) read.wait();
    if (scan) scan->stop();
    reader.join();
  }

  // The reader thread: the index, then the working files beside the
  // other threads, unless the question came first.
  void read_ahead() {
    if (claimed.exchange(true)) return;
    read_index();
    read_promise.set_value();
    if (scan) scan->help();
  }

  // The index's entries under the pathspecs: the memo's span of them when
  // it describes this index file (found by the stat data of the file
  // opened, and its checksum), else the whole file, its span kept.
  void read_entries() {
    if (const Memo::Index* known = memo_for(index_st)) {
      const Stamp stamp = known->stamp;
      index = read_index_stat_span(index_path, pathspecs, known->span,
                                   [&stamp](const struct stat& opened) { return stamp_of(opened) == stamp; });
      if (index && index->items.size() == known->kept) {
        index_memo = *known;
        return;
      }
    }
    IndexSpan span;
    struct stat opened {};
    index = read_index_stat(index_path, pathspecs, span, opened);
    if (index && span.version != 0) index_memo = Memo::Index{stamp_of(opened), span, index->items.size()};
  }

  // The question's side: the index read here when the reader has not
  // started, else its read waited for.
  void take_read() {
    if (!reader.joinable()) {
      if (!index_seen) read_index();
    } else if (!claimed.exchange(true)) {
      asked = true;
      read_index();
    } else if (!asked) {
      read.wait();
    }
  }

  // The memo's index part, when `st` is the stat data of the index it
  // describes.
  const Memo::Index* memo_for(const struct stat& st) const {
    return memo && memo->index && memo->index->stamp == stamp_of(st) ? &*memo->index : nullptr;
  }
  // Whether that part says the index holds more ledger entries than the
  // bound: then no working file is looked at, and the index is not read.
  bool over_bound_by_memo(const struct stat& st) const {
    const Memo::Index* known = memo_for(st);
    return known && known->kept > max_files;
  }
  // The index's entries under the pathspecs, once read or known.
  std::size_t files() const { return index ? index->items.size() : index_memo ? index_memo->kept : 0; }

  void read_index() {
    // The index's own time, taken before it is read: an index rewritten
    // meanwhile is newer, which only makes more files racy.
    if (::stat(index_path.c_str(), &index_st) != 0) return;
    index_seen = true;
    if (over_bound_by_memo(index_st)) {
      index_memo = memo->index;
      over_bound = true;
      return;
    }
    read_entries();
    over_bound = index && index->items.size() > max_files;
    if (!index || index->unmerged || over_bound) return;
    scan.emplace(workdir, *index, pathspecs, index_st.st_mtim, threads, memo ? &*memo : nullptr, settled);
    // The folders' trees hashed while the scan's workers look at the
    // working files (and, ahead, while the check reads HEAD's tree).
    folder_trees = index_folder_trees(*index, pathspecs);
  }
};

namespace {

// The fast answer from `st` (its index read); nullopt when the index file
// is one this reader declines or has unmerged paths (libgit2 answers those).
Result<std::optional<bool>> from_index_stat(const Repository& repo, UncommittedScan::State& st) {
  st.take_read();
  if (!st.index_seen || !st.index || st.index->unmerged) return std::optional<bool>{};
  const IndexListing& index = *st.index;
  const std::vector<std::string>& pathspecs = st.pathspecs;
  // The working files are being looked at on the scan's threads while
  // HEAD's side is read here.
  TreePtr head;
  if (!repo.head_unborn()) {
    LG_TRY(const ObjectId commit, repo.resolve_commit("HEAD"));
    LG_TRY(const ObjectId tree, repo.commit_tree(commit));
    LG_TRY(head, lookup_tree(repo, tree));
  }
  std::vector<std::string> doubt;
  for (std::size_t s = 0; s < pathspecs.size(); ++s) {
    const auto [first, last] = items_of(index, pathspecs[s]);
    LG_TRY(const bool staged, staged_differs(head.get(), index, pathspecs[s], first, last, st.folder_trees[s]));
    if (staged) return std::optional<bool>{true};
    LG_TRY(const bool unstaged, unstaged_differs(repo, index, first, last, *st.scan, doubt));
    if (unstaged) return std::optional<bool>{true};
    LG_TRY(const bool untracked, untracked_under(repo, pathspecs, s, first != last, *st.scan));
    if (untracked) return std::optional<bool>{true};
  }
  if (doubt.empty()) return std::optional<bool>{false};
  LG_TRY(const bool dirty, libgit2_status(repo, doubt, true));
  return std::optional<bool>{dirty};
}

Result<bool> answer(const Repository& repo, UncommittedScan::State& st) {
  LG_TRY(const std::optional<bool> fast, from_index_stat(repo, st));
  if (fast) return *fast;
  return libgit2_status_each(repo, st.pathspecs);
}

Result<Uncommitted> bounded_answer(const Repository& repo, UncommittedScan::State& st) {
  st.take_read();
  if (st.over_bound) return Uncommitted::not_looked;
  LG_TRY(const bool dirty, answer(repo, st));
  return dirty ? Uncommitted::changed : Uncommitted::none;
}

}  // namespace

UncommittedScan::UncommittedScan(const Repository& repo, std::vector<std::string> pathspecs, ScanOptions options) {
  if (repo.is_bare()) return;
  m_state = std::make_unique<State>(repo, std::move(pathspecs), options.threads);
  State& st = *m_state;
  st.max_files = options.max_files;
  st.settled = options.settled;
  st.memo_text = std::move(options.memo);
  if (!st.memo_text.empty()) st.memo = Memo::decode(st.memo_text, st.pathspecs);
  struct stat index_st {};
  if (::stat(st.index_path.c_str(), &index_st) != 0 ||
      static_cast<std::uint64_t>(index_st.st_size) < options.threads_from) {
    st.threads = 1;  // a small index: the question is asked on one thread
    return;
  }
  if (st.over_bound_by_memo(index_st)) return;  // nothing to read ahead
  if (util::worker_count(options.threads) < 2) return;
  st.reader = std::thread([&st] { st.read_ahead(); });
}

UncommittedScan::UncommittedScan(UncommittedScan&&) noexcept = default;
UncommittedScan& UncommittedScan::operator=(UncommittedScan&&) noexcept = default;
UncommittedScan::~UncommittedScan() = default;

std::optional<ObjectId> index_folder_tree(const IndexListing& index, const std::string& folder) {
  if (folder.empty() || folder.back() != '/') return std::nullopt;
  auto [first, last] = items_of(index, folder);
  if (first == last) return std::nullopt;
  std::string bytes;
  return from_git(index_tree_id(index, first, last, folder.size(), bytes));
}

std::size_t UncommittedScan::files() const { return m_state ? m_state->files() : 0; }

std::optional<std::string> UncommittedScan::memo() const {
  if (!m_state || !m_state->index_seen) return std::nullopt;
  const State& st = *m_state;
  Memo out;
  out.pathspecs = st.pathspecs;
  out.index = st.index_memo;
  out.folders = st.memo ? st.memo->folders : std::vector<std::optional<Memo::Folder>>(st.pathspecs.size());
  bool counted = false;
  for (std::size_t s = 0; s < out.folders.size(); ++s) {
    if (st.scan) {
      if (std::optional<Memo::Folder> c = st.scan->counted(s)) out.folders[s] = c;
    }
    counted = counted || out.folders[s].has_value();
  }
  if (!out.index && !counted) return std::nullopt;
  std::string text = out.encode();
  if (text == st.memo_text) return std::nullopt;
  return text;
}

Result<Uncommitted> has_uncommitted_changes(const Repository& repo, UncommittedScan& ahead) {
  if (repo.is_bare() || !ahead.m_state) return Uncommitted::none;
  return bounded_answer(repo, *ahead.m_state);
}

Result<bool> has_uncommitted_changes(const Repository& repo, const std::vector<std::string>& pathspecs,
                                     unsigned threads) {
  if (repo.is_bare()) return false;
  UncommittedScan::State st(repo, pathspecs, threads);
  return answer(repo, st);
}

}  // namespace lg::git
