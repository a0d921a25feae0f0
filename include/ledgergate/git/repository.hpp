// The library session and a Repository that resolves revisions. No libgit2
// name reaches the modules above lg::git: they see ObjectId and the
// wrappers in this folder; the libgit2 handle types are only forward-
// declared here (opaque), and libgit2's functions are called in src/git/
// alone (tests/git-boundary keeps it so).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/util/result.hpp"

struct git_repository;  // opaque: only src/git/ calls libgit2

namespace lg::git {

class TreeMemo;  // src/git/tree_memo.hpp

// Initialises libgit2 for the life of the object (the first local in main).
class Libgit2Session {
 public:
  Libgit2Session();
  ~Libgit2Session();
  Libgit2Session(const Libgit2Session&) = delete;
  Libgit2Session& operator=(const Libgit2Session&) = delete;
};

// Tunes libgit2's caches for a walk over a whole history, which reads each
// commit and tree about once: no decoded-object cache, pack windows of
// 8 MiB mapped at most 32 MiB at a time (the audit's settings; see cmd_audit).
void tune_for_history_walk();

// Builds an Error from libgit2's last error, right after the failing call:
// libgit2's message alone, or prefixed by `what` ("what: message").
Error libgit2_error(int code);
Error libgit2_error(int code, std::string_view what);

class Repository {
 public:
  // Opens the repository at `path`, or discovers it upward from `path` when
  // `discover` is set. Fails with a usage-kind error when none is found.
  static Result<Repository> open(const std::string& path, bool discover);
  // Creates a repository with a working tree at `path` (made when missing),
  // as `git init` does. Errors: the folder cannot be made or written.
  static Result<Repository> init(const std::string& path);
  // Opens the repository a git hook runs in, as git describes it in the
  // environment: GIT_DIR, GIT_WORK_TREE, GIT_COMMON_DIR, GIT_INDEX_FILE and
  // the object directories (pushed objects wait in a quarantine).
  static Result<Repository> open_from_environment();

  // Takes ownership of an open libgit2 handle (src/git/ only: the trial repository).
  static Repository adopt(git_repository* owned) { return Repository(owned); }

  // The libgit2 handle, for src/git/.
  git_repository* raw() const { return m_repo.get(); }
  // The large trees this handle has read (src/git/ only: each is read once
  // per handle, not once per path looked up below it).
  TreeMemo& trees() const { return *m_trees; }
  // The .git directory (or the bare repository's folder), with a trailing '/'.
  std::string git_dir() const;
  // The common directory of linked worktrees (git_dir() otherwise), with a trailing '/'.
  std::string common_dir() const;
  bool is_bare() const;
  bool is_shallow() const;
  // HEAD names a branch with no commit yet.
  bool head_unborn() const;
  // The working directory, with a trailing '/'; "" for a bare repository.
  std::string workdir() const;
  // The index file git named in the environment (GIT_INDEX_FILE) when the
  // repository was opened from it; "" means the repository's own index. It
  // is only read when a source of the index is opened (open_index_source).
  const std::string& index_file() const { return m_index_file; }
  // The index file a reader of the index opens: index_file(), else the
  // repository's own (git_dir() + "index").
  std::string index_path() const { return m_index_file.empty() ? git_dir() + "index" : m_index_file; }
  // Whether the object database is the repository's own (its objects folder
  // and the alternates it lists), as reopening it from disk would rebuild
  // it; not so when the environment named the object directories (a push
  // quarantine).
  bool own_object_database() const { return m_own_objects; }
  // Whether the object database may be closed and opened again from disk
  // (TreeSource::release_read_caches): libgit2 then frees its pack files
  // with what it caches beside them (the delta-base cache, compiled in at
  // 16 MiB, the index mapping, the pack windows) once no other handle has
  // them open. Only a handle open() or init() made over its own objects
  // (not adopted, not a push quarantine), whose reopened database reads the
  // same objects.
  bool can_reopen_object_database() const { return m_opened && m_own_objects; }

  // Resolves `rev` to a commit; errors name the revision ("unknown revision",
  // "HEAD has no commits yet").
  Result<ObjectId> resolve_commit(std::string_view rev) const;
  Result<ObjectId> commit_tree(const ObjectId& commit) const;

 private:
  struct Free {
    void operator()(git_repository* repo) const noexcept;
  };
  explicit Repository(git_repository* repo);
  std::unique_ptr<git_repository, Free> m_repo;
  std::shared_ptr<TreeMemo> m_trees;  // after m_repo: its trees are freed before the handle
  std::string m_index_file;
  bool m_own_objects = true;
  bool m_opened = false;  // by open() or init(): its object database is the one its folder gives
};

}  // namespace lg::git
