// The tree walk behind TreeDiffer: raw tree objects read by id from the
// object database and parsed in place, each with the offsets of its entries.
#include "ledgergate/git/tree_diff.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "ledgergate/git/objects.hpp"
#include "libgit2.hpp"
#include "tree_bytes.hpp"
#include "tree_memo.hpp"

namespace lg::git {

// Raw tree objects by id, each with the offsets of its entries, kept for two
// generations (next_generation()).
class TreeDiffer::Trees {
 public:
  Trees(git_repository* repo, const TreeMemo& memo) : m_repo(repo), m_memo(memo) {}
  struct Tree {
    OdbObjectPtr object;
    std::shared_ptr<const RawTree> kept;  // else the handle's memo's (object null)
    std::string_view data;
    std::vector<std::uint32_t> starts;  // entry offsets; filled on first need
    bool indexed = false;
  };
  Result<Tree*> get(const ObjectId& id);
  void next_generation();

 private:
  using Map = std::unordered_map<ObjectId, std::unique_ptr<Tree>>;
  git_repository* m_repo;
  const TreeMemo& m_memo;  // the handle's: a wide tree it keeps is not read again
  OdbPtr m_odb;
  Map m_current, m_previous;
};

Result<TreeDiffer::Trees::Tree*> TreeDiffer::Trees::get(const ObjectId& id) {
  if (auto it = m_current.find(id); it != m_current.end()) return it->second.get();
  if (auto it = m_previous.find(id); it != m_previous.end()) {
    auto node = m_previous.extract(it);
    return m_current.insert(std::move(node)).position->second.get();
  }
  if (std::shared_ptr<const RawTree> kept = m_memo.find_raw(id)) {
    auto tree = std::make_unique<Tree>();
    tree->data = kept->data();
    tree->kept = std::move(kept);
    return m_current.emplace(id, std::move(tree)).first->second.get();
  }
  if (!m_odb) {
    git_odb* odb = nullptr;
    if (int rc = git_repository_odb(&odb, m_repo); rc < 0) return libgit2_error(rc, "opening object database");
    m_odb.reset(odb);
  }
  git_odb_object* raw = nullptr;
  const git_oid oid = to_git(id);
  if (int rc = git_odb_read(&raw, m_odb.get(), &oid); rc < 0) {
    return libgit2_error(rc, "reading tree " + id.hex());
  }
  auto tree = std::make_unique<Tree>();
  tree->object.reset(raw);
  if (git_odb_object_type(raw) != GIT_OBJECT_TREE) {
    return make_error(ErrorKind::git, "reading tree " + id.hex() + ": not a tree");
  }
  tree->data = std::string_view(static_cast<const char*>(git_odb_object_data(raw)), git_odb_object_size(raw));
  return m_current.emplace(id, std::move(tree)).first->second.get();
}

void TreeDiffer::Trees::next_generation() {
  m_previous = std::move(m_current);
  m_current.clear();
}

namespace {

using Trees = TreeDiffer::Trees;
using Tree = TreeDiffer::Trees::Tree;

// One entry of a raw tree: "<octal mode> <name>\0<20-byte id>".
struct RawEntry {
  unsigned mode = 0;
  std::string_view name;
  const unsigned char* id = nullptr;
  std::size_t end = 0;  // offset just past the entry
  // A folder by its mode's type, as git (canon_mode) and libgit2 read it:
  // a zero-padded "040000", or a folder mode with permission bits (which
  // git fsck only warns of), names a folder whose files a diff lists, not
  // one file.
  bool is_tree() const { return canonical_mode(mode) == FileMode::tree; }
};

bool parse_entry(std::string_view data, std::size_t at, RawEntry& out) {
  TreeEntryBytes e;
  if (!read_tree_entry(data, at, e) || malformed_name_reason(e.name)) return false;  // a name git fsck rejects (an empty one too)
  out.mode = e.mode;
  out.name = e.name;
  out.id = e.id;
  out.end = e.end;
  return true;
}

Error malformed(const git_oid* id) {
  return Error{ErrorKind::git, "reading tree " + (id ? oid_hex(*id) : std::string()) +
                                   ": malformed entry (unparsable, or a name git fsck rejects)"};
}

Result<void> index(Tree& t) {
  if (t.indexed) return {};
  t.starts.clear();
  RawEntry e;
  for (std::size_t at = 0; at < t.data.size(); at = e.end) {
    if (!parse_entry(t.data, at, e)) return malformed(git_odb_object_id(t.object.get()));
    t.starts.push_back(static_cast<std::uint32_t>(at));
  }
  t.indexed = true;
  return {};
}

// git's tree order: names compared as bytes, a tree's name as if it ended in '/'.
int git_order(const RawEntry& a, const RawEntry& b) {
  return tree_order_compare(a.name, a.is_tree(), b.name, b.is_tree());
}

// The object kind of a mode, as libgit2's typechange test reads it.
unsigned mode_type(unsigned mode) { return mode & 0170000u; }

std::size_t common_prefix(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  constexpr std::size_t k_block = 256;
  std::size_t i = 0;
  while (i + k_block <= n && std::memcmp(a.data() + i, b.data() + i, k_block) == 0) i += k_block;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

std::size_t common_suffix(std::string_view a, std::string_view b, std::size_t limit) {
  constexpr std::size_t k_block = 256;
  std::size_t i = 0;
  while (i + k_block <= limit &&
         std::memcmp(a.data() + a.size() - i - k_block, b.data() + b.size() - i - k_block, k_block) == 0) {
    i += k_block;
  }
  while (i < limit && a[a.size() - 1 - i] == b[b.size() - 1 - i]) ++i;
  return i;
}

struct Walk {
  Trees& trees;
  std::vector<DiffEntry>& out;
};

std::string join(const std::string& dir, std::string_view name) {
  return dir.empty() ? std::string(name) : dir + "/" + std::string(name);
}

Result<void> walk(Walk& w, const std::string& dir, Tree* from, Tree* to);

// Every file below (or at) `e` as added (or deleted).
Result<void> whole(Walk& w, const std::string& dir, const RawEntry& e, bool added) {
  const std::string path = join(dir, e.name);
  if (e.is_tree()) {
    LG_TRY(Tree * sub, w.trees.get(ObjectId::from_bytes(e.id)));
    return added ? walk(w, path, nullptr, sub) : walk(w, path, sub, nullptr);
  }
  DiffEntry d;
  d.status = added ? "A" : "D";
  d.path = path;
  d.has_new = added;
  d.new_kind = entry_kind_of_mode(e.mode);
  (added ? d.new_id : d.old_id) = ObjectId::from_bytes(e.id);
  w.out.push_back(std::move(d));
  return {};
}

// Both entries name the same path: their difference, if any.
Result<void> compare(Walk& w, const std::string& dir, const RawEntry& a, const RawEntry& b) {
  if (a.mode == b.mode && std::memcmp(a.id, b.id, GIT_OID_RAWSZ) == 0) return {};
  if (a.is_tree()) {  // both trees: equal names and kinds sort together
    LG_TRY(Tree * ta, w.trees.get(ObjectId::from_bytes(a.id)));
    LG_TRY(Tree * tb, w.trees.get(ObjectId::from_bytes(b.id)));
    return walk(w, join(dir, a.name), ta, tb);
  }
  DiffEntry d;
  d.status = mode_type(a.mode) != mode_type(b.mode) ? "T" : "M";
  d.path = join(dir, b.name);
  d.new_kind = entry_kind_of_mode(b.mode);
  d.old_id = ObjectId::from_bytes(a.id);
  d.new_id = ObjectId::from_bytes(b.id);
  w.out.push_back(std::move(d));
  return {};
}

Result<void> walk(Walk& w, const std::string& dir, Tree* from, Tree* to) {
  if (!from || !to) {  // one side only: every entry added or deleted
    Tree* t = from ? from : to;
    if (auto r = index(*t); !r) return r;
    RawEntry e;
    for (std::uint32_t at : t->starts) {
      parse_entry(t->data, at, e);
      if (auto r = whole(w, dir, e, to != nullptr); !r) return r;
    }
    return {};
  }
  if (auto r = index(*from); !r) return r;
  const std::string_view a = from->data, b = to->data;
  // The bytes before the first difference hold the same entries at the same
  // offsets in both; the bytes after the last difference too (shifted).
  const std::size_t prefix = common_prefix(a, b);
  const std::size_t suffix = common_suffix(a, b, std::min(a.size(), b.size()) - prefix);
  const auto first = std::upper_bound(from->starts.begin(), from->starts.end(), static_cast<std::uint32_t>(prefix));
  const std::size_t k = static_cast<std::size_t>(first - from->starts.begin()) - (first == from->starts.begin() ? 0 : 1);
  std::size_t pa = k < from->starts.size() ? from->starts[k] : a.size();
  std::size_t pb = pa;
  std::vector<std::uint32_t> starts(from->starts.begin(), from->starts.begin() + static_cast<std::ptrdiff_t>(k));
  RawEntry ea, eb;
  bool have_a = false, have_b = false;
  while (true) {
    if (!have_a && !have_b && a.size() - pa == b.size() - pb && a.size() - pa <= suffix) break;  // the rest is equal
    if (!have_a && pa < a.size()) {
      if (!parse_entry(a, pa, ea)) return malformed(git_odb_object_id(from->object.get()));
      have_a = true;
    }
    if (!have_b && pb < b.size()) {
      if (!parse_entry(b, pb, eb)) return malformed(git_odb_object_id(to->object.get()));
      have_b = true;
    }
    if (!have_a && !have_b) break;
    const int order = !have_a ? 1 : !have_b ? -1 : git_order(ea, eb);
    if (order < 0) {
      if (auto r = whole(w, dir, ea, false); !r) return r;
      pa = ea.end;
      have_a = false;
    } else if (order > 0) {
      if (auto r = whole(w, dir, eb, true); !r) return r;
      starts.push_back(static_cast<std::uint32_t>(pb));
      pb = eb.end;
      have_b = false;
    } else {
      if (auto r = compare(w, dir, ea, eb); !r) return r;
      starts.push_back(static_cast<std::uint32_t>(pb));
      pa = ea.end;
      pb = eb.end;
      have_a = have_b = false;
    }
  }
  // The equal rest: `from`'s entries from pa on, shifted to `to`'s offsets.
  if (!to->indexed) {
    const auto rest = std::lower_bound(from->starts.begin(), from->starts.end(), static_cast<std::uint32_t>(pa));
    for (auto it = rest; it != from->starts.end(); ++it) {
      starts.push_back(static_cast<std::uint32_t>(*it - pa + pb));
    }
    to->starts = std::move(starts);
    to->indexed = true;
  }
  return {};
}

Result<std::vector<DiffEntry>> tree_changes(Trees& trees, const ObjectId* from, const ObjectId* to) {
  std::vector<DiffEntry> out;
  if (from && to && *from == *to) return out;
  Tree* a = nullptr;
  Tree* b = nullptr;
  if (from) {
    LG_TRY(a, trees.get(*from));
  }
  if (to) {
    LG_TRY(b, trees.get(*to));
  }
  Walk w{trees, out};
  if (auto r = walk(w, "", a, b); !r) return r.error();
  return out;
}

}  // namespace

TreeDiffer::TreeDiffer(const Repository& repo) : m_trees(std::make_unique<Trees>(repo.raw(), repo.trees())) {}
TreeDiffer::~TreeDiffer() = default;

Result<std::vector<DiffEntry>> TreeDiffer::changes(const ObjectId* from, const ObjectId* to) {
  return tree_changes(*m_trees, from, to);
}

void TreeDiffer::next_generation() { m_trees->next_generation(); }

bool may_have_renames(const std::vector<DiffEntry>& changes) {
  bool added = false, deleted = false;
  for (const DiffEntry& e : changes) {
    added = added || e.status == "A";
    deleted = deleted || e.status == "D";
  }
  return added && deleted;
}

}  // namespace lg::git
