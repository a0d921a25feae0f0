// Commit lookups over git_commit.
#include "ledgergate/git/commit.hpp"

#include <git2.h>

#include "oid.hpp"

namespace lg::git {
namespace {

Result<CommitPtr> lookup(const Repository& repo, const ObjectId& id) {
  const git_oid oid = to_git(id);
  git_commit* commit = nullptr;
  if (const int rc = git_commit_lookup(&commit, repo.raw(), &oid); rc < 0) return libgit2_error(rc);
  return CommitPtr(commit);
}

std::string or_empty(const char* s) { return s ? s : ""; }

}  // namespace

Result<CommitInfo> read_commit(const Repository& repo, const ObjectId& id) {
  LG_TRY(const CommitPtr commit, lookup(repo, id));
  CommitInfo info;
  info.id = id;
  info.tree = from_git(*git_commit_tree_id(commit.get()));
  const unsigned n = git_commit_parentcount(commit.get());
  for (unsigned i = 0; i < n; ++i) info.parents.push_back(from_git(*git_commit_parent_id(commit.get(), i)));
  info.time = static_cast<long long>(git_commit_time(commit.get()));
  const git_signature* author = git_commit_author(commit.get());
  info.author_time = static_cast<long long>(author->when.time);
  info.author_name = or_empty(author->name);
  info.committer_name = or_empty(git_commit_committer(commit.get())->name);
  info.summary = or_empty(git_commit_summary(commit.get()));
  return info;
}

Result<std::string> commit_message(const Repository& repo, const ObjectId& id) {
  LG_TRY(const CommitPtr commit, lookup(repo, id));
  return or_empty(git_commit_message(commit.get()));
}

}  // namespace lg::git
