// Working-tree status questions the CLI asks about a repository.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ledgergate/git/repository.hpp"

namespace lg::git {

// True when the index or working tree differs from HEAD under any of
// `pathspecs` (untracked files included, ignored ones not). Each pathspec is
// a literal path, a folder when it ends in '/'. The cost follows those
// paths, not the working tree: only the ledger's files are looked at (one
// lstat each against the stat data git keeps in the index), and libgit2's
// status is asked only about the files that leaves in doubt. Reads only.
// `threads`: how many threads look at the working files (0: one per core,
// up to four; 1: the calling thread alone); neither the answer nor the
// error depends on it. Errors: unreadable index or tree.
Result<bool> has_uncommitted_changes(const Repository& repo, const std::vector<std::string>& pathspecs,
                                     unsigned threads = 1);

// The working tree's side of that question read ahead, while the caller
// does other work: a thread of its own reads git's index file, then looks
// at the working files with the other threads `threads` allows (none is
// started when it is 1: the question then reads everything when asked).
// Nothing of it goes through libgit2, so the caller may use `repo`
// meanwhile. Reads only.
class UncommittedScan {
 public:
  UncommittedScan(const Repository& repo, std::vector<std::string> pathspecs, unsigned threads);
  UncommittedScan(UncommittedScan&&) noexcept;
  UncommittedScan& operator=(UncommittedScan&&) noexcept;
  ~UncommittedScan();  // waits for the index read; the working files' look is cut short

  struct State;

 private:
  friend Result<bool> has_uncommitted_changes(const Repository& repo, UncommittedScan& ahead);
  std::unique_ptr<State> m_state;  // null for a bare repository
};

// has_uncommitted_changes of `ahead`'s pathspecs, its working tree's side
// read ahead (`repo`: the repository the scan was started on). The same
// answer and the same errors; asked once.
Result<bool> has_uncommitted_changes(const Repository& repo, UncommittedScan& ahead);

}  // namespace lg::git
