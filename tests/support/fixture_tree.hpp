// Test support: temporary folders, {path → content} trees written to disk or
// committed in-process with a pinned signature (deterministic commit ids).
#pragma once

#include <git2.h>

#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"

namespace lg::test {

using FileMap = std::map<std::string, std::string>;

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& content);  // creates parent folders
FileMap read_tree(const std::string& root);                             // every regular file below root
// The resident kilobytes of this process's mappings of the file `path`
// (/proc/self/smaps; 0 when none or unreadable).
long resident_kb(const std::string& path);
void write_tree(const std::string& root, const FileMap& files);

// Creates (or reuses) a repository at `dir` and commits `files` as the whole
// tree on `ref` with a fixed author, committer and time; returns the commit
// id. `parent` chains commits; `ref` must then point at `parent` (or not exist).
git_oid commit_tree(const std::string& dir, const FileMap& files, const std::string& message,
                    const git_oid* parent = nullptr, const std::string& ref = "refs/heads/main",
                    const git_oid* second_parent = nullptr);  // set: a merge commit

// Packs every object `commit` reaches into one pack of the repository at
// `dir` (libgit2's pack builder) and returns the pack's path without its
// extension. With `drop_loose`, every loose object is removed after, and
// the ids removed are appended to `dropped` when given.
std::string pack_commit(const std::string& dir, const git_oid& commit, bool drop_loose,
                        std::vector<git::ObjectId>* dropped = nullptr);

// Tests are clients of libgit2 too: owned handles, and conversions between
// its git_oid and the library's ObjectId (the library's own edge header is
// private to src/git/).
template <auto FreeFn>
struct Free {
  template <class T>
  void operator()(T* p) const noexcept {
    FreeFn(p);
  }
};
using RepositoryPtr = std::unique_ptr<git_repository, Free<git_repository_free>>;
using CommitPtr = std::unique_ptr<git_commit, Free<git_commit_free>>;
using TreePtr = std::unique_ptr<git_tree, Free<git_tree_free>>;
using IndexPtr = std::unique_ptr<git_index, Free<git_index_free>>;

inline git::ObjectId id_of(const git_oid& oid) { return git::ObjectId::from_bytes(oid.id); }
inline git_oid oid_of(const git::ObjectId& id) {
  git_oid oid;
  std::memcpy(oid.id, id.bytes(), git::ObjectId::k_raw_size);
  return oid;
}
inline std::string oid_hex(const git_oid& oid) { return id_of(oid).hex(); }

// A commit's tree and a source over it (labelled `label`); nullopt when
// either cannot be read.
struct CommitTree {
  git::ObjectId id;
  std::unique_ptr<git::TreeSource> source;
};
inline std::optional<CommitTree> commit_tree_of(const git::Repository& repo, const git_oid& commit,
                                                const std::string& label) {
  auto tree = repo.commit_tree(id_of(commit));
  if (!tree) return std::nullopt;
  auto source = git::open_tree_source(repo, *tree, label);
  if (!source) return std::nullopt;
  return CommitTree{*tree, std::move(*source)};
}

// A pinned committer (GIT_COMMITTER_NAME, _EMAIL, _DATE) for the duration of a test.
struct PinnedCommitter {
  PinnedCommitter();
  ~PinnedCommitter();
  PinnedCommitter(const PinnedCommitter&) = delete;
  PinnedCommitter& operator=(const PinnedCommitter&) = delete;
};

// tests/data: the corpus and the conformance cases the tests read
// (tests/data/README.md says where each set comes from).
std::string data_dir();

// Runs a shell command and reads its standard output to the end: what it
// printed, and its exit status (WEXITSTATUS; -1 when it did not exit).
struct Captured {
  int status = -1;
  std::string out;
};
Captured capture(const std::string& command);
// Runs a shell command with its output and errors discarded; its exit status
// (WEXITSTATUS; -1 when it did not exit).
int run_quiet(const std::string& command);
// Runs `script` with sh in `dir`, output discarded, with git's author and
// committer pinned (name t, 2026-01-01T00:00:00Z: deterministic commit
// ids); its exit status as run_quiet's.
int sh_pinned(const std::string& dir, const std::string& script);
// Stores `text` as a blob in the repository at `dir` with `git hash-object
// -w`; its id (a test failure when git fails).
std::string git_blob(const std::string& dir, const std::string& text);

// Replaces the first `old` in `text` by `repl`; a test failure when `old` is absent.
void replace_once(std::string& text, const std::string& old, const std::string& repl);
// The same on a copy.
std::string replaced(std::string text, const std::string& old, const std::string& repl);

// The names of `entries`, in their order.
std::vector<std::string> entry_names(const std::vector<git::Entry>& entries);

// An era-R ledger of project `example` (title "A question", Issue: none)
// with the given ## Now text, ## Runs lines and ## Log lines, each of them
// "\n"-terminated.
std::string example_ledger(const std::string& now, const std::string& runs, const std::string& log);

}  // namespace lg::test
