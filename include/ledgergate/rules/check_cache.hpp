// CheckCache: the parses `check` keeps by blob id, so checking many trees
// that share files (an audit's commits, a merge's sides) costs only what
// differs; and, for git sources, the persistent cache's state (verdicts by
// tree id, per-blob findings and facts across processes). Each kind of parse is a memo of its own; the cache's budget says
// how many of each it keeps between checks, and only the cache evicts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/object_id.hpp"
#include "ledgergate/util/string_table.hpp"

namespace lg::ledger {
struct ProjectLedger;
struct PtFile;
}

namespace lg::rules {

// A blob's (or subtree's) id with what else its parse depends on: the era
// that judged a projects.yaml ("" = the newest), an open-requirements
// ledger's path, the glob a subtree was walked for.
struct QualifiedId {
  git::ObjectId id;
  std::string qualifier;
  friend bool operator==(const QualifiedId&, const QualifiedId&) = default;
};
struct QualifiedIdHash {
  // Not noexcept, on purpose: libstdc++'s unordered containers then keep
  // each element's hash code, so a memo growing to 18,000 subtrees (the
  // glob walk's at 20,000 projects) does not hash every qualifier again at
  // each rehash, nor does a probe compare keys whose codes differ (the
  // trial merge there: 358 M -> 351 M instructions).
  std::size_t operator()(const QualifiedId& key) const {
    return git::ObjectIdHash{}(key.id) ^ std::hash<std::string>{}(key.qualifier);
  }
};

// Parses of one kind by key (a blob id, or a blob id qualified).
template <class T, class Key = git::ObjectId, class Hash = git::ObjectIdHash>
class ParseMemo {
 public:
  using Ptr = std::shared_ptr<const T>;
  // The parse kept at `key`; nullptr when none.
  Ptr find(const Key& key) const {
    auto it = m_map.find(key);
    return it == m_map.end() ? nullptr : it->second;
  }
  bool contains(const Key& key) const { return m_map.count(key) != 0; }
  // Keeps `parsed` at `key` unless a parse is kept there already, or the
  // cache's budget for the kind is 0.
  void keep(const Key& key, Ptr parsed) {
    if (m_keeps) m_map.emplace(key, std::move(parsed));
  }
  void forget(const Key& key) { m_map.erase(key); }
  std::size_t size() const { return m_map.size(); }

 private:
  friend class CheckCache;
  std::unordered_map<Key, Ptr, Hash> m_map;
  bool m_keeps = true;
};
template <class T>
using QualifiedMemo = ParseMemo<T, QualifiedId, QualifiedIdHash>;

// Lists by byte key in little memory (util::StringTable), each key's value
// naming its list: an empty list (most ledgers have no findings, most
// subtrees match nothing) holds no list of its own. At 20,000 projects the
// findings memo was 5.8 MB and the glob walk's memo of 18,000 subtrees
// 3 MB as std::unordered_maps.
template <class T>
class ListMemo {
 public:
  using Ptr = std::shared_ptr<const std::vector<T>>;
  Ptr find(std::string_view key) const {
    const std::optional<std::uint32_t> at = m_keys.find(key);
    if (!at) return nullptr;
    return *at == k_empty ? empty() : m_lists[*at - k_first];
  }
  // Keeps `list` at `key` unless one is kept there already; whether it did.
  bool keep(std::string_view key, Ptr list) {
    if (m_keys.find(key)) return false;
    std::uint32_t value = k_empty;
    if (list && !list->empty()) {
      m_lists.push_back(std::move(list));
      value = static_cast<std::uint32_t>(m_lists.size() - 1 + k_first);
    }
    m_keys.insert(key, value);
    return true;
  }
  std::size_t size() const { return m_keys.size(); }
  void clear() {
    m_keys.clear();
    m_lists.clear();
    m_lists.shrink_to_fit();
  }

 private:
  static constexpr std::uint32_t k_empty = 0, k_first = 1;
  static const Ptr& empty() {
    static const Ptr none = std::make_shared<const std::vector<T>>();
    return none;
  }
  util::StringTable m_keys;
  std::vector<Ptr> m_lists;
};

class CheckCache {
 public:
  // How many parses of each kind the cache keeps. A check of a tree of more
  // ledgers than `ledgers` drops its own new ledger parses as it goes (a
  // 20,000-ledger tree is never held parsed at once); trim() empties each
  // kind that holds more than its budget. A kind whose budget is 0 keeps
  // nothing, even within a check.
  struct Budget {
    static constexpr std::size_t k_unbounded = std::numeric_limits<std::size_t>::max();
    std::size_t ledgers = 4096;
    std::size_t projects_yaml = k_unbounded;
    std::size_t pt_files = k_unbounded;
    std::size_t open_requirements = k_unbounded;
    std::size_t glob_walks = k_unbounded;
    std::size_t ledger_findings = 65536;
    // Whether projects.yaml's rows, as a check keeps them, hold every field;
    // else only what a ledger's check reads of a row (RowFields::inputs).
    // A table of every field already kept for the same blob (one read by
    // projects_table: the classification's, the merge detectors') answers
    // such a check too.
    bool full_rows = true;
  };
  // For a long walk of checks (an audit): the parses serve one check and the
  // checks sharing its blobs; a history must not keep every version of every
  // file.
  static Budget history_budget();
  // For the one check of a command that checks nothing else (`check` of a
  // tree): nothing is kept that only a later check would read (the glob
  // walk's memo, each ledger's findings), and the rows keep what the check
  // reads of them (at 20,000 projects: 5.9 MB of fields, and 6 MB of memos).
  static Budget one_check_budget();
  // For the checks of a command that judges trees and reads no row of a
  // check after it (trial-merge, land, check --against): the defaults, the
  // rows holding their inputs alone. At 20,000 projects the fields of the
  // merged tree's rows were 5.9 MB held through its ledgers' check.
  static Budget judging_budget();

  CheckCache();
  explicit CheckCache(Budget budget);
  ~CheckCache();
  CheckCache(const CheckCache&) = delete;
  CheckCache& operator=(const CheckCache&) = delete;

  struct ProjectsYamlResult;  // check's own: the table and its findings
  ParseMemo<ledger::ProjectLedger>& ledgers() { return m_ledgers; }
  // Keyed by blob id and era.
  QualifiedMemo<ProjectsYamlResult>& projects_yaml() { return m_projects_yaml; }
  // Era-P/T phase, task and ruling files.
  ParseMemo<ledger::PtFile>& pt_files() { return m_pt_files; }
  // Open-requirements findings, keyed by blob id and path.
  QualifiedMemo<std::vector<diag::Finding>>& open_requirements() { return m_open_requirements; }
  // Matches of a basename-only glob below a subtree, keyed by tree id and
  // glob, as paths relative to that subtree: trees that share subtrees
  // (a merge's sides, consecutive commits) are walked once.
  class GlobWalks {
   public:
    using Ptr = ListMemo<std::string>::Ptr;
    Ptr find(const QualifiedId& key) const { return m_memo.find(key_of(key)); }
    // Keeps `matches` at `key` unless some are kept there already.
    void keep(const QualifiedId& key, Ptr matches) {
      if (m_keeps) m_memo.keep(key_of(key), std::move(matches));
    }
    std::size_t size() const { return m_memo.size(); }

   private:
    friend class CheckCache;
    // The raw id, then the glob (in one reused buffer).
    std::string_view key_of(const QualifiedId& key) const {
      m_scratch.assign(key.id.raw());
      m_scratch += key.qualifier;
      return m_scratch;
    }
    ListMemo<std::string> m_memo;
    mutable std::string m_scratch;
    bool m_keeps = true;
  };
  GlobWalks& glob_walks() { return m_glob_walks; }
  // An era-R ledger's findings by the facts pack's key (its path, blob and
  // row inputs: all its check reads), for checks without the persistent
  // cache: the trees of one merge (merged, BASE, the branch tip) check each
  // ledger they share once.
  class LedgerFindings {
   public:
    using Ptr = ListMemo<diag::Finding>::Ptr;
    Ptr find(std::string_view key) const { return m_memo.find(key); }
    void keep(std::string_view key, const git::ObjectId& blob, Ptr findings) {
      if (m_keeps && m_memo.keep(key, std::move(findings))) m_blobs.insert(blob.raw(), 0);
    }
    // Whether findings of `blob` are kept, at some path or row: a read
    // ahead leaves it to the pass, which likely reads it from here.
    bool judged(const git::ObjectId& blob) const { return m_blobs.find(blob.raw()).has_value(); }
    std::size_t size() const { return m_memo.size(); }

   private:
    friend class CheckCache;
    void clear() {
      m_memo.clear();
      m_blobs.clear();
    }
    ListMemo<diag::Finding> m_memo;
    util::StringTable m_blobs;  // the raw ids of the blobs judged
    bool m_keeps = true;
  };
  LedgerFindings& ledger_findings() { return m_ledger_findings; }

  // The persistent cache's state (check's own: the store of the tree's
  // cache home, the facts pack loaded from it), kept between checks; null
  // until a check opens it. See cache/store.hpp and docs/cache.md.
  struct Persistent;
  std::shared_ptr<Persistent>& persistent() { return m_persistent; }

  // The several checks of one command share this cache (a trial merge's
  // merged tree, BASE and tip): the persistent cache's rewrites of the
  // facts pack and the memo journal are held back until flush_writes, so
  // each is written once (verdicts are written as each check ends;
  // unflushed writes are lost, which costs a later run time, never a
  // verdict), and an object one check confirmed is not confirmed again for
  // the next. Off by default: a command of one check (a hook) would only
  // pay for the bookkeeping.
  void serve_one_command() { m_one_command = true; }
  bool serves_one_command() const { return m_one_command; }
  void flush_writes();

  const Budget& budget() const { return m_budget; }
  // Between checks: each kind over its budget is emptied.
  void trim();
  // Parses the caller knows no later check reads (it keeps what it
  // derived from them).
  void drop_ledgers() { m_ledgers.m_map.clear(); }
  void drop_projects_yaml() { m_projects_yaml.m_map.clear(); }

 private:
  Budget m_budget;
  ParseMemo<ledger::ProjectLedger> m_ledgers;
  QualifiedMemo<ProjectsYamlResult> m_projects_yaml;
  ParseMemo<ledger::PtFile> m_pt_files;
  QualifiedMemo<std::vector<diag::Finding>> m_open_requirements;
  GlobWalks m_glob_walks;
  LedgerFindings m_ledger_findings;
  std::shared_ptr<Persistent> m_persistent;
  bool m_one_command = false;
};

}  // namespace lg::rules
