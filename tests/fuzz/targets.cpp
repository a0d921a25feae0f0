#include "targets.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/repository.h>

#include "../../src/git/libgit2.hpp"
#include "../../src/git/tree_memo.hpp"
#include "../../src/rules/facts_pack.hpp"
#include "../../src/rules/projects_memo.hpp"
#include "ledgergate/git/index_file.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_diff.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/ledger/open_requirements.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/ledger/yaml_doc.hpp"
#include "ledgergate/merge/record_merge.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/write/overlay.hpp"

namespace lg::fuzz {
namespace {

const git::Libgit2Session k_libgit2;

// Splits `data` at each occurrence of `sep` (at most `max_parts` parts).
std::vector<std::string_view> split(std::string_view data, std::string_view sep, std::size_t max_parts) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < max_parts) {
    const auto at = data.find(sep);
    if (at == std::string_view::npos) break;
    parts.push_back(data.substr(0, at));
    data.remove_prefix(at + sep.size());
  }
  parts.push_back(data);
  return parts;
}

void touch_yaml(const ledger::YamlNode& node, int depth) {
  (void)ledger::py_type_name(node);
  (void)ledger::py_repr(node);
  if (depth > 64) return;
  if (node.kind == ledger::YamlKind::mapping) {
    for (const auto& item : ledger::py_dict_items(node)) {
      if (item.key) touch_yaml(*item.key, depth + 1);
      if (item.value) touch_yaml(*item.value, depth + 1);
    }
  } else if (node.kind == ledger::YamlKind::sequence) {
    for (std::size_t i = 0; i < node.items().size(); ++i) {
      (void)ledger::py_item_repr(node, i);
      touch_yaml(*node.items()[i], depth + 1);
    }
  }
}

// The YAML port: load, then walk what Python's str/repr/dict would see.
void run_yaml(std::string_view data) {
  const ledger::YamlLoad load = ledger::load_yaml(data);
  if (load.error || load.doc.root() == nullptr) return;
  touch_yaml(*load.doc.root(), 0);
  (void)ledger::py_str(*load.doc.root());
}

// The newest-era (R) ledger: projects/<key>.md.
void run_project_ledger(std::string_view data) {
  ledger::ProjectLedger parsed = ledger::parse_project_ledger(data);
  (void)parsed.header_field("Project");
  parsed.compact();
}

// Era T and P task/phase files.
void run_pt_file(std::string_view data) {
  const ledger::PtFile parsed = ledger::parse_pt_file(data);
  (void)parsed.body_stems();
  (void)ledger::split_refs(parsed.header.value("Gates"));
  for (std::size_t i = 0; i < parsed.runs.size(); ++i) {
    for (std::size_t j = i + 1; j < parsed.runs.size() && j < i + 8; ++j) {
      (void)ledger::runs_overlap(parsed.runs[i], parsed.runs[j]);
    }
  }
}

void run_open_requirements(std::string_view data) {
  const ledger::OpenRequirements parsed = ledger::parse_open_requirements(data);
  (void)parsed.open_blocking();
  for (const auto& e : parsed.entries) {
    (void)e.id();
    (void)e.label();
    (void)parsed.find(e.id());
  }
}

// The policy file, resolved against each layout.
void run_policy(std::string_view data) {
  auto policy = policy::parse_policy(data);
  if (!policy) return;
  for (auto layout : {ledger::Layout::cortex_projects, ledger::Layout::cortex_tasks, ledger::Layout::cortex_phases,
                      ledger::Layout::open_requirements}) {
    policy::RepoPolicy copy = *policy;
    if (policy::resolve_paths(copy, layout)) (void)policy::check_options(copy);
  }
}

// The record-level merge: the first byte picks the format, the rest is
// base, ours and theirs separated by "\n=====\n".
void run_record_merge(std::string_view data) {
  if (data.empty()) return;
  constexpr merge::RecordFormat formats[] = {merge::RecordFormat::cortex_project, merge::RecordFormat::cortex_task,
                                             merge::RecordFormat::cortex_phase,
                                             merge::RecordFormat::open_requirements,
                                             merge::RecordFormat::projects_yaml};
  const auto format = formats[static_cast<unsigned char>(data[0]) % std::size(formats)];
  const auto parts = split(data.substr(1), "\n=====\n", 3);
  if (parts.size() != 3) return;
  auto merged = merge::merge_records(format, parts[0], parts[1], parts[2]);
  if (!merged || !merged->clean()) return;
  // A clean merge of a side with itself over the same base is that side.
  (void)merge::merge_records(format, parts[0], merged->bytes, merged->bytes);
}

// An empty folder on disk: the base the in-memory tree is laid over.
git::TreeSource& empty_base() {
  static const std::string dir = [] {
    std::string tmpl = "/tmp/ledgergate-fuzz-XXXXXX";
    if (::mkdtemp(tmpl.data()) == nullptr) std::abort();
    return tmpl;
  }();
  static std::unique_ptr<git::TreeSource> base = [] {
    auto src = git::open_directory_source(dir);
    if (!src) std::abort();
    return std::move(*src);
  }();
  return *base;
}

// A path made of the input's components, without empty, "." or ".." parts.
std::string clean_path(std::string_view raw) {
  std::string out;
  for (std::string_view part : split(raw, "/", 64)) {
    if (part.empty() || part == "." || part == ".." || part == ".git") continue;
    if (!out.empty()) out += '/';
    out += part;
  }
  return out;
}

// `check` over a whole in-memory tree: files are "\n%%% PATH\n" records (the
// text before the first one is ignored); the tree's own policy file applies.
void run_check(std::string_view data) {
  std::vector<write::FileEdit> files;
  const auto records = split(data, "\n%%% ", 256);
  for (std::size_t i = 1; i < records.size(); ++i) {
    const auto nl = records[i].find('\n');
    const std::string path = clean_path(records[i].substr(0, nl));
    if (path.empty()) continue;
    files.push_back({path, nl == std::string_view::npos ? std::string() : std::string(records[i].substr(nl + 1))});
  }
  write::OverlaySource tree(empty_base(), files);
  auto policy = policy::load_policy(tree);
  if (!policy) return;
  rules::CheckCache cache;
  auto report = rules::check_tree(tree, policy::check_options_for_own_tree(*policy), cache);
  if (report) {
    (void)report->failed();
    (void)report->cannot_judge();
  }
}

// The paths of `listing`'s items, in order.
std::vector<std::string> listed_paths(const git::IndexListing& listing) {
  std::vector<std::string> out;
  for (const auto& item : listing.items) out.emplace_back(listing.path(item));
  return out;
}

// The same bytes as a file, for the readers that take a path: one file per
// process, rewritten for each input.
const std::string& index_copy(std::string_view data) {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/ledgergate-fuzz-index-" + std::to_string(::getpid());
  }();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (!data.empty() && std::fwrite(data.data(), 1, data.size(), f) != data.size()) std::abort();
  if (std::fclose(f) != 0) std::abort();
  return path;
}

// git's index file readers. Whatever the whole-file parse reads is a
// listing, sorted, each path once; the streamed reader of a file's stat
// data (read_index_stat, a buffer at a time) reads what it reads and keeps
// exactly its items that `only` names; a read of just
// the span that read recorded keeps the same; the cache-tree reader only
// must not misbehave.
void run_index_file(std::string_view data) {
  const auto listing = git::parse_index_file(data);
  if (listing) {
    for (std::size_t i = 1; i < listing->items.size(); ++i) {
      if (!(listing->path(listing->items[i - 1]) < listing->path(listing->items[i]))) std::abort();
    }
  }
  // Some of the listed paths, literal, and the folder of one of them.
  std::vector<std::string> only{"a", "b/"};
  if (listing) {
    const std::vector<std::string> all = listed_paths(*listing);
    for (std::size_t i = 0; i < all.size(); i += 3) only.push_back(all[i]);
    if (all.size() > 1) {
      const std::size_t slash = all[1].rfind('/');
      if (slash != std::string::npos) only.push_back(all[1].substr(0, slash + 1));
    }
  }
  const std::string& path = index_copy(data);
  (void)git::read_index_tree(path);
  git::IndexSpan span;
  struct stat st {};
  const auto kept = git::read_index_stat(path, only, span, st);
  // The entries `only` does not name are stepped over unread: the stat
  // reader may read what the parse declines.
  if (!listing) return;
  if (!kept) std::abort();
  std::vector<std::string> expected;
  for (const std::string& p : listed_paths(*listing)) {
    if (git::path_in(only, p)) expected.push_back(p);
  }
  // Unmerged entries (stage above 0) are looked for among the named ones
  // only; a listing with any may lack entries, and is not compared.
  if (kept->unmerged && !listing->unmerged) std::abort();
  if (!listing->unmerged && listed_paths(*kept) != expected) std::abort();
  if (kept->stats.size() != kept->items.size()) std::abort();
  const auto again = git::read_index_stat_span(path, only, span, [](const struct stat&) { return true; });
  if (again && (listed_paths(*again) != listed_paths(*kept) || again->unmerged != kept->unmerged)) std::abort();
}

// An in-memory repository (no folder, one in-memory object store) for
// the tree targets, made anew for each input: nothing an earlier input
// wrote or read stays in its caches (libgit2's object cache, the handle's
// tree memo), so an input gives the same result alone as in a run.
struct MemoryRepo {
  git::Repository repo;
  git_odb* odb = nullptr;  // the repository's (it holds a reference)
};

MemoryRepo memory_repo() {
  git_repository* raw = nullptr;
  git_odb* odb = nullptr;
  git_odb_backend* store = nullptr;
  if (git_repository_new(&raw) != 0 || git_odb_new(&odb) != 0 || git_mempack_new(&store) != 0 ||
      git_odb_add_backend(odb, store, 1) != 0 || git_repository_set_odb(raw, odb) != 0) {
    std::abort();
  }
  git_odb_free(odb);  // the repository keeps it
  return MemoryRepo{git::Repository::adopt(raw), odb};
}

git::ObjectId write_tree_bytes(MemoryRepo& m, std::string_view bytes) {
  git_oid id;
  if (git_odb_write(&id, m.odb, bytes.data(), bytes.size(), GIT_OBJECT_TREE) != 0) std::abort();
  return git::ObjectId::from_bytes(id.id);
}

// The entries of tree `id` as libgit2's own parser reads them (each mode
// as git reads it: canonical_mode); nullopt when it refuses the tree.
std::optional<std::vector<git::TreeItem>> libgit2_entries(const git::Repository& repo, const git::ObjectId& id) {
  git_tree* tree = nullptr;
  const git_oid oid = git::to_git(id);
  if (git_tree_lookup(&tree, repo.raw(), &oid) != 0) {
    git_error_clear();
    return std::nullopt;
  }
  std::vector<git::TreeItem> out;
  for (std::size_t i = 0; i < git_tree_entrycount(tree); ++i) {
    const git_tree_entry* e = git_tree_entry_byindex(tree, i);
    out.push_back({git_tree_entry_name(e), git::canonical_mode(git_tree_entry_filemode_raw(e)),
                   git::ObjectId::from_bytes(git_tree_entry_id(e)->id)});
  }
  git_tree_free(tree);
  return out;
}

bool same_entry(std::string_view name, git::FileMode mode, const git::ObjectId& id, const git::TreeItem& lib) {
  return name == lib.name && mode == lib.mode && id == lib.id;
}

// A tree object's bytes, read by ledgergate's own tree readers and by
// libgit2's parser: what RawTree takes, libgit2 reads with the same
// entries; read_tree reads a tree only when libgit2 does, with its
// entries, and refuses one libgit2 reads only for a name git fsck
// rejects; and a name looked up below it (tree_entry_at: RawTree's binary
// search in git's order, else libgit2's) is found exactly as libgit2's
// git_tree_entry_bypath finds it. Modes are compared as git reads them
// (canonical_mode).
void run_raw_tree(std::string_view data) {
  MemoryRepo m = memory_repo();
  const git::ObjectId id = write_tree_bytes(m, data);
  const auto lib = libgit2_entries(m.repo, id);
  if (const auto raw = git::read_raw_tree(m.repo.raw(), id)) {
    if (!lib || lib->size() != raw->items.size()) std::abort();
    for (std::size_t i = 0; i < raw->items.size(); ++i) {
      const auto& item = raw->items[i];
      if (!same_entry(raw->name(item), static_cast<git::FileMode>(item.mode), git::ObjectId::from_bytes(raw->id(item)),
                      (*lib)[i])) {
        std::abort();
      }
    }
  }
  const auto read = git::read_tree(m.repo, id);
  if (read && !lib) std::abort();
  if (!lib) return;
  if (!read) {  // refused where libgit2 reads: only for a name git fsck rejects
    const bool rejected = std::any_of(lib->begin(), lib->end(), [](const git::TreeItem& e) {
      return git::malformed_name_reason(e.name).has_value();
    });
    if (!rejected) std::abort();
    return;
  }
  if (read->size() != lib->size()) std::abort();
  for (std::size_t i = 0; i < lib->size(); ++i) {
    if (!same_entry((*read)[i].name, (*read)[i].mode, (*read)[i].id, (*lib)[i])) std::abort();
  }
  // Names looked up below "sub/": each entry's, and each with one more
  // byte, one less, or a slash and more (a folder's inside).
  const std::string id_bytes(reinterpret_cast<const char*>(id.bytes()), git::ObjectId::k_raw_size);
  const git::ObjectId outer = write_tree_bytes(m, "40000 sub" + std::string(1, '\0') + id_bytes);
  git_tree* outer_tree = nullptr;
  const git_oid outer_oid = git::to_git(outer);
  if (git_tree_lookup(&outer_tree, m.repo.raw(), &outer_oid) != 0) std::abort();
  std::vector<std::string> names;
  for (std::size_t i = 0; i < lib->size() && i < 16; ++i) {
    const std::string& n = (*lib)[i].name;
    names.insert(names.end(), {n, n + "-", n + "/x", n.substr(0, n.size() - (n.empty() ? 0 : 1))});
  }
  for (const std::string& name : names) {
    if (name.empty() || name.find('\0') != std::string::npos) continue;
    git_tree_entry* expected = nullptr;
    const bool found = git_tree_entry_bypath(&expected, outer_tree, ("sub/" + name).c_str()) == 0;
    git_error_clear();
    const auto got = git::tree_entry_at(m.repo, outer, "sub/" + name);
    // A path through a subtree reads it: absent here, libgit2 fails where a
    // lookup may say "no such entry"; only a found entry is compared then.
    if (got && got->has_value() != found && name.find('/') == std::string::npos) std::abort();
    if (got && found && got->has_value()) {
      if ((*got)->mode != git::canonical_mode(git_tree_entry_filemode_raw(expected)) ||
          (*got)->id != git::ObjectId::from_bytes(git_tree_entry_id(expected)->id)) {
        std::abort();
      }
    }
    git_tree_entry_free(expected);
  }
  git_tree_free(outer_tree);
}

// Up to 16 tree objects' bytes (split at "\n=====\n"): the first two are
// diffed (one alone: against the empty tree), the others are trees they
// may name. A folder entry naming a later part by the id of its bytes as
// given, or else any later part by its id's first byte, is pointed at that
// part as written (the parts are written last to first, each with its
// folder entries so pointed), so that the walk finds real subtrees.
std::vector<git::ObjectId> write_linked_trees(MemoryRepo& m, const std::vector<std::string_view>& parts) {
  const std::size_t n = parts.size();
  std::vector<git::ObjectId> given(n), written(n);
  for (std::size_t i = 0; i < n; ++i) {
    git_oid id;
    if (git_odb_hash(&id, parts[i].data(), parts[i].size(), GIT_OBJECT_TREE) != 0) std::abort();
    given[i] = git::ObjectId::from_bytes(id.id);
  }
  for (std::size_t i = n; i-- > 0;) {
    std::string bytes(parts[i]);
    // "<octal mode> <name>\0<20-byte id>" read leniently, here and only to
    // point folder entries; a part that stops reading so is left as it is.
    for (std::size_t at = 0; at < bytes.size() && i + 1 < n;) {
      const std::size_t space = bytes.find(' ', at);
      const std::size_t nul = space == std::string::npos ? space : bytes.find('\0', space);
      if (nul == std::string::npos || nul + 21 > bytes.size()) break;
      unsigned mode = 0;
      for (std::size_t c = at; c < space && mode < 0x100000; ++c) {
        mode = mode * 8 + static_cast<unsigned>(bytes[c] - '0');
      }
      char* id = bytes.data() + nul + 1;
      if ((mode & 0170000u) == 040000u) {
        std::size_t target = i + 1 + static_cast<unsigned char>(id[0]) % (n - i - 1);
        for (std::size_t j = i + 1; j < n; ++j) {
          if (std::memcmp(id, given[j].bytes(), git::ObjectId::k_raw_size) == 0) target = j;
        }
        std::memcpy(id, written[target].bytes(), git::ObjectId::k_raw_size);
      }
      at = nul + 21;
    }
    written[i] = write_tree_bytes(m, bytes);
  }
  return written;
}

// The diff of the first two parts (write_linked_trees) by TreeDiffer, the
// raw walk diff_trees answers with when no rename can pair (it skips
// identical subtrees unread and compares only what lies between two trees'
// common prefix and suffix), and by libgit2: when both finish and no file
// was added beside another deleted, they name the same paths, and unless
// libgit2 found a rename, their entries are the same, in the same order.
void run_tree_diff(std::string_view data) {
  MemoryRepo m = memory_repo();
  const auto parts = split(data, "\n=====\n", 16);
  const std::vector<git::ObjectId> trees = write_linked_trees(m, parts);
  const git::ObjectId* const from_ptr = parts.size() >= 2 ? &trees[0] : nullptr;
  const git::ObjectId& to = parts.size() >= 2 ? trees[1] : trees[0];
  git::TreeDiffer walk(m.repo);
  const auto walked = walk.changes(from_ptr, &to);
  const auto both = git::diff_trees(m.repo, from_ptr, &to);
  if (!walked || git::may_have_renames(*walked)) return;
  // diff_trees answers with the walk here.
  if (!both || both->size() != walked->size()) std::abort();
  const auto lib = git::diff_trees_with_renames(m.repo, from_ptr, &to);
  if (!lib) return;
  // Every path either names, changed or renamed from: the same. (libgit2
  // splits some changes of an entry's type, one side a submodule, into a
  // deletion and an addition, and may then pair the addition with another
  // deletion as a rename, where the walk says "T" and "D".)
  const auto touched = [](const std::vector<git::DiffEntry>& diff) {
    std::set<std::string> out;
    for (const git::DiffEntry& e : diff) {
      out.insert(e.path);
      if (!e.old_path.empty()) out.insert(e.old_path);
    }
    return out;
  };
  if (touched(*lib) != touched(*walked)) std::abort();
  const bool renamed = std::any_of(lib->begin(), lib->end(), [](const git::DiffEntry& e) { return !e.old_path.empty(); });
  if (renamed) return;
  if (lib->size() != walked->size()) std::abort();
  for (std::size_t i = 0; i < lib->size(); ++i) {
    const git::DiffEntry& a = (*walked)[i];
    const git::DiffEntry& b = (*lib)[i];
    if (a.status != b.status || a.path != b.path || a.old_path != b.old_path || a.has_new != b.has_new ||
        a.new_kind != b.new_kind || a.old_id != b.old_id || a.new_id != b.new_id) {
      std::abort();
    }
  }
}

// The persistent cache's payloads as a check reads them back: the facts
// pack, its journal and the projects memo. A stored entry is checksummed,
// so what reaches these decoders is what another build wrote, or a damaged
// entry that kept its checksum. The first byte chooses the input's use:
//  - odd: raw payloads, split at "\n=====\n": the pack, its journal, a memo
//    (the memo reader also reads the pack and the journal as records);
//  - even: payloads the writers make of the input's lines (each line a
//    ledger's key, name and row inputs; every other one with a finding),
//    which read back as written, then the same with bytes written over
//    them as the first line says (three bytes an edit: where, high and
//    low, and the byte).
diag::Finding cache_finding(std::string_view message, int line) {
  return rules::make_finding("ledger-log-newest-first", "projects/x.md", line, std::string(message),
                             diag::PeerForm::path_message);
}

// Reads a memo payload whole; the number of records read.
std::size_t read_memo(std::string_view payload) {
  rules::MemoReader memo(payload);
  std::size_t n = 0;
  rules::MemoRecord rec;
  while (memo.ok() && memo.next(rec)) {
    (void)rec.decode_findings();
    ++n;
  }
  (void)memo.active();
  return n;
}

// Loads a pack payload (and a journal over it) and writes it again.
void read_pack(std::string_view payload, std::string_view journal, const std::vector<std::string>& keys) {
  rules::FactsPack pack;
  if (!pack.load(std::string(payload))) return;
  (void)pack.load_journal(std::string(journal));
  for (const std::string& key : keys) {
    (void)pack.find(key);
    (void)pack.find_glob(key);
  }
  pack.set_rewrite_whole();
  rules::FactsPack again;
  if (!again.load(pack.encode_whole())) std::abort();  // what it wrote, it reads
}

void run_cache_payload(std::string_view data) {
  if (data.empty()) return;
  const bool raw = (static_cast<unsigned char>(data[0]) & 1) != 0;
  data.remove_prefix(1);
  if (raw) {
    const auto parts = split(data, "\n=====\n", 3);
    const std::string_view journal = parts.size() > 1 ? parts[1] : std::string_view();
    read_pack(parts[0], journal, {"L", "G", std::string(journal.substr(0, 40))});
    (void)read_memo(parts.back());
    (void)read_memo(parts[0]);
    rules::MemoRecord rec;
    (void)rules::MemoReader::read_record(journal, rec);
    return;
  }
  const auto lines = split(data, "\n", 64);
  const std::string_view edits = lines[0];
  rules::FactsPack pack;
  rules::MemoWriter memo("0123456789abcdef0123456789abcdef01234567", {cache_finding("yaml", 1)});
  std::map<std::string, std::vector<diag::Finding>> kept;  // by key: what each lookup must give back
  std::vector<std::string> names;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string line(lines[i]);
    std::vector<diag::Finding> findings;
    if (i % 2 == 0) findings.push_back(cache_finding(line, static_cast<int>(i)));
    if (kept.emplace("L" + line, findings).second) {
      pack.keep("L" + line, findings);
      pack.keep_glob("G" + line, std::make_shared<const std::vector<std::string>>(1, line));
    }
    std::string id = line.substr(0, 20);
    id.resize(20, '\0');
    memo.add(line, git::EntryKind::file, id, line, findings);
    names.push_back(line);
  }
  std::string pack_bytes = pack.encode_whole();
  std::string memo_bytes = memo.finish({cache_finding("active", 2)});
  {
    rules::FactsPack loaded;
    if (!loaded.load(pack_bytes)) std::abort();
    for (const auto& [key, findings] : kept) {
      const std::vector<diag::Finding>* found = loaded.find(key);
      if (!found || !diag::same_findings(*found, findings)) std::abort();
      const auto glob = loaded.find_glob("G" + key.substr(1));
      if (!glob || glob->size() != 1 || (*glob)[0] != key.substr(1)) std::abort();
    }
    rules::MemoReader r(memo_bytes);
    rules::MemoRecord rec;
    std::size_t n = 0;
    while (r.next(rec)) {
      if (n >= names.size() || rec.name != names[n] || rec.inputs != names[n] || !rec.decode_findings()) std::abort();
      ++n;
    }
    if (n != names.size() || r.active().size() != 1 || !r.ok()) std::abort();
  }
  for (std::size_t at = 0; at + 3 <= edits.size(); at += 3) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(edits[at + k]); };
    const std::size_t where = (std::size_t{byte(0)} << 8) | byte(1);
    if (!pack_bytes.empty()) pack_bytes[where % pack_bytes.size()] = static_cast<char>(byte(2));
    if (!memo_bytes.empty()) memo_bytes[where % memo_bytes.size()] = static_cast<char>(byte(2));
  }
  std::vector<std::string> keys;
  for (const auto& [key, findings] : kept) keys.push_back(key);
  read_pack(pack_bytes, {}, keys);
  (void)read_memo(memo_bytes);
}

constexpr Target k_targets[] = {
    {"yaml", run_yaml},
    {"project_ledger", run_project_ledger},
    {"pt_file", run_pt_file},
    {"open_requirements", run_open_requirements},
    {"policy", run_policy},
    {"record_merge", run_record_merge},
    {"check_tree", run_check},
    {"index_file", run_index_file},
    {"raw_tree", run_raw_tree},
    {"tree_diff", run_tree_diff},
    {"cache_payload", run_cache_payload},
};

}  // namespace

std::span<const Target> targets() { return k_targets; }

const Target* find_target(std::string_view name) {
  const auto it = std::find_if(std::begin(k_targets), std::end(k_targets), [&](const Target& t) { return t.name == name; });
  return it == std::end(k_targets) ? nullptr : &*it;
}

}  // namespace lg::fuzz
