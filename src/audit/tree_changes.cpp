// A commit's changes: the tree walk, or the rename-aware diff.
#include "tree_changes.hpp"

#include <algorithm>


namespace lg::audit {

Result<std::vector<git::DiffEntry>> commit_changes(const git::Repository& repo, git::TreeDiffer& trees,
                                                   const CommitFacts& c, const CommitFacts& parent, bool verify) {
  auto walked = trees.changes(&parent.tree, &c.tree);
  trees.next_generation();
  if (!walked) return walked.error().with_context("cannot judge: diffing commit " + c.hex());
  if (!git::may_have_renames(*walked) && !verify) return walked;
  auto diff = git::diff_trees_with_renames(repo, &parent.tree, &c.tree);
  if (!diff) return diff.error().with_context("cannot judge: diffing commit " + c.hex());
  if (verify && !git::may_have_renames(*walked)) {
    const auto same = [](const git::DiffEntry& a, const git::DiffEntry& b) {
      return a.status == b.status && a.path == b.path && a.old_path == b.old_path && a.new_kind == b.new_kind &&
             a.has_new == b.has_new && a.old_id == b.old_id && a.new_id == b.new_id;
    };
    if (walked->size() != diff->size() || !std::equal(walked->begin(), walked->end(), diff->begin(), same)) {
      return make_error(ErrorKind::internal, "verify: commit " + c.hex() + ": the tree walk differs from libgit2's diff");
    }
  }
  return diff;
}

}  // namespace lg::audit
