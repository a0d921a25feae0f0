// RAII over libgit2: owned handles, the library session, and a Repository
// that resolves revisions. libgit2 names stay inside lg::git.
#pragma once

#include <git2.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ledgergate/util/result.hpp"

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

// Initialises libgit2 for the life of the object (the first local in main).
class Libgit2Session {
 public:
  Libgit2Session();
  ~Libgit2Session();
  Libgit2Session(const Libgit2Session&) = delete;
  Libgit2Session& operator=(const Libgit2Session&) = delete;
};

// Builds an Error from libgit2's last error, right after the failing call:
// libgit2's message alone, or prefixed by `what` ("what: message").
Error libgit2_error(int code);
Error libgit2_error(int code, std::string_view what);

std::string oid_hex(const git_oid& oid);

class Repository {
 public:
  // Opens the repository at `path`, or discovers it upward from `path` when
  // `discover` is set. Fails with a usage-kind error when none is found.
  static Result<Repository> open(const std::string& path, bool discover);

  // Takes ownership of an open handle (the trial-merge repository).
  static Repository adopt(RepositoryPtr repo) { return Repository(std::move(repo)); }

  git_repository* raw() const { return m_repo.get(); }
  // The .git directory (or the bare repository's folder).
  std::string git_dir() const;
  bool is_bare() const;
  bool is_shallow() const;
  // The working directory, with a trailing '/'; "" for a bare repository.
  std::string workdir() const;

  // Resolves `rev` to a commit; errors name the revision ("unknown revision",
  // "HEAD has no commits yet").
  Result<git_oid> resolve_commit(std::string_view rev) const;
  Result<git_oid> commit_tree(const git_oid& commit) const;

 private:
  explicit Repository(RepositoryPtr repo) : m_repo(std::move(repo)) {}
  RepositoryPtr m_repo;
};

}  // namespace lg::git
