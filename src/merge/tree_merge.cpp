// Tree-level three-way merge (see the header). The walk costs what differs
// between the sides, not the size of the tree: the step that makes a trial
// merge as cheap as git's own merge-tree.
#include "ledgergate/merge/tree_merge.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace lg::merge {

std::string_view to_string(ConflictKind kind) {
  switch (kind) {
    case ConflictKind::content: return "content";
    case ConflictKind::add_add: return "add/add";
    case ConflictKind::modify_delete: return "modify/delete";
    case ConflictKind::rename: return "rename";
    case ConflictKind::file_directory: return "file/directory";
    case ConflictKind::mode: return "mode";
  }
  return "content";
}

namespace {

using git::TreePtr;

struct Side {
  bool present = false;
  git_filemode_t mode = GIT_FILEMODE_UNREADABLE;
  git_oid id{};
  bool is_tree() const { return present && mode == GIT_FILEMODE_TREE; }
  bool is_blob() const {
    return present && (mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE || mode == GIT_FILEMODE_LINK);
  }
};

bool same(const Side& a, const Side& b) {
  if (a.present != b.present) return false;
  return !a.present || (a.mode == b.mode && git_oid_equal(&a.id, &b.id));
}

struct Triple {
  Side base, ours, theirs;
};

using TreeBuilderPtr = git::Owned<git_treebuilder, git_treebuilder_free>;
using BlobPtr = git::BlobPtr;

class Merger {
 public:
  explicit Merger(git::TrialRepo& repo) : m_repo(repo) {}

  Result<git_oid> merge_tree(const std::string& prefix, const Side& b, const Side& o, const Side& t);

  std::vector<Conflict> conflicts;
  bool needs_full_merge = false;
  bool both_deleted = false;  // one path deleted on both sides: a rename on each side?

 private:
  Result<TreePtr> lookup(const Side& s) {
    if (!s.is_tree()) return TreePtr();
    git_tree* raw = nullptr;
    const int rc = git_tree_lookup(&raw, m_repo.raw(), &s.id);
    if (rc < 0) return git::libgit2_error(rc, "reading tree " + git::oid_hex(s.id));
    return TreePtr(raw);
  }
  Result<std::string> blob_text(const Side& s) {
    git_blob* raw = nullptr;
    const int rc = git_blob_lookup(&raw, m_repo.raw(), &s.id);
    if (rc < 0) return git::libgit2_error(rc, "reading blob " + git::oid_hex(s.id));
    BlobPtr blob(raw);
    return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                       static_cast<std::size_t>(git_blob_rawsize(blob.get())));
  }
  void conflict(const std::string& path, ConflictKind kind, bool rename_sensitive) {
    conflicts.push_back({path, kind});
    if (rename_sensitive) needs_full_merge = true;
  }
  Result<std::optional<Side>> merge_entry(const std::string& path, const Triple& x);
  Result<std::optional<Side>> merge_blobs(const std::string& path, const Triple& x);

  git::TrialRepo& m_repo;
};

void collect(std::map<std::string, Triple>& out, const git_tree* tree, Side Triple::*which) {
  if (!tree) return;
  for (std::size_t i = 0; i < git_tree_entrycount(tree); ++i) {
    const git_tree_entry* e = git_tree_entry_byindex(tree, i);
    Side& s = out[git_tree_entry_name(e)].*which;
    s.present = true;
    s.mode = git_tree_entry_filemode(e);
    s.id = *git_tree_entry_id(e);
  }
}

std::optional<git_filemode_t> merge_mode(const Triple& x) {
  if (x.ours.mode == x.theirs.mode) return x.ours.mode;
  if (x.base.present && x.base.mode == x.ours.mode) return x.theirs.mode;
  if (x.base.present && x.base.mode == x.theirs.mode) return x.ours.mode;
  return std::nullopt;
}

Result<std::optional<Side>> Merger::merge_blobs(const std::string& path, const Triple& x) {
  const auto mode = merge_mode(x);
  if (!mode) {
    conflict(path, ConflictKind::mode, false);
    return std::optional<Side>(x.ours);
  }
  Side result = x.ours;
  result.mode = *mode;
  if (git_oid_equal(&x.ours.id, &x.theirs.id)) return std::optional<Side>(result);
  if (git_oid_equal(&x.base.id, &x.ours.id)) {
    result.id = x.theirs.id;
    return std::optional<Side>(result);
  }
  if (git_oid_equal(&x.base.id, &x.theirs.id)) return std::optional<Side>(result);
  if (x.ours.mode == GIT_FILEMODE_LINK || x.theirs.mode == GIT_FILEMODE_LINK) {
    conflict(path, ConflictKind::content, false);
    return std::optional<Side>(x.ours);
  }
  LG_TRY(std::string base_text, blob_text(x.base));
  LG_TRY(std::string ours_text, blob_text(x.ours));
  LG_TRY(std::string theirs_text, blob_text(x.theirs));
  auto input = [&](const std::string& text, git_filemode_t m) {
    git_merge_file_input in = GIT_MERGE_FILE_INPUT_INIT;
    in.ptr = text.data();
    in.size = text.size();
    in.path = path.c_str();
    in.mode = static_cast<unsigned>(m);
    return in;
  };
  const git_merge_file_input ancestor = input(base_text, x.base.mode);
  const git_merge_file_input ours = input(ours_text, x.ours.mode);
  const git_merge_file_input theirs = input(theirs_text, x.theirs.mode);
  git_merge_file_result merged{};
  const int rc = git_merge_file(&merged, &ancestor, &ours, &theirs, nullptr);
  if (rc < 0) return git::libgit2_error(rc, "merging " + path);
  const bool clean = merged.automergeable != 0;
  const std::string text = clean ? std::string(merged.ptr, merged.len) : std::string();
  git_merge_file_result_free(&merged);
  if (!clean) {
    conflict(path, ConflictKind::content, false);
    return std::optional<Side>(x.ours);
  }
  LG_TRY(result.id, m_repo.write_blob(text));
  return std::optional<Side>(result);
}

Result<std::optional<Side>> Merger::merge_entry(const std::string& path, const Triple& x) {
  const Side &b = x.base, &o = x.ours, &t = x.theirs;
  if (same(o, t)) {
    if (b.present && !o.present) both_deleted = true;
    return o.present ? std::optional<Side>(o) : std::nullopt;
  }
  if (same(b, o)) return t.present ? std::optional<Side>(t) : std::nullopt;
  if (same(b, t)) return o.present ? std::optional<Side>(o) : std::nullopt;
  if (o.is_tree() && t.is_tree()) {
    LG_TRY(git_oid id, merge_tree(path + "/", b.is_tree() ? b : Side{}, o, t));
    Side s = o;
    s.id = id;
    return std::optional<Side>(s);
  }
  if (!o.present || !t.present) {
    conflict(path, ConflictKind::modify_delete, true);
    return o.present ? std::optional<Side>(o) : std::nullopt;
  }
  if (o.is_tree() != t.is_tree() || (b.present && b.is_tree())) {
    conflict(path, ConflictKind::file_directory, true);
    return std::optional<Side>(o);
  }
  if (!b.present) {
    conflict(path, ConflictKind::add_add, true);
    return std::optional<Side>(o);
  }
  if (!o.is_blob() || !t.is_blob() || !b.is_blob()) {  // submodules moved on both sides
    conflict(path, ConflictKind::content, false);
    return std::optional<Side>(o);
  }
  return merge_blobs(path, x);
}


Result<git_oid> Merger::merge_tree(const std::string& prefix, const Side& b, const Side& o, const Side& t) {
  LG_TRY(TreePtr base_tree, lookup(b));
  LG_TRY(TreePtr ours_tree, lookup(o));
  LG_TRY(TreePtr theirs_tree, lookup(t));
  std::map<std::string, Triple> entries;
  collect(entries, base_tree.get(), &Triple::base);
  collect(entries, ours_tree.get(), &Triple::ours);
  collect(entries, theirs_tree.get(), &Triple::theirs);
  git_treebuilder* raw = nullptr;
  int rc = git_treebuilder_new(&raw, m_repo.raw(), ours_tree.get());
  if (rc < 0) return git::libgit2_error(rc, "building tree " + prefix);
  TreeBuilderPtr builder(raw);
  for (const auto& [name, x] : entries) {
    LG_TRY(std::optional<Side> merged, merge_entry(prefix + name, x));
    if (merged && same(*merged, x.ours)) continue;
    if (!merged) {
      if (x.ours.present) rc = git_treebuilder_remove(builder.get(), name.c_str());
    } else {
      rc = git_treebuilder_insert(nullptr, builder.get(), name.c_str(), &merged->id, merged->mode);
    }
    if (rc < 0) return git::libgit2_error(rc, "building tree " + prefix + name);
  }
  git_oid id;
  rc = git_treebuilder_write(&id, builder.get());
  if (rc < 0) return git::libgit2_error(rc, "writing tree " + prefix);
  return id;
}

using IndexPtr = git::IndexPtr;
using ConflictIteratorPtr = git::Owned<git_index_conflict_iterator, git_index_conflict_iterator_free>;

ConflictKind kind_of(const git_index_entry* ancestor, const git_index_entry* ours, const git_index_entry* theirs) {
  if (!ancestor) return ConflictKind::add_add;
  if (!ours || !theirs) return ConflictKind::modify_delete;
  if (std::string_view(ancestor->path) != ours->path || std::string_view(ancestor->path) != theirs->path) {
    return ConflictKind::rename;
  }
  return ConflictKind::content;
}

// libgit2's whole-tree merge with rename detection: the exact path for the
// cases the tree walk cannot decide alone.
Result<TreeMerge> full_merge(git::TrialRepo& repo, const git_oid& base, const git_oid& ours, const git_oid& theirs) {
  TreePtr trees[3];
  const git_oid* ids[3] = {&base, &ours, &theirs};
  for (int i = 0; i < 3; ++i) {
    git_tree* t = nullptr;
    const int rc = git_tree_lookup(&t, repo.raw(), ids[i]);
    if (rc < 0) return git::libgit2_error(rc, "reading tree " + git::oid_hex(*ids[i]));
    trees[i].reset(t);
  }
  git_merge_options opts = GIT_MERGE_OPTIONS_INIT;
  opts.flags = GIT_MERGE_FIND_RENAMES;
  git_index* raw = nullptr;
  int rc = git_merge_trees(&raw, repo.raw(), trees[0].get(), trees[1].get(), trees[2].get(), &opts);
  if (rc < 0) return git::libgit2_error(rc, "merging trees");
  IndexPtr index(raw);
  TreeMerge out;
  out.full_merge = true;
  if (git_index_has_conflicts(index.get())) {
    git_index_conflict_iterator* it_raw = nullptr;
    rc = git_index_conflict_iterator_new(&it_raw, index.get());
    if (rc < 0) return git::libgit2_error(rc, "listing conflicts");
    ConflictIteratorPtr it(it_raw);
    const git_index_entry *a = nullptr, *o = nullptr, *t = nullptr;
    while (git_index_conflict_next(&a, &o, &t, it.get()) == 0) {
      const git_index_entry* any = o ? o : t ? t : a;
      out.conflicts.push_back({any->path, kind_of(a, o, t)});
    }
    return out;
  }
  rc = git_index_write_tree_to(&out.tree, index.get(), repo.raw());
  if (rc < 0) return git::libgit2_error(rc, "writing the merged tree");
  return out;
}

}  // namespace

Result<TreeMerge> merge_trees(git::TrialRepo& repo, const git_oid& base, const git_oid& ours, const git_oid& theirs) {
  auto tree_side = [](const git_oid& id) { return Side{true, GIT_FILEMODE_TREE, id}; };
  Merger merger(repo);
  LG_TRY(git_oid tree, merger.merge_tree("", tree_side(base), tree_side(ours), tree_side(theirs)));
  if (merger.needs_full_merge || merger.both_deleted) {
    LG_TRY(TreeMerge full, full_merge(repo, base, ours, theirs));
    std::sort(full.conflicts.begin(), full.conflicts.end(),
              [](const Conflict& a, const Conflict& b) { return a.path < b.path; });
    return full;
  }
  TreeMerge out;
  out.tree = tree;
  out.conflicts = std::move(merger.conflicts);
  std::sort(out.conflicts.begin(), out.conflicts.end(),
            [](const Conflict& a, const Conflict& b) { return a.path < b.path; });
  return out;
}

}  // namespace lg::merge
