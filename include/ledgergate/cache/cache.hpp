// The persistent cache's one interface: every kind of entry ledgergate keeps
// across processes, what each kind's key is built from, and the one place
// that opens a repository's store. A key is the stamp (ledgergate's version
// and the fingerprint of the rule table: ids, default severities,
// profiles), the kind's layout (its payload's format, bumped when that
// changes) and the kind's inputs, each a length-prefixed field: an entry
// written by another build, rule table or layout, or for other inputs, is
// under another key, so it is a miss, never misread. docs/cache.md is the
// written rule: per kind, its inputs and how it is invalidated. The
// payloads are the callers' (cache/codec.hpp); store.hpp keeps the files.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ledgergate/cache/store.hpp"
#include "ledgergate/diag/rule_table.hpp"

namespace lg::cache {

// Every kind of entry. Each is a folder of the store; a kind and its
// journal share one.
enum class Kind {
  check_verdict,     // a tree's whole check report (rules/check_store.hpp)
  facts_pack,        // per-blob findings and facts of the checks (rules/facts_pack.hpp)
  facts_journal,     // what checks added to the facts pack since it was written whole
  projects_memo,     // the last cortex-projects pass (rules/projects_memo.hpp)
  projects_journal,  // the ledger records passes read that the memo lacks
  trial_merge,       // a whole trial-merge report (merge/verdict_cache.cpp)
  branch_diff,       // a branch's classified diff between two trees
  retired_rows,      // each projects.yaml row's key and whether it is retired
  audit_result,      // the history audit's result of one commit (audit/result_cache.cpp)
  worktree_scan,     // check's look at a working tree's ledger files (git/status.hpp's memo)
};

inline constexpr Kind k_all_kinds[] = {Kind::check_verdict, Kind::facts_pack,   Kind::facts_journal,
                                       Kind::projects_memo, Kind::projects_journal, Kind::trial_merge,
                                       Kind::branch_diff,   Kind::retired_rows, Kind::audit_result,
                                       Kind::worktree_scan};

struct KindSpec {
  std::string_view folder;  // the store's folder of the kind
  std::string_view layout;  // the payload's layout: part of every key of the kind
  std::size_t inputs;       // how many inputs a key of the kind takes (key_of checks it)
  std::string_view covers;  // what the inputs are (docs/cache.md lists the same)
};
const KindSpec& spec(Kind kind);

// What every key covers besides the kind's inputs.
struct Stamp {
  std::string version;  // ledgergate's
  std::string rules;    // rules_fingerprint of the rule table
  // This build's: util::k_version and the fingerprint of diag::all_rules().
  static const Stamp& current();
};

// The rule table's fingerprint: each rule's id, default severity and
// profiles (16 hex digits).
std::string rules_fingerprint(std::span<const diag::RuleInfo> rules);

// The key of `kind`'s entry for `inputs` (as many as spec(kind).inputs).
std::string key_of(Kind kind, std::initializer_list<std::string_view> inputs, const Stamp& stamp = Stamp::current());

// One repository's persistent cache: get, put and remove an entry of a kind
// by its inputs. Notes about entries not trusted go to add_note.
class Cache {
 public:
  // The cache below the common git directory `common_dir`; nullopt when the
  // cache is off (store.hpp's enabled()) or `common_dir` is empty (a
  // folder, which has no cache).
  static std::optional<Cache> open(std::string_view common_dir, Budget budget = {});
  // A cache in a store of the caller's (`audit --cache DIR`, tests).
  explicit Cache(Store store, Stamp stamp = Stamp::current());

  struct Entry {
    std::optional<std::string_view> payload;       // a view into `bytes`
    std::shared_ptr<const util::FileBytes> bytes;  // what `payload` lies in
    bool noted = false;                            // an entry was there, not trusted (noted)
  };
  Entry get(Kind kind, std::initializer_list<std::string_view> inputs) const;
  // False when nothing could be written (a read-only repository).
  bool put(Kind kind, std::initializer_list<std::string_view> inputs, std::string_view payload) const;
  // The same for a payload `write` encodes (Store::put: asked for twice).
  bool put(Kind kind, std::initializer_list<std::string_view> inputs,
           const std::function<void(Encoder&)>& write) const;
  void remove(Kind kind, std::initializer_list<std::string_view> inputs) const;
  // Notes that the entry's payload did not decode: it is ignored and rebuilt.
  void note_malformed(Kind kind, std::initializer_list<std::string_view> inputs) const;

  const Store& store() const { return m_store; }
  const Stamp& stamp() const { return m_stamp; }

 private:
  Store m_store;
  Stamp m_stamp;
};

}  // namespace lg::cache
