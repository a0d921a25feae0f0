// Working-tree status questions the CLI asks about a repository.
#pragma once

#include <string>
#include <vector>

#include "ledgergate/git/repository.hpp"

namespace lg::git {

// True when the index or working tree differs from HEAD under any of
// `pathspecs` (untracked files included). Errors: unreadable index or tree.
Result<bool> has_uncommitted_changes(const Repository& repo, const std::vector<std::string>& pathspecs);

}  // namespace lg::git
