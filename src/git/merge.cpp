// File and whole-tree merges over libgit2.
#include "ledgergate/git/merge.hpp"

#include <git2/sys/index.h>

#include "disposing.hpp"
#include "libgit2.hpp"

namespace lg::git {
namespace {

using ConflictIteratorPtr = Owned<git_index_conflict_iterator, git_index_conflict_iterator_free>;

std::optional<std::string> path_or_none(const char* path) {
  return path ? std::optional<std::string>(path) : std::nullopt;
}

std::optional<std::string> path_of(const git_index_entry* e) { return path_or_none(e ? e->path : nullptr); }

}  // namespace

Result<MergedFile> merge_file(const std::string& path, const MergeFileInput& ancestor, const MergeFileInput& ours,
                              const MergeFileInput& theirs, const MergeFileOptions* options) {
  const auto input = [&](const MergeFileInput& in) {
    git_merge_file_input out{};
    git_merge_file_input_init(&out, GIT_MERGE_FILE_INPUT_VERSION);
    out.ptr = in.text.data();
    out.size = in.text.size();
    out.path = path.c_str();
    out.mode = in.mode;
    return out;
  };
  const git_merge_file_input a = input(ancestor), o = input(ours), t = input(theirs);
  git_merge_file_options opts{};
  git_merge_file_options_init(&opts, GIT_MERGE_FILE_OPTIONS_VERSION);
  if (options) {
    opts.ancestor_label = options->ancestor_label;
    opts.our_label = options->our_label;
    opts.their_label = options->their_label;
    if (options->marker_size != 0) opts.marker_size = options->marker_size;
  }
  Disposing<git_merge_file_result, git_merge_file_result_free> merged;
  const int rc = git_merge_file(merged.out(), &a, &o, &t, options ? &opts : nullptr);
  if (rc < 0) return libgit2_error(rc);
  MergedFile out;
  out.clean = merged->automergeable != 0;
  out.text.assign(merged->ptr, merged->len);
  return out;
}

Result<RenameMerge> merge_trees_with_renames(const Repository& repo, const ObjectId& base, const ObjectId& ours,
                                             const ObjectId& theirs) {
  TreePtr trees[3];
  const ObjectId* ids[3] = {&base, &ours, &theirs};
  for (int i = 0; i < 3; ++i) {
    auto tree = lookup_tree(repo, *ids[i]);
    if (!tree) return tree.error().with_context("reading tree " + ids[i]->hex());
    trees[i] = std::move(*tree);
  }
  git_merge_options opts{};
  git_merge_options_init(&opts, GIT_MERGE_OPTIONS_VERSION);
  opts.flags = GIT_MERGE_FIND_RENAMES;
  git_index* raw = nullptr;
  int rc = git_merge_trees(&raw, repo.raw(), trees[0].get(), trees[1].get(), trees[2].get(), &opts);
  if (rc < 0) return libgit2_error(rc, "merging trees");
  const IndexPtr index(raw);
  RenameMerge out;
  if (git_index_has_conflicts(index.get())) {
    git_index_conflict_iterator* it_raw = nullptr;
    rc = git_index_conflict_iterator_new(&it_raw, index.get());
    if (rc < 0) return libgit2_error(rc, "listing conflicts");
    const ConflictIteratorPtr it(it_raw);
    const git_index_entry *a = nullptr, *o = nullptr, *t = nullptr;
    while (git_index_conflict_next(&a, &o, &t, it.get()) == 0)
      out.conflicts.push_back({path_of(a), path_of(o), path_of(t)});
    for (std::size_t i = 0, n = git_index_name_entrycount(index.get()); i < n; ++i) {
      const git_index_name_entry* e = git_index_name_get_byindex(index.get(), i);
      out.renames.push_back({path_or_none(e->ancestor), path_or_none(e->ours), path_or_none(e->theirs)});
    }
    return out;
  }
  git_oid tree;
  rc = git_index_write_tree_to(&tree, index.get(), repo.raw());
  if (rc < 0) return libgit2_error(rc, "writing the merged tree");
  out.tree = from_git(tree);
  return out;
}

}  // namespace lg::git
