// Merge bases and tree-to-tree name-status diffs: the raw tree walk
// (TreeDiffer) when no rename can pair, else libgit2's diff with renames
// found explicitly (git_diff_find_similar) rather than by the user's
// diff.renames.
#include "ledgergate/git/diff.hpp"

#include "disposing.hpp"
#include "ledgergate/git/tree_diff.hpp"
#include "libgit2.hpp"
#include "tree_memo.hpp"

namespace lg::git {

using DiffPtr = Owned<git_diff, git_diff_free>;

Result<std::vector<ObjectId>> merge_bases(const Repository& repo, const ObjectId& a, const ObjectId& b) {
  Disposing<git_oidarray, git_oidarray_dispose> bases;
  const git_oid a_oid = to_git(a), b_oid = to_git(b);
  const int rc = git_merge_bases(bases.out(), repo.raw(), &a_oid, &b_oid);
  if (rc == GIT_ENOTFOUND) {
    return make_error(ErrorKind::invalid_input,
                      "no merge base between " + a.short_hex() + " and " + b.short_hex() + " (unrelated histories)");
  }
  if (rc < 0) return libgit2_error(rc, "finding the merge base");
  std::vector<ObjectId> out;
  for (std::size_t i = 0; i < bases->count; ++i) out.push_back(from_git(bases->ids[i]));
  if (out.empty()) return make_error(ErrorKind::internal, "finding the merge base: none returned");
  return out;
}

Result<ObjectId> merge_base(const Repository& repo, const ObjectId& a, const ObjectId& b) {
  LG_TRY(std::vector<ObjectId> bases, merge_bases(repo, a, b));
  if (bases.size() > 1) {
    return make_error(ErrorKind::invalid_input,
                      "criss-cross history: " + std::to_string(bases.size()) +
                          " merge bases; refusing to guess which one the branch started from");
  }
  return bases.front();
}

namespace {

// The tree `id` names; a null handle for no id (one side of a root diff).
Result<TreePtr> tree_or_null(const Repository& repo, const ObjectId* id) {
  if (!id) return TreePtr();
  auto tree = lookup_tree(repo, *id);
  if (!tree) return tree.error().with_context("reading tree " + id->hex());
  return tree;
}

// libgit2's diff reads subtrees itself (not through lookup_tree): a path it
// reports must be made of well-formed names and lead, step by step, to the
// entry the diff saw (a name holding '/' would not). The steps are taken
// through the repository's memo of large trees: a diff listing every file
// of a 54,000-entry folder reads that folder once, not once per file.
Result<void> check_delta_path(const Repository& repo, const git_tree* tree, const git_diff_file& file) {
  if (!tree) return {};
  const std::string_view path = file.path;
  for (std::size_t at = 0;;) {
    const std::size_t slash = path.find('/', at);
    const std::string_view name = path.substr(at, slash == std::string_view::npos ? slash : slash - at);
    if (const auto reason = malformed_name_reason(name)) return malformed_name_error(*git_tree_id(tree), name, *reason);
    if (slash == std::string_view::npos) break;
    at = slash + 1;
  }
  LG_TRY(const std::optional<PathEntry> entry, entry_by_path(repo.raw(), repo.trees(), tree, path));
  if (!entry || !git_oid_equal(&entry->id, &file.id)) {
    return make_error(ErrorKind::invalid_input, "tree " + oid_hex(*git_tree_id(tree)) + ": the path " +
                                                    std::string(path) +
                                                    " does not lead to its entry (a name holding '/'?): the tree "
                                                    "cannot be judged");
  }
  return {};
}

std::string status_of(const git_diff_delta& d) {
  switch (d.status) {
    case GIT_DELTA_ADDED: return "A";
    case GIT_DELTA_DELETED: return "D";
    case GIT_DELTA_MODIFIED: return "M";
    case GIT_DELTA_RENAMED: return "R" + std::to_string(d.similarity);
    case GIT_DELTA_COPIED: return "C" + std::to_string(d.similarity);
    case GIT_DELTA_TYPECHANGE: return "T";
    case GIT_DELTA_CONFLICTED: return "U";
    default: return "X";
  }
}

}  // namespace

Result<std::vector<DiffEntry>> diff_trees(const Repository& repo, const ObjectId* from, const ObjectId* to) {
  // Without a file added and another deleted no rename can pair, and the
  // raw tree walk is the answer: it skips the subtrees both sides share
  // without reading them, where libgit2's diff reads and walks every tree
  // it passes (a folder of 1,000,000 files the two trees share was read
  // whole, on each side, per diff).
  {
    TreeDiffer walk(repo);
    LG_TRY(std::vector<DiffEntry> changes, walk.changes(from, to));
    if (!may_have_renames(changes)) return changes;
  }
  return diff_trees_with_renames(repo, from, to);
}

Result<std::vector<DiffEntry>> diff_trees_with_renames(const Repository& repo, const ObjectId* from,
                                                       const ObjectId* to) {
  LG_TRY(TreePtr old_tree, tree_or_null(repo, from));
  LG_TRY(TreePtr new_tree, tree_or_null(repo, to));
  git_diff_options opts{};
  git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
  opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE;
  git_diff* raw = nullptr;
  int rc = git_diff_tree_to_tree(&raw, repo.raw(), old_tree.get(), new_tree.get(), &opts);
  if (rc < 0) return libgit2_error(rc, "diffing trees");
  DiffPtr diff(raw);
  git_diff_find_options find{};
  git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
  find.flags = GIT_DIFF_FIND_RENAMES | GIT_DIFF_FIND_DONT_IGNORE_WHITESPACE;
  find.rename_threshold = 50;
  rc = git_diff_find_similar(diff.get(), &find);
  if (rc < 0) return libgit2_error(rc, "detecting renames");
  std::vector<DiffEntry> out;
  const std::size_t n = git_diff_num_deltas(diff.get());
  for (std::size_t i = 0; i < n; ++i) {
    const git_diff_delta* d = git_diff_get_delta(diff.get(), i);
    if (d->status != GIT_DELTA_ADDED) {
      if (auto r = check_delta_path(repo, old_tree.get(), d->old_file); !r) return r.error();
    }
    if (d->status != GIT_DELTA_DELETED) {
      if (auto r = check_delta_path(repo, new_tree.get(), d->new_file); !r) return r.error();
    }
    DiffEntry e;
    e.status = status_of(*d);
    e.has_new = d->status != GIT_DELTA_DELETED;
    e.path = e.has_new ? d->new_file.path : d->old_file.path;
    if (d->status == GIT_DELTA_RENAMED || d->status == GIT_DELTA_COPIED) e.old_path = d->old_file.path;
    e.new_kind = entry_kind_of_mode(e.has_new ? d->new_file.mode : d->old_file.mode);
    if (d->status != GIT_DELTA_ADDED) e.old_id = from_git(d->old_file.id);
    if (e.has_new) e.new_id = from_git(d->new_file.id);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace lg::git
