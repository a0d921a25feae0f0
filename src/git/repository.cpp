// Repository handle and revision resolution over libgit2.
#include "ledgergate/git/repository.hpp"

#include <git2/sys/repository.h>

#include <dirent.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "ledgergate/util/heap.hpp"
#include "libgit2.hpp"
#include "loose_guard.hpp"
#include "tree_memo.hpp"

namespace lg::git {

Libgit2Session::Libgit2Session() {
  git_libgit2_init();
  // A verdict is only ever about the objects a commit names. Loose objects
  // (written one by one, by any tool) are re-hashed on every read by the
  // loose guard (loose_guard.cpp): zlib's checksum does not catch a loose
  // file replaced by another valid stream. Packed objects are not, as git
  // does not: a pack's ids were computed from its objects' bytes when git
  // indexed it (index-pack on fetch and clone, pack-objects on gc), and
  // damage inside a pack fails zlib's checksum or the delta's sizes.
  // libgit2's own re-hash of every read (its default) was 40% of a trial
  // merge's instructions with a cached check (docs/robustness.md).
  git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
  // A commit or tree is written naming objects it read or wrote; libgit2's
  // check that each named object exists (a read of its header, which for
  // a deltified packed blob means resolving it) is not repeated.
  git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 0);
  // Map pack files in 2 MiB windows, at most 4 MiB at a time (libgit2's
  // defaults are 1 GiB windows and 8 GiB; mapped pages count in the peak
  // resident set, docs/performance.md):
  // reading every ledger blob of a large pack otherwise keeps the whole pack
  // resident, and peak memory grows with the repository, not the ledger. A
  // check's peak is in its projects pass, which reads 20,000 blobs across a
  // 181 MB pack at 20,000 projects: 4 and 8 MiB kept 8 MB of it resident,
  // 2 and 4 MiB 4 MB, in the same time (hyperfine: the cold check, the
  // change scope, the CI-cache trial merge); 1 MiB windows gave no less.
  git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, static_cast<std::size_t>(2) * 1024 * 1024);
  git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, static_cast<std::size_t>(4) * 1024 * 1024);
  // Objects are read once per check; a small decoded-object cache (default
  // 256 MiB per repository handle) is enough. Its size counts raw object
  // bytes, and a parsed tree costs some 2.5 times its raw size: a check's
  // walk of every tree of a 20,000-project tree (13 MB of trees) kept
  // 38 MB under a 16 MiB cap.
  git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, static_cast<ssize_t>(4) * 1024 * 1024);
  // libgit2 caches no tree over 4 KiB by default, so a ledger directory of
  // thousands of entries (projects/: 80 KiB at 2,000 projects, 800 KiB at
  // 20,000) was read, inflated, re-hashed and parsed again at every path
  // lookup below it (a trial merge looks up each changed path on three
  // sides). Trees up to 2 MiB are kept, within the cache's size above.
  // Larger ones are kept per repository handle (tree_memo.hpp).
  git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, k_cached_tree_limit);
  // Blobs stay uncached (libgit2's limit for them is 0): blob_bytes gives
  // the pages of a big blob's buffer back as it copies them, so a blob
  // object must never be handed out twice.
}
Libgit2Session::~Libgit2Session() { git_libgit2_shutdown(); }

void cap_object_cache(std::size_t bytes) {
  ssize_t cached = 0, allowed = 0;
  git_libgit2_opts(GIT_OPT_GET_CACHED_MEMORY, &cached, &allowed);
  if (allowed > static_cast<ssize_t>(bytes)) git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, static_cast<ssize_t>(bytes));
}

void tune_for_history_walk() {
  git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, static_cast<ssize_t>(0));
  git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, static_cast<std::size_t>(32) << 20);
  git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, static_cast<std::size_t>(8) << 20);
}

Error libgit2_error(int code) {
  const git_error* e = git_error_last();
  std::string message = (e && e->message) ? e->message : ("libgit2 error " + std::to_string(code));
  const ErrorKind kind = code == GIT_ENOTFOUND ? ErrorKind::not_found : ErrorKind::git;
  return Error{kind, std::move(message)};
}

Error libgit2_error(int code, std::string_view what) { return libgit2_error(code).with_context(what); }

namespace {

template <class Ptr, class T>
Result<Ptr> lookup_as(int (*lookup)(T**, git_repository*, const git_oid*), git_repository* repo,
                      const ObjectId& id) {
  const git_oid oid = to_git(id);
  T* raw = nullptr;
  if (const int rc = lookup(&raw, repo, &oid); rc < 0) return libgit2_error(rc);
  return Ptr(raw);
}

}  // namespace

Result<TreePtr> lookup_tree(git_repository* repo, const ObjectId& id) {
  LG_TRY(TreePtr tree, lookup_as<TreePtr>(git_tree_lookup, repo, id));
  if (auto names = check_tree_names(tree.get()); !names) return names.error();
  return tree;
}
Result<TreePtr> lookup_tree(const Repository& repo, const ObjectId& id) { return repo.trees().get(repo.raw(), id); }
Result<CommitPtr> lookup_commit(git_repository* repo, const ObjectId& id) {
  return lookup_as<CommitPtr>(git_commit_lookup, repo, id);
}
Result<BlobPtr> lookup_blob(git_repository* repo, const ObjectId& id) {
  return lookup_as<BlobPtr>(git_blob_lookup, repo, id);
}

std::string blob_bytes(BlobPtr blob) {
  const auto* data = static_cast<const char*>(git_blob_rawcontent(blob.get()));
  const auto size = static_cast<std::size_t>(git_blob_rawsize(blob.get()));
  if (size < k_give_back_from) return std::string(data, size);
  // Copied a piece at a time (reserve touches no page), each whole page of
  // the source behind the copy given back. Only pages wholly inside the
  // blob's bytes are: the allocator's bookkeeping lies outside them, and
  // nothing reads the bytes again before the blob is freed below.
  constexpr std::size_t k_piece = std::size_t{1} << 20;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(data);
  std::uintptr_t given = (start + page - 1) & ~(page - 1);  // the first whole page
  std::string out;
  out.reserve(size);
  for (std::size_t at = 0; at < size;) {
    const std::size_t n = std::min(k_piece, size - at);
    out.append(data + at, n);
    at += n;
    const std::uintptr_t copied = (start + at) & ~(page - 1);  // whole pages copied end here
    if (copied > given) {
      madvise(reinterpret_cast<void*>(given), copied - given, MADV_DONTNEED);
      given = copied;
    }
  }
  return out;
}

Result<ObjectId> peel_commit_id(git_object* obj, std::string_view name) {
  git_object* peeled = nullptr;
  if (const int rc = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT); rc < 0) {
    return libgit2_error(rc, std::string(name) + " is not a commit");
  }
  const ObjectPtr commit(peeled);
  return from_git(*git_object_id(commit.get()));
}

void Repository::Free::operator()(git_repository* repo) const noexcept { git_repository_free(repo); }

Repository::Repository(git_repository* repo) : m_repo(repo), m_trees(std::make_shared<TreeMemo>()) {}

Result<Repository> Repository::open(const std::string& path, bool discover) {
  git_repository* raw = nullptr;
  const unsigned flags = discover ? 0u : static_cast<unsigned>(GIT_REPOSITORY_OPEN_NO_SEARCH);
  const int rc = git_repository_open_ext(&raw, path.c_str(), flags, nullptr);
  if (rc == GIT_ENOTFOUND) {
    return make_error(ErrorKind::usage, "not a git repository: " + path);
  }
  if (rc < 0) return libgit2_error(rc, "opening repository " + path);
  Repository repo(raw);
  if (const int guard = guard_loose_reads(raw); guard < 0) return libgit2_error(guard, "opening the object database");
  repo.m_opened = true;
  return repo;
}

Result<Repository> Repository::init(const std::string& path) {
  git_repository* raw = nullptr;
  git_repository_init_options options;
  git_repository_init_options_init(&options, GIT_REPOSITORY_INIT_OPTIONS_VERSION);
  // As `git init`: the folder made when missing, HEAD on init.defaultBranch.
  options.flags = GIT_REPOSITORY_INIT_MKPATH | GIT_REPOSITORY_INIT_EXTERNAL_TEMPLATE;
  if (const int rc = git_repository_init_ext(&raw, path.c_str(), &options); rc < 0) {
    return libgit2_error(rc, "creating a repository in " + path);
  }
  Repository repo(raw);
  if (const int guard = guard_loose_reads(raw); guard < 0) return libgit2_error(guard, "opening the object database");
  repo.m_opened = true;
  return repo;
}

Result<Repository> Repository::open_from_environment() {
  // libgit2 reads GIT_DIR and the object directories from the environment,
  // but refuses GIT_WORK_TREE and GIT_COMMON_DIR: then GIT_DIR is honoured by
  // hand. GIT_INDEX_FILE is only recorded: libgit2 would read (and hash) the
  // whole index at open, which open_index_source does itself, and only when
  // a check of the index asks for it.
  const char* index_env = std::getenv("GIT_INDEX_FILE");
  std::string index_file = index_env ? index_env : "";
  Repository repo(nullptr);
  if (std::getenv("GIT_WORK_TREE") == nullptr && std::getenv("GIT_COMMON_DIR") == nullptr) {
    if (index_env) ::unsetenv("GIT_INDEX_FILE");
    git_repository* raw = nullptr;
    const int rc = git_repository_open_ext(&raw, nullptr, GIT_REPOSITORY_OPEN_FROM_ENV, nullptr);
    if (index_env) ::setenv("GIT_INDEX_FILE", index_file.c_str(), 1);
    if (rc == GIT_ENOTFOUND) return make_error(ErrorKind::usage, "not a git repository");
    if (rc < 0) return libgit2_error(rc, "opening the repository");
    repo = Repository(raw);
    if (const int guard = guard_loose_reads(raw); guard < 0) return libgit2_error(guard, "opening the object database");
    repo.m_opened = true;
  } else {
    const char* git_dir = std::getenv("GIT_DIR");
    LG_TRY(Repository opened, open(git_dir ? git_dir : ".", git_dir == nullptr));
    repo = std::move(opened);
    if (const char* work_tree = std::getenv("GIT_WORK_TREE")) {
      const int rc = git_repository_set_workdir(repo.raw(), work_tree, 0);
      if (rc < 0) return libgit2_error(rc, "using GIT_WORK_TREE");
    }
  }
  repo.m_index_file = std::move(index_file);
  repo.m_own_objects =
      std::getenv("GIT_OBJECT_DIRECTORY") == nullptr && std::getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES") == nullptr;
  return repo;
}

Result<void> close_object_database(git_repository* repo) {
  git_odb* empty_raw = nullptr;
  if (const int rc = git_odb_new(&empty_raw); rc < 0) return libgit2_error(rc, "creating an object database");
  const OdbPtr empty(empty_raw);
  if (const int rc = git_repository_set_odb(repo, empty.get()); rc < 0) {
    return libgit2_error(rc, "closing the object database");
  }
  return {};
}

Result<void> open_object_database(git_repository* repo, const std::string& common_dir) {
  git_odb* fresh_raw = nullptr;
  if (const int rc = git_odb_open(&fresh_raw, (common_dir + "objects").c_str()); rc < 0) {
    return libgit2_error(rc, "opening the object database");
  }
  const OdbPtr fresh(fresh_raw);
  if (const int rc = git_repository_set_odb(repo, fresh.get()); rc < 0) {
    return libgit2_error(rc, "opening the object database");
  }
  if (const int rc = guard_loose_reads(repo); rc < 0) return libgit2_error(rc, "opening the object database");
  return {};
}

Result<void> close_read_state(git_repository* repo) {
  if (auto r = close_object_database(repo); !r) return r.error();
  // The object cache goes too: a cold check's walk filled it to its cap
  // with trees none of which is read again.
  if constexpr (k_cleanup_frees_only_caches) {
    if (const int rc = git_repository__cleanup(repo); rc < 0) return libgit2_error(rc, "closing the object database");
  }
  return {};
}

Result<void> reopen_object_database(git_repository* repo) {
  if (auto r = close_read_state(repo); !r) return r.error();
  if (auto r = open_object_database(repo, git_repository_commondir(repo)); !r) return r.error();
  // Its caller, a cold check's walk, reads and parses every ledger next.
  // At 20,000 projects: `check HEAD --no-cache` 43.0-44.2 -> 39.8-40.6 MB
  // at the same time (hyperfine, 12 runs, 2-core Intel Xeon VM).
  util::give_back_freed_heap();
  return {};
}

std::string Repository::git_dir() const { return git_repository_path(m_repo.get()); }
std::string Repository::common_dir() const { return git_repository_commondir(m_repo.get()); }

bool Repository::is_bare() const { return git_repository_is_bare(m_repo.get()) == 1; }
bool Repository::is_shallow() const { return git_repository_is_shallow(m_repo.get()) == 1; }
bool Repository::head_unborn() const { return git_repository_head_unborn(m_repo.get()) == 1; }

std::string Repository::workdir() const {
  const char* wd = git_repository_workdir(m_repo.get());
  return wd ? wd : "";
}

namespace {

// The last `n` bytes of a file, or "" when it is shorter or cannot be read.
std::string file_tail(const std::string& path, std::size_t n) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::streamoff size = in.tellg();
  if (size < static_cast<std::streamoff>(n)) return "";
  std::string out(n, '\0');
  in.seekg(size - static_cast<std::streamoff>(n));
  if (!in.read(out.data(), static_cast<std::streamsize>(n))) return "";
  return out;
}

// What is wrong with the packs in `objects_dir`, when an object libgit2
// cannot find may be in one (libgit2 reports a pack it cannot use as the
// object not being there): a .idx without its .pack, a .idx that is not a
// version-2 index, a .pack whose trailing checksum is not the one its .idx
// records (truncated or overwritten). "" when every pack looks whole.
std::string damaged_packs(const std::string& objects_dir) {
  const std::string dir = objects_dir + "pack/";
  std::vector<std::string> idx_files;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".idx") == 0) idx_files.push_back(name);
    }
    ::closedir(d);
  }
  std::sort(idx_files.begin(), idx_files.end());
  constexpr std::size_t k_hash = 20;
  std::string out;
  for (const std::string& idx : idx_files) {
    const std::string base = idx.substr(0, idx.size() - 4);
    std::string problem;
    std::ifstream head(dir + idx, std::ios::binary);
    char magic[8] = {};
    const bool v2 = head.read(magic, sizeof magic) && std::memcmp(magic, "\377tOc\0\0\0\2", 8) == 0;
    const std::string idx_tail = file_tail(dir + idx, 2 * k_hash);
    if (!v2 || idx_tail.empty()) {
      problem = idx + " is not a pack index";
    } else if (::access((dir + base + ".pack").c_str(), F_OK) != 0) {
      problem = base + ".pack is missing (its .idx is there)";
    } else if (file_tail(dir + base + ".pack", k_hash) != idx_tail.substr(0, k_hash)) {
      problem = base + ".pack is truncated or damaged (its checksum is not the one " + idx + " records)";
    }
    if (!problem.empty()) out += (out.empty() ? "" : "; ") + ("objects/pack/" + problem);
  }
  return out;
}

}  // namespace

Result<ObjectId> Repository::resolve_commit(std::string_view rev) const {
  const std::string spec(rev);
  if (spec == "HEAD" && head_unborn()) {
    return make_error(ErrorKind::not_found, "HEAD has no commits yet (unborn branch)");
  }
  // A plain name (HEAD, a branch, a tag) is resolved here, so that an object
  // it names that cannot be read (missing, corrupt, in a damaged pack) is
  // reported with its id and libgit2's reason; libgit2 1.5's revparse also
  // leaks the reference on that path.
  git_reference* ref = nullptr;
  if (git_reference_dwim(&ref, m_repo.get(), spec.c_str()) == 0) {
    const ReferencePtr owned_ref(ref);
    git_reference* resolved = nullptr;
    if (const int rc = git_reference_resolve(&resolved, owned_ref.get()); rc < 0) {
      return libgit2_error(rc, "resolving revision '" + spec + "'");
    }
    const ReferencePtr owned_resolved(resolved);
    const git_oid* id = git_reference_target(owned_resolved.get());
    git_object* target = nullptr;
    if (const int rc = git_object_lookup(&target, m_repo.get(), id, GIT_OBJECT_ANY); rc < 0) {
      Error e = libgit2_error(rc).with_context("revision '" + spec + "' names object " + oid_hex(*id) +
                                               ", which cannot be read");
      if (rc == GIT_ENOTFOUND) {
        if (const std::string packs = damaged_packs(common_dir() + "objects/"); !packs.empty()) e.message += "; " + packs;
      }
      return e;
    }
    const ObjectPtr owned(target);
    return peel_commit_id(owned.get(), "'" + spec + "'");
  }
  git_object* obj = nullptr;
  if (const int rc = git_revparse_single(&obj, m_repo.get(), spec.c_str()); rc < 0) {
    const Error cause = libgit2_error(rc);
    // libgit2's own wording when no name matches ("revspec 'x' not found");
    // any other message (an object a suffix like ~1 reaches cannot be read,
    // a damaged pack) is the cause.
    const bool unknown_name = (rc == GIT_ENOTFOUND && cause.message.find("revspec '") != std::string::npos) ||
                              rc == GIT_EINVALIDSPEC;
    if (unknown_name) return make_error(ErrorKind::not_found, "unknown revision '" + spec + "'");
    return cause.with_context("resolving revision '" + spec + "'");
  }
  const ObjectPtr owned(obj);
  return peel_commit_id(owned.get(), "'" + spec + "'");
}

Result<ObjectId> Repository::commit_tree(const ObjectId& commit_id) const {
  auto commit = lookup_commit(m_repo.get(), commit_id);
  if (!commit) return commit.error().with_context("reading commit " + commit_id.hex());
  return from_git(*git_commit_tree_id(commit->get()));
}

}  // namespace lg::git
