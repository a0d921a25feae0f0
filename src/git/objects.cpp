// Tree and blob reads and writes over libgit2.
#include "ledgergate/git/objects.hpp"

#include "libgit2.hpp"
#include "loose_guard.hpp"
#include "tree_memo.hpp"

namespace lg::git {
namespace {

TreeItem item_of(const git_tree_entry* e) {
  return TreeItem{git_tree_entry_name(e), static_cast<FileMode>(git_tree_entry_filemode(e)),
                  from_git(*git_tree_entry_id(e))};
}

}  // namespace

Result<std::vector<TreeItem>> read_tree(const Repository& repo, const ObjectId& id) {
  LG_TRY(const TreePtr tree, lookup_tree(repo, id));
  std::vector<TreeItem> out;
  const std::size_t n = git_tree_entrycount(tree.get());
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(item_of(git_tree_entry_byindex(tree.get(), i)));
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
  LG_TRY(const BlobPtr blob, lookup_blob(repo.raw(), id));
  return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                     static_cast<std::size_t>(git_blob_rawsize(blob.get())));
}

Result<ObjectId> write_blob(const Repository& repo, std::string_view bytes) {
  git_oid id;
  if (const int rc = git_blob_create_from_buffer(&id, repo.raw(), bytes.data(), bytes.size()); rc < 0) {
    return libgit2_error(rc, "writing a blob");
  }
  return from_git(id);
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

Result<void> confirm_objects(git_repository* repo, std::span<const ObjectId> ids) {
  if (ids.empty()) return {};
  git_odb* raw = nullptr;
  if (const int rc = git_repository_odb(&raw, repo); rc < 0) return libgit2_error(rc, "opening the object database");
  const OdbPtr odb(raw);
  for (const ObjectId& id : ids) {
    const git_oid oid = to_git(id);
    if (const int rc = confirm_object(odb.get(), &oid); rc < 0) {
      if (rc == GIT_ENOTFOUND) {
        return make_error(ErrorKind::not_found, "object " + id.hex() + " is missing from the repository");
      }
      Error e = libgit2_error(rc);  // the loose guard's names the object already
      return e.message.find(id.hex()) == std::string::npos ? e.with_context("object " + id.hex()) : e;
    }
  }
  return {};
}

void TreeBuilder::Free::operator()(git_treebuilder* builder) const noexcept { git_treebuilder_free(builder); }

Result<TreeBuilder> TreeBuilder::open(const Repository& repo, const ObjectId* from) {
  TreePtr tree;
  if (from) {
    LG_TRY(tree, lookup_tree(repo, *from));
  }
  git_treebuilder* builder = nullptr;
  if (const int rc = git_treebuilder_new(&builder, repo.raw(), tree.get()); rc < 0) return libgit2_error(rc);
  return TreeBuilder(builder);
}

Result<void> TreeBuilder::insert(const std::string& name, const ObjectId& id, FileMode mode) {
  const git_oid oid = to_git(id);
  const int rc =
      git_treebuilder_insert(nullptr, m_builder.get(), name.c_str(), &oid, static_cast<git_filemode_t>(mode));
  if (rc < 0) return libgit2_error(rc);
  return {};
}

Result<void> TreeBuilder::remove(const std::string& name) {
  if (const int rc = git_treebuilder_remove(m_builder.get(), name.c_str()); rc < 0) return libgit2_error(rc);
  return {};
}

Result<ObjectId> TreeBuilder::write() {
  git_oid id;
  if (const int rc = git_treebuilder_write(&id, m_builder.get()); rc < 0) return libgit2_error(rc);
  return from_git(id);
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
