// The trial-merge repository: the user's object database read-through, with
// writes caught by a mempack backend at priority 999. The disk backends lose
// their write and freshen entry points: libgit2 "freshens" an object it is
// asked to write and already has (it touches the loose file's or the pack's
// mtime instead of writing), so a trial merge that produced a blob or tree
// the user's repository holds would otherwise still touch .git.
#include "ledgergate/git/trial_repo.hpp"

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

#include "ledgergate/git/objects.hpp"
#include "libgit2.hpp"
#include "loose_guard.hpp"

namespace lg::git {

Result<TrialRepo> TrialRepo::open(const Repository& repo) {
  git_repository* raw = nullptr;
  int rc = git_repository_open_ext(&raw, repo.git_dir().c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr);
  if (rc < 0) return libgit2_error(rc, "opening the trial-merge repository");
  RepositoryPtr owned(raw);
  if (rc = guard_loose_reads(raw); rc < 0) return libgit2_error(rc, "opening the object database");
  git_odb* odb_raw = nullptr;
  rc = git_repository_odb(&odb_raw, owned.get());
  if (rc < 0) return libgit2_error(rc, "opening the object database");
  OdbPtr odb(odb_raw);
  git_odb_backend* mempack_raw = nullptr;
  rc = git_mempack_new(&mempack_raw);
  if (rc < 0) return libgit2_error(rc, "creating the in-memory object store");
  const auto free_backend = [](git_odb_backend* b) { b->free(b); };
  std::unique_ptr<git_odb_backend, decltype(free_backend)> mempack(mempack_raw, free_backend);
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
  return TrialRepo(Repository::adopt(owned.release()));
}

Result<ObjectId> TrialRepo::write_blob(std::string_view data) { return git::write_blob(m_repo, data); }

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
      if (git_tree_entry_filemode(e) == GIT_FILEMODE_COMMIT) continue;  // submodule commits live elsewhere
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
