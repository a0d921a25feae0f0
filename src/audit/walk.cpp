// The walk: a revwalk in topological order, oldest first, then each commit
// read once into the facts the passes need.
#include "walk.hpp"

#include <fstream>

namespace lg::audit {

namespace {

using RevwalkPtr = git::Owned<git_revwalk, git_revwalk_free>;

Result<std::vector<git_oid>> walk_commits(const git::Repository& repo, const AuditOptions& options) {
  git_revwalk* raw = nullptr;
  if (int rc = git_revwalk_new(&raw, repo.raw()); rc < 0) return git::libgit2_error(rc, "revwalk");
  RevwalkPtr walk(raw);
  git_revwalk_sorting(walk.get(), GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
  if (options.first_parent) {
    if (int rc = git_revwalk_simplify_first_parent(walk.get()); rc < 0) return git::libgit2_error(rc, "revwalk");
  }
  if (options.range.find("..") != std::string::npos) {
    if (options.range.find("...") != std::string::npos) {
      return make_error(ErrorKind::usage, "range '" + options.range + "': use A..B (A...B is not supported)");
    }
    const std::size_t dots = options.range.find("..");
    LG_TRY(git_oid from, repo.resolve_commit(options.range.substr(0, dots)));
    LG_TRY(git_oid to, repo.resolve_commit(options.range.substr(dots + 2).empty() ? "HEAD"
                                                                                     : options.range.substr(dots + 2)));
    if (int rc = git_revwalk_push(walk.get(), &to); rc < 0) return git::libgit2_error(rc, "revwalk");
    if (int rc = git_revwalk_hide(walk.get(), &from); rc < 0) return git::libgit2_error(rc, "revwalk");
  } else {
    LG_TRY(git_oid tip, repo.resolve_commit(options.range.empty() ? "HEAD" : options.range));
    if (int rc = git_revwalk_push(walk.get(), &tip); rc < 0) return git::libgit2_error(rc, "revwalk");
  }
  std::vector<git_oid> out;
  git_oid oid;
  int rc = 0;
  while ((rc = git_revwalk_next(&oid, walk.get())) == 0) out.push_back(oid);
  if (rc != GIT_ITEROVER) return git::libgit2_error(rc, "cannot judge: walking the history");
  return out;
}

}  // namespace

Result<std::vector<CommitFacts>> walk_history(const git::Repository& repo, const AuditOptions& options) {
  LG_TRY(std::vector<git_oid> ids, walk_commits(repo, options));
  std::vector<CommitFacts> commits;
  commits.reserve(ids.size());
  for (const git_oid& id : ids) {
    LG_TRY(CommitFacts facts, read_commit(repo, id));
    if (options.since && facts.time < *options.since) continue;
    commits.push_back(std::move(facts));
  }
  return commits;
}

Result<CommitFacts> read_commit(const git::Repository& repo, const git_oid& id) {
  git_commit* raw = nullptr;
  CommitFacts facts;
  facts.id = id;
  if (int rc = git_commit_lookup(&raw, repo.raw(), &id); rc < 0) {
    return git::libgit2_error(rc, "cannot judge: commit " + facts.hex() + " is missing");
  }
  git::CommitPtr commit(raw);
  const char* summary = git_commit_summary(commit.get());
  facts.summary = summary ? summary : "";
  facts.tree = *git_commit_tree_id(commit.get());
  facts.time = static_cast<long long>(git_commit_time(commit.get()));
  const unsigned n = git_commit_parentcount(commit.get());
  for (unsigned i = 0; i < n; ++i) facts.parents.push_back(*git_commit_parent_id(commit.get(), i));
  return facts;
}

std::string full_message(const git::Repository& repo, const git_oid& id) {
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo.raw(), &id) < 0) return "";
  git::CommitPtr commit(raw);
  const char* message = git_commit_message(commit.get());
  return message ? message : "";
}

std::string shallow_note(const git::Repository& repo) {
  std::ifstream in(repo.git_dir() + "/shallow");
  std::string first;
  std::getline(in, first);
  if (first.empty()) return "cannot judge: the clone is shallow; earlier history is missing";
  return "cannot judge: the clone is shallow; the parents of " + first +
         " are missing (git fetch --unshallow, then audit again)";
}

Result<std::unique_ptr<git::TreeSource>> open_tree(const git::Repository& repo, const CommitFacts& commit) {
  const std::string hex = commit.hex();
  auto source = git::open_tree_source(repo, commit.tree, short_id(hex));
  if (!source) return source.error().with_context("cannot judge: the tree of commit " + hex);
  return source;
}

}  // namespace lg::audit
