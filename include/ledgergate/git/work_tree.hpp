// Where the working tree of a discovered repository is, for the callers that
// need that and nothing else (merge-file's policy and the atomic writer's
// staging area): the repository is found as Repository::open(path, true)
// finds it (upward, with its configuration's core.bare and core.worktree),
// but its object database is not opened (no pack folder listed, no loose
// guard set up), and the handle is let go at once.
#pragma once

#include <optional>
#include <string>

#include "ledgergate/util/result.hpp"

namespace lg::git {

struct WorkTree {
  std::string git_dir;  // the .git directory, with a trailing '/'
  std::string workdir;  // the working directory, with a trailing '/'
};

// The working tree of the repository discovered upward from `path`; nullopt
// when no repository is found there or it is bare. Errors: libgit2's, when
// one is found but does not open (a configuration that does not parse).
// libgit2 must be initialised (Libgit2Session).
Result<std::optional<WorkTree>> discover_work_tree(const std::string& path);

}  // namespace lg::git
