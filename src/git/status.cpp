// Uncommitted-change detection limited to ledger pathspecs.
#include "ledgergate/git/status.hpp"

#include "libgit2.hpp"

namespace lg::git {

using StatusListPtr = Owned<git_status_list, git_status_list_free>;

Result<bool> has_uncommitted_changes(const Repository& repo, const std::vector<std::string>& pathspecs) {
  if (repo.is_bare()) return false;
  std::vector<char*> specs;
  specs.reserve(pathspecs.size());
  for (const std::string& s : pathspecs) specs.push_back(const_cast<char*>(s.c_str()));
  git_status_options opts{};
  git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION);
  opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  opts.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
               GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
  opts.pathspec.strings = specs.data();
  opts.pathspec.count = specs.size();
  git_status_list* raw = nullptr;
  const int rc = git_status_list_new(&raw, repo.raw(), &opts);
  if (rc < 0) return libgit2_error(rc, "reading the working tree status");
  StatusListPtr list(raw);
  return git_status_list_entrycount(list.get()) > 0;
}

}  // namespace lg::git
