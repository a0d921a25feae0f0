// The walk: a revwalk in topological order, oldest first, then each commit
// read once into the facts the passes need.
#include "walk.hpp"

#include <fstream>

#include "ledgergate/git/commit.hpp"
#include "ledgergate/git/revwalk.hpp"

namespace lg::audit {

namespace {

// The range's tips pushed (and A of A..B hidden).
Result<void> push_range(const git::Repository& repo, git::RevWalk& walk, const std::string& range) {
  if (range.find("..") == std::string::npos) {
    LG_TRY(git::ObjectId tip, repo.resolve_commit(range.empty() ? "HEAD" : range));
    if (auto r = walk.push(tip); !r) return r.error().with_context("revwalk");
    return {};
  }
  if (range.find("...") != std::string::npos) {
    return make_error(ErrorKind::usage, "range '" + range + "': use A..B (A...B is not supported)");
  }
  const std::size_t dots = range.find("..");
  LG_TRY(git::ObjectId from, repo.resolve_commit(range.substr(0, dots)));
  LG_TRY(git::ObjectId to, repo.resolve_commit(range.substr(dots + 2).empty() ? "HEAD" : range.substr(dots + 2)));
  if (auto r = walk.push(to); !r) return r.error().with_context("revwalk");
  if (auto r = walk.hide(from); !r) return r.error().with_context("revwalk");
  return {};
}

Result<std::vector<git::ObjectId>> walk_commits(const git::Repository& repo, const AuditOptions& options) {
  auto walk = git::RevWalk::open(repo);
  if (!walk) return walk.error().with_context("revwalk");
  walk->sort(git::WalkSort::topological | git::WalkSort::reverse);
  if (options.first_parent) {
    if (auto r = walk->first_parent_only(); !r) return r.error().with_context("revwalk");
  }
  if (auto r = push_range(repo, *walk, options.range); !r) return r.error();
  auto ids = walk->remaining();
  if (!ids) return ids.error().with_context("cannot judge: walking the history");
  return ids;
}

}  // namespace

Result<std::vector<CommitFacts>> walk_history(const git::Repository& repo, const AuditOptions& options) {
  LG_TRY(std::vector<git::ObjectId> ids, walk_commits(repo, options));
  std::vector<CommitFacts> commits;
  commits.reserve(ids.size());
  for (const git::ObjectId& id : ids) {
    LG_TRY(CommitFacts facts, commit_facts(repo, id));
    if (options.since && facts.time < *options.since) continue;
    commits.push_back(std::move(facts));
  }
  return commits;
}

Result<CommitFacts> commit_facts(const git::Repository& repo, const git::ObjectId& id) {
  auto info = git::read_commit(repo, id);
  if (!info) return info.error().with_context("cannot judge: commit " + id.hex() + " is missing");
  return CommitFacts{id, std::move(info->summary), info->tree, std::move(info->parents), info->time};
}

std::string full_message(const git::Repository& repo, const git::ObjectId& id) {
  auto message = git::commit_message(repo, id);
  return message ? std::move(*message) : std::string();
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
  auto source = git::open_tree_source(repo, commit.tree, commit.id.short_hex());
  if (!source) return source.error().with_context("cannot judge: the tree of commit " + commit.hex());
  return source;
}

}  // namespace lg::audit
