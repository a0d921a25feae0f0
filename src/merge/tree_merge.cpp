// Tree-level three-way merge (see the header). The walk costs what differs
// between the sides, not the size of the tree: the step that makes a trial
// merge as cheap as git's own merge-tree.
#include "ledgergate/merge/tree_merge.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "ledgergate/git/config.hpp"
#include "ledgergate/git/merge.hpp"
#include "ledgergate/git/objects.hpp"

namespace lg::merge {

std::string_view to_string(ConflictKind kind) {
  switch (kind) {
    case ConflictKind::content: return "content";
    case ConflictKind::add_add: return "add/add";
    case ConflictKind::modify_delete: return "modify/delete";
    case ConflictKind::rename_delete: return "rename/delete";
    case ConflictKind::rename_rename: return "rename/rename";
    case ConflictKind::file_directory: return "file/directory";
    case ConflictKind::mode: return "mode";
  }
  return "content";
}

namespace {

using git::FileMode;
using Tree = git::TreeItems;

struct Side {
  bool present = false;
  FileMode mode = FileMode::none;
  git::ObjectId id;
  bool is_tree() const { return present && mode == FileMode::tree; }
  bool is_blob() const {
    return present && (mode == FileMode::blob || mode == FileMode::executable || mode == FileMode::link);
  }
};

bool same(const Side& a, const Side& b) {
  if (a.present != b.present) return false;
  return !a.present || (a.mode == b.mode && a.id == b.id);
}

struct Triple {
  Side base, ours, theirs;
};

// A whole tree as a side; a side as a directory (none when it is no tree).
Side whole_tree(const git::ObjectId& id) { return Side{true, FileMode::tree, id}; }
Side tree_or_none(const Side& s) { return s.is_tree() ? s : Side{}; }

void sort_by_path(std::vector<Conflict>& conflicts) {
  std::sort(conflicts.begin(), conflicts.end(), [](const Conflict& a, const Conflict& b) { return a.path < b.path; });
}

// A side's tree entries; none when the side is no tree.
Result<Tree> tree_of(git::TrialRepo& repo, const Side& s) {
  if (!s.is_tree()) return Tree();
  Result<Tree> tree = git::read_tree(repo.repo(), s.id);
  if (!tree) return tree.error().with_context("reading tree " + s.id.hex());
  return tree;
}

class Merger {
 public:
  // depth 0: the final merge (conflicts are reported); depth > 0: the merge
  // of two merge bases into a virtual one, resolved as merge-ort does at
  // call_depth > 0 (see merge_trees_virtual).
  // exact: merge path by path with no fallback (the caller has made sure
  // git would detect no rename); always so inside a virtual base.
  explicit Merger(git::TrialRepo& repo, int depth = 0, bool exact = false)
      : m_repo(repo), m_depth(depth), m_exact(exact || depth > 0) {}

  Result<git::ObjectId> merge_tree(const std::string& prefix, const Side& b, const Side& o, const Side& t);

  std::vector<Conflict> conflicts;
  bool needs_full_merge = false;
  std::size_t widest = 0;  // TreeMerge::widest
  bool both_deleted = false;  // one path deleted on both sides: a rename on each side?
  std::set<std::string> renamed;  // new names of renames followed before the merge (see follow_renames)

 private:
  Result<std::string> blob_text(const Side& s) {
    Result<std::string> text = git::read_blob(m_repo.repo(), s.id);
    if (!text) return text.error().with_context("reading blob " + s.id.hex());
    return text;
  }
  void conflict(const std::string& path, ConflictKind kind, bool rename_sensitive) {
    conflicts.push_back({path, kind, std::nullopt});
    if (rename_sensitive) needs_full_merge = true;
  }
  Result<std::optional<Side>> merge_entry(const std::string& path, const Triple& x);
  Result<std::optional<Side>> merge_blobs(const std::string& path, const Triple& x);
  Result<std::optional<Side>> merge_virtual(const std::string& path, const Triple& x);
  Result<std::optional<Side>> merge_subtree(const std::string& path, const Side& b, const Side& o, const Side& t);

  // merge.conflictStyle as git reads it (system, global, repository), "merge" when unset.
  Result<std::string> conflict_style() {
    if (m_style) return *m_style;
    const auto config = git::Config::snapshot(m_repo.repo());
    if (!config) return config.error().with_context("reading the configuration");
    const auto value = config->get_string("merge.conflictstyle");
    if (!value) return value.error().with_context("reading merge.conflictStyle");
    m_style = value->value_or("merge");
    return *m_style;
  }

  git::TrialRepo& m_repo;
  int m_depth = 0;
  bool m_exact = false;
  std::optional<std::string> m_style;
};

// The entries of the three sides' trees that the sides do not all agree on,
// by name (byte order), each with its three sides. No caller acts on an
// entry the three sides agree on, so those are left out: a merge-join of
// the three listings, which costs no allocation per entry, where a
// directory of 20,000 ledgers differs in a handful. `name` is a view into
// `trees`.
struct NamedTriple {
  std::string_view name;
  Triple x;
};
struct Entries {
  Tree trees[3];  // base, ours, theirs
  std::vector<NamedTriple> changed;
};

Result<Entries> entries_of(git::TrialRepo& repo, const Side& b, const Side& o, const Side& t) {
  Entries out;
  LG_TRY(out.trees[0], tree_of(repo, b));
  LG_TRY(out.trees[1], tree_of(repo, o));
  LG_TRY(out.trees[2], tree_of(repo, t));
  // git lists a directory as if its name ended in '/': byte order differs
  // from it only around such names. Stable, so that of two entries of one
  // name in a (malformed) tree the later one counts, as it always has.
  const auto by_name = [](const git::TreeItemView& l, const git::TreeItemView& r) { return l.name < r.name; };
  for (Tree& tree : out.trees) {
    auto& items = tree.items;
    if (!std::is_sorted(items.begin(), items.end(), by_name)) std::stable_sort(items.begin(), items.end(), by_name);
  }
  Side Triple::*const which[3] = {&Triple::base, &Triple::ours, &Triple::theirs};
  std::size_t at[3] = {0, 0, 0};
  for (;;) {
    std::optional<std::string_view> least;
    for (int i = 0; i < 3; ++i) {
      const Tree& tree = out.trees[i];
      if (at[i] < tree.size() && (!least || tree[at[i]].name < *least)) least = tree[at[i]].name;
    }
    if (!least) break;
    NamedTriple e{*least, {}};
    for (int i = 0; i < 3; ++i) {
      const Tree& tree = out.trees[i];
      for (; at[i] < tree.size() && tree[at[i]].name == *least; ++at[i]) {
        e.x.*which[i] = Side{true, tree[at[i]].mode, tree[at[i]].id};
      }
    }
    if (same(e.x.base, e.x.ours) && same(e.x.base, e.x.theirs)) continue;
    out.changed.push_back(e);
  }
  return out;
}

// git's buffer_is_binary: a NUL in the first 8000 bytes.
bool looks_binary(std::string_view text) { return text.substr(0, 8000).find('\0') != std::string_view::npos; }

std::optional<FileMode> merge_mode(const Triple& x) {
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
  if (x.ours.id == x.theirs.id) return std::optional<Side>(result);
  if (x.base.id == x.ours.id) {
    result.id = x.theirs.id;
    return std::optional<Side>(result);
  }
  if (x.base.id == x.theirs.id) return std::optional<Side>(result);
  if (x.ours.mode == FileMode::link || x.theirs.mode == FileMode::link) {
    conflict(path, ConflictKind::content, false);
    return std::optional<Side>(x.ours);
  }
  LG_TRY(std::string base_text, blob_text(x.base));
  LG_TRY(std::string ours_text, blob_text(x.ours));
  LG_TRY(std::string theirs_text, blob_text(x.theirs));
  if (m_exact && (looks_binary(base_text) || looks_binary(ours_text) || looks_binary(theirs_text))) {
    conflict(path, ConflictKind::content, false);  // git merges no binary file changed on both sides
    return std::optional<Side>(x.ours);
  }
  const auto input = [](const std::string& text, const Side& s) {
    return git::MergeFileInput{text, static_cast<unsigned>(s.mode)};
  };
  const Result<git::MergedFile> merged =
      git::merge_file(path, input(base_text, x.base), input(ours_text, x.ours), input(theirs_text, x.theirs));
  if (!merged) return merged.error().with_context("merging " + path);
  if (!merged->clean) {
    conflict(path, ConflictKind::content, false);
    return std::optional<Side>(x.ours);
  }
  LG_TRY(result.id, m_repo.write_blob(merged->text));
  return std::optional<Side>(result);
}

// The directories among the three sides merged (a side that is no
// directory counts as an empty one); none when the result is empty, since
// git writes no empty tree.
Result<std::optional<Side>> Merger::merge_subtree(const std::string& path, const Side& b, const Side& o,
                                                  const Side& t) {
  LG_TRY(git::ObjectId id, merge_tree(path + "/", tree_or_none(b), tree_or_none(o), tree_or_none(t)));
  if (id == git::k_empty_tree_id) return std::optional<Side>();
  return std::optional<Side>(Side{true, FileMode::tree, id});
}

Result<std::optional<Side>> Merger::merge_entry(const std::string& path, const Triple& x) {
  const Side &b = x.base, &o = x.ours, &t = x.theirs;
  if (same(o, t)) {
    if (b.present && !o.present) both_deleted = true;
    return o.present ? std::optional<Side>(o) : std::nullopt;
  }
  if (same(b, o)) return t.present ? std::optional<Side>(t) : std::nullopt;
  if (same(b, t)) return o.present ? std::optional<Side>(o) : std::nullopt;
  if (o.is_tree() && t.is_tree()) return merge_subtree(path, b, o, t);
  if (m_exact) {
    // Path by path, as merge-ort does without renames: a directory against
    // nothing is merged entry by entry, and where files and directories
    // meet, the directories and the files are merged apart.
    const auto is_file = [](const Side& s) { return s.present && !s.is_tree(); };
    const bool any_tree = b.is_tree() || o.is_tree() || t.is_tree();
    const bool any_file = is_file(b) || is_file(o) || is_file(t);
    if (any_tree && !any_file) return merge_subtree(path, b, o, t);
    if (any_tree && any_file) {
      LG_TRY(std::optional<Side> dir, merge_subtree(path, b, o, t));
      const auto file_only = [&](const Side& s) { return is_file(s) ? s : Side{}; };
      LG_TRY(std::optional<Side> file, merge_entry(path, {file_only(b), file_only(o), file_only(t)}));
      if (!dir || !file) return dir ? dir : file;
      if (m_depth > 0) {
        return make_error(ErrorKind::invalid_input,
                          "criss-cross history: merging the merge bases into a virtual base meets a file/directory "
                          "conflict at " + path + ", which ledgergate does not reproduce; refusing to guess");
      }
      conflict(path, ConflictKind::file_directory, false);
      return dir;
    }
  }
  if (m_depth > 0) return merge_virtual(path, x);
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

bool is_regular(const Side& s) { return s.present && (s.mode == FileMode::blob || s.mode == FileMode::executable); }

// merge-ort at call_depth > 0 (the merge of two merge bases into a virtual
// one): a conflict is not reported but resolved into the tree —
//  - modify/delete: the merge base's version stays;
//  - two different kinds of file (regular, symlink, submodule): the merge
//    base's version (none for an add/add);
//  - a content conflict (also add/add, over an empty base) keeps the merged
//    text with its conflict markers, labelled "Temporary merge branch 1" and
//    "Temporary merge branch 2", markers 7 + 2 x depth characters long;
//  - binary files and symlinks changed on both sides: the merge base's
//    version;
//  - modes: the second side's mode when the first left it as it was (or both
//    agree), else the first side's (ort's handle_content_merge).
// A file against a directory and submodules changed on both sides are not
// emulated: the merge refuses.
Result<std::optional<Side>> Merger::merge_virtual(const std::string& path, const Triple& x) {
  const Side &b = x.base, &o = x.ours, &t = x.theirs;
  const auto unsupported = [&](const std::string& what) -> Error {
    return make_error(ErrorKind::invalid_input,
                      "criss-cross history: merging the merge bases into a virtual base meets " + what + " at " +
                          path + ", which ledgergate does not reproduce exactly as git does; refusing to guess");
  };
  if (o.is_tree() || t.is_tree() || b.is_tree()) return unsupported("a file/directory conflict");
  if (!o.present || !t.present) return b.present ? std::optional<Side>(b) : std::nullopt;  // modify/delete
  const auto kind = [](const Side& s) { return static_cast<unsigned>(s.mode) & 0170000u; };
  if (kind(o) != kind(t)) return b.present ? std::optional<Side>(b) : std::nullopt;
  if (o.mode == FileMode::commit) return unsupported("a submodule changed on both sides");
  if (!b.present && o.mode == FileMode::link) return unsupported("a symlink added on both sides");
  Side result = o;
  result.mode = (o.mode == t.mode || (b.present && o.mode == b.mode)) ? t.mode : o.mode;
  if (o.id == t.id || (b.present && o.id == b.id)) {
    result.id = t.id;
    return std::optional<Side>(result);
  }
  if (b.present && t.id == b.id) return std::optional<Side>(result);
  if (o.mode == FileMode::link) {
    result.id = b.id;
    return std::optional<Side>(result);
  }
  std::string base_text;
  if (b.present) {
    LG_TRY(base_text, blob_text(b));
  }
  LG_TRY(std::string ours_text, blob_text(o));
  LG_TRY(std::string theirs_text, blob_text(t));
  if (looks_binary(base_text) || looks_binary(ours_text) || looks_binary(theirs_text)) {
    if (!b.present) {  // git takes the ancestor: here the empty file
      LG_TRY(result.id, m_repo.write_blob(""));
      return std::optional<Side>(result);
    }
    result.id = b.id;
    return std::optional<Side>(result);
  }
  const auto input = [](const std::string& text, const Side& s) {
    return git::MergeFileInput{text, s.present ? static_cast<unsigned>(s.mode) : 0u};
  };
  git::MergeFileOptions opts;
  opts.ancestor_label = "merged common ancestors";
  opts.our_label = "Temporary merge branch 1";
  opts.their_label = "Temporary merge branch 2";
  opts.marker_size = static_cast<unsigned short>(7 + 2 * m_depth);
  const Result<git::MergedFile> merged =
      git::merge_file(path, input(base_text, b), input(ours_text, o), input(theirs_text, t), &opts);
  if (!merged) return merged.error().with_context("merging " + path);
  const std::string& text = merged->text;
  if (!merged->clean && renamed.count(path)) {
    // merge-ort labels the markers of a renamed file with each side's path
    // ("Temporary merge branch 1:NEW"), not reproduced.
    return unsupported("a content conflict in a renamed file");
  }
  if (!merged->clean) {
    // The markers' layout follows merge.conflictStyle at every depth
    // (diff3/zdiff3 add the ancestor's text, labelled with its abbreviated
    // id): only git's default "merge" style is reproduced.
    LG_TRY(const std::string style, conflict_style());
    if (style != "merge") return unsupported("a content conflict under merge.conflictStyle=" + style);
  }
  LG_TRY(result.id, m_repo.write_blob(text));
  return std::optional<Side>(result);
}

Result<git::ObjectId> Merger::merge_tree(const std::string& prefix, const Side& b, const Side& o, const Side& t) {
  LG_TRY(const Entries entries, entries_of(m_repo, b, o, t));
  for (const Tree& tree : entries.trees) widest = std::max(widest, tree.size());
  // The tree is built from ours, and only once an entry differs from ours:
  // where every merged entry is ours', the merged tree is ours.
  std::optional<git::TreeBuilder> builder;
  const auto open = [&]() -> Result<void> {
    if (builder) return {};
    auto opened = git::TreeBuilder::open(m_repo.repo(), o.is_tree() ? &o.id : nullptr);
    if (!opened) return opened.error().with_context("building tree " + prefix);
    builder.emplace(std::move(*opened));
    return {};
  };
  for (const NamedTriple& e : entries.changed) {
    const std::string name(e.name);
    LG_TRY(std::optional<Side> merged, merge_entry(prefix + name, e.x));
    if (merged && same(*merged, e.x.ours)) continue;
    if (!merged && !e.x.ours.present) continue;
    if (auto opened = open(); !opened) return opened.error();
    const Result<void> built = merged ? builder->insert(name, merged->id, merged->mode) : builder->remove(name);
    if (!built) return built.error().with_context("building tree " + prefix + name);
  }
  if (!builder && o.is_tree()) return o.id;
  if (auto opened = open(); !opened) return opened.error();
  const Result<git::ObjectId> id = builder->write();
  if (!id) return id.error().with_context("writing tree " + prefix);
  return *id;
}

// One conflicted index path of libgit2's merge (entries at one path).
const std::string& path_of(const git::IndexConflict& c) {
  return c.ours ? *c.ours : c.theirs ? *c.theirs : *c.ancestor;
}

ConflictKind kind_of(const git::IndexConflict& c) {
  if (!c.ancestor) return ConflictKind::add_add;
  if (!c.ours || !c.theirs) return ConflictKind::modify_delete;
  return ConflictKind::content;
}

// libgit2 lists a conflict a rename takes part in at each of the file's
// names (the base's name with the side that kept it, the new name with the
// side that renamed) and ties them with a NAME entry; git's merge-ort
// reports it once, where it leaves the file (see Conflict). Conflicts no
// rename takes part in are listed as they are. Sorted by path.
std::vector<Conflict> as_git_reports(const git::RenameMerge& merged) {
  std::map<std::string, const git::IndexConflict*> at;
  for (const git::IndexConflict& c : merged.conflicts) at[path_of(c)] = &c;
  std::set<std::string> sources;        // a renamed file's base name, reported at its new name instead
  std::map<std::string, Conflict> renamed;  // by path
  const auto report = [&](const std::string& path, ConflictKind kind, const std::optional<std::string>& from) {
    auto [it, fresh] = renamed.try_emplace(path, Conflict{path, kind, from});
    if (!fresh && it->second.old_path != from) {  // two files renamed onto one name: git's add/add, of no one old name
      it->second.kind = ConflictKind::add_add;
      it->second.old_path.reset();
    }
  };
  for (const git::IndexConflict& n : merged.renames) {
    if (!n.ancestor) continue;
    const std::string& from = *n.ancestor;
    const bool by_ours = n.ours && *n.ours != from, by_theirs = n.theirs && *n.theirs != from;
    if (!by_ours && !by_theirs) continue;
    if (by_ours && by_theirs && *n.ours != *n.theirs) {
      if (!at.count(from) || !at.count(*n.ours) || !at.count(*n.theirs)) continue;
      report(from, ConflictKind::rename_rename, std::nullopt);
      report(*n.ours, ConflictKind::rename_rename, from);
      report(*n.theirs, ConflictKind::rename_rename, from);
      continue;
    }
    const std::string& to = by_ours ? *n.ours : *n.theirs;
    const auto dest = at.find(to);
    if (dest == at.end()) continue;
    const std::optional<std::string>& kept = by_ours ? n.theirs : n.ours;  // the other side's name
    const std::optional<std::string>& added = by_ours ? dest->second->theirs : dest->second->ours;
    ConflictKind kind = ConflictKind::content;  // also: renamed to one name on both sides
    if (!(by_ours && by_theirs)) {
      if (!kept) kind = ConflictKind::rename_delete;
      else if (added) kind = ConflictKind::add_add;  // the other side's own file at the new name
    }
    sources.insert(from);
    report(to, kind, from);
  }
  std::vector<Conflict> out;
  for (const auto& [path, c] : at) {
    if (auto it = renamed.find(path); it != renamed.end()) {
      out.push_back(it->second);
    } else if (!sources.count(path)) {
      out.push_back({path, kind_of(*c), std::nullopt});
    }
  }
  return out;
}

// libgit2's whole-tree merge with rename detection: the exact path for the
// cases the tree walk cannot decide alone.
Result<TreeMerge> full_merge(git::TrialRepo& repo, const git::ObjectId& base, const git::ObjectId& ours,
                             const git::ObjectId& theirs) {
  LG_TRY(git::RenameMerge merged, git::merge_trees_with_renames(repo.repo(), base, ours, theirs));
  TreeMerge out;
  out.full_merge = true;
  out.tree = merged.tree;
  out.conflicts = as_git_reports(merged);
  return out;
}

// Rename detection inside a virtual merge base. merge-ort detects renames at
// every depth; a rename it finds changes the virtual base, so the merge must
// know whether git would find one. On each side it looks for renames only
// when a "relevant" source exists (a file the side deleted that the other
// side changed or deleted too, or one under a directory the side removed),
// pairs identical blobs first and then scores pairs with diffcore's
// similarity estimate (diffcore-delta.c: chunks up to a newline or 64 bytes,
// hashed; the bytes both files share over the larger size, 50% needed).
// `rename_risk` answers whether any such pair exists, and whether
// libgit2's rename-aware merge would pair them all as git does.
struct FlatEntry {
  Side base, ours, theirs;
};

// One rename git would detect on side `side` (0 ours, 1 theirs).
struct RenamePair {
  int side = 0;
  std::string src, dst;
  Side base_src;   // the file in the merge base
  Side other_src;  // the other side's file at `src`
  bool followable = false;  // the other side kept `src` as a file and has nothing at `dst`
};

struct RenameRisk {
  std::string first;          // the first pair, "source -> destination"; "" when git would detect no rename
  std::vector<RenamePair> pairs;
  // The first pair git may make otherwise than the probe (several candidates,
  // a directory rename), and why; "" when `pairs` are git's.
  std::string unknown;
  std::string unfollowable;  // the first pair follow_renames cannot move (not `followable`); "" if none
  // The first pair libgit2 may not pair as git does, and why; "" when every
  // pair is exact, one blob to one name, with no directory rename in play.
  std::string unreproducible;
  std::string directory;      // the first pair that can make git rename a directory (libgit2 never does); "" if none
};

class RenameProbe {
 public:
  explicit RenameProbe(git::TrialRepo& repo) : m_repo(repo) {}

  Result<void> walk(const std::string& prefix, const Side& b, const Side& o, const Side& t) {
    LG_TRY(const Entries entries, entries_of(m_repo, b, o, t));
    for (const NamedTriple& e : entries.changed) {
      const Triple& x = e.x;
      const std::string path = prefix + std::string(e.name);
      FlatEntry f;
      f.base = x.base.is_tree() ? Side{} : x.base;
      f.ours = x.ours.is_tree() ? Side{} : x.ours;
      f.theirs = x.theirs.is_tree() ? Side{} : x.theirs;
      if (f.base.present || f.ours.present || f.theirs.present) files[path] = f;
      // A directory one side removes while the other keeps it (ort's
      // dir_rename_mask): directory renames matter there if the keeping
      // side adds a file directly inside it (checked in rename_risk).
      if (x.base.is_tree() && !x.ours.is_tree() && x.theirs.is_tree()) removed_dirs[0].push_back(path + "/");
      if (x.base.is_tree() && !x.theirs.is_tree() && x.ours.is_tree()) removed_dirs[1].push_back(path + "/");
      if (x.base.is_tree() || x.ours.is_tree() || x.theirs.is_tree()) {
        if (auto r = walk(path + "/", tree_or_none(x.base), tree_or_none(x.ours), tree_or_none(x.theirs)); !r) {
          return r;
        }
      }
    }
    return {};
  }

  // The renames git would detect on either side: the first pair ("source ->
  // destination", "" when there is none) and whether libgit2's rename-aware
  // merge pairs them all as git does.
  Result<RenameRisk> rename_risk() {
    RenameRisk risk;
    for (int side = 0; side < 2; ++side) {
      Candidates c = candidates(side);
      if (c.relevant.empty() || c.dests.empty()) continue;
      const std::set<std::string> paired = exact_pairs(risk, side, c);
      if (auto r = similar_pairs(risk, side, c, paired); !r) return r.error();
    }
    return risk;
  }

  std::map<std::string, FlatEntry> files;
  std::vector<std::string> removed_dirs[2];

 private:
  // What side `side` (0 ours, 1 theirs) deleted and added, and which of the
  // deleted files git looks for renames of.
  struct Candidates {
    std::vector<std::pair<std::string, const FlatEntry*>> sources, dests;
    std::map<std::string, bool> relevant;  // source -> location relevant (a directory rename could apply)
  };

  Candidates candidates(int side) const {
    Candidates c;
    for (const auto& [path, f] : files) {
      const Side& mine = side == 0 ? f.ours : f.theirs;
      const Side& other = side == 0 ? f.theirs : f.ours;
      if (f.base.present && !mine.present) {
        c.sources.emplace_back(path, &f);
        // Content relevant: the other side changed or deleted it too.
        // Location relevant: under a directory this side removed, the
        // other side kept and added a file directly into.
        const bool location = std::any_of(
            removed_dirs[side].begin(), removed_dirs[side].end(), [&, &p = path](const std::string& d) {
              return p.compare(0, d.size(), d) == 0 && adds_directly_in(d, side == 0 ? 1 : 0);
            });
        if (!same(other, f.base) || location) c.relevant[path] = location;
      }
      if (!f.base.present && mine.present) c.dests.emplace_back(path, &f);
    }
    return c;
  }

  static const Side& added(int side, const FlatEntry* f) { return side == 0 ? f->ours : f->theirs; }

  // Identical blobs first, over every source (diffcore's exact renames).
  // libgit2 pairs them as git does when one blob has one source and one
  // destination; git then also uses them to find directory renames. Returns
  // the paths paired.
  std::set<std::string> exact_pairs(RenameRisk& risk, int side, const Candidates& c) const {
    std::map<git::ObjectId, std::pair<int, int>> count;  // blob -> (sources, destinations)
    for (const auto& [src, sf] : c.sources) ++count[sf->base.id].first;
    for (const auto& [dst, df] : c.dests) ++count[added(side, df).id].second;
    std::set<std::string> paired;
    for (const auto& [src, sf] : c.sources) {
      for (const auto& [dst, df] : c.dests) {
        if (sf->base.id != added(side, df).id) continue;
        const auto [n_src, n_dst] = count[sf->base.id];
        const auto rel = c.relevant.find(src);
        const bool directory = rel != c.relevant.end() && rel->second;
        const char* why = directory ? "a directory rename may apply" : "";
        if (!directory && (n_src != 1 || n_dst != 1)) why = "one blob under several names";
        found(risk, side, src, dst, why, false, directory);
        paired.insert(src);
        paired.insert(dst);
      }
    }
    return paired;
  }

  // Then similar pairs among the relevant sources left: libgit2's
  // similarity measure is not git's. Where a source and its destination
  // have no other candidate, git pairs them whatever its scores' order.
  Result<void> similar_pairs(RenameRisk& risk, int side, const Candidates& c, const std::set<std::string>& paired) {
    std::vector<std::pair<std::string, std::string>> similar;
    std::map<std::string, int> in_pairs;  // path -> the similar pairs it is in
    for (const auto& [src, location] : c.relevant) {
      const FlatEntry& sf = files.at(src);
      if (paired.count(src) || !is_regular(sf.base)) continue;
      for (const auto& [dst, df] : c.dests) {
        if (paired.count(dst) || !is_regular(added(side, df))) continue;
        LG_TRY(const bool is_similar, similar_enough(sf.base.id, added(side, df).id));
        if (!is_similar) continue;
        similar.emplace_back(src, dst);
        ++in_pairs[src];
        ++in_pairs[dst];
      }
    }
    for (const auto& [src, dst] : similar) {
      const bool directory = c.relevant.at(src);
      const char* why = directory ? "a directory rename may apply" : "";
      if (!directory && (in_pairs[src] > 1 || in_pairs[dst] > 1)) why = "several candidates";
      found(risk, side, src, dst, why, true, directory);
    }
    return {};
  }

  // Records the pair src -> dst on side `side`. `why`: why git may pair
  // otherwise ("" if it cannot); `similar`: not identical blobs.
  void found(RenameRisk& risk, int side, const std::string& src, const std::string& dst, const char* why,
             bool similar, bool directory) const {
    const std::string pair = src + " -> " + dst;
    if (risk.first.empty()) risk.first = pair;
    if (*why && risk.unknown.empty()) risk.unknown = pair + ": " + why;
    const char* libgit2 = *why ? why : similar ? "similar, not identical" : "";
    if (*libgit2 && risk.unreproducible.empty()) risk.unreproducible = pair + ": " + libgit2;
    if (directory && risk.directory.empty()) risk.directory = pair;
    RenamePair p{side, src, dst, files.at(src).base, side == 0 ? files.at(src).theirs : files.at(src).ours, false};
    const auto at_dst = files.find(dst);
    const bool other_has_dst = at_dst != files.end() && (side == 0 ? at_dst->second.theirs : at_dst->second.ours).present;
    p.followable = p.other_src.is_blob() && p.base_src.is_blob() && !other_has_dst;
    if (!p.followable && risk.unfollowable.empty()) {
      risk.unfollowable = pair + ": the other side deletes or renames it too, or has a file at the new name";
    }
    risk.pairs.push_back(std::move(p));
  }

  // A file directly in directory `dir` ("a/b/") present on side `side`
  // (0 ours, 1 theirs) and not in the merge base.
  bool adds_directly_in(const std::string& dir, int side) const {
    for (auto it = files.lower_bound(dir); it != files.end() && it->first.compare(0, dir.size(), dir) == 0; ++it) {
      if (it->first.find('/', dir.size()) != std::string::npos) continue;
      const Side& s = side == 0 ? it->second.ours : it->second.theirs;
      if (s.present && !it->second.base.present) return true;
    }
    return false;
  }

  struct Counts {
    std::size_t size = 0;
    std::map<unsigned, std::size_t> spans;
  };

  Result<const Counts*> counts(const git::ObjectId& id) {
    if (auto it = m_counts.find(id); it != m_counts.end()) return &it->second;
    const Result<std::string> blob = git::read_blob(m_repo.repo(), id);
    if (!blob) return blob.error().with_context("reading blob " + id.hex());
    const auto* buf = reinterpret_cast<const unsigned char*>(blob->data());
    const std::size_t size = blob->size();
    Counts c;
    c.size = size;
    const bool text = !looks_binary(*blob);
    unsigned accum1 = 0, accum2 = 0;
    std::size_t n = 0;
    constexpr unsigned hashbase = 107927;
    for (std::size_t i = 0; i < size; ++i) {
      const unsigned ch = buf[i];
      const unsigned old1 = accum1;
      if (text && ch == '\r' && i + 1 < size && buf[i + 1] == '\n') continue;
      accum1 = (accum1 << 7) ^ (accum2 >> 25);
      accum2 = (accum2 << 7) ^ (old1 >> 25);
      accum1 += ch;
      if (++n < 64 && ch != '\n') continue;
      c.spans[(accum1 + accum2 * 0x61) % hashbase] += n;
      n = 0;
      accum1 = accum2 = 0;
    }
    if (n > 0) c.spans[(accum1 + accum2 * 0x61) % hashbase] += n;
    return &m_counts.emplace(id, std::move(c)).first->second;
  }

  // diffcore-rename's estimate_similarity against the default 50% score.
  Result<bool> similar_enough(const git::ObjectId& src, const git::ObjectId& dst) {
    constexpr std::size_t max_score = 60000, min_score = 30000;
    LG_TRY(const Counts* s, counts(src));
    LG_TRY(const Counts* d, counts(dst));
    const std::size_t max_size = std::max(s->size, d->size), base_size = std::min(s->size, d->size);
    if (max_size * (max_score - min_score) < (max_size - base_size) * max_score) return false;
    if (d->size == 0) return false;
    std::size_t copied = 0;
    for (const auto& [hash, cnt] : s->spans) {
      auto it = d->spans.find(hash);
      if (it != d->spans.end()) copied += std::min(cnt, it->second);
    }
    return copied * max_score / max_size >= min_score;
  }

  git::TrialRepo& m_repo;
  std::map<git::ObjectId, Counts> m_counts;
};

}  // namespace

namespace {

Result<RenameRisk> probe_renames(git::TrialRepo& repo, const git::ObjectId& base, const git::ObjectId& ours,
                                 const git::ObjectId& theirs) {
  RenameProbe probe(repo);
  if (auto r = probe.walk("", whole_tree(base), whole_tree(ours), whole_tree(theirs)); !r) return r.error();
  return probe.rename_risk();
}

Error refusal(const std::string& where, const std::string& what) {
  return make_error(ErrorKind::invalid_input, "criss-cross history: " + where + ", " + what +
                                                  ", which ledgergate does not reproduce; refusing to guess");
}

// The three trees with git's renames followed: each renamed file's base
// version, and the other side's when that side kept the file, moved to its
// new name, so that the path-by-path merge meets the three versions at one
// path as merge-ort does after rename detection. None when some rename is
// not of that shape (deleted or renamed on the other side, a file there
// already at the new name).
struct Followed {
  git::ObjectId base, ours, theirs;
  std::map<std::string, std::string> old_paths;  // new name -> name in the merge base
};

Result<std::optional<Followed>> follow_renames(git::TrialRepo& repo, const git::ObjectId& base, const git::ObjectId& ours,
                                               const git::ObjectId& theirs, const RenameRisk& risk) {
  std::vector<git::TreeUpdate> base_up, side_up[2];
  Followed out;
  for (const RenamePair& p : risk.pairs) {
    if (!p.followable) return std::optional<Followed>();
    base_up.push_back({p.src, std::nullopt, FileMode::blob});
    base_up.push_back({p.dst, p.base_src.id, p.base_src.mode});
    std::vector<git::TreeUpdate>& other = side_up[1 - p.side];
    other.push_back({p.src, std::nullopt, FileMode::blob});
    other.push_back({p.dst, p.other_src.id, p.other_src.mode});
    out.old_paths[p.dst] = p.src;
  }
  const auto apply = [&](const git::ObjectId& tree, const std::vector<git::TreeUpdate>& up) -> Result<git::ObjectId> {
    if (up.empty()) return tree;
    Result<git::ObjectId> id = git::update_tree(repo.repo(), tree, up);
    if (!id) return id.error().with_context("following the renames in tree " + tree.hex());
    return id;
  };
  LG_TRY(out.base, apply(base, base_up));
  LG_TRY(out.ours, apply(ours, side_up[0]));
  LG_TRY(out.theirs, apply(theirs, side_up[1]));
  return std::optional<Followed>(std::move(out));
}

// Why renames that neither follow_renames nor libgit2 reproduce are not.
std::string why_not(const RenameRisk& risk) {
  if (!risk.unknown.empty()) return risk.unknown;
  return risk.unfollowable.empty() ? risk.unreproducible : risk.unfollowable;
}

// The path-by-path merge as merge-ort makes it when it finds no rename.
Result<TreeMerge> path_by_path(git::TrialRepo& repo, const git::ObjectId& base, const git::ObjectId& ours,
                               const git::ObjectId& theirs) {
  Merger merger(repo, 0, true);
  TreeMerge out;
  LG_TRY(out.tree, merger.merge_tree("", whole_tree(base), whole_tree(ours), whole_tree(theirs)));
  out.conflicts = std::move(merger.conflicts);
  out.widest = merger.widest;
  sort_by_path(out.conflicts);
  return out;
}

}  // namespace

// Renames inside a virtual base: where libgit2 pairs them as git does
// (exact, one to one, no directory rename) and its rename-aware merge is
// clean, that tree is the one merge-ort builds (its call_depth > 0 rules
// differ from the final merge's only in how conflicts are resolved, which a
// clean merge has none of). Otherwise git's answer is not reproduced.
Result<git::ObjectId> merge_trees_virtual(git::TrialRepo& repo, const git::ObjectId& base, const git::ObjectId& ours,
                                          const git::ObjectId& theirs, int depth) {
  const std::string where = "merging the merge bases into a virtual base";
  LG_TRY(const RenameRisk risk, probe_renames(repo, base, ours, theirs));
  if (!risk.first.empty() && risk.unknown.empty()) {
    LG_TRY(const std::optional<Followed> followed, follow_renames(repo, base, ours, theirs, risk));
    if (followed) {
      Merger merger(repo, depth);
      for (const auto& [to, from] : followed->old_paths) merger.renamed.insert(to);
      return merger.merge_tree("", whole_tree(followed->base), whole_tree(followed->ours),
                               whole_tree(followed->theirs));
    }
  }
  if (!risk.first.empty()) {
    if (!risk.unreproducible.empty()) return refusal(where, "git would detect a rename (" + why_not(risk) + ")");
    LG_TRY(const TreeMerge full, full_merge(repo, base, ours, theirs));
    if (!full.conflicts.empty()) {
      return refusal(where, "a rename git would detect (" + risk.first + ") meets a conflict at " +
                                full.conflicts.front().path);
    }
    return full.tree;
  }
  Merger merger(repo, depth);
  return merger.merge_tree("", whole_tree(base), whole_tree(ours), whole_tree(theirs));
}

Result<TreeMerge> merge_trees_exact(git::TrialRepo& repo, const git::ObjectId& base, const git::ObjectId& ours,
                                    const git::ObjectId& theirs) {
  LG_TRY(const RenameRisk risk, probe_renames(repo, base, ours, theirs));
  if (risk.first.empty()) return path_by_path(repo, base, ours, theirs);
  if (risk.unknown.empty()) {
    LG_TRY(const std::optional<Followed> followed, follow_renames(repo, base, ours, theirs, risk));
    if (followed) {
      LG_TRY(TreeMerge merged, path_by_path(repo, followed->base, followed->ours, followed->theirs));
      for (Conflict& c : merged.conflicts) {
        if (auto it = followed->old_paths.find(c.path); it != followed->old_paths.end()) c.old_path = it->second;
      }
      return merged;
    }
  }
  if (!risk.unreproducible.empty()) {
    return refusal("in the merge over the virtual base", "git would detect a rename (" + why_not(risk) + ")");
  }
  return full_merge(repo, base, ours, theirs);  // exact renames only: libgit2 pairs them as git does
}

Result<TreeMerge> merge_trees(git::TrialRepo& repo, const git::ObjectId& base, const git::ObjectId& ours,
                              const git::ObjectId& theirs) {
  Merger merger(repo);
  LG_TRY(git::ObjectId tree, merger.merge_tree("", whole_tree(base), whole_tree(ours), whole_tree(theirs)));
  if (merger.needs_full_merge || merger.both_deleted) {
    // Renames could change the answer. Where git would detect none (its
    // similarity estimate, as for a virtual base), the path-by-path merge is
    // git's answer; else libgit2's rename-aware merge decides.
    LG_TRY(const RenameRisk risk, probe_renames(repo, base, ours, theirs));
    if (risk.first.empty()) return path_by_path(repo, base, ours, theirs);
    if (!risk.directory.empty()) {
      // A side removed a directory and renamed files out of it while the
      // other side adds a file into it: git may move that file along (a
      // directory rename, "CONFLICT (file location)"), libgit2 never does.
      return make_error(ErrorKind::invalid_input,
                        "git may apply a directory rename (" + risk.directory +
                            ", the other side adding into the old directory), which ledgergate does not "
                            "reproduce; refusing to guess");
    }
    return full_merge(repo, base, ours, theirs);
  }
  TreeMerge out;
  out.tree = tree;
  out.conflicts = std::move(merger.conflicts);
  out.widest = merger.widest;
  sort_by_path(out.conflicts);
  return out;
}

}  // namespace lg::merge
