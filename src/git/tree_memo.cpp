// Large trees kept per repository handle, and path look-ups through them
// (tree_memo.hpp).
#include "tree_memo.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "ledgergate/git/objects.hpp"
#include "tree_bytes.hpp"

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

// The entries of a tree's bytes as RawTree takes them; false otherwise.
bool parse_raw_items(std::string_view bytes, std::vector<RawTree::Item>& out) {
  if (bytes.size() > UINT32_MAX) return false;
  TreeEntryBytes e;
  std::string_view last_name;
  for (std::size_t at = 0; at < bytes.size();) {
    if (!read_tree_entry(bytes, at, e) || !e.canonical || e.name.size() > UINT16_MAX) return false;
    const std::string_view name = e.name;
    // Only a name starting with '.' or holding '/' can be malformed.
    if ((name.empty() || name[0] == '.' || name.find('/') != std::string_view::npos) && malformed_name_reason(name)) {
      return false;
    }
    const bool dir = e.mode == GIT_FILEMODE_TREE;
    if (!out.empty()) {
      if (!tree_order(last_name, out.back().mode == GIT_FILEMODE_TREE, name, dir)) return false;
      // A file and a directory of one name lie apart in git's order: "x",
      // then names "x" continues with a byte below '/', then "x/".
      if (dir) {
        for (std::size_t k = out.size(); k-- > 0;) {
          const std::string_view before = bytes.substr(out[k].name_at, out[k].name_size);
          if (before.size() < name.size() || before.compare(0, name.size(), name) != 0) break;
          if (before.size() == name.size()) return false;
        }
      }
    }
    out.push_back(RawTree::Item{static_cast<std::uint32_t>(name.data() - bytes.data()),
                                static_cast<std::uint16_t>(name.size()), static_cast<std::uint16_t>(e.mode)});
    last_name = name;
    at = e.end;
  }
  return true;
}

}  // namespace

const RawTree::Item* RawTree::find(std::string_view name) const {
  for (const bool dir : {false, true}) {
    const auto it = std::lower_bound(items.begin(), items.end(), name, [this, dir](const Item& e, std::string_view n) {
      return tree_order(this->name(e), e.mode == GIT_FILEMODE_TREE, n, dir);
    });
    if (it != items.end() && this->name(*it) == name && (it->mode == GIT_FILEMODE_TREE) == dir) return &*it;
  }
  return nullptr;
}

std::shared_ptr<const RawTree> read_raw_tree(git_repository* repo, const ObjectId& id) {
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, repo) < 0) {
    git_error_clear();
    return nullptr;
  }
  const OdbPtr owned_odb(odb);
  git_odb_object* raw = nullptr;
  const git_oid oid = to_git(id);
  if (git_odb_read(&raw, odb, &oid) < 0) {
    git_error_clear();
    return nullptr;
  }
  auto tree = std::make_shared<RawTree>();
  tree->object.reset(raw);
  if (git_odb_object_type(raw) != GIT_OBJECT_TREE) return nullptr;
  const std::string_view bytes = tree->data();
  tree->bytes = bytes.data();
  tree->items.reserve(bytes.size() / 32);
  if (!parse_raw_items(bytes, tree->items)) return nullptr;
  return tree;
}

std::shared_ptr<const RawTree> TreeMemo::find_raw(const ObjectId& id) const {
  const auto it = m_raw.find(id);
  return it == m_raw.end() ? nullptr : it->second;
}

std::shared_ptr<const RawTree> TreeMemo::wide(git_repository* repo, const ObjectId& id) {
  if (m_narrow.count(id) != 0) return nullptr;
  std::shared_ptr<const RawTree> tree = raw(repo, id);
  if (tree && tree->data().size() < k_wide_bytes) {
    if (m_narrow.size() >= k_max_narrow) m_narrow.clear();
    m_narrow.insert(id);
  }
  return tree;
}

std::shared_ptr<const RawTree> TreeMemo::raw(git_repository* repo, const ObjectId& id, bool keep_first) {
  if (auto kept = find_raw(id)) return kept;
  std::shared_ptr<const RawTree> tree = read_raw_tree(repo, id);
  if (!tree || tree->data().size() < k_wide_bytes) return tree;
  // Kept from its second read: a tree read once (a cold check's walk reads
  // each once) is not held for nothing. One libgit2 would not cache is kept
  // from the first, as get() keeps it.
  if (!keep_first && tree->data().size() < k_cached_tree_limit && m_read_once.insert(id).second) {
    if (m_read_once.size() > k_max_narrow) m_read_once.clear();
    return tree;
  }
  const std::size_t cost = tree->memory();
  while (!m_raw_order.empty() && m_raw_bytes + cost > k_wide_budget) {
    const auto oldest = m_raw.find(m_raw_order.front());
    m_raw_bytes -= oldest->second->memory();
    m_raw.erase(oldest);
    m_raw_order.pop_front();
  }
  m_raw.emplace(id, tree);
  m_raw_order.push_back(id);
  m_raw_bytes += cost;
  return tree;
}

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
  // Each step below the root is read raw (RawTree) the first time, a wide
  // one kept; a narrow one looked up again is libgit2's (whose cache keeps
  // it parsed), as is a tree RawTree does not take, with its errors.
  const git_tree* tree = root;
  TreePtr held;  // the subtree `tree` points into, once below the root
  std::shared_ptr<const RawTree> raw;  // else the subtree read raw
  for (std::size_t at = 0;;) {
    const std::size_t slash = path.find('/', at);
    const std::string_view name =
        path.substr(at, slash == std::string_view::npos ? std::string_view::npos : slash - at);
    if (name.empty()) return std::optional<PathEntry>();
    git_oid id;
    unsigned raw_mode = 0;
    git_filemode_t mode = GIT_FILEMODE_UNREADABLE;
    if (raw) {
      const RawTree::Item* e = raw->find(name);
      if (!e) return std::optional<PathEntry>();
      std::memcpy(id.id, raw->id(*e), GIT_OID_RAWSZ);
      raw_mode = e->mode;
      mode = static_cast<git_filemode_t>(e->mode);  // one of git's five, as libgit2 normalises it
    } else {
      const git_tree_entry* e = git_tree_entry_byname(tree, std::string(name).c_str());
      if (!e) return std::optional<PathEntry>();
      id = *git_tree_entry_id(e);
      raw_mode = git_tree_entry_filemode_raw(e);
      mode = static_cast<git_filemode_t>(canonical_mode(raw_mode));
    }
    if (slash == std::string_view::npos) {
      return std::optional<PathEntry>(PathEntry{std::string(name), id, mode, raw_mode});
    }
    if (mode != GIT_FILEMODE_TREE) return std::optional<PathEntry>();
    const ObjectId next_id = from_git(id);
    raw = memo.wide(repo, next_id);
    if (!raw) {
      LG_TRY(TreePtr next, memo.get(repo, next_id));
      held = std::move(next);
      tree = held.get();
    }
    at = slash + 1;
  }
}

}  // namespace lg::git
