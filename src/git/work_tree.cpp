// discover_work_tree (ledgergate/git/work_tree.hpp).
#include "ledgergate/git/work_tree.hpp"

#include "libgit2.hpp"

namespace lg::git {

Result<std::optional<WorkTree>> discover_work_tree(const std::string& path) {
  git_repository* raw = nullptr;
  const int rc = git_repository_open_ext(&raw, path.c_str(), 0, nullptr);
  if (rc == GIT_ENOTFOUND) return std::optional<WorkTree>();
  if (rc < 0) return libgit2_error(rc, "opening repository " + path);
  const RepositoryPtr repo(raw);
  const char* workdir = git_repository_workdir(repo.get());
  if (git_repository_is_bare(repo.get()) == 1 || workdir == nullptr) return std::optional<WorkTree>();
  return std::optional<WorkTree>(WorkTree{git_repository_path(repo.get()), workdir});
}

}  // namespace lg::git
