// The trial-merge repository: the user's object database read-through, with
// writes caught by a mempack backend at priority 999. The disk backends lose
// their write and freshen entry points: libgit2 "freshens" an object it is
// asked to write and already has (it touches the loose file's or the pack's
// mtime instead of writing), so a trial merge that produced a blob or tree
// the user's repository holds would otherwise still touch .git.
#include "ledgergate/git/trial_repo.hpp"

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "ledgergate/git/objects.hpp"
#include "libgit2.hpp"
#include "loose_guard.hpp"

namespace lg::git {

namespace {

// The write entry point of libgit2's mempack backend (the same for every
// mempack): what tells a trial repository's in-memory store among an object
// database's backends.
std::atomic<decltype(git_odb_backend::write)> g_mempack_write{nullptr};

// Puts a mempack backend in front of `repo`'s object database and takes the
// write and freshen entry points from its disk backends; the mempack
// backend, which the object database owns.
Result<git_odb_backend*> arm_object_database(git_repository* repo) {
  git_odb* odb_raw = nullptr;
  int rc = git_repository_odb(&odb_raw, repo);
  if (rc < 0) return libgit2_error(rc, "opening the object database");
  OdbPtr odb(odb_raw);
  git_odb_backend* mempack_raw = nullptr;
  rc = git_mempack_new(&mempack_raw);
  if (rc < 0) return libgit2_error(rc, "creating the in-memory object store");
  const auto free_backend = [](git_odb_backend* b) { b->free(b); };
  std::unique_ptr<git_odb_backend, decltype(free_backend)> mempack(mempack_raw, free_backend);
  g_mempack_write.store(mempack->write);
  rc = git_odb_add_backend(odb.get(), mempack.get(), 999);
  if (rc < 0) return libgit2_error(rc, "attaching the in-memory object store");
  git_odb_backend* const in_memory = mempack.release();  // the odb owns the backend from here
  for (std::size_t i = 0; i < git_odb_num_backends(odb.get()); ++i) {
    git_odb_backend* backend = nullptr;
    rc = git_odb_get_backend(&backend, odb.get(), i);
    if (rc < 0) return libgit2_error(rc, "opening the object database");
    if (backend == in_memory) continue;
    backend->write = nullptr;
    backend->writestream = nullptr;
    backend->writepack = nullptr;
    backend->writemidx = nullptr;
    backend->freshen = nullptr;
  }
  return in_memory;
}

// An object read whole: its id, type and bytes.
struct HeldObject {
  git_oid id;
  git_object_t type;
  std::string data;
};

// The objects below `id` (itself included) that `in_memory` holds, read
// from it directly (the ids are the ones it stored them under); a tree the
// in-memory store lacks holds nothing it wrote. (persist's copy_missing
// asks the target instead, which here would be an object database opened
// while the old one still has the pack files, and their caches, open.)
Result<void> collect_written(git_odb_backend* in_memory, const git_oid& id, std::vector<HeldObject>& out) {
  if (!in_memory->exists(in_memory, &id)) return {};
  void* data = nullptr;
  std::size_t size = 0;
  git_object_t type = GIT_OBJECT_INVALID;
  if (const int rc = in_memory->read(&data, &size, &type, in_memory, &id); rc < 0) {
    return libgit2_error(rc, "reading " + oid_hex(id));
  }
  std::string bytes(static_cast<const char*>(data), size);
  git_odb_backend_data_free(in_memory, data);
  // A tree's entries: "<octal mode> <name>\0<20-byte id>", one after another.
  for (std::size_t at = 0; type == GIT_OBJECT_TREE && at < bytes.size();) {
    const std::size_t nul = bytes.find('\0', at);
    if (nul == std::string::npos || nul + 1 + GIT_OID_RAWSZ > bytes.size()) {
      return make_error(ErrorKind::git, "tree " + oid_hex(id) + " is malformed");
    }
    const bool submodule = bytes.compare(at, 7, "160000 ") == 0;  // a commit: no object here
    git_oid entry;
    std::memcpy(entry.id, bytes.data() + nul + 1, GIT_OID_RAWSZ);
    at = nul + 1 + GIT_OID_RAWSZ;
    if (submodule) continue;
    if (auto r = collect_written(in_memory, entry, out); !r) return r;
  }
  out.push_back({id, type, std::move(bytes)});
  return {};
}

}  // namespace

Result<ObjectId> write_object(git_repository* repo, std::string_view bytes, git_object_t type) {
  git_odb* raw = nullptr;
  if (const int rc = git_repository_odb(&raw, repo); rc < 0) return libgit2_error(rc, "opening the object database");
  const OdbPtr odb(raw);
  git_oid id;
  const auto mempack_write = g_mempack_write.load();
  for (std::size_t i = 0; mempack_write && i < git_odb_num_backends(odb.get()); ++i) {
    git_odb_backend* b = nullptr;
    if (const int rc = git_odb_get_backend(&b, odb.get(), i); rc < 0) return libgit2_error(rc);
    if (b->write != mempack_write) continue;
    if (const int rc = git_odb_hash(&id, bytes.data(), bytes.size(), type); rc < 0) return libgit2_error(rc);
    if (const int rc = b->write(b, &id, bytes.data(), bytes.size(), type); rc < 0) return libgit2_error(rc);
    return from_git(id);
  }
  if (const int rc = git_odb_write(&id, odb.get(), bytes.data(), bytes.size(), type); rc < 0) return libgit2_error(rc);
  return from_git(id);
}

Result<TrialRepo> TrialRepo::open(const Repository& repo) {
  git_repository* raw = nullptr;
  int rc = git_repository_open_ext(&raw, repo.git_dir().c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr);
  if (rc < 0) return libgit2_error(rc, "opening the trial-merge repository");
  RepositoryPtr owned(raw);
  if (rc = guard_loose_reads(raw); rc < 0) return libgit2_error(rc, "opening the object database");
  LG_TRY(git_odb_backend* const in_memory, arm_object_database(raw));
  return TrialRepo(Repository::adopt(owned.release()), in_memory);
}

Result<bool> TrialRepo::release_read_memory(const Repository& user, const ObjectId& keep) {
  if (!user.own_object_database()) return false;
  git_repository* const trial = m_repo.raw();
  std::vector<HeldObject> held;
  if (auto r = collect_written(m_in_memory, to_git(keep), held); !r) return r.error();
  // Close both object databases, so that no handle has the pack files open
  // and libgit2 frees them with their caches. The user's handle gets an
  // empty one meanwhile; the trial's lets go of its object cache too
  // (close_read_state).
  if (auto r = close_object_database(user.raw()); !r) return r.error();
  m_in_memory = nullptr;
  if (auto r = close_read_state(trial); !r) return r.error();
  // Both opened again from disk, as Repository::open and TrialRepo::open do.
  if (auto r = open_object_database(user.raw(), user.common_dir()); !r) return r.error();
  if (auto r = open_object_database(trial, git_repository_commondir(trial)); !r) return r.error();
  LG_TRY(m_in_memory, arm_object_database(trial));
  // Stored in the new in-memory store under the ids the old one held them
  // by (they were hashed when first written).
  for (const HeldObject& o : held) {
    if (const int rc = m_in_memory->write(m_in_memory, &o.id, o.data.data(), o.data.size(), o.type); rc < 0) {
      return libgit2_error(rc, "writing " + oid_hex(o.id));
    }
  }
  // What follows is the merged tree's check (or the change's), whose walk
  // reads each tree once: libgit2's object cache, a budget for the whole
  // process, is cut from 4 to 2 MiB for the rest of the command. At
  // 20,000 projects the walk's 18,444 trees kept 4 MiB of raw trees in it
  // through the projects pass; the cold trial merge's peak memory
  // 60.0-60.2 -> 57.1-57.5 MB (1 MiB or 512 KiB gave the same), its
  // instructions 9,194 -> 9,223 M (callgrind, 2-core Intel Xeon VM); with
  // the CI cache restored, the same.
  cap_object_cache(std::size_t{2} << 20);
  return true;
}

Result<ObjectId> TrialRepo::write_blob(std::string_view data) { return git::write_blob(m_repo, data); }

bool TrialRepo::wrote(const ObjectId& id) const {
  const git_oid oid = to_git(id);
  return m_in_memory && m_in_memory->exists(m_in_memory, &oid) == 1;
}

namespace {

Result<void> copy_missing(git_repository* from_repo, git_odb* from, git_odb* to, const git_oid& id) {
  if (git_odb_exists(to, &id)) return {};
  git_odb_object* raw = nullptr;
  int rc = git_odb_read(&raw, from, &id);
  if (rc < 0) return libgit2_error(rc, "reading " + oid_hex(id));
  OdbObjectPtr obj(raw);
  if (git_odb_object_type(obj.get()) == GIT_OBJECT_TREE) {
    auto tree = lookup_tree(from_repo, from_git(id));
    if (!tree) return tree.error().with_context("reading tree " + oid_hex(id));
    for (std::size_t i = 0; i < git_tree_entrycount(tree->get()); ++i) {
      const git_tree_entry* e = git_tree_entry_byindex(tree->get(), i);
      // submodule commits live elsewhere
      if (canonical_mode(git_tree_entry_filemode_raw(e)) == FileMode::commit) continue;
      if (auto r = copy_missing(from_repo, from, to, *git_tree_entry_id(e)); !r) return r;
    }
  }
  git_oid written;
  rc = git_odb_write(&written, to, git_odb_object_data(obj.get()), git_odb_object_size(obj.get()),
                     git_odb_object_type(obj.get()));
  if (rc < 0) return libgit2_error(rc, "writing " + oid_hex(id));
  return {};
}

}  // namespace

Result<void> TrialRepo::persist(const Repository& target, const ObjectId& root) const {
  git_odb* from_raw = nullptr;
  int rc = git_repository_odb(&from_raw, m_repo.raw());
  if (rc < 0) return libgit2_error(rc, "opening the trial object database");
  OdbPtr from(from_raw);
  git_odb* to_raw = nullptr;
  rc = git_repository_odb(&to_raw, target.raw());
  if (rc < 0) return libgit2_error(rc, "opening the object database");
  OdbPtr to(to_raw);
  return copy_missing(m_repo.raw(), from.get(), to.get(), to_git(root));
}

}  // namespace lg::git
