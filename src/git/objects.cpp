// Tree and blob reads and writes over libgit2.
#include "ledgergate/git/objects.hpp"

#include "libgit2.hpp"
#include "loose_guard.hpp"
#include "pack_index.hpp"
#include "tree_bytes.hpp"
#include "tree_memo.hpp"
#include "ledgergate/util/text.hpp"
#include "ledgergate/util/word_bytes.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace lg::git {

Result<TreeItems> read_tree(const Repository& repo, const ObjectId& id) {
  if (std::shared_ptr<const RawTree> raw = repo.trees().raw(repo.raw(), id, true)) {
    TreeItems out;
    out.items.reserve(raw->items.size());
    for (const RawTree::Item& e : raw->items) {
      out.items.push_back(TreeItemView{raw->name(e), static_cast<FileMode>(e.mode), ObjectId::from_bytes(raw->id(e))});
    }
    out.keep = std::move(raw);
    return out;
  }
  LG_TRY(TreePtr tree, lookup_tree(repo, id));
  const std::size_t n = git_tree_entrycount(tree.get());
  TreeItems out;
  out.items.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const git_tree_entry* e = git_tree_entry_byindex(tree.get(), i);
    out.items.push_back(TreeItemView{git_tree_entry_name(e), canonical_mode(git_tree_entry_filemode_raw(e)),
                                     from_git(*git_tree_entry_id(e))});
  }
  out.keep = std::make_shared<const TreePtr>(std::move(tree));
  return out;
}

Result<std::optional<TreeItem>> tree_entry_at(const Repository& repo, const ObjectId& tree_id,
                                              const std::string& path) {
  LG_TRY(const TreePtr tree, lookup_tree(repo, tree_id));
  LG_TRY(const std::optional<PathEntry> entry, entry_by_path(repo.raw(), repo.trees(), tree.get(), path));
  if (!entry) return std::optional<TreeItem>();
  return std::optional<TreeItem>(
      TreeItem{entry->name, static_cast<FileMode>(entry->mode), from_git(entry->id)});
}

Result<std::string> read_blob(const Repository& repo, const ObjectId& id) {
  LG_TRY(BlobPtr blob, lookup_blob(repo.raw(), id));
  return blob_bytes(std::move(blob));
}

Result<ObjectId> write_blob(const Repository& repo, std::string_view bytes) {
  auto id = write_object(repo.raw(), bytes, GIT_OBJECT_BLOB);
  if (!id) return id.error().with_context("writing a blob");
  return id;
}

Result<bool> has_object(const Repository& repo, const ObjectId& id) {
  git_odb* raw = nullptr;
  if (const int rc = git_repository_odb(&raw, repo.raw()); rc < 0) return libgit2_error(rc);
  const OdbPtr odb(raw);
  const git_oid oid = to_git(id);
  return git_odb_exists(odb.get(), &oid) == 1;
}

Result<void> confirm_objects(const Repository& repo, std::span<const ObjectId> ids) {
  return confirm_objects(repo.raw(), ids);
}

namespace {

Result<void> confirm_in_order(git_odb* odb, std::span<const ObjectId> ids) {
  for (const ObjectId& id : ids) {
    const git_oid oid = to_git(id);
    if (const int rc = confirm_object(odb, &oid); rc < 0) {
      if (rc == GIT_ENOTFOUND) {
        return make_error(ErrorKind::not_found, "object " + id.hex() + " is missing from the repository");
      }
      Error e = libgit2_error(rc);  // the loose guard's names the object already
      return e.message.find(id.hex()) == std::string::npos ? e.with_context("object " + id.hex()) : e;
    }
  }
  return {};
}

}  // namespace

// In id order, so that the pack index's binary searches walk it front to
// back rather than jump about its megabytes (20,000 ids in random order
// missed the cache at every step: a tenth of a trial merge's time at
// 20,000 projects), giving back the pages behind (PackIndexes::passed: at
// 20,000 projects the sweep touches all 5.8 MB of the index's ids, held
// whole the pre-commit hook's largest part); when one fails, again in the
// caller's order, so the error names the object it always named.
Result<void> confirm_objects(git_repository* repo, std::span<const ObjectId> ids) {
  if (ids.empty()) return {};
  git_odb* raw = nullptr;
  if (const int rc = git_repository_odb(&raw, repo); rc < 0) return libgit2_error(rc, "opening the object database");
  const OdbPtr odb(raw);
  constexpr std::size_t k_sorted_from = 64;
  if (ids.size() < k_sorted_from) return confirm_in_order(odb.get(), ids);
  // Ordered by the first eight bytes as a number (taken once per id, one
  // compare), as the ids are: byte by byte; ties by the whole id.
  std::vector<std::pair<std::uint64_t, const ObjectId*>> by_lead;
  by_lead.reserve(ids.size());
  for (const ObjectId& id : ids) by_lead.emplace_back(util::load_be64(id.bytes()), &id);
  std::sort(by_lead.begin(), by_lead.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : *a.second < *b.second;
  });
  // The ids the repository's own pack indexes list are present (what
  // libgit2's pack backend answers from the same indexes, at a fifth of
  // the cost); libgit2 is asked about the rest, each once. Not where the
  // environment names the object folder (a push quarantine's objects are
  // elsewhere).
  PackIndexes packs;
  if (std::getenv("GIT_OBJECT_DIRECTORY") == nullptr) {
    packs = PackIndexes::open(std::string(git_repository_commondir(repo)) + "objects");
  }
  std::vector<ObjectId> rest;
  const ObjectId* previous = nullptr;
  for (const auto& [lead, id] : by_lead) {
    if (previous && *previous == *id) continue;
    previous = id;
    if (!packs.contains(*id)) rest.push_back(*id);
    packs.passed(*id);
  }
  if (confirm_in_order(odb.get(), rest)) return {};
  git_error_clear();
  return confirm_in_order(odb.get(), ids);
}

Result<TreeBuilder> TreeBuilder::open(const Repository& repo, const ObjectId* from) {
  if (!from) return TreeBuilder(repo, nullptr, {});
  git_odb* raw = nullptr;
  if (const int rc = git_repository_odb(&raw, repo.raw()); rc < 0) return libgit2_error(rc);
  const OdbPtr odb(raw);
  git_odb_object* obj = nullptr;
  const git_oid oid = to_git(*from);
  if (const int rc = git_odb_read(&obj, odb.get(), &oid); rc < 0) return libgit2_error(rc);
  auto object = std::make_shared<const OdbObjectPtr>(obj);
  if (git_odb_object_type(obj) != GIT_OBJECT_TREE) {
    return make_error(ErrorKind::git, "object " + from->hex() + " is not a tree");
  }
  const std::string_view base(static_cast<const char*>(git_odb_object_data(obj)), git_odb_object_size(obj));
  return TreeBuilder(repo, std::move(object), base);
}

bool TreeBuilder::has(const std::string& name) const {
  if (auto it = m_edits.find(name); it != m_edits.end()) return it->second.has_value();
  TreeEntryBytes e;
  for (std::size_t pos = 0; read_tree_entry(m_base, pos, e); pos = e.end) {
    if (e.name == name) return true;
  }
  return false;
}

Result<void> TreeBuilder::insert(const std::string& name, const ObjectId& id, FileMode mode) {
  if (name.find('\0') != std::string::npos) {
    return make_error(ErrorKind::invalid_input, "a tree entry name holding a NUL byte");
  }
  if (const auto why = malformed_name_reason(name)) {
    return make_error(ErrorKind::invalid_input,
                      "tree entry " + util::py_repr(util::sanitize_utf8(name)) + ": " + std::string(*why));
  }
  if (mode == FileMode::none) return make_error(ErrorKind::invalid_input, "tree entry " + name + " has no mode");
  m_edits.insert_or_assign(name, TreeItem{name, mode, id});
  return {};
}

Result<void> TreeBuilder::remove(const std::string& name) {
  if (!has(name)) return make_error(ErrorKind::not_found, "failed to remove entry: " + name + " is not in the tree");
  m_edits.insert_or_assign(name, std::nullopt);
  return {};
}

Result<ObjectId> TreeBuilder::write() {
  // The edits that add an entry, in tree order; the base's entries are
  // already in it.
  std::vector<const TreeItem*> added;
  for (const auto& [name, item] : m_edits) {
    if (item) added.push_back(&*item);
  }
  const auto item_dir = [](const TreeItem* t) { return t->mode == FileMode::tree; };
  std::sort(added.begin(), added.end(), [&](const TreeItem* a, const TreeItem* b) {
    return tree_order(a->name, item_dir(a), b->name, item_dir(b));
  });
  std::string out;
  out.reserve(m_base.size() + added.size() * 64);
  std::size_t next = 0, pos = 0;
  // The added entries that sort before `name` (all of them at the end).
  const auto place_added_before = [&](std::optional<std::pair<std::string_view, bool>> name) {
    for (; next < added.size() && (!name || tree_order(added[next]->name, item_dir(added[next]), name->first,
                                                       name->second));
         ++next) {
      append_tree_entry(out, static_cast<unsigned>(added[next]->mode), added[next]->name, added[next]->id.bytes());
    }
  };
  while (pos < m_base.size()) {
    // The tree was parsed by libgit2 when it was read: bytes that are no
    // entry are a tree changed under the builder.
    TreeEntryBytes e;
    if (!read_tree_entry(m_base, pos, e)) return make_error(ErrorKind::git, "a tree being rewritten holds malformed bytes");
    pos = e.end;
    if (!m_edits.empty() && m_edits.find(e.name) != m_edits.end()) continue;
    place_added_before(std::pair{e.name, canonical_mode(e.mode) == FileMode::tree});
    append_tree_entry(out, e.mode, e.name, e.id);
  }
  place_added_before(std::nullopt);
  auto id = write_object(m_repo->raw(), out, GIT_OBJECT_TREE);
  if (!id) return id.error().with_context("writing a tree");
  return id;
}

Result<ObjectId> update_tree(const Repository& repo, const ObjectId& base, const std::vector<TreeUpdate>& updates) {
  LG_TRY(const TreePtr tree, lookup_tree(repo, base));
  std::vector<git_tree_update> raw;
  raw.reserve(updates.size());
  for (const TreeUpdate& u : updates) {
    git_tree_update r{};
    r.path = u.path.c_str();
    if (u.id) {
      r.action = GIT_TREE_UPDATE_UPSERT;
      r.id = to_git(*u.id);
      r.filemode = static_cast<git_filemode_t>(u.mode);
    } else {
      r.action = GIT_TREE_UPDATE_REMOVE;
    }
    raw.push_back(r);
  }
  git_oid id;
  const int rc = git_tree_create_updated(&id, repo.raw(), tree.get(), raw.size(), raw.data());
  if (rc < 0) return libgit2_error(rc);
  return from_git(id);
}

}  // namespace lg::git
