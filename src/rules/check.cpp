// The check driver: profile detection, the cortex-projects pass list —
// projects.yaml, file names, each ledger (sorted), then active rows without a
// ledger — and the cortex-phases/cortex-tasks pass (projects.yaml, the
// phase/task and ruling files found recursively, P1's batches), with every
// blob parsed at most once per cache.
#include "ledgergate/rules/check.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_set>
#include <span>
#include <thread>
#include <atomic>
#include <functional>
#include <iterator>

#include "ledgergate/cache/codec.hpp"
#include "ledgergate/cache/store.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/rules/change.hpp"
#include "ledgergate/rules/cortex_eras.hpp"
#include "ledgergate/rules/cortex_p1.hpp"
#include "ledgergate/ledger/open_requirements.hpp"
#include "ledgergate/rules/cortex_projects.hpp"
#include "ledgergate/rules/open_requirements.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/assert.hpp"
#include "ledgergate/util/cursor.hpp"
#include "ledgergate/util/hash.hpp"
#include "ledgergate/util/temp_name.hpp"
#include "ledgergate/util/version.hpp"
#include "facts_pack.hpp"
#include "projects_memo.hpp"

namespace lg::rules {

struct CheckCache::ProjectsYamlResult {
  ProjectsTable table;
  std::vector<diag::Finding> findings;
};

namespace {

using FindingsPtr = std::shared_ptr<const std::vector<diag::Finding>>;

}  // namespace

// The persistent cache of one cache home: its store and the facts pack, one
// entry holding per-blob findings — ledgers keyed by (blob, path, row
// inputs), open-requirements files by (blob, path) — and projects.yaml's
// facts by blob, loaded once and written back after a check that added to it.
// The open-requirements glob's matches below a subtree ("G" tree id, glob)
// are kept too, for basename globs (a function of the subtree's id): a new
// tree is walked only where it differs from the trees checked before.
struct CheckCache::Persistent {
  Persistent(std::string h, cache::Store s) : home(std::move(h)), store(std::move(s)) {}
  std::string home;
  cache::Store store;
  bool loaded = false;
  FactsPack pack;
  // The projects pass's memo (projects_memo.hpp): the payload last read or
  // built ("" when none), and its journal's records.
  bool memo_loaded = false;
  bool journal_loaded = false;
  bool memo_written = false;  // a whole memo is written once per process (an audit checks thousands of trees)
  std::shared_ptr<const void> memo_owner;
  std::string_view memo;
  std::string journal_yaml;                         // the projects.yaml id the journal's records were judged with
  std::vector<MemoRecord> journal;                  // views into journal_owners
  std::vector<std::shared_ptr<const void>> journal_owners;
};

bool CheckReport::cannot_judge() const {
  return std::any_of(findings.begin(), findings.end(), [](const diag::Finding& f) { return f.cannot_judge; });
}
bool CheckReport::failed() const {
  return std::any_of(findings.begin(), findings.end(),
                     [](const diag::Finding& f) { return f.severity == diag::Severity::error; });
}

namespace {

using ledger::k_projects_yaml;

struct Pass {
  git::TreeSource& tree;
  CheckCache& cache;
  diag::CollectingSink sink;
  std::vector<std::string> orl_files = {};  // open-requirements files (the glob's matches)
  std::string_view sub = {};                // the profile's sub-era ("" = the newest / none)
  CheckCache::Persistent* persistent = nullptr;  // the persistent cache; null when off
  // The blobs whose content the findings stand on, read or not (a whole
  // verdict keeps them), and of those the ones the persistent cache
  // answered for without a read: confirmed present and intact before its
  // answer is used (TreeSource::confirm; docs/cache.md).
  std::vector<git::ObjectId> covered = {};
  std::vector<git::ObjectId> vouched = {};
};

void cover(Pass& pass, const std::optional<git::ObjectId>& id) {
  if (id && pass.persistent) pass.covered.push_back(*id);
}
void vouch(Pass& pass, const git::ObjectId& id) {
  pass.covered.push_back(id);
  pass.vouched.push_back(id);
}

// ---- the persistent cache (cache/store.hpp; docs/cache.md) ----

// What besides a tree's content decides its check: this build's rule table
// (ids, default severities, profiles; ledgergate's version is in every
// entry's header) and, for a whole verdict, the options.
const std::string& rules_fingerprint() {
  static const std::string text = [] {
    util::Fnv1a h;
    for (const RuleInfo& r : all_rules()) {
      h.add(r.id);
      h.add_byte(0);
      h.add_byte(static_cast<unsigned char>(r.severity));
      h.add(r.profile);
      h.add_byte(0);
    }
    return std::string(util::k_version) + " " + std::to_string(h.value());
  }();
  return text;
}

std::string options_text(const CheckOptions& o) {
  std::string out = rules_fingerprint();
  out += '\0' + o.profile + '\0';
  out += o.detected ? std::string(ledger::layout_name(*o.detected)) : std::string("-");
  out += '\0' + o.open_requirements_glob;
  for (const auto& [rule, severity] : o.severities) {
    out += '\0' + rule + '=' + std::string(diag::to_string(severity));
  }
  return out;
}

constexpr std::string_view k_pack_kind = "facts";
// The pack's key: the rules, and the pack's own layout (2: with the glob
// walks; 3: ledger keys path first, and a journal).
const std::string& pack_key() {
  static const std::string key = rules_fingerprint() + " pack 3";
  return key;
}
const std::string& journal_key() {
  static const std::string key = pack_key() + " journal";
  return key;
}
constexpr std::string_view k_verdict_kind = "verdict";

// Findings that say a read failed are not a function of the content: what
// holds one is never cached.
bool has_unreadable(std::span<const diag::Finding> findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const diag::Finding& f) { return f.rule == "input-unreadable"; });
}

CheckCache::Persistent* open_persistent(git::TreeSource& tree, CheckCache& cache) {
  if (!cache::enabled()) return nullptr;
  const std::string home = tree.cache_home();
  if (home.empty()) return nullptr;
  auto& p = cache.persistent();
  if (!p || p->home != home) {
    p = std::make_shared<CheckCache::Persistent>(home, cache::Store(cache::Store::dir_for(home)));
  }
  return p.get();
}

void note_malformed(const CheckCache::Persistent& p, const std::string& key) {
  cache::add_note("cache entry " + p.store.path_of(k_pack_kind, key) + " ignored (malformed); it is rebuilt");
}

// The pack, then its journal on top (a journal without its pack is read
// all the same: its entries stand on their own keys).
void load_pack(CheckCache::Persistent& p) {
  if (p.loaded) return;
  p.loaded = true;
  cache::Store::Lookup got = p.store.get(k_pack_kind, pack_key());
  if (got.note) {
    cache::add_note(std::move(*got.note));
    p.pack.set_rewrite_whole();
  }
  if (got.payload && !p.pack.load(std::move(got.bytes), *got.payload)) {
    note_malformed(p, pack_key());
    p.pack.set_rewrite_whole();
  }
  cache::Store::Lookup journal = p.store.get(k_pack_kind, journal_key());
  if (journal.note) {
    cache::add_note(std::move(*journal.note));
    p.pack.set_dirty();
  }
  if (journal.payload && !p.pack.load_journal(journal.bytes, *journal.payload)) {
    note_malformed(p, journal_key());
    p.pack.set_dirty();
  }
}

// Writes back what a check added: the journal, or the whole pack (and then
// the journal it folded in is removed).
void flush_pack(CheckCache::Persistent& p) {
  if (!p.pack.dirty()) return;
  const FactsPack::Encoded out = p.pack.encode();
  if (!out.whole) {
    p.store.put(k_pack_kind, journal_key(), out.payload);
  } else if (p.store.put(k_pack_kind, pack_key(), out.payload)) {
    p.store.remove(k_pack_kind, journal_key());
  }
}

const std::vector<diag::Finding>* find_facts(CheckCache::Persistent& p, std::string_view key) {
  load_pack(p);
  return p.pack.find(key);
}

void keep_facts(CheckCache::Persistent& p, std::string key, std::vector<diag::Finding> findings) {
  load_pack(p);
  p.pack.keep(std::move(key), std::move(findings));
}

// A whole verdict: the report and the blobs it stands on (raw ids, one
// field), which are confirmed before it is used.
struct Verdict {
  CheckReport report;
  std::vector<git::ObjectId> covered;
};

std::optional<Verdict> load_verdict(CheckCache::Persistent& p, const std::string& key) {
  cache::Store::Lookup got = p.store.get(k_verdict_kind, key);
  if (got.note) cache::add_note(std::move(*got.note));
  if (!got.payload) return std::nullopt;
  cache::Decoder d(*got.payload);
  Verdict v;
  v.report.profile = d.field();
  const std::string checked = d.field();
  v.report.findings = d.findings();
  const std::string_view ids = d.field_view();
  auto profile = ledger::parse_profile(checked);
  if (!d.ok() || !d.at_end() || !profile || ids.size() % git::ObjectId::k_raw_size != 0) {
    cache::add_note("cache entry " + p.store.path_of(k_verdict_kind, key) + " ignored (malformed); it is rebuilt");
    return std::nullopt;
  }
  v.report.checked = *profile;
  v.covered.reserve(ids.size() / git::ObjectId::k_raw_size);
  for (std::size_t at = 0; at < ids.size(); at += git::ObjectId::k_raw_size) {
    v.covered.push_back(git::ObjectId::from_bytes(reinterpret_cast<const unsigned char*>(ids.data() + at)));
  }
  return v;
}

void keep_verdict(CheckCache::Persistent& p, const std::string& key, const CheckReport& report,
                  const std::vector<git::ObjectId>& covered) {
  cache::Encoder e;
  e.field(report.profile);
  e.field(report.checked.name());
  e.findings(report.findings);
  std::string ids;
  ids.reserve(covered.size() * git::ObjectId::k_raw_size);
  for (const git::ObjectId& id : covered) ids += id.raw();
  e.field(ids);
  p.store.put(k_verdict_kind, key, e.text());
}

// The projects pass's memo and its journal: one of each per cache (the
// last pass's), in a kind of their own.
constexpr std::string_view k_memo_kind = "projects";
const std::string& memo_key() {
  static const std::string key = rules_fingerprint() + " projects memo 2";
  return key;
}
const std::string& memo_journal_key() {
  static const std::string key = memo_key() + " journal";
  return key;
}
// Past this many records, the journal is folded into a new memo.
constexpr std::size_t k_memo_journal_max = 32;

void note_malformed_memo(const CheckCache::Persistent& p, const std::string& key) {
  cache::add_note("cache entry " + p.store.path_of(k_memo_kind, key) + " ignored (malformed); it is rebuilt");
}

void clear_memo_journal(CheckCache::Persistent& p) {
  p.journal_yaml.clear();
  p.journal.clear();
  p.journal_owners.clear();
}

// Adds a journal record (its bytes held by `owner`); false when it does not decode exactly.
bool add_journal_record(CheckCache::Persistent& p, std::shared_ptr<const void> owner, std::string_view encoded) {
  MemoRecord record;
  if (!MemoReader::read_record(encoded, record)) return false;
  p.journal.push_back(std::move(record));
  p.journal_owners.push_back(std::move(owner));
  return true;
}

// The memo, read once per cache.
void load_memo(CheckCache::Persistent& p) {
  if (p.memo_loaded) return;
  p.memo_loaded = true;
  cache::Store::Lookup got = p.store.get(k_memo_kind, memo_key());
  if (got.note) cache::add_note(std::move(*got.note));
  if (got.payload) {
    p.memo_owner = std::move(got.bytes);
    p.memo = *got.payload;
  }
}

// The memo's journal, read once per cache.
void load_memo_journal(CheckCache::Persistent& p) {
  if (p.journal_loaded) return;
  p.journal_loaded = true;
  cache::Store::Lookup journal = p.store.get(k_memo_kind, memo_journal_key());
  if (journal.note) cache::add_note(std::move(*journal.note));
  if (!journal.payload) return;
  MemoReader r(*journal.payload);
  p.journal_yaml = std::string(r.yaml_id());
  MemoRecord record;
  bool whole = true;
  while (r.next(record)) {
    whole = whole && record.decode_findings();
    p.journal.push_back(record);
    p.journal_owners.push_back(journal.bytes);
  }
  if (!r.active().empty() || !r.ok() || !r.yaml_findings().empty() || !whole) {
    note_malformed_memo(p, memo_journal_key());
    clear_memo_journal(p);
  }
}

// Keeps `payload` as the memo: in memory, and on disk the first time in
// this process (its journal, folded in, is then removed).
void keep_memo(CheckCache::Persistent& p, std::string payload) {
  auto owned = std::make_shared<const std::string>(std::move(payload));
  if (!p.memo_written) {
    p.memo_written = true;
    if (p.store.put(k_memo_kind, memo_key(), *owned)) p.store.remove(k_memo_kind, memo_journal_key());
  }
  p.memo_loaded = p.journal_loaded = true;
  p.memo = *owned;
  p.memo_owner = std::move(owned);
  clear_memo_journal(p);
}

bool is_readable_kind(git::EntryKind k) { return k == git::EntryKind::file || k == git::EntryKind::executable; }

void report_not_a_file(Pass& pass, const std::string& path, git::EntryKind kind) {
  pass.sink.report(make_finding("input-not-a-file", path, 0,
                                "is a " + std::string(git::to_string(kind)) +
                                    ", not a regular file: it is not read as ledger",
                                diag::PeerForm::none));
}

// Reads a file, reporting unreadable input as a finding; nullopt then.
std::optional<std::string> read_or_report(Pass& pass, const std::string& path, const git::Entry& entry) {
  auto bytes = pass.tree.read(path, entry);
  if (bytes) return std::move(*bytes);
  pass.sink.report(make_finding("input-unreadable", path, 0,
                                "cannot be read (" + bytes.error().message + "): the tree cannot be judged",
                                diag::PeerForm::none));
  return std::nullopt;
}

// Validates projects.yaml's text (nullopt = absent) with one era's rules.
using ProjectsValidator = std::function<ProjectsTable(std::optional<std::string_view>, diag::FindingSink&)>;

ProjectsTable validate_newest(std::optional<std::string_view> text, diag::FindingSink& sink) {
  return check_projects_yaml(text, ProjectsYamlEra{}, sink, std::string(k_projects_yaml));
}

// The validated projects.yaml of the pass's tree (shared, never copied: a
// history audit checks thousands of trees holding the same blob). `era_key`
// tells the cache which era's `validate` judged the blob ("" = the newest).
std::shared_ptr<const CheckCache::ProjectsYamlResult> check_projects_file(
    Pass& pass, const std::string& era_key = {}, const ProjectsValidator& validate = validate_newest) {
  const std::string path(k_projects_yaml);
  auto entry = pass.tree.stat(path);
  std::optional<std::string> bytes;
  if (entry && *entry) {
    if (!is_readable_kind((*entry)->kind)) {
      report_not_a_file(pass, path, (*entry)->kind);
    } else {
      const auto& id = (*entry)->content_id;
      cover(pass, id);
      if (auto hit = id ? pass.cache.projects_yaml().find(QualifiedId{*id, era_key}) : nullptr) {
        for (const diag::Finding& f : hit->findings) pass.sink.report(f);
        return hit;
      }
      bytes = read_or_report(pass, path, **entry);
    }
  }
  auto result = std::make_shared<CheckCache::ProjectsYamlResult>();
  diag::CollectingSink local;
  const bool read = bytes.has_value();  // the blob was read (not absent, not unreadable): its result is kept
  if (bytes) {
    const ledger::TextFile file = ledger::decode_owned_text(std::move(*bytes), false);
    bytes.reset();
    check_text_input(file.facts, path, local);
    result->table = validate(file.text, local);
  } else {
    result->table = validate(std::nullopt, local);
  }
  result->findings = local.take();
  for (const diag::Finding& f : result->findings) pass.sink.report(f);
  if (read && (*entry)->content_id) {
    pass.cache.projects_yaml().keep(QualifiedId{*(*entry)->content_id, era_key}, result);
  }
  return result;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool is_ledger_key(std::string_view stem) {
  // [a-z][a-z0-9_]*, byte by byte: every character of a key is ASCII, so a
  // byte of a longer UTF-8 sequence (or of none) fails it as its code point would.
  if (stem.empty() || !util::is_lower_ascii(static_cast<unsigned char>(stem[0]))) return false;
  return std::all_of(stem.begin() + 1, stem.end(),
                     [](char ch) { return util::is_key_char(static_cast<unsigned char>(ch)); });
}

// G-03: a file under projects/ that `check` does not read (recursing into
// directories), which the merge gate would still land as ledger.
Result<void> report_unchecked(Pass& pass, const std::string& path, const git::Entry& entry) {
  if (util::is_writer_temp_name(entry.name)) return {};  // input-writer-temp-file reports it
  if (entry.kind != git::EntryKind::directory) {
    pass.sink.report(make_finding("input-unchecked-file", path, 0,
                                  "not read by `check` (only projects/<key>.md files are ledgers), yet the "
                                  "merge gate would land it as ledger",
                                  diag::PeerForm::none));
    return {};
  }
  LG_TRY(auto entries, pass.tree.list(path));
  for (const git::Entry& e : entries.value_or(std::vector<git::Entry>{})) {
    if (auto r = report_unchecked(pass, path + "/" + e.name, e); !r) return r.error();
  }
  return {};
}

using LedgerFile = ProjectsStepLedger;

// "projects/<name>", appended to `out`.
void append_ledger_path(std::string& out, std::string_view name) {
  out.append(ledger::k_projects_dir).append(1, '/').append(name);
}
std::string ledger_path(std::string_view name) {
  std::string path;
  path.reserve(ledger::k_projects_dir.size() + 1 + name.size());
  append_ledger_path(path, name);
  return path;
}

diag::Finding bad_ledger_name(std::string_view name) {
  return make_finding("ledger-file-name", ledger_path(name), 0, "file name must be projects/<key>.md with a bare key",
                      diag::PeerForm::path_message);
}

// projects/ as listed, and which of its entries are ledgers (a well-formed
// name), in listing order: a ledger is its entry until a path is needed
// (no string per ledger for the thousands the facts pack answers).
struct LedgerListing {
  git::Listing listed;                 // projects/, as views
  std::vector<std::uint32_t> ledgers;  // indices into listed

  git::EntryView entry(std::size_t i) const { return listed[ledgers[i]]; }
  std::string_view key(std::size_t i) const {
    const std::string_view name = entry(i).name;
    return name.substr(0, name.size() - 3);
  }
  LedgerFile file(std::size_t i) const { return LedgerFile{ledger_path(entry(i).name), entry(i).entry()}; }
};

// Lists projects/, reporting the names that are not ledgers' (and the files
// below it `check` does not read).
Result<LedgerListing> list_ledger_entries(Pass& pass) {
  LG_TRY(auto listed, pass.tree.list_view(ledger::k_projects_dir));
  LedgerListing out;
  if (!listed) return out;
  out.listed = std::move(*listed);
  const git::Listing& entries = out.listed;
  out.ledgers.reserve(entries.size());
  std::vector<std::uint32_t> unchecked;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string_view name = entries[i].name;
    switch (projects_entry_role(name)) {
      case ProjectsEntryRole::skipped:
        break;
      case ProjectsEntryRole::unchecked:
        unchecked.push_back(static_cast<std::uint32_t>(i));
        break;
      case ProjectsEntryRole::bad_name:
        pass.sink.report(bad_ledger_name(name));
        break;
      case ProjectsEntryRole::ledger:
        out.ledgers.push_back(static_cast<std::uint32_t>(i));
        break;
    }
  }
  for (const std::uint32_t i : unchecked) {
    const git::EntryView e = entries[i];
    if (auto r = report_unchecked(pass, ledger_path(e.name), e.entry()); !r) return r.error();
  }
  return out;
}

Result<std::vector<LedgerFile>> list_ledgers(Pass& pass) {
  LG_TRY(auto listing, list_ledger_entries(pass));
  std::vector<LedgerFile> ledgers;
  ledgers.reserve(listing.ledgers.size());
  for (std::size_t i = 0; i < listing.ledgers.size(); ++i) ledgers.push_back(listing.file(i));
  return ledgers;
}

std::shared_ptr<const ledger::ProjectLedger> parse_compact(std::string&& bytes) {
  ledger::ProjectLedger full = ledger::parse_owned_project_ledger(std::move(bytes));
  full.compact();  // rules read no texts; a cache of thousands of parses stays small
  return std::make_shared<const ledger::ProjectLedger>(std::move(full));
}

// Reads and parses the ledgers the cache lacks on every core, each worker
// with its own repository handle (libgit2 handles are not shared between
// threads). What a worker cannot read is left to the sequential path, which
// reports it; sources without thread readers (folders, the index) skip this.
// Started `behind`, the calling thread is not a worker: it goes on with
// other work of the pass (the projects.yaml validation) on its own handle
// until finish(), which keeps the parses in the cache (the workers touch
// nothing of the pass but their readers).
class LedgerPrefetch {
 public:
  LedgerPrefetch(Pass& pass, std::span<const LedgerFile> ledgers, bool behind = false) : m_pass(pass) {
    for (const LedgerFile& lf : ledgers) {
      if (is_readable_kind(lf.entry.kind) && lf.entry.content_id &&
          !pass.cache.ledgers().contains(*lf.entry.content_id)) {
        m_todo.push_back(&lf);
      }
    }
    if (m_todo.size() < 64) {  // before asking for the core count: a file read, per call
      clear();
      return;
    }
    const unsigned workers = std::min(4u, std::max(1u, std::thread::hardware_concurrency()));
    if (workers < 2) {
      clear();
      return;
    }
    for (unsigned i = 0; i < workers; ++i) {
      auto reader = pass.tree.thread_reader();
      if (!reader) {
        clear();
        return;
      }
      m_readers.push_back(std::move(reader));
    }
    m_parsed.resize(m_todo.size());
    for (unsigned i = behind ? 0 : 1; i < workers; ++i) m_threads.emplace_back(&LedgerPrefetch::work, this, i);
    if (!behind) work(0);
  }
  LedgerPrefetch(const LedgerPrefetch&) = delete;
  LedgerPrefetch& operator=(const LedgerPrefetch&) = delete;
  ~LedgerPrefetch() { join(); }

  // Waits for the workers and keeps what they parsed; returns the ids kept.
  std::vector<git::ObjectId> finish() {
    join();
    std::vector<git::ObjectId> kept;
    for (std::size_t i = 0; i < m_todo.size(); ++i) {
      if (!m_parsed[i]) continue;
      kept.push_back(*m_todo[i]->entry.content_id);
      m_pass.cache.ledgers().keep(kept.back(), std::move(m_parsed[i]));
    }
    clear();
    return kept;
  }

 private:
  void work(unsigned reader) {
    git::TreeSource::BlobReader& read = m_readers[reader];
    for (std::size_t i = m_next++; i < m_todo.size(); i = m_next++) {
      auto bytes = read(m_todo[i]->entry);
      if (bytes) m_parsed[i] = parse_compact(std::move(*bytes));
    }
  }
  void join() {
    for (std::thread& t : m_threads) t.join();
    m_threads.clear();
  }
  void clear() {
    m_todo.clear();
    m_parsed.clear();
  }

  Pass& m_pass;
  std::vector<const LedgerFile*> m_todo;
  std::vector<git::TreeSource::BlobReader> m_readers;
  std::vector<std::shared_ptr<const ledger::ProjectLedger>> m_parsed;
  std::atomic<std::size_t> m_next{0};
  std::vector<std::thread> m_threads;
};

void prefetch_ledgers(Pass& pass, std::span<const LedgerFile> ledgers) { LedgerPrefetch(pass, ledgers).finish(); }

std::shared_ptr<const ledger::ProjectLedger> load_ledger(Pass& pass, const LedgerFile& lf) {
  const std::optional<git::ObjectId>& id = lf.entry.content_id;
  cover(pass, id);
  if (id) {
    if (auto hit = pass.cache.ledgers().find(*id)) return hit;
  }
  auto bytes = read_or_report(pass, lf.path, lf.entry);
  if (!bytes) return nullptr;
  auto parsed = parse_compact(std::move(*bytes));
  if (id) pass.cache.ledgers().keep(*id, parsed);
  return parsed;
}

// One ledger of the cortex-projects pass: its kind, its text, its rules.
void check_ledger_file(Pass& pass, const LedgerFile& lf, const ProjectsTable& rows) {
  if (!is_readable_kind(lf.entry.kind)) {
    report_not_a_file(pass, lf.path, lf.entry.kind);
    return;
  }
  auto parsed = load_ledger(pass, lf);
  if (!parsed) return;
  check_text_input(parsed->input, lf.path, pass.sink);
  check_project_ledger(*parsed, lf.path, std::string(lf.key()), rows, pass.sink);
}

void report_active_row(diag::FindingSink& sink, std::string_view key, int line) {
  const std::string k(key);
  sink.report(make_finding("ledger-active-has-ledger", std::string(k_projects_yaml), line,
                           k + " is active but has no projects/" + k + ".md", diag::PeerForm::path_message));
}

bool is_active(const ProjectRow& row) {
  const auto status = row.get("status");
  return status && *status == "active";
}

// `has(key)`: whether the tree has a ledger (of readable kind) for key.
template <class HasLedger>
void report_active_without_ledger(diag::FindingSink& sink, const ProjectsTable& rows, const HasLedger& has) {
  for (const ProjectRow& row : rows.rows) {
    if (is_active(row) && !has(row.key)) report_active_row(sink, row.key, row.line);
  }
}

// The keys of the ledgers a pass found, as views of its listing: sorted
// once, then searched (no set of 20,000 strings).
class LedgerKeys {
 public:
  void add(std::string_view key) { m_keys.push_back(key); }
  void seal() {
    if (!std::is_sorted(m_keys.begin(), m_keys.end())) std::sort(m_keys.begin(), m_keys.end());
  }
  bool operator()(std::string_view key) const { return std::binary_search(m_keys.begin(), m_keys.end(), key); }

 private:
  std::vector<std::string_view> m_keys;
};

std::shared_ptr<const YamlFacts> yaml_facts_of(const CheckCache::ProjectsYamlResult& parsed) {
  std::vector<YamlFacts::OwnedRow> rows;
  rows.reserve(parsed.table.rows.size());
  for (const ProjectRow& row : parsed.table.rows) {
    rows.push_back(YamlFacts::OwnedRow{row.key, row.line, is_active(row), projects_step_row_inputs(parsed.table, row.key)});
  }
  return YamlFacts::build(parsed.findings, rows);
}

// The table check_project_ledger needs for the ledger `key`: its one row
// rebuilt from the row's inputs (projects_step_row_inputs: the row's
// presence, `status` and `partition`, all that rule reads), into `out`;
// false when the inputs are not of that form (the caller parses the file).
bool table_from_inputs(std::string_view key, std::string_view inputs, ProjectsTable& out) {
  out = ProjectsTable{};
  out.present = true;
  if (inputs.empty()) return true;
  if (std::count(inputs.begin(), inputs.end(), '\0') != 2 || !inputs.starts_with("row")) return false;
  const std::size_t second = inputs.find('\0', 4);
  ProjectRow row;
  row.key = key;
  const std::string_view status = inputs.substr(4, second - 4);
  const std::string_view partition = inputs.substr(second + 1);
  if (!status.empty()) row.fields.emplace_back("status", std::string(status.substr(1)));
  if (!partition.empty()) row.fields.emplace_back("partition", std::string(partition.substr(1)));
  out.rows.push_back(std::move(row));
  return true;
}

// projects.yaml for the ledger pass: its facts from the persistent cache
// when it holds the blob (a ledger the cache lacks is then checked against
// its row rebuilt from the facts: the file is not parsed), else checked as
// without a cache (and its facts kept).
class ProjectsYamlInput {
 public:
  // `report`: whether its findings go to the pass's sink (not when the
  // memo already reported them).
  explicit ProjectsYamlInput(Pass& pass, bool report = true) : m_pass(pass) {
    CheckCache::Persistent* p = pass.persistent;
    if (p) {
      auto entry = pass.tree.stat(k_projects_yaml);
      if (entry && *entry && is_readable_kind((*entry)->kind) && (*entry)->content_id) {
        m_id = (*entry)->content_id->hex();
        load_pack(*p);
        if ((m_facts = p->pack.find_yaml(m_id))) {
          vouch(pass, *(*entry)->content_id);
          if (report) {
            for (const diag::Finding& f : m_facts->findings) pass.sink.report(f);
          }
          return;
        }
      }
    }
    if (report) {
      m_parsed = check_projects_file(pass);
    } else {
      Pass quiet{pass.tree, pass.cache, {}};
      m_parsed = check_projects_file(quiet);
    }
    if (p && !m_id.empty() && !has_unreadable(m_parsed->findings)) {
      m_facts = yaml_facts_of(*m_parsed);
      p->pack.keep_yaml(m_id, m_facts);
    }
  }
  // The blob's id ("" when the persistent cache is off or it has none) and its findings.
  const std::string& id() const { return m_id; }
  const std::vector<diag::Finding>& findings() const { return m_facts ? m_facts->findings : m_parsed->findings; }
  const ProjectsTable& table() {
    if (!m_parsed) {  // the same blob again, its findings already reported: parsed into a sink of its own
      Pass quiet{m_pass.tree, m_pass.cache, {}};
      m_parsed = check_projects_file(quiet);
    }
    return m_parsed->table;
  }
  // The table the ledger `key` is checked against: without the parse, its
  // one row rebuilt from the cached row inputs (all check_project_ledger
  // reads: the row's presence, `status` and `partition`).
  const ProjectsTable& table_for(std::string_view key) {
    if (m_parsed) return m_parsed->table;
    return table_from_inputs(key, m_facts->inputs_of(key), m_one) ? m_one : table();
  }
  // Appends the row inputs of `key` (projects_step_row_inputs) to `out`.
  void append_row_inputs(std::string& out, std::string_view key) {
    if (m_facts) {
      out += m_facts->inputs_of(key);
    } else {
      out += projects_step_row_inputs(m_parsed->table, key);
    }
  }
  void report_active_without_ledger(const LedgerKeys& has) {
    if (m_parsed) return rules::report_active_without_ledger(m_pass.sink, m_parsed->table, has);
    for (const YamlFacts::Row& row : m_facts->rows) {
      if (row.active && !has(m_facts->key(row))) report_active_row(m_pass.sink, m_facts->key(row), row.line);
    }
  }

 private:
  Pass& m_pass;
  std::string m_id;  // the blob's id, when the persistent cache may hold it
  std::shared_ptr<const CheckCache::ProjectsYamlResult> m_parsed;
  std::shared_ptr<const YamlFacts> m_facts;
  ProjectsTable m_one;  // table_for's
};

// A ledger's key in the facts pack, written into `out` (reused: no string
// is built per ledger): "L", the path, the blob id, the row's inputs. Path
// first, so a listing's ledgers are looked up in the pack's own order.
void ledger_fact_key(std::string& out, const git::EntryView& entry, std::string_view inputs) {
  out.clear();
  out += 'L';
  append_ledger_path(out, entry.name);
  out += '\0';
  entry.id.append_hex(out);
  out += '\0';
  out += inputs;
}

// The ledgers are read, parsed and checked in chunks; once the cache holds
// more ledger parses than its budget, a chunk's new parses are dropped after
// it is checked: a 20,000-ledger tree is never held parsed all at once
// (80 MB), while a 2,000-ledger one stays cached for the next check of an
// audit or a trial merge.
constexpr std::size_t k_ledger_chunk = 1024;

std::span<const diag::Finding> reported_since(const Pass& pass, std::size_t before) {
  return std::span<const diag::Finding>(pass.sink.findings()).subspan(before);
}

// The readable ledgers' keys of a listing, sealed.
LedgerKeys keys_of(const LedgerListing& listing) {
  LedgerKeys keys;
  for (std::size_t i = 0; i < listing.ledgers.size(); ++i) {
    if (is_readable_kind(listing.entry(i).kind)) keys.add(listing.key(i));
  }
  keys.seal();
  return keys;
}

const MemoRecord* journal_record(const CheckCache::Persistent& p, const git::EntryView& entry) {
  for (const MemoRecord& r : p.journal) {
    if (r.matches(entry)) return &r;
  }
  return nullptr;
}

// The memo of `listing` once every ledger is in the memo or its journal
// (the journal folded in); nullopt when one is in neither.
std::optional<std::string> fold_memo(const CheckCache::Persistent& p, const LedgerListing& listing,
                                     const std::vector<diag::Finding>& active) {
  MemoReader memo(p.memo);
  MemoWriter out(memo.yaml_id(), memo.yaml_findings());
  MemoRecord rec;
  bool have = memo.next(rec);
  for (std::size_t i = 0; i < listing.ledgers.size(); ++i) {
    const git::EntryView entry = listing.entry(i);
    while (have && rec.name < entry.name) have = memo.next(rec);
    if (have && rec.matches(entry)) {
      out.add_encoded(rec.encoded);
    } else if (const MemoRecord* known = journal_record(p, entry)) {
      out.add_encoded(known->encoded);
    } else {
      return std::nullopt;
    }
  }
  if (!memo.ok()) return std::nullopt;
  return out.finish(active);
}

// The cortex-projects pass from the memo (projects_memo.hpp): when it was
// built against this tree's projects.yaml, each ledger whose name, kind and
// blob it (or its journal) holds has its findings, the others are checked,
// and the active-row findings stand unless the set of ledgers changed.
// False, with nothing reported, when the memo cannot answer (none, another
// projects.yaml, malformed, names out of order): the caller runs the pass.
Result<bool> check_projects_by_memo(Pass& pass) {
  CheckCache::Persistent& p = *pass.persistent;
  const auto yaml = pass.tree.stat(k_projects_yaml);
  if (!yaml || !*yaml || !is_readable_kind((*yaml)->kind) || !(*yaml)->content_id) return false;
  load_memo(p);
  if (p.memo.empty()) return false;
  const std::string yaml_id = (*yaml)->content_id->hex();
  MemoReader memo(p.memo);
  if (!memo.ok() || memo.yaml_id() != yaml_id) return false;
  load_memo_journal(p);
  if (p.journal_yaml != yaml_id) {  // records judged with another projects.yaml: a new journal for this one
    clear_memo_journal(p);
    p.journal_yaml = yaml_id;
  }

  const std::size_t start = pass.sink.findings().size();
  const auto decline = [&]() -> Result<bool> {  // the memo is malformed: nothing of it stands
    pass.sink.truncate(start);
    note_malformed_memo(p, memo_key());
    p.memo = {};
    p.memo_owner.reset();
    return false;
  };
  for (const diag::Finding& f : memo.yaml_findings()) pass.sink.report(f);
  vouch(pass, *(*yaml)->content_id);
  LG_TRY(const LedgerListing listing, list_ledger_entries(pass));

  std::optional<ProjectsYamlInput> projects;  // the file's facts, for a key the memo lacks
  const auto yaml_input = [&]() -> ProjectsYamlInput& {
    if (!projects) projects.emplace(pass, false);
    return *projects;
  };
  bool keys_changed = false;  // a ledger added, removed or made (un)readable: the active rows are judged again
  bool journaled = false;  // a record added to the journal
  MemoRecord rec;
  bool have = memo.next(rec);
  const auto advance = [&]() {
    const std::string_view was = rec.name;
    have = memo.next(rec);
    return !have || was < rec.name;  // names rise: the walk relies on it
  };
  ProjectsTable one;
  std::string inputs;
  std::string fact_key;
  std::string_view previous;
  for (std::size_t i = 0; i < listing.ledgers.size(); ++i) {
    const git::EntryView entry = listing.entry(i);
    if (i > 0 && !(previous < entry.name)) return decline();
    previous = entry.name;
    while (have && rec.name < entry.name) {
      keys_changed = true;
      if (!advance()) return decline();
    }
    if (!memo.ok()) return decline();
    const bool same_name = have && rec.name == entry.name;
    if (!same_name || is_readable_kind(rec.kind) != is_readable_kind(entry.kind)) keys_changed = true;
    const MemoRecord* known = same_name && rec.matches(entry) ? &rec : journal_record(p, entry);
    if (known) {
      if (known == &rec && !rec.decode_findings()) return decline();
      for (const diag::Finding& f : known->findings) pass.sink.report(f);
      if (entry.has_id) vouch(pass, entry.id);
    } else {
      inputs.clear();
      if (same_name) {
        inputs = rec.inputs;  // the same projects.yaml: the same row
      } else {
        yaml_input().append_row_inputs(inputs, listing.key(i));
      }
      // The facts pack, when this check has it loaded anyway (a tree's
      // glob walk), answers too, and keeps what is read.
      const bool packed = p.loaded && is_readable_kind(entry.kind) && entry.has_id;
      if (packed) ledger_fact_key(fact_key, entry, inputs);
      const std::vector<diag::Finding>* hit = packed ? p.pack.find(fact_key) : nullptr;
      const std::size_t before = pass.sink.findings().size();
      if (hit) {
        for (const diag::Finding& f : *hit) pass.sink.report(f);
        vouch(pass, entry.id);
      } else {
        const LedgerFile lf = listing.file(i);
        const bool rebuilt = table_from_inputs(lf.key(), inputs, one);
        check_ledger_file(pass, lf, rebuilt ? one : yaml_input().table());
      }
      const auto mine = reported_since(pass, before);
      if (entry.has_id && !has_unreadable(mine)) {
        auto owned = std::make_shared<const std::string>(
            MemoWriter::record(entry.name, entry.kind, entry.id.raw(), inputs, mine));
        const std::string_view bytes = *owned;
        journaled = add_journal_record(p, std::move(owned), bytes) || journaled;
        if (packed && !hit) keep_facts(p, fact_key, {mine.begin(), mine.end()});
      }
    }
    if (same_name && !advance()) return decline();
  }
  while (have) {
    keys_changed = true;
    if (!advance()) return decline();
  }
  std::vector<diag::Finding> active = memo.active();
  if (!memo.ok()) return decline();
  if (!keys_changed) {
    for (const diag::Finding& f : active) pass.sink.report(f);
  } else {
    const std::size_t before = pass.sink.findings().size();
    yaml_input().report_active_without_ledger(keys_of(listing));
    const auto now = reported_since(pass, before);
    active.assign(now.begin(), now.end());
  }

  // The pack, when loaded (for another pass, or a key the memo lacked),
  // was not asked for the ledgers the memo answered: they stay in it.
  if (p.loaded) p.pack.hold_unused();
  // What this pass read goes to the journal; a journal grown past its
  // bound is folded into a new memo of this listing.
  if (!journaled) return true;
  if (p.journal.size() > k_memo_journal_max) {
    if (auto folded = fold_memo(p, listing, active)) {
      keep_memo(p, std::move(*folded));
    } else {  // a ledger that cannot be kept (unreadable): the journal starts again
      clear_memo_journal(p);
      p.store.remove(k_memo_kind, memo_journal_key());
    }
    return true;
  }
  MemoWriter journal(yaml_id, {});
  for (const MemoRecord& r : p.journal) journal.add_encoded(r.encoded);
  p.store.put(k_memo_kind, memo_journal_key(), journal.finish({}));
  return true;
}

// With the persistent cache, a ledger whose (blob, path, row inputs) it
// holds is not read: its findings are the cached ones. The pass's results
// are kept as the projects memo, which a later pass answers from.
Result<void> check_cortex_projects(Pass& pass) {
  if (pass.persistent) {
    LG_TRY(const bool done, check_projects_by_memo(pass));
    if (done) return {};
  }
  // Without the persistent cache every ledger is read: the first chunk's
  // reads and parses run on the other cores while this thread validates
  // projects.yaml (its findings still come first).
  std::vector<LedgerFile> first;
  std::optional<LedgerPrefetch> ahead;
  if (!pass.persistent) {
    Pass quiet{pass.tree, pass.cache, {}};  // the listing's findings are reported below, in their place
    if (auto listed = list_ledger_entries(quiet)) {
      for (std::size_t i = 0; i < std::min(k_ledger_chunk, listed->ledgers.size()); ++i) first.push_back(listed->file(i));
      ahead.emplace(pass, first, true);
    }
  }
  ProjectsYamlInput projects(pass);
  const std::vector<git::ObjectId> fetched_ahead = ahead ? ahead->finish() : std::vector<git::ObjectId>{};
  CheckCache::Persistent* p = pass.persistent;
  LG_TRY(auto listing, list_ledger_entries(pass));
  // The memo of this pass, when all it found can be kept.
  std::optional<MemoWriter> memo;
  if (p && !projects.id().empty() && !has_unreadable(projects.findings())) memo.emplace(projects.id(), projects.findings());
  if (p) load_memo_journal(*p);  // what passes by the memo read: the pack lacks it
  const std::size_t count = listing.ledgers.size();
  LedgerKeys keys;
  std::string fact_key;
  std::string inputs;
  for (std::size_t from = 0; from < count; from += k_ledger_chunk) {
    const std::size_t n = std::min(k_ledger_chunk, count - from);
    std::vector<const std::vector<diag::Finding>*> hits(n);
    std::vector<std::string> miss_keys;  // per miss, its key in the pack; "" = not cached persistently
    std::vector<std::string> row_inputs(memo ? n : 0);  // per ledger, for the memo
    std::vector<LedgerFile> misses;
    for (std::size_t i = 0; i < n; ++i) {
      const git::EntryView entry = listing.entry(from + i);
      std::string miss_key;
      inputs.clear();
      if (p) projects.append_row_inputs(inputs, listing.key(from + i));
      if (p && is_readable_kind(entry.kind) && entry.has_id) {
        ledger_fact_key(fact_key, entry, inputs);
        hits[i] = find_facts(*p, fact_key);
        if (!hits[i]) {
          // Read by a pass by the memo: its record holds its row's inputs.
          const MemoRecord* j = journal_record(*p, entry);
          if (j && j->inputs == inputs) {
            hits[i] = &j->findings;
            keep_facts(*p, fact_key, j->findings);
          } else {
            miss_key = fact_key;
          }
        }
      }
      if (memo) row_inputs[i] = inputs;
      if (!hits[i]) {
        misses.push_back(listing.file(from + i));
        miss_keys.push_back(std::move(miss_key));
      }
    }
    std::vector<git::ObjectId> fresh;  // the blobs to read the cache lacked
    if (from == 0) fresh = fetched_ahead;
    for (const LedgerFile& lf : misses) {
      if (lf.entry.content_id && !pass.cache.ledgers().contains(*lf.entry.content_id)) {
        fresh.push_back(*lf.entry.content_id);
      }
    }
    prefetch_ledgers(pass, misses);
    std::size_t miss = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const git::EntryView entry = listing.entry(from + i);
      // present, even when unreadable: no "has no ledger" on top
      if (is_readable_kind(entry.kind)) keys.add(listing.key(from + i));
      if (hits[i]) {
        for (const diag::Finding& f : *hits[i]) pass.sink.report(f);
        vouch(pass, entry.id);
        if (memo) memo->add(entry.name, entry.kind, entry.id.raw(), row_inputs[i], *hits[i]);
        continue;
      }
      const LedgerFile& lf = misses[miss];
      std::string& miss_key = miss_keys[miss];
      const std::size_t before = pass.sink.findings().size();
      check_ledger_file(pass, lf, projects.table_for(lf.key()));
      const auto mine = reported_since(pass, before);
      const bool cacheable = !has_unreadable(mine);
      if (memo) {
        if (cacheable && entry.has_id) {
          memo->add(entry.name, entry.kind, entry.id.raw(), row_inputs[i], mine);
        } else {
          memo.reset();
        }
      }
      ++miss;
      if (miss_key.empty() || !cacheable) continue;
      keep_facts(*p, std::move(miss_key), {mine.begin(), mine.end()});
    }
    if (pass.cache.ledgers().size() > pass.cache.budget().ledgers) {
      for (const git::ObjectId& id : fresh) pass.cache.ledgers().forget(id);
    }
  }
  keys.seal();
  const std::size_t before = pass.sink.findings().size();
  projects.report_active_without_ledger(keys);
  if (memo) {
    const auto active = reported_since(pass, before);
    keep_memo(*p, memo->finish({active.begin(), active.end()}));
  }
  return {};
}

// ---- eras P and T: phases/ or tasks/, rulings/, P1's batches/ ----

// Every `*.md` path below `dir` (recursively, as `**/*.md`: directories named
// *.md are listed too), with its entry.
Result<void> collect_md(Pass& pass, const std::string& dir, std::vector<std::pair<std::string, git::Entry>>& out) {
  LG_TRY(auto below, git::list_recursive(pass.tree, dir));
  for (auto& [path, entry] : below) {
    if (ends_with(path, ".md")) out.emplace_back(std::move(path), std::move(entry));
  }
  return {};
}

std::shared_ptr<const ledger::PtFile> load_pt_file(Pass& pass, const std::string& path, const git::Entry& entry) {
  const std::optional<git::ObjectId>& id = entry.content_id;
  cover(pass, id);
  if (id) {
    if (auto hit = pass.cache.pt_files().find(*id)) return hit;
  }
  auto bytes = read_or_report(pass, path, entry);
  if (!bytes) return nullptr;
  auto parsed = std::make_shared<const ledger::PtFile>(ledger::parse_pt_file(*bytes));
  if (id) pass.cache.pt_files().keep(*id, parsed);
  return parsed;
}

// The files below `dir` in Python Path order; those `wanted` by path grammar
// and regular are read (others are reported or left to the path rules).
Result<std::vector<PtTreeFile>> load_pt_dir(Pass& pass, const std::string& dir,
                                            bool (*wanted)(std::string_view path, std::string_view dir),
                                            std::string_view era_dir) {
  std::vector<std::pair<std::string, git::Entry>> found;
  LG_TRY(bool present, git::is_directory(pass.tree, dir));
  if (present) {
    if (auto r = collect_md(pass, dir, found); !r) return r.error();
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return path_less(a.first, b.first); });
  std::vector<PtTreeFile> out;
  for (auto& [path, entry] : found) {
    if (path == "rulings/AGENTS.md") continue;
    PtTreeFile f{path, nullptr};
    if (!is_readable_kind(entry.kind)) {
      report_not_a_file(pass, path, entry.kind);
    } else if (wanted(path, era_dir)) {
      f.file = load_pt_file(pass, path, entry);
    }
    out.push_back(std::move(f));
  }
  return out;
}

bool is_target_path(std::string_view path, std::string_view dir) { return ledger::match_pt_path(path, dir).has_value(); }
bool is_ruling_file(std::string_view path, std::string_view) { return ledger::match_ruling_path(path).has_value(); }

Result<bool> is_regular_file(git::TreeSource& tree, std::string_view path) {
  LG_TRY(auto e, tree.stat(path));
  return e && is_readable_kind(e->kind);
}

// P1 batch records (`batches/*.md`) or reviews (`batches/reviews/*.md`),
// non-recursive, AGENTS.md excluded, decoded.
Result<std::vector<P1BatchFile>> load_batch_files(Pass& pass, const std::string& dir) {
  LG_TRY(auto entries, pass.tree.list(dir));
  std::vector<P1BatchFile> out;
  if (!entries) return out;
  std::sort(entries->begin(), entries->end(), [](const git::Entry& a, const git::Entry& b) { return a.name < b.name; });
  for (const git::Entry& e : *entries) {
    if (!ends_with(e.name, ".md") || e.name == "AGENTS.md") continue;
    const std::string path = dir + "/" + e.name;
    if (!is_readable_kind(e.kind)) {
      report_not_a_file(pass, path, e.kind);
      continue;
    }
    cover(pass, e.content_id);
    auto bytes = read_or_report(pass, path, e);
    if (!bytes) continue;
    ledger::TextFile file = ledger::decode_text(*bytes);
    check_text_input(file.facts, path, pass.sink);
    out.push_back(P1BatchFile{path, std::move(file.text)});
  }
  return out;
}

Result<void> check_p1_batch_files(Pass& pass, const PtEra& era, const PtTree& tree) {
  LG_TRY(auto records, load_batch_files(pass, "batches"));
  LG_TRY(auto reviews, load_batch_files(pass, "batches/reviews"));
  const auto exists = [&pass](std::string_view path) {
    auto r = is_regular_file(pass.tree, path);
    return r && *r;
  };
  check_p1_batches(records, reviews, p1_phases(era, tree), exists, era.p1_sub, pass.sink);
  return {};
}

// projects.yaml with the era's reader: P1's restricted subset, else PyYAML's.
std::shared_ptr<const CheckCache::ProjectsYamlResult> check_era_projects_file(Pass& pass, const PtEra& era) {
  const std::string key = std::string(1, '\0') + std::string(era.name);
  if (era.p1) {
    return check_projects_file(pass, key, [&era](std::optional<std::string_view> text, diag::FindingSink& sink) {
      return check_projects_yaml_p1(text, era.p1_sub, sink, std::string(k_projects_yaml));
    });
  }
  return check_projects_file(pass, key, [&era](std::optional<std::string_view> text, diag::FindingSink& sink) {
    return check_projects_yaml(text, era.yaml, sink, std::string(k_projects_yaml));
  });
}

Result<void> check_cortex_era(Pass& pass, ledger::Layout layout) {
  const PtEra* era = find_pt_era(layout, pass.sub);
  LEDGERGATE_ASSERT(era != nullptr);
  const auto projects = check_era_projects_file(pass, *era);
  PtTree tree;
  tree.rows = &projects->table;
  LG_TRY(tree.targets, load_pt_dir(pass, std::string(era->dir), is_target_path, era->dir));
  LG_TRY(tree.rulings, load_pt_dir(pass, std::string(ledger::k_rulings_dir), is_ruling_file, era->dir));
  tree.is_file = [&pass](std::string_view path) {
    auto r = is_regular_file(pass.tree, path);
    return r && *r;
  };
  check_pt_tree(*era, tree, pass.sink);
  if (era->p1) return check_p1_batch_files(pass, *era, tree);
  return {};
}

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
      if (pass.persistent) fact_key = "O" + entry->content_id->hex() + '\0' + path;
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

// A cheap first test: when the glob's last component is a plain name (the
// default `**/open-requirements.ledger.yml`), only that file name can match.
struct NameTest {
  explicit NameTest(std::string_view glob)
      : last(glob.substr(glob.rfind('/') + 1)), wild(last.find_first_of("*?[") != std::string_view::npos) {}
  bool could_match(std::string_view name) const { return wild || last == name; }
  std::string_view last;
  bool wild;
};

// A glob whose matches depend on a file's name alone (`**/NAME`, `NAME`):
// the matches below a subtree are then a function of the subtree's id.
bool basename_glob(std::string_view glob) {
  const std::string_view rest = util::starts_with(glob, "**/") ? glob.substr(3) : glob;
  return rest.find('/') == std::string_view::npos;
}

struct GlobWalk {
  git::TreeSource& tree;
  std::string_view glob;
  CheckCache* cache;  // memo by subtree id, for basename globs; may be null
  CheckCache::Persistent* persistent = nullptr;  // the same memo across processes; may be null
};

// Every file below the directory `entry` at `dir` matching the glob, as
// paths relative to `dir`, memoised by subtree id for basename globs.
Result<std::vector<std::string>> walk_glob(GlobWalk& w, const std::string& dir, const git::Entry& entry) {
  const bool memo = w.cache && entry.content_id && basename_glob(w.glob);
  QualifiedId key;
  std::string fact_key;  // in the persistent cache
  if (memo) {
    key = QualifiedId{*entry.content_id, std::string(w.glob)};
    if (auto hit = w.cache->glob_walks().find(key)) return *hit;
    if (w.persistent) {
      fact_key = "G" + entry.content_id->hex() + '\0' + std::string(w.glob);
      load_pack(*w.persistent);
      if (auto hit = w.persistent->pack.find_glob(fact_key)) {
        w.cache->glob_walks().keep(key, hit);
        return *hit;
      }
    }
  }
  std::vector<std::string> out;
  std::vector<git::Entry> subdirs;
  const NameTest test(w.glob);
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
  for (const git::Entry& sub : subdirs) {
    const std::string path = dir.empty() ? sub.name : dir + "/" + sub.name;
    LG_TRY(std::vector<std::string> below, walk_glob(w, path, sub));
    for (const std::string& rel : below) out.push_back(sub.name + "/" + rel);
  }
  if (memo) {
    auto kept = std::make_shared<const std::vector<std::string>>(out);
    w.cache->glob_walks().keep(key, kept);
    if (w.persistent) {
      w.persistent->pack.keep_glob(std::move(fact_key), std::move(kept));
    }
  }
  return out;
}

// The pass of each layout (ledger/profile.hpp names and detects them).
Result<void> run_profile(Pass& pass, ledger::Layout layout) {
  switch (layout) {
    case ledger::Layout::cortex_projects:
      return check_cortex_projects(pass);
    case ledger::Layout::cortex_tasks:
    case ledger::Layout::cortex_phases:
      return check_cortex_era(pass, layout);
    case ledger::Layout::open_requirements:
      return check_orl(pass);
    case ledger::Layout::none:
      break;
  }
  LEDGERGATE_ASSERT(false && "a profile without a pass");
  return {};
}

// The profile `options` pin, else the tree's layout (as the caller detected
// it, or detected here), else open-requirements when the glob found files.
Result<ledger::Profile> choose_profile(git::TreeSource& tree, const CheckOptions& options, bool orl_files) {
  if (options.profile != "auto") {
    // A pin must fit the tree, or the check would pass over files of
    // another layout it never looked at.
    LG_TRY(const ledger::Profile pinned, ledger::parse_profile(options.profile));
    LG_TRY(const bool fits, ledger::pin_fits(tree, pinned.layout));
    if (fits) return pinned;
    LG_TRY(const ledger::Layout layout, ledger::detected_layout(tree, options));
    const std::string mismatch = "profile " + options.profile + " does not match the tree: ";
    if (layout == ledger::Layout::none) return make_error(ErrorKind::invalid_input, mismatch + "it holds no Cortex ledger");
    const std::string found(ledger::layout_name(layout));
    return make_error(ErrorKind::invalid_input,
                      mismatch + "it holds a " + found + " ledger (pin " + found + ", or use --profile auto)");
  }
  LG_TRY(ledger::Layout layout, ledger::detected_layout(tree, options));
  if (layout == ledger::Layout::none && orl_files) layout = ledger::Layout::open_requirements;
  if (layout == ledger::Layout::none) {
    return make_error(ErrorKind::invalid_input,
                      "no ledger found: the tree has no projects.yaml, projects/, tasks/ or phases/");
  }
  return ledger::newest_profile(layout);
}

}  // namespace

const std::string& cache_fingerprint() { return rules_fingerprint(); }

Result<ProjectsStepYaml> projects_step_yaml(git::TreeSource& tree, CheckCache& cache) {
  Pass pass{tree, cache, {}};
  auto result = check_projects_file(pass);
  return ProjectsStepYaml{std::shared_ptr<const ProjectsTable>(result, &result->table), pass.sink.take()};
}

Result<ProjectsStepNames> projects_step_names(git::TreeSource& tree, CheckCache& cache) {
  Pass pass{tree, cache, {}};
  LG_TRY(auto ledgers, list_ledgers(pass));
  return ProjectsStepNames{std::move(ledgers), pass.sink.take()};
}

std::vector<std::vector<diag::Finding>> projects_step_ledgers(git::TreeSource& tree,
                                                              const std::vector<ProjectsStepLedger>& ledgers,
                                                              const ProjectsTable& rows, CheckCache& cache) {
  Pass pass{tree, cache, {}};
  prefetch_ledgers(pass, ledgers);
  std::vector<std::vector<diag::Finding>> out;
  out.reserve(ledgers.size());
  for (const LedgerFile& lf : ledgers) {
    check_ledger_file(pass, lf, rows);
    out.push_back(pass.sink.take());
  }
  return out;
}

std::vector<diag::Finding> projects_step_active_rows(const ProjectsTable& rows,
                                                     const std::unordered_set<std::string>& keys) {
  diag::CollectingSink sink;
  report_active_without_ledger(sink, rows, [&keys](const std::string& key) { return keys.count(key) != 0; });
  return sink.take();
}

std::string projects_step_row_inputs(const ProjectsTable& rows, std::string_view key) {
  // check_project_ledger (cortex_projects.cpp) reads the row's presence, `status` and `partition`.
  const ProjectRow* row = rows.find(key);
  if (!row) return std::string();
  std::string out = "row";
  for (std::string_view field : {std::string_view("status"), std::string_view("partition")}) {
    const auto v = row->get(field);
    out += '\0';
    if (v) out.append(1, 'v').append(*v);
  }
  return out;
}

ProjectsEntryRole projects_entry_role(std::string_view name) {
  if (name == "AGENTS.md" || name == "TEMPLATE.md") return ProjectsEntryRole::skipped;
  if (!ends_with(name, ".md")) return ProjectsEntryRole::unchecked;
  return is_ledger_key(name.substr(0, name.size() - 3)) ? ProjectsEntryRole::ledger : ProjectsEntryRole::bad_name;
}

Result<ProjectsStepEntry> projects_step_entry(git::TreeSource& tree, const git::Entry& entry, CheckCache& cache) {
  ProjectsStepEntry out;
  out.role = projects_entry_role(entry.name);
  if (out.role == ProjectsEntryRole::bad_name) out.names.push_back(bad_ledger_name(entry.name));
  if (out.role == ProjectsEntryRole::unchecked) {
    Pass pass{tree, cache, {}};
    if (auto r = report_unchecked(pass, ledger_path(entry.name), entry); !r) return r.error();
    out.unchecked = pass.sink.take();
  }
  return out;
}

Result<std::string> projects_row_inputs(git::TreeSource& tree, std::string_view key, CheckCache& cache) {
  Pass pass{tree, cache, {}};
  pass.persistent = open_persistent(tree, cache);
  std::string out;
  {
    ProjectsYamlInput projects(pass, false);
    projects.append_row_inputs(out, key);
  }
  if (pass.persistent) flush_pack(*pass.persistent);
  return out;
}

ProjectsTable projects_table_from_inputs(std::string_view key, std::string_view inputs) {
  ProjectsTable out;
  const bool ok = table_from_inputs(key, inputs, out);
  LEDGERGATE_ASSERT(ok && "row inputs of projects_step_row_inputs' form");
  out.index();
  return out;
}

Result<std::shared_ptr<const ProjectsTable>> projects_table(git::TreeSource& tree, CheckCache& cache) {
  const std::string path(k_projects_yaml);
  LG_TRY(auto entry, tree.stat(path));
  if (!entry || !is_readable_kind(entry->kind)) return std::shared_ptr<const ProjectsTable>();
  std::shared_ptr<const CheckCache::ProjectsYamlResult> result;
  if (auto hit = entry->content_id ? cache.projects_yaml().find(QualifiedId{*entry->content_id, {}}) : nullptr) {
    result = std::move(hit);
  } else {
    LG_TRY(std::string bytes, tree.read(path, *entry));
    auto fresh = std::make_shared<CheckCache::ProjectsYamlResult>();
    diag::CollectingSink local;
    const ledger::TextFile file = ledger::decode_text(bytes);
    check_text_input(file.facts, path, local);
    fresh->table = check_projects_yaml(file.text, ProjectsYamlEra{}, local, path);
    fresh->findings = local.take();
    if (entry->content_id) cache.projects_yaml().keep(QualifiedId{*entry->content_id, {}}, fresh);
    result = std::move(fresh);
  }
  for (const diag::Finding& f : result->findings) {
    if (f.rule == "projects-yaml-parses" || f.rule == "projects-yaml-is-mapping") {
      return std::shared_ptr<const ProjectsTable>();
    }
  }
  return std::shared_ptr<const ProjectsTable>(result, &result->table);
}

namespace {
// One walk finds both: the files the open-requirements glob matches, and
// writers' temporary files (rule input-writer-temp-file), wherever they are.
struct TreeScan {
  std::vector<std::string> orl_files;
  std::vector<std::string> temp_files;
};

Result<TreeScan> scan_tree(git::TreeSource& tree, std::string_view glob, CheckCache* cache,
                           CheckCache::Persistent* persistent) {
  std::vector<std::string> out;
  // A source holding a flat listing (the index) is matched in one pass over
  // it: the same test as the walk's, on each path outside any ".git".
  const NameTest test(glob);
  const bool flat = tree.for_each_file([&](std::string_view path, git::EntryKind) {
    std::size_t from = 0;
    for (std::size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', from)) {
      if (path.substr(from, slash - from) == ".git") return;
      from = slash + 1;
    }
    const std::string_view name = path.substr(from);
    if (name != ".git" && (util::is_writer_temp_name(name) ||
                           (test.could_match(name) && ledger::orl_glob_match(glob, std::string(path))))) {
      out.emplace_back(path);
    }
  });
  if (!flat) {
    GlobWalk w{tree, glob, cache, cache ? persistent : nullptr};
    LG_TRY(out, walk_glob(w, "", tree.root_entry()));
  }
  std::sort(out.begin(), out.end());
  TreeScan scan;
  for (std::string& path : out) {
    const std::string_view name = std::string_view(path).substr(path.rfind('/') + 1);
    const bool temp = util::is_writer_temp_name(name);
    if (!temp || ledger::orl_glob_match(glob, path)) scan.orl_files.push_back(path);
    if (temp) scan.temp_files.push_back(std::move(path));
  }
  return scan;
}

Result<std::vector<std::string>> find_open_requirements_in(git::TreeSource& tree, std::string_view glob,
                                                           CheckCache* cache, CheckCache::Persistent* persistent) {
  LG_TRY(TreeScan scan, scan_tree(tree, glob, cache, persistent));
  return std::move(scan.orl_files);
}

void report_writer_temp_files(Pass& pass, const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    pass.sink.report(make_finding("input-writer-temp-file", path, 0,
                                  "is a ledgergate writer's temporary file (its writer was killed mid-write): "
                                  "nothing reads it, yet the merge gate would land it; remove it",
                                  diag::PeerForm::none));
  }
}
}  // namespace

Result<std::vector<std::string>> find_open_requirements(git::TreeSource& tree, std::string_view glob,
                                                        CheckCache* cache) {
  return find_open_requirements_in(tree, glob, cache, nullptr);
}

Result<std::vector<diag::Finding>> check_open_requirements_between(git::TreeSource& before, git::TreeSource& after,
                                                                  const CheckOptions& options, CheckCache* cache) {
  // The walks are memoised by subtree id across processes too: a trial
  // merge walks the merge base's whole tree here, the same tree each time
  // only main moves on.
  CheckCache::Persistent* persistent = cache ? open_persistent(after, *cache) : nullptr;
  LG_TRY(auto old_paths, find_open_requirements_in(before, options.open_requirements_glob, cache, persistent));
  LG_TRY(auto new_paths, find_open_requirements_in(after, options.open_requirements_glob, cache, persistent));
  if (persistent) flush_pack(*persistent);
  std::vector<std::string> paths = old_paths;
  paths.insert(paths.end(), new_paths.begin(), new_paths.end());
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
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

Result<CheckReport> check_tree(git::TreeSource& tree, const CheckOptions& options, CheckCache& cache) {
  // The persistent cache: a tree with an id whose verdict it holds is not
  // read, once the tree and the blobs the verdict stands on are confirmed.
  CheckCache::Persistent* persistent = open_persistent(tree, cache);
  std::string verdict_key;
  if (persistent) {
    if (const auto root = tree.root_entry().content_id) {
      verdict_key = root->hex() + '\0' + options_text(options) + '\0' + "verdict 2";
      if (auto hit = load_verdict(*persistent, verdict_key)) {
        hit->covered.push_back(*root);
        if (auto r = tree.confirm(hit->covered); !r) return r.error().with_context("the cached verdict of " + tree.rev());
        hit->covered.pop_back();
        hit->report.covered = std::move(hit->covered);
        return std::move(hit->report);
      }
    }
  }
  LG_TRY(TreeScan scan, scan_tree(tree, options.open_requirements_glob, &cache, persistent));
  std::vector<std::string> orl_files = std::move(scan.orl_files);
  LG_TRY(const ledger::Profile profile, choose_profile(tree, options, !orl_files.empty()));
  const bool orl_profile = profile.layout == ledger::Layout::open_requirements;
  if (orl_profile && orl_files.empty()) {
    return make_error(ErrorKind::invalid_input,
                      "no ledger found: no file matches the open-requirements glob " + options.open_requirements_glob);
  }
  Pass pass{tree, cache, {}, std::move(orl_files), profile.sub, persistent};
  CheckReport report;
  report.profile = profile.name();
  report.checked = profile;
  if (auto r = run_profile(pass, profile.layout); !r) return r.error();
  if (!orl_profile && !pass.orl_files.empty()) {
    if (auto r = check_orl(pass); !r) return r.error();
    report.profile += "+" + std::string(ledger::layout_name(ledger::Layout::open_requirements));
  }
  report_writer_temp_files(pass, scan.temp_files);
  report.findings = pass.sink.take();
  options.apply_severities(report.findings);
  if (persistent) {
    // In the order the pass met them (sorting 2,000 ids cost more than the
    // few the same blob under two names confirms twice).
    if (auto r = tree.confirm(pass.vouched); !r) return r.error().with_context("the cached checks of " + tree.rev());
    if (!verdict_key.empty() && !has_unreadable(report.findings)) {
      keep_verdict(*persistent, verdict_key, report, pass.covered);
    }
    report.covered = std::move(pass.covered);
    flush_pack(*persistent);
  }
  return report;
}

}  // namespace lg::rules
