// The check's side of the persistent cache (cache/cache.hpp; docs/cache.md):
// the kinds `check` keeps — a tree's whole verdict, the facts pack with its
// journal, the projects memo with its journal — loaded once per cache home
// and written back after a check, and the keys of the pack's records. The
// check's steps ask these functions; none of them opens a store, builds an
// entry's key or reads a payload's header. Internal to rules/.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>
#include <unordered_set>

#include "ledgergate/cache/cache.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/rules/check.hpp"
#include "facts_pack.hpp"
#include "projects_memo.hpp"

namespace lg::rules {

// The persistent cache of one cache home, kept in a CheckCache between
// checks: the facts pack (per-blob findings — ledgers by (path, blob, row
// inputs), open-requirements files by (blob, path) — projects.yaml's facts
// by blob, and the open-requirements glob's matches below a subtree, for
// basename globs), loaded once and written back after a check that added to
// it; and the projects memo and its journal.
struct CheckCache::Persistent {
  Persistent(std::string h, cache::Cache c) : home(std::move(h)), store(std::move(c)) {}
  std::string home;
  cache::Cache store;
  bool loaded = false;
  FactsPack pack;
  // The projects pass's memo (projects_memo.hpp): the payload last read or
  // built ("" when none), and its journal's records.
  bool memo_loaded = false;
  bool journal_loaded = false;
  bool memo_written = false;  // a whole memo is written once per process (an audit checks thousands of trees)
  std::shared_ptr<const void> memo_owner;
  const util::FileBytes* memo_file = nullptr;  // memo_owner, when the memo lies in its entry's file
  std::string_view memo;
  std::string journal_yaml;         // the projects.yaml id the journal's records were judged with
  std::vector<MemoRecord> journal;  // views into journal_owners
  std::vector<std::shared_ptr<const void>> journal_owners;
  // Writes held back until flush_deferred (CheckCache::serve_one_command): the
  // facts pack's and the memo journal's, which each check of a merge would
  // otherwise rewrite in turn.
  bool deferred = false;
  bool memo_journal_pending = false;
  // Objects a check of this command confirmed present in the home's object
  // database (TreeSource::confirm), kept when the cache serves one command
  // (remember_confirmed): the trees of one merge share most of their blobs,
  // and each is confirmed once. Emptied at k_max_confirmed.
  bool remember_confirmed = false;
  static constexpr std::size_t k_max_confirmed = 65536;
  std::unordered_set<git::ObjectId, git::ObjectIdHash> confirmed;
};

// Writes what deferred writes held back (the facts pack or its journal,
// the memo journal) and stops deferring.
void flush_deferred(CheckCache::Persistent& p);

// Confirms through `tree` (TreeSource::confirm) `ids`, or, when `p`
// remembers confirmations, those of them no check of this command
// confirmed yet.
Result<void> confirm_once(git::TreeSource& tree, CheckCache::Persistent& p, std::span<const git::ObjectId> ids);

// Findings that say a read failed are not a function of the content: what
// holds one is never cached.
bool has_unreadable(std::span<const diag::Finding> findings);

// The persistent cache of `tree`'s cache home, kept in `cache`; null when
// the cache is off or the tree has no home (a folder).
CheckCache::Persistent* open_persistent(git::TreeSource& tree, CheckCache& cache);

// ---- the facts pack ----

// The pack, then its journal on top; once per cache.
void load_pack(CheckCache::Persistent& p);
// Writes back what a check added: the journal, or the whole pack (and then
// the journal it folded in is removed).
void flush_pack(CheckCache::Persistent& p);
// The findings kept at a record's key (loading the pack); nullptr when none.
const std::vector<diag::Finding>* find_facts(CheckCache::Persistent& p, std::string_view key);
void keep_facts(CheckCache::Persistent& p, std::string key, std::vector<diag::Finding> findings);

// The records' keys. A ledger's, written into `out` (reused: no string is
// built per ledger): "L", its path, its blob id, its row's inputs
// (projects_step_row_inputs). Path first, so a listing's ledgers are looked
// up in the pack's own order.
void ledger_fact_key(std::string& out, const git::EntryView& entry, std::string_view inputs);
// An open-requirements file's: "O", its blob id, its path.
std::string orl_fact_key(const git::ObjectId& blob, std::string_view path);
// A subtree's glob matches: "G", the tree id, the glob. (A projects.yaml's
// facts are kept by its blob id alone: FactsPack::find_yaml.)
std::string glob_fact_key(const git::ObjectId& tree, std::string_view glob);
// `key`, one glob_fact_key made, made for `tree` instead (in place).
void rekey_glob_fact(std::string& key, const git::ObjectId& tree);

// ---- a tree's whole verdict ----

// The report and the blobs it stands on, which the caller confirms before
// it is used.
struct CachedVerdict {
  CheckReport report;
  std::vector<git::ObjectId> covered;
};
// The verdict on the tree `root` checked with `options`.
std::optional<CachedVerdict> load_verdict(CheckCache::Persistent& p, const git::ObjectId& root,
                                          const CheckOptions& options);
void keep_verdict(CheckCache::Persistent& p, const git::ObjectId& root, const CheckOptions& options,
                  const CheckReport& report, const std::vector<git::ObjectId>& covered);

// ---- the projects memo and its journal ----

// Past this many records, the journal is folded into a new memo.
inline constexpr std::size_t k_memo_journal_max = 32;

// The memo, read once per cache.
void load_memo(CheckCache::Persistent& p);
// Drops the memo (it did not read exactly), with a note naming it.
void decline_memo(CheckCache::Persistent& p);
// Keeps `payload` as the memo: in memory, and on disk the first time in
// this process (its journal, folded in, is then removed).
void keep_memo(CheckCache::Persistent& p, std::string payload);
// The memo's journal, read once per cache.
void load_memo_journal(CheckCache::Persistent& p);
void clear_memo_journal(CheckCache::Persistent& p);
// Adds a journal record (its bytes held by `owner`); false when it does not decode exactly.
bool add_journal_record(CheckCache::Persistent& p, std::shared_ptr<const void> owner, std::string_view encoded);
// The journal's record of `entry` (name, kind and blob); nullptr when none.
const MemoRecord* journal_record(const CheckCache::Persistent& p, const git::EntryView& entry);
// Writes the journal (judged with the projects.yaml `yaml_id`) back.
void write_memo_journal(CheckCache::Persistent& p, std::string_view yaml_id);
// Empties the journal, in memory and on disk.
void remove_memo_journal(CheckCache::Persistent& p);

}  // namespace lg::rules
