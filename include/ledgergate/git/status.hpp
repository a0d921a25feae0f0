// Working-tree status questions the CLI asks about a repository.
#pragma once

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

}  // namespace lg::git
