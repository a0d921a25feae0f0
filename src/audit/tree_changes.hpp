// The audit's tree diff: what changed between a commit's tree and its
// parent's, found by descending only into subtrees whose ids differ, with the
// trees of the commit visited last kept parsed (the next commit's parent).
// Internal to the audit module.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/repository.hpp"

namespace lg::audit {

// Raw tree objects by id, each with the offsets of its entries, kept for two
// generations: the trees read while diffing one commit are still at hand
// when the next commit (its child) reads them as its parent's.
class TreeReader {
 public:
  explicit TreeReader(git_repository* repo) : m_repo(repo) {}
  struct Tree {
    git::OdbObjectPtr object;
    std::string_view data;
    std::vector<std::uint32_t> starts;  // entry offsets; filled on first need
    bool indexed = false;
  };
  Result<Tree*> get(const git_oid& id);
  void next_generation();  // drops the trees not read since the call before

 private:
  struct OidHash {
    std::size_t operator()(const git_oid& id) const;
  };
  struct OidEq {
    bool operator()(const git_oid& a, const git_oid& b) const { return git_oid_equal(&a, &b) != 0; }
  };
  using Map = std::unordered_map<git_oid, std::unique_ptr<Tree>, OidHash, OidEq>;
  git_repository* m_repo;
  git::OdbPtr m_odb;
  Map m_current, m_previous;
};

// The entries that differ from tree `from` to tree `to` (either may be null:
// the empty tree), in git_diff_tree_to_tree's order and with its statuses
// (A, D, M, T; with typechanges, without rename detection). Identical
// subtrees are skipped without being read, and within two versions of a tree
// only the entries between their common prefix and common suffix (bytes)
// are compared: the cost follows what changed, not the tree's size.
Result<std::vector<git::DiffEntry>> tree_changes(TreeReader& trees, const git_oid* from, const git_oid* to);

// Whether rename detection could pair entries of `changes` (a file added and
// another deleted): only then does the audit ask libgit2's rename-aware diff.
bool may_have_renames(const std::vector<git::DiffEntry>& changes);

struct CommitFacts;

// The changes from `parent`'s tree to `c`'s: the tree walk, or libgit2's
// rename-aware diff when a file was both added and deleted. `verify`: the
// walk is compared with libgit2's diff, a difference an internal error.
Result<std::vector<git::DiffEntry>> commit_changes(const git::Repository& repo, TreeReader& trees,
                                                   const CommitFacts& c, const CommitFacts& parent, bool verify);

}  // namespace lg::audit
