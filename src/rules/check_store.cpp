// The check's kinds in the persistent cache (check_store.hpp).
#include "check_store.hpp"

#include <algorithm>

#include "ledgergate/cache/codec.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/util/assert.hpp"

namespace lg::rules {

using cache::Kind;

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
    if (p) flush_deferred(*p);
    p = std::make_shared<CheckCache::Persistent>(home, cache::Cache(cache::Store(cache::Store::dir_for(home))));
    p->deferred = p->remember_confirmed = cache.serves_one_command();
  }
  return p.get();
}

Result<void> confirm_once(git::TreeSource& tree, CheckCache::Persistent& p, std::span<const git::ObjectId> ids) {
  if (!p.remember_confirmed) return tree.confirm(ids);
  std::vector<git::ObjectId> fresh;
  fresh.reserve(ids.size());
  for (const git::ObjectId& id : ids) {
    if (p.confirmed.count(id) == 0) fresh.push_back(id);
  }
  if (auto r = tree.confirm(fresh); !r) return r;
  if (p.confirmed.size() + fresh.size() > CheckCache::Persistent::k_max_confirmed) p.confirmed.clear();
  p.confirmed.insert(fresh.begin(), fresh.end());
  return {};
}

// ---- the facts pack ----

// A journal without its pack is read all the same: its entries stand on
// their own keys.
void load_pack(CheckCache::Persistent& p) {
  if (p.loaded) return;
  p.loaded = true;
  cache::Cache::Entry got = p.store.get(Kind::facts_pack, {});
  if (got.noted) p.pack.set_rewrite_whole();
  if (got.payload && !p.pack.load(std::move(got.bytes), *got.payload)) {
    p.store.note_malformed(Kind::facts_pack, {});
    p.pack.set_rewrite_whole();
  }
  const cache::Cache::Entry journal = p.store.get(Kind::facts_journal, {});
  if (journal.noted) p.pack.set_dirty();
  if (journal.payload && !p.pack.load_journal(journal.bytes, *journal.payload)) {
    p.store.note_malformed(Kind::facts_journal, {});
    p.pack.set_dirty();
  }
}

void flush_pack(CheckCache::Persistent& p) {
  if (p.deferred || !p.pack.dirty()) return;
  const FactsPack::Encoded out = p.pack.encode();
  if (!out.whole) {
    p.store.put(Kind::facts_journal, {}, out.journal);
  } else if (p.store.put(Kind::facts_pack, {}, [&p](cache::Encoder& e) { p.pack.write_whole(e); })) {
    p.store.remove(Kind::facts_journal, {});
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

void ledger_fact_key(std::string& out, const git::EntryView& entry, std::string_view inputs) {
  out.clear();
  out += 'L';
  out.append(ledger::k_projects_dir).append(1, '/').append(entry.name);
  out += '\0';
  entry.id.append_hex(out);
  out += '\0';
  out += inputs;
}

std::string orl_fact_key(const git::ObjectId& blob, std::string_view path) {
  return "O" + blob.hex() + '\0' + std::string(path);
}

std::string glob_fact_key(const git::ObjectId& tree, std::string_view glob) {
  return "G" + tree.hex() + '\0' + std::string(glob);
}

void rekey_glob_fact(std::string& key, const git::ObjectId& tree) {
  LEDGERGATE_ASSERT(key.size() > git::ObjectId::k_hex_size && key[0] == 'G');
  tree.write_hex(key.data() + 1);
}

// ---- a tree's whole verdict ----

namespace {

// The options that decide a check besides its tree (the rule table and
// ledgergate's version are in every key).
std::string options_text(const CheckOptions& o) {
  std::string out = o.profile + '\0';
  out += o.detected ? std::string(ledger::layout_name(*o.detected)) : std::string("-");
  out += '\0' + o.open_requirements_glob;
  for (const auto& [rule, severity] : o.severities) {
    out += '\0' + rule + '=' + std::string(diag::to_string(severity));
  }
  return out;
}

}  // namespace

// The payload: the report and the blobs it stands on (raw ids, one field).
std::optional<CachedVerdict> load_verdict(CheckCache::Persistent& p, const git::ObjectId& root,
                                          const CheckOptions& options) {
  const std::string tree = root.hex();
  const std::string opts = options_text(options);
  const cache::Cache::Entry got = p.store.get(Kind::check_verdict, {tree, opts});
  if (!got.payload) return std::nullopt;
  cache::Decoder d(*got.payload);
  CachedVerdict v;
  v.report.profile = d.field();
  const std::string checked = d.field();
  v.report.findings = d.findings();
  const std::string_view ids = d.field_view();
  auto profile = ledger::parse_profile(checked);
  if (!d.ok() || !d.at_end() || !profile || ids.size() % git::ObjectId::k_raw_size != 0) {
    p.store.note_malformed(Kind::check_verdict, {tree, opts});
    return std::nullopt;
  }
  v.report.checked = *profile;
  v.covered.reserve(ids.size() / git::ObjectId::k_raw_size);
  for (std::size_t at = 0; at < ids.size(); at += git::ObjectId::k_raw_size) {
    v.covered.push_back(git::ObjectId::from_bytes(reinterpret_cast<const unsigned char*>(ids.data() + at)));
  }
  return v;
}

void keep_verdict(CheckCache::Persistent& p, const git::ObjectId& root, const CheckOptions& options,
                  const CheckReport& report, const std::vector<git::ObjectId>& covered) {
  cache::Encoder e;
  e.field(report.profile);
  e.field(report.checked.name());
  e.findings(report.findings);
  std::string ids;
  ids.reserve(covered.size() * git::ObjectId::k_raw_size);
  for (const git::ObjectId& id : covered) ids += id.raw();
  e.field(ids);
  p.store.put(Kind::check_verdict, {root.hex(), options_text(options)}, e.text());
}

// ---- the projects memo and its journal ----

void load_memo(CheckCache::Persistent& p) {
  if (p.memo_loaded) return;
  p.memo_loaded = true;
  cache::Cache::Entry got = p.store.get(Kind::projects_memo, {});
  if (got.payload) {
    p.memo_file = got.bytes.get();
    p.memo_owner = std::move(got.bytes);
    p.memo = *got.payload;
  }
}

void decline_memo(CheckCache::Persistent& p) {
  p.store.note_malformed(Kind::projects_memo, {});
  p.memo = {};
  p.memo_file = nullptr;
  p.memo_owner.reset();
}

void keep_memo(CheckCache::Persistent& p, std::string payload) {
  auto owned = std::make_shared<const std::string>(std::move(payload));
  if (!p.memo_written) {
    p.memo_written = true;
    if (p.store.put(Kind::projects_memo, {}, *owned)) p.store.remove(Kind::projects_journal, {});
  }
  p.memo_journal_pending = false;
  p.memo_loaded = p.journal_loaded = true;
  p.memo = *owned;
  p.memo_file = nullptr;
  p.memo_owner = std::move(owned);
  clear_memo_journal(p);
}

void clear_memo_journal(CheckCache::Persistent& p) {
  p.journal_yaml.clear();
  p.journal.clear();
  p.journal_owners.clear();
}

void load_memo_journal(CheckCache::Persistent& p) {
  if (p.journal_loaded) return;
  p.journal_loaded = true;
  const cache::Cache::Entry journal = p.store.get(Kind::projects_journal, {});
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
    p.store.note_malformed(Kind::projects_journal, {});
    clear_memo_journal(p);
  }
}

bool add_journal_record(CheckCache::Persistent& p, std::shared_ptr<const void> owner, std::string_view encoded) {
  MemoRecord record;
  if (!MemoReader::read_record(encoded, record)) return false;
  p.journal.push_back(std::move(record));
  p.journal_owners.push_back(std::move(owner));
  return true;
}

const MemoRecord* journal_record(const CheckCache::Persistent& p, const git::EntryView& entry) {
  for (const MemoRecord& r : p.journal) {
    if (r.matches(entry)) return &r;
  }
  return nullptr;
}

void write_memo_journal(CheckCache::Persistent& p, std::string_view yaml_id) {
  if (p.deferred) {
    p.memo_journal_pending = true;  // flush_deferred writes p.journal as it is then
    return;
  }
  MemoWriter journal(yaml_id, {});
  for (const MemoRecord& r : p.journal) journal.add_encoded(r.encoded);
  p.store.put(Kind::projects_journal, {}, journal.finish({}));
}

void remove_memo_journal(CheckCache::Persistent& p) {
  clear_memo_journal(p);
  p.memo_journal_pending = false;
  p.store.remove(Kind::projects_journal, {});
}

void flush_deferred(CheckCache::Persistent& p) {
  if (!p.deferred) return;
  p.deferred = false;
  flush_pack(p);
  if (p.memo_journal_pending) {
    p.memo_journal_pending = false;
    write_memo_journal(p, p.journal_yaml);
  }
}

}  // namespace lg::rules
