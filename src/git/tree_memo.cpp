// Large trees kept per repository handle, and path look-ups through them
// (tree_memo.hpp).
#include "tree_memo.hpp"

#include <cstring>
#include <string>

namespace lg::git {
namespace {

// An entry's bytes in a tree object, "<mode> <name>\0<20-byte id>", for a
// name of 4 KiB: a tree of fewer entries than k_cached_tree_limit / this
// is not measured (nothing a path names is that long).
constexpr std::size_t k_max_entry_bytes = 4096 + 28;

// The tree object's size, from its entries.
std::size_t raw_size(const git_tree* tree) {
  std::size_t bytes = 0;
  const std::size_t n = git_tree_entrycount(tree);
  for (std::size_t i = 0; i < n; ++i) {
    const git_tree_entry* e = git_tree_entry_byindex(tree, i);
    bytes += (git_tree_entry_filemode_raw(e) >= 0100000 ? 6 : 5) + 2 + std::strlen(git_tree_entry_name(e)) + GIT_OID_RAWSZ;
  }
  return bytes;
}

}  // namespace

Result<TreePtr> TreeMemo::get(git_repository* repo, const ObjectId& id) {
  const auto dup = [](const TreePtr& kept) {
    git_object* copy = nullptr;
    git_object_dup(&copy, reinterpret_cast<git_object*>(kept.get()));
    return TreePtr(reinterpret_cast<git_tree*>(copy));
  };
  if (const auto it = m_trees.find(id); it != m_trees.end()) return dup(it->second);
  LG_TRY(TreePtr tree, lookup_tree(repo, id));
  const std::size_t n = git_tree_entrycount(tree.get());
  if (n < k_cached_tree_limit / k_max_entry_bytes || m_small.count(id) != 0) return tree;
  if (raw_size(tree.get()) < k_cached_tree_limit) {
    m_small.insert(id);
    return tree;
  }
  while (!m_order.empty() && (m_trees.size() >= k_max_trees || m_entries + n > k_max_entries)) {
    const auto oldest = m_trees.find(m_order.front());
    m_entries -= git_tree_entrycount(oldest->second.get());
    m_trees.erase(oldest);
    m_order.pop_front();
  }
  TreePtr returned = dup(tree);
  m_trees.emplace(id, std::move(tree));
  m_order.push_back(id);
  m_entries += n;
  return returned;
}

Result<std::optional<PathEntry>> entry_by_path(git_repository* repo, TreeMemo& memo, const git_tree* root,
                                               std::string_view path) {
  const git_tree* tree = root;
  TreePtr held;  // the subtree `tree` points into, once below the root
  for (std::size_t at = 0;;) {
    const std::size_t slash = path.find('/', at);
    const std::string name(path.substr(at, slash == std::string_view::npos ? std::string_view::npos : slash - at));
    const git_tree_entry* e = name.empty() ? nullptr : git_tree_entry_byname(tree, name.c_str());
    if (!e) return std::optional<PathEntry>();
    if (slash == std::string_view::npos) {
      return std::optional<PathEntry>(PathEntry{name, *git_tree_entry_id(e), git_tree_entry_filemode(e), git_tree_entry_filemode_raw(e)});
    }
    if (git_tree_entry_type(e) != GIT_OBJECT_TREE) return std::optional<PathEntry>();
    LG_TRY(TreePtr next, memo.get(repo, from_git(*git_tree_entry_id(e))));
    held = std::move(next);
    tree = held.get();
    at = slash + 1;
  }
}

}  // namespace lg::git
