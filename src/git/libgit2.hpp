// The libgit2 edge: owned libgit2 handles and the conversions between
// ObjectId and git_oid. Private to src/git/, the only module that calls
// libgit2 (tests, libgit2 clients too, keep their own in tests/support).
#pragma once

#include <git2.h>

#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"

namespace lg::git {

template <auto FreeFn>
struct Deleter {
  template <class T>
  void operator()(T* p) const noexcept {
    FreeFn(p);
  }
};
template <class T, auto FreeFn>
using Owned = std::unique_ptr<T, Deleter<FreeFn>>;

using RepositoryPtr = Owned<git_repository, git_repository_free>;
using ObjectPtr = Owned<git_object, git_object_free>;
using CommitPtr = Owned<git_commit, git_commit_free>;
using TreePtr = Owned<git_tree, git_tree_free>;
using TreeEntryPtr = Owned<git_tree_entry, git_tree_entry_free>;
using BlobPtr = Owned<git_blob, git_blob_free>;
using IndexPtr = Owned<git_index, git_index_free>;
using OdbPtr = Owned<git_odb, git_odb_free>;
using OdbObjectPtr = Owned<git_odb_object, git_odb_object_free>;
using ReferencePtr = Owned<git_reference, git_reference_free>;
using SignaturePtr = Owned<git_signature, git_signature_free>;

static_assert(sizeof(git_oid) == ObjectId::k_raw_size, "libgit2 built with another hash size");

inline ObjectId from_git(const git_oid& oid) { return ObjectId::from_bytes(oid.id); }
inline git_oid to_git(const ObjectId& id) {
  git_oid oid;
  std::memcpy(oid.id, id.bytes(), ObjectId::k_raw_size);
  return oid;
}

inline std::string oid_hex(const git_oid& oid) { return from_git(oid).hex(); }

// Tree entry names git fsck rejects (tree_names.cpp): why `name` is one, or
// nullopt; the error naming it in `tree`; and the check of a whole tree's
// entries (invalid_input naming the first bad one).
std::optional<std::string_view> malformed_name_reason(std::string_view name);
Error malformed_name_error(const git_oid& tree, std::string_view name, std::string_view reason);
Result<void> check_tree_names(const git_tree* tree);

// Object lookups by id, the one spelling in git/: the bare libgit2 error,
// to which callers add what they were reading (with_context). A tree whose
// entry names git fsck rejects is an error (check_tree_names).
Result<TreePtr> lookup_tree(git_repository* repo, const ObjectId& id);
// The same through `repo`'s memo of large trees (tree_memo.hpp): each is
// read once per handle.
Result<TreePtr> lookup_tree(const Repository& repo, const ObjectId& id);
Result<CommitPtr> lookup_commit(git_repository* repo, const ObjectId& id);
Result<BlobPtr> lookup_blob(git_repository* repo, const ObjectId& id);
// The bytes of `blob`, which the caller holds alone and lets go of after
// (a blob read by lookup_blob: libgit2 caches no blob, Libgit2Session
// leaves its limit for blobs at 0). From k_give_back_from bytes, each whole
// page of libgit2's copy is given back to the system (MADV_DONTNEED) once
// copied, so that the two copies are not resident at once: the 9 MB
// projects.yaml of a 20,000-project tree held 18 MB for a moment, the
// peak of a cold `trial-merge --scope change` there (2-core Intel Xeon VM:
// 44.0 -> 36.3 MB; the whole trial merge 61.2 -> 59.1-60.0 MB, its peak
// then in the merged tree's check).
inline constexpr std::size_t k_give_back_from = std::size_t{4} << 20;
std::string blob_bytes(BlobPtr blob);

// Stores `bytes` as an object of `type` in `repo`'s object database, its id
// returned: a trial repository's (trial_repo.cpp) straight into its
// in-memory store, even where a disk backend holds the object already (so
// what a merge wrote is read back from memory: a loose copy another tool
// left, such as `git merge-tree`'s, would be inflated and hashed again),
// any other through git_odb_write.
Result<ObjectId> write_object(git_repository* repo, std::string_view bytes, git_object_t type);

// Whether git_repository__cleanup frees only what a handle can read again
// (its caches, configuration, references, index and object database). From
// libgit2 1.7 it also frees the repository's grafts (its shallow roots),
// which nothing reads again: commits would then parse without them.
inline constexpr bool k_cleanup_frees_only_caches = LIBGIT2_VER_MAJOR == 1 && LIBGIT2_VER_MINOR < 7;

// A handle's object database replaced by an empty one (its pack files
// closed, with their caches, once no other handle has them open), and one
// opened again from `common_dir`'s objects folder, as opening the
// repository makes it (Repository::can_reopen_object_database says when
// that reads the same objects). close_read_state closes the object
// database and, where k_cleanup_frees_only_caches, empties the handle's
// object cache too (its configuration, references and index then read
// again when next asked); reopen_object_database does that and opens it
// again.
Result<void> close_object_database(git_repository* repo);
Result<void> close_read_state(git_repository* repo);
Result<void> open_object_database(git_repository* repo, const std::string& common_dir);
Result<void> reopen_object_database(git_repository* repo);

// Lowers libgit2's object-cache budget (one for the whole process) to
// `bytes` when it is higher; never raises it (an audit runs with none:
// tune_for_history_walk).
void cap_object_cache(std::size_t bytes);

// confirm_objects (objects.hpp) on a bare handle: a tree source's.
Result<void> confirm_objects(git_repository* repo, std::span<const ObjectId> ids);

// The commit `obj` peels to (itself, or what a tag points at); the error says
// "<name> is not a commit".
Result<ObjectId> peel_commit_id(git_object* obj, std::string_view name);

}  // namespace lg::git
