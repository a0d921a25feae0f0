// RevWalk over git_revwalk.
#include "ledgergate/git/revwalk.hpp"

#include "libgit2.hpp"

namespace lg::git {

void RevWalk::Free::operator()(git_revwalk* walk) const noexcept { git_revwalk_free(walk); }

Result<RevWalk> RevWalk::open(const Repository& repo) {
  git_revwalk* walk = nullptr;
  if (const int rc = git_revwalk_new(&walk, repo.raw()); rc < 0) return libgit2_error(rc);
  return RevWalk(walk);
}

void RevWalk::sort(WalkSort order) {
  const auto has = [order](WalkSort s) { return (static_cast<unsigned>(order) & static_cast<unsigned>(s)) != 0; };
  unsigned mode = GIT_SORT_NONE;
  if (has(WalkSort::topological)) mode |= GIT_SORT_TOPOLOGICAL;
  if (has(WalkSort::reverse)) mode |= GIT_SORT_REVERSE;
  git_revwalk_sorting(m_walk.get(), mode);
}

Result<void> RevWalk::first_parent_only() {
  if (const int rc = git_revwalk_simplify_first_parent(m_walk.get()); rc < 0) return libgit2_error(rc);
  return {};
}

Result<void> RevWalk::push(const ObjectId& commit) {
  const git_oid oid = to_git(commit);
  if (const int rc = git_revwalk_push(m_walk.get(), &oid); rc < 0) return libgit2_error(rc);
  return {};
}

Result<void> RevWalk::hide(const ObjectId& commit) {
  const git_oid oid = to_git(commit);
  if (const int rc = git_revwalk_hide(m_walk.get(), &oid); rc < 0) return libgit2_error(rc);
  return {};
}

Result<std::optional<ObjectId>> RevWalk::next() {
  git_oid oid;
  const int rc = git_revwalk_next(&oid, m_walk.get());
  if (rc == GIT_ITEROVER) return std::optional<ObjectId>();
  if (rc < 0) return libgit2_error(rc);
  return std::optional<ObjectId>(from_git(oid));
}

Result<std::vector<ObjectId>> RevWalk::remaining() {
  std::vector<ObjectId> out;
  while (true) {
    LG_TRY(std::optional<ObjectId> id, next());
    if (!id) return out;
    out.push_back(*id);
  }
}

}  // namespace lg::git
