// Staging new content for paths the index already holds: what `fix --index`
// writes. The index is git's own file, written under git's index.lock.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::git {

// Writes each file's bytes as a blob and points its stage-0 index entry at
// it (mode kept; the entry's stat data cleared, so git compares the working
// file by content, never by a stale timestamp), then writes the index under
// its lock. The index is read from disk first. All or nothing: an error
// before the write leaves the index as it was. Errors: a path the index does
// not hold at stage 0, the lock held by another process, I/O.
Result<void> stage_files(const Repository& repo, const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace lg::git
