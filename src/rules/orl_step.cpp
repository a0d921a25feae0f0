// The open-requirements pass (check_pass.hpp) and the tree scan every
// check starts with: the files the open-requirements glob matches (a git
// tree walked by subtree, memoised by subtree id in the parse cache and the
// facts pack; a flat index matched in one pass) and writers' temporary
// files; and the cross-version rules between two trees.
#include <algorithm>
#include <iterator>

#include "ledgergate/git/diff.hpp"
#include "ledgergate/ledger/open_requirements.hpp"
#include "ledgergate/rules/change.hpp"
#include "ledgergate/rules/open_requirements.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/cursor.hpp"
#include "ledgergate/util/temp_name.hpp"
#include "check_pass.hpp"

namespace lg::rules {
namespace steps {

namespace {

using FindingsPtr = std::shared_ptr<const std::vector<diag::Finding>>;

// A cheap first test: when the glob's last component is a plain name (the
// default `**/open-requirements.ledger.yml`), only that file name can match.
struct NameTest {
  explicit NameTest(std::string_view glob)
      : last(glob.substr(glob.rfind('/') + 1)), wild(last.find_first_of("*?[") != std::string_view::npos) {}
  bool could_match(std::string_view name) const { return wild || last == name; }
  std::string_view last;
  bool wild;
};

// Whether a step of `path` is named ".git": the walk neither lists nor
// enters one, nor does the flat scan of an index.
bool has_git_step(std::string_view path) {
  for (std::size_t from = 0;;) {
    const std::size_t slash = path.find('/', from);
    if (path.substr(from, slash == std::string_view::npos ? std::string_view::npos : slash - from) == ".git") {
      return true;
    }
    if (slash == std::string_view::npos) return false;
    from = slash + 1;
  }
}

// A glob whose matches depend on a file's name alone (`**/NAME`, `NAME`):
// the matches below a subtree are then a function of the subtree's id.
bool basename_glob(std::string_view glob) {
  const std::string_view rest = util::starts_with(glob, "**/") ? glob.substr(3) : glob;
  return rest.find('/') == std::string_view::npos;
}

struct GlobWalk {
  GlobWalk(git::TreeSource& t, std::string_view g, CheckCache* c, CheckCache::Persistent* p)
      : tree(t), glob(g), cache(c), persistent(p), memo(c && basename_glob(g)) {
    if (!memo) return;
    key.qualifier = std::string(glob);
    if (persistent) fact_key = glob_fact_key(git::ObjectId(), glob);
  }
  git::TreeSource& tree;
  std::string_view glob;
  CheckCache* cache;  // memo by subtree id, for basename globs; may be null
  CheckCache::Persistent* persistent;  // the same memo across processes; may be null
  const bool memo;
  // The two memos' keys, their glob spelled once: a wide folder's every
  // subtree is looked up (18,000 at 20,000 projects), and only the id in
  // them changes.
  QualifiedId key;
  std::string fact_key;
  std::size_t trees_read = 0;  // directories listed, not answered by a memo
};

using Matches = std::vector<std::string>;

// The memoised matches below the subtree `id`; null when neither memo has them.
std::shared_ptr<const Matches> find_walked(GlobWalk& w, const git::ObjectId& id) {
  w.key.id = id;
  if (auto hit = w.cache->glob_walks().find(w.key)) return hit;
  if (!w.persistent) return nullptr;
  load_pack(*w.persistent);
  rekey_glob_fact(w.fact_key, id);
  auto hit = w.persistent->pack.find_glob(w.fact_key);
  if (hit) w.cache->glob_walks().keep(w.key, hit);
  return hit;
}

// Every file below the directory `entry` at `dir` matching the glob, as
// paths relative to `dir`, memoised by subtree id for basename globs.
Result<Matches> walk_glob(GlobWalk& w, const std::string& dir, const git::Entry& entry) {
  const bool memo = w.memo && entry.content_id;
  if (memo) {
    if (auto hit = find_walked(w, *entry.content_id)) return *hit;
  }
  Matches out;
  std::vector<git::Entry> subdirs;
  const NameTest test(w.glob);
  ++w.trees_read;
  LG_TRY(bool is_dir, w.tree.for_each_child(dir, entry, [&](std::string_view name, git::EntryKind kind,
                                                             const std::optional<git::ObjectId>& id) {
    if (name == ".git") return;
    if (kind == git::EntryKind::directory) {
      subdirs.push_back(git::Entry{std::string(name), kind, id});
    } else if (util::is_writer_temp_name(name) ||
               (test.could_match(name) &&
                ledger::orl_glob_match(w.glob, dir.empty() ? std::string(name) : dir + "/" + std::string(name)))) {
      out.emplace_back(name);
    }
  }));
  (void)is_dir;
  std::string path = dir;
  if (!path.empty()) path += '/';
  const std::size_t stem = path.size();
  for (const git::Entry& sub : subdirs) {
    path.resize(stem);
    path += sub.name;
    LG_TRY(Matches below, walk_glob(w, path, sub));
    for (const std::string& rel : below) out.push_back(sub.name + "/" + rel);
  }
  if (memo) {
    // Most subtrees match nothing (18,000 at 20,000 projects): one empty list serves them.
    static const auto none = std::make_shared<const Matches>();
    auto kept = out.empty() ? none : std::make_shared<const Matches>(out);
    w.key.id = *entry.content_id;
    w.cache->glob_walks().keep(w.key, kept);
    if (w.persistent) {
      w.persistent->pack.keep_glob(glob_fact_key(*entry.content_id, w.glob), std::move(kept));
    }
  }
  return out;
}


}  // namespace

// The open-requirements profile: every file the glob names, in path order.
// A missing file is an empty ledger, so only present files are read.
Result<void> check_orl(Pass& pass) {
  for (const std::string& path : pass.orl_files) {
    LG_TRY(auto entry, pass.tree.stat(path));
    if (!entry) continue;
    if (!is_readable_kind(entry->kind)) {
      report_not_a_file(pass, path, entry->kind);
      continue;
    }
    std::optional<QualifiedId> key;
    std::string fact_key;  // in the persistent cache
    if (entry->content_id) {
      key = QualifiedId{*entry->content_id, path};
      if (pass.persistent) fact_key = orl_fact_key(*entry->content_id, path);
    }
    FindingsPtr findings;
    if (const auto* kept = fact_key.empty() ? nullptr : find_facts(*pass.persistent, fact_key)) {
      for (const diag::Finding& f : *kept) pass.sink.report(f);
      vouch(pass, *entry->content_id);
      continue;
    }
    cover(pass, entry->content_id);
    if (key) {
      findings = pass.cache.open_requirements().find(*key);
    }
    if (!findings) {
      auto bytes = read_or_report(pass, path, *entry);
      if (!bytes) continue;
      const ledger::TextFile file = ledger::decode_text(*bytes);
      diag::CollectingSink local;
      check_text_input(file.facts, path, local);
      check_open_requirements(ledger::parse_open_requirements(file.text), path, local);
      findings = std::make_shared<const std::vector<diag::Finding>>(local.take());
      if (key) pass.cache.open_requirements().keep(*key, findings);
    }
    for (const diag::Finding& f : *findings) pass.sink.report(f);
    if (!fact_key.empty() && !has_unreadable(*findings)) keep_facts(*pass.persistent, fact_key, *findings);
  }
  return {};
}


Result<TreeScan> scan_tree(git::TreeSource& tree, std::string_view glob, CheckCache* cache,
                           CheckCache::Persistent* persistent) {
  std::vector<std::string> out;
  TreeScan scan;
  // A source holding a flat listing (the index) is matched in one pass over
  // it: the same test as the walk's, on each path outside any ".git".
  const NameTest test(glob);
  const bool flat = tree.for_each_file([&](std::string_view path, git::EntryKind) {
    if (has_git_step(path)) return;
    const std::string_view name = path.substr(path.rfind('/') + 1);
    if (util::is_writer_temp_name(name) ||
        (test.could_match(name) && ledger::orl_glob_match(glob, std::string(path)))) {
      out.emplace_back(path);
    }
  });
  if (!flat) {
    GlobWalk w(tree, glob, cache, cache ? persistent : nullptr);
    LG_TRY(out, walk_glob(w, "", tree.root_entry()));
    scan.trees_read = w.trees_read;
  }
  std::sort(out.begin(), out.end());
  for (std::string& path : out) {
    const std::string_view name = std::string_view(path).substr(path.rfind('/') + 1);
    const bool temp = util::is_writer_temp_name(name);
    if (!temp || ledger::orl_glob_match(glob, path)) scan.orl_files.push_back(path);
    if (temp) scan.temp_files.push_back(std::move(path));
  }
  return scan;
}


std::vector<diag::Finding> writer_temp_findings(const std::vector<std::string>& paths) {
  std::vector<diag::Finding> out;
  for (const std::string& path : paths) {
    out.push_back(make_finding("input-writer-temp-file", path, 0,
                               "is a ledgergate writer's temporary file (its writer was killed mid-write): "
                               "nothing reads it, yet the merge gate would land it; remove it",
                               diag::PeerForm::none));
  }
  return out;
}

}  // namespace steps

using namespace steps;

namespace {

Result<std::vector<std::string>> find_open_requirements_in(git::TreeSource& tree, std::string_view glob,
                                                           CheckCache* cache, CheckCache::Persistent* persistent) {
  LG_TRY(TreeScan scan, scan_tree(tree, glob, cache, persistent));
  return std::move(scan.orl_files);
}

}  // namespace

Result<std::vector<std::string>> find_open_requirements(git::TreeSource& tree, std::string_view glob,
                                                        CheckCache* cache) {
  return find_open_requirements_in(tree, glob, cache, nullptr);
}

namespace {

// Whether `path` is one the glob walk lists as matching `glob`.
bool orl_path(std::string_view glob, std::string_view path) {
  return !has_git_step(path) && ledger::orl_glob_match(glob, path);
}

void sort_unique(std::vector<std::string>& paths) {
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
}

}  // namespace

Result<std::vector<diag::Finding>> check_open_requirements_between(git::TreeSource& before, git::TreeSource& after,
                                                                  const CheckOptions& options, CheckCache* cache,
                                                                  const std::vector<git::DiffEntry>* changes) {
  std::vector<std::string> old_paths, new_paths;
  if (changes) {
    // A file the same in both trees has no history finding (a version
    // compared with itself keeps every rule): only the changed ones are
    // compared, and neither tree is walked.
    for (const git::DiffEntry& e : *changes) {
      const std::string& old_path = e.old_path.empty() ? e.path : e.old_path;
      if (e.old_id && orl_path(options.open_requirements_glob, old_path)) old_paths.push_back(old_path);
      if (e.has_new && orl_path(options.open_requirements_glob, e.path)) new_paths.push_back(e.path);
    }
    sort_unique(old_paths);
    sort_unique(new_paths);
  } else {
    // The walks are memoised by subtree id across processes too: a trial
    // merge walks the merge base's whole tree here, the same tree each time
    // only main moves on.
    CheckCache::Persistent* persistent = cache ? open_persistent(after, *cache) : nullptr;
    LG_TRY(old_paths, find_open_requirements_in(before, options.open_requirements_glob, cache, persistent));
    LG_TRY(new_paths, find_open_requirements_in(after, options.open_requirements_glob, cache, persistent));
    if (persistent) flush_pack(*persistent);
  }
  std::vector<std::string> paths = old_paths;
  paths.insert(paths.end(), new_paths.begin(), new_paths.end());
  sort_unique(paths);
  // A file moved (rules/change.hpp's moved_files) is compared with its old
  // version, not as one ledger deleted and another created.
  std::vector<std::string> gone, arrived;
  std::set_difference(old_paths.begin(), old_paths.end(), new_paths.begin(), new_paths.end(), std::back_inserter(gone));
  std::set_difference(new_paths.begin(), new_paths.end(), old_paths.begin(), old_paths.end(),
                      std::back_inserter(arrived));
  std::vector<diag::PathMove> moves;
  if (!gone.empty() && !arrived.empty()) {
    LG_TRY(moves, moved_files(before, after, gone, arrived));
  }
  auto moved_from = [&moves](const std::string& path, bool to) -> const diag::PathMove* {
    for (const diag::PathMove& m : moves) {
      if ((to ? m.to : m.from) == path) return &m;
    }
    return nullptr;
  };
  diag::CollectingSink sink;
  for (const std::string& path : paths) {
    if (moved_from(path, false)) continue;  // compared at its new path
    const diag::PathMove* move = moved_from(path, true);
    LG_TRY(auto old_bytes, git::read_regular_file(before, move ? move->from : path));
    LG_TRY(auto new_bytes, git::read_regular_file(after, path));
    const auto old_doc = ledger::parse_open_requirements(ledger::decode_text(old_bytes.value_or("")).text);
    const auto new_doc = ledger::parse_open_requirements(ledger::decode_text(new_bytes.value_or("")).text);
    check_open_requirements_history(old_doc, new_doc, path, sink);
  }
  std::vector<diag::Finding> out = sink.take();
  options.apply_severities(out);
  for (diag::Finding& f : out) f.location.rev = after.rev();
  return out;
}

}  // namespace lg::rules
