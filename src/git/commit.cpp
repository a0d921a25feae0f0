// Commit lookups over git_commit.
#include "ledgergate/git/commit.hpp"

#include "libgit2.hpp"
#include "signature.hpp"

namespace lg::git {
namespace {

std::string or_empty(const char* s) { return s ? s : ""; }

}  // namespace

Result<CommitInfo> read_commit(const Repository& repo, const ObjectId& id) {
  LG_TRY(const CommitPtr commit, lookup_commit(repo.raw(), id));
  CommitInfo info;
  info.id = id;
  info.tree = from_git(*git_commit_tree_id(commit.get()));
  const unsigned n = git_commit_parentcount(commit.get());
  for (unsigned i = 0; i < n; ++i) info.parents.push_back(from_git(*git_commit_parent_id(commit.get(), i)));
  info.time = static_cast<long long>(git_commit_time(commit.get()));
  info.summary = or_empty(git_commit_summary(commit.get()));
  return info;
}

Result<std::string> commit_message(const Repository& repo, const ObjectId& id) {
  LG_TRY(const CommitPtr commit, lookup_commit(repo.raw(), id));
  return or_empty(git_commit_message(commit.get()));
}

Result<ObjectId> peel_to_commit(const Repository& repo, const ObjectId& id) {
  const git_oid oid = to_git(id);
  git_object* raw = nullptr;
  if (const int rc = git_object_lookup(&raw, repo.raw(), &oid, GIT_OBJECT_ANY); rc < 0) {
    return libgit2_error(rc, "reading " + id.hex());
  }
  const ObjectPtr obj(raw);
  return peel_commit_id(obj.get(), id.hex());
}

Result<bool> is_descendant_of(const Repository& repo, const ObjectId& commit, const ObjectId& ancestor) {
  const git_oid c = to_git(commit);
  const git_oid a = to_git(ancestor);
  const int rc = git_graph_descendant_of(repo.raw(), &c, &a);
  if (rc < 0) return libgit2_error(rc);
  return rc == 1;
}

Result<ObjectId> write_commit(const Repository& repo, const ObjectId& tree_id, const std::vector<ObjectId>& parent_ids,
                              const std::string& message) {
  LG_TRY(const SignaturePtr sig, committer_signature(repo));
  auto tree = lookup_tree(repo, tree_id);
  if (!tree) return tree.error().with_context("reading tree " + tree_id.hex());
  std::vector<CommitPtr> owned;
  std::vector<const git_commit*> parents;
  for (const ObjectId& id : parent_ids) {
    auto parent = lookup_commit(repo.raw(), id);
    if (!parent) return parent.error().with_context("reading commit " + id.hex());
    parents.push_back(parent->get());
    owned.push_back(std::move(*parent));
  }
  git_oid written;
  const int rc = git_commit_create(&written, repo.raw(), nullptr, sig.get(), sig.get(), nullptr, message.c_str(),
                                   tree->get(), parents.size(), parents.data());
  if (rc < 0) return libgit2_error(rc, "writing the commit");
  return from_git(written);
}

}  // namespace lg::git
