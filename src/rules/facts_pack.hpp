// The facts pack (docs/cache.md): the one persistent-cache entry that holds
// what `check` learnt per blob — each ledger's and open-requirements file's
// findings, each projects.yaml's row facts, each subtree's glob matches —
// kept as read: the loaded payload is one string and the entries are views
// into it, found by binary search, so loading a pack of 20,000 ledgers is a
// scan, not 20,000 allocations, and a lookup builds nothing. What a check
// adds is kept beside it until the pack is written back.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/util/file_bytes.hpp"
#include "ledgergate/util/string_table.hpp"

namespace lg::cache {
class Decoder;
class Encoder;
}

namespace lg::rules {

// What the pack keeps of a projects.yaml blob (newest era): its findings
// and, per row, what the ledger pass and the active-row pass read.
struct YamlFacts {
  // A row's texts are offsets into `text` (20,000 rows of 24 bytes, not 48).
  struct Row {
    std::uint32_t key_at = 0;
    std::uint32_t key_size = 0;
    std::uint32_t inputs_at = 0;  // rules::projects_step_row_inputs of the row's key
    std::uint32_t inputs_size = 0;
    std::int32_t line = 0;
    bool active = false;
  };
  std::shared_ptr<const void> storage;  // what `text` lies in (a string, or a mapped file)
  std::string_view text;                // what the rows' offsets are into
  std::vector<diag::Finding> findings;
  std::vector<Row> rows;  // document order
  std::string_view key(const Row& row) const { return {text.data() + row.key_at, row.key_size}; }
  std::string_view inputs(const Row& row) const { return {text.data() + row.inputs_at, row.inputs_size}; }
  // The findings and rows as a loaded pack encoded them (a view into
  // storage), written back as they are; "" for facts built here.
  std::string_view encoded;

  // The inputs of the first row (in document order) keyed `key`; "" when none.
  std::string_view inputs_of(std::string_view key) const;

  // Facts built from rows (their texts copied into storage of their own).
  struct OwnedRow {
    std::string key;
    int line = 0;
    bool active = false;
    std::string inputs;
  };
  static std::shared_ptr<const YamlFacts> build(std::vector<diag::Finding> findings, const std::vector<OwnedRow>& rows);

 private:
  mutable std::vector<std::uint32_t> m_slots;  // inputs_of's table of row indices, built on the first lookup
};

// The pack is two store entries: the pack itself and its journal, a small
// entry of what checks added since the pack was last written whole. A
// check that adds a few entries (the pre-commit hook's staged ledger)
// rewrites the journal only; once the journal outgrows 64 KiB, the next
// write folds it into the pack.
class FactsPack {
 public:
  FactsPack() = default;
  FactsPack(const FactsPack&) = delete;
  FactsPack& operator=(const FactsPack&) = delete;

  // Reads a pack's payload, which lies in (and is kept alive by) `owner`;
  // false (and the pack left empty) when it does not decode exactly: a
  // malformed field, keys out of order, a rule this build does not know.
  bool load(std::shared_ptr<const void> owner, std::string_view payload);
  bool load(std::string payload);  // the same, for a payload of its own
  // The same for a payload lying in a file: its mapped pages are given back
  // as the load passes them (util::PagesBehind), so a 4 MB pack is not held
  // whole for the few entries a check then looks up (read again from the
  // page cache when they are).
  bool load(std::shared_ptr<const util::FileBytes> file, std::string_view payload);
  // Reads a journal's payload (the same layout, held by `owner`) on top of
  // the loaded pack; false (and nothing of it kept) when it does not decode
  // exactly.
  bool load_journal(const std::shared_ptr<const void>& owner, std::string_view payload);
  bool load_journal(std::string payload);  // the same, for a payload of its own
  void clear();

  // The findings kept at `key` ("L…" a ledger, "O…" an open-requirements
  // file); nullptr when none. The pointer stays valid for the pack's life.
  // Lookups in key order (a listing's ledgers) are searched from the last
  // hit onwards: a step or two each, not a binary search of the pack.
  const std::vector<diag::Finding>* find(std::string_view key);
  void keep(std::string key, std::vector<diag::Finding> findings);

  // A projects.yaml's facts by its blob id (hex); null when none.
  std::shared_ptr<const YamlFacts> find_yaml(std::string_view id);
  void keep_yaml(std::string id, std::shared_ptr<const YamlFacts> facts);

  // A subtree's glob matches ("G" tree id, glob); null when none.
  std::shared_ptr<const std::vector<std::string>> find_glob(std::string_view key);
  void keep_glob(std::string key, std::shared_ptr<const std::vector<std::string>> matches);

  // The next whole write keeps every entry, used or not: a check that
  // answered its ledgers elsewhere (the projects memo) used none of them,
  // yet they are still its working set.
  void hold_unused() { m_hold_unused = true; }

  // Whether a check added to the pack since it was loaded (or written).
  bool dirty() const { return m_dirty; }
  void set_dirty() { m_dirty = true; }
  // Dirty, and the next encode() writes the whole pack (the stored one was
  // not trusted).
  void set_rewrite_whole() { m_dirty = m_rewrite_whole = true; }

  // What to write back (clears dirty()): the journal — every entry not in
  // the loaded pack — while it stays within 64 KiB; else the whole pack
  // (write_whole): the entries used since loading, and those not used only
  // while the pack stays within twice that (plus 1,024), so it tracks the
  // working set.
  struct Encoded {
    std::string journal;
    bool whole = false;  // write the pack itself instead (the journal folded in: remove it)
  };
  Encoded encode();
  // The whole pack into `e`, as encode() chose it: the same bytes at each
  // call until the pack changes (a streamed write asks twice).
  void write_whole(cache::Encoder& e) const;
  // The whole pack, as encode() writes it when it folds the journal in.
  std::string encode_whole();

 private:
  // A loaded entry: where its key lies in the payload it was read from,
  // and the size of what the codec wrote after the key (its value), as
  // offsets (12 bytes, not two views' 32).
  struct Loaded {
    std::uint32_t key_at = 0;
    std::uint32_t key_size = 0;
    std::uint32_t encoded_size = 0;
    std::string_view key(std::string_view text) const { return {text.data() + key_at, key_size}; }
    std::string_view encoded(std::string_view text) const { return {text.data() + key_at + key_size, encoded_size}; }
  };
  struct Listed : Loaded {  // a loaded findings entry
    std::int32_t decoded = -1;  // index into m_decoded; -1: no findings
    bool used = false;
  };
  template <class T>
  struct Kept {
    std::shared_ptr<const T> value;
    bool used = false;
    bool fresh = true;  // not in the loaded pack (from the journal, or kept since)
  };
  // Values by byte key in little memory, for what a check adds to the
  // pack (a cold check of 20,000 ledgers adds 20,000 findings entries and
  // 18,000 glob entries): the keys back to back in a util::StringTable,
  // some 110 bytes a ledger's key with its slot, against some 200 in an
  // std::map with its node and the key's own heap copy; the values in a
  // deque, where none moves (find()'s pointers stay valid); in key order
  // on demand, sorted once until a key is added (a streamed write of the
  // whole pack asks twice).
  template <class V>
  class Keyed {
   public:
    V* find(std::string_view key) {
      const std::optional<std::uint32_t> at = m_keys.find(key);
      return at ? &m_values[*at] : nullptr;
    }
    const V* find(std::string_view key) const {
      const std::optional<std::uint32_t> at = m_keys.find(key);
      return at ? &m_values[*at] : nullptr;
    }
    // `key`'s value set, as std::map::insert_or_assign.
    void assign(std::string_view key, V value) {
      if (V* kept = find(key)) {
        *kept = std::move(value);
      } else {
        add(key, std::move(value));
      }
    }
    // `value` kept unless `key` has one (then unchanged), as std::map::insert.
    void insert(std::string_view key, V value) {
      if (!find(key)) add(key, std::move(value));
    }
    std::size_t size() const { return m_values.size(); }
    void clear() {
      m_keys.clear();
      m_values.clear();
      m_values.shrink_to_fit();
      m_sorted.clear();
      m_sorted.shrink_to_fit();
    }
    // fn(key, value) for each, in no particular order.
    template <class Fn>
    void for_each(Fn&& fn) const {
      m_keys.for_each([&](std::string_view key, std::uint32_t at) { fn(key, m_values[at]); });
    }
    // Each (key, value), in key order.
    const std::vector<std::pair<std::string_view, const V*>>& sorted() const {
      if (m_sorted.size() != m_values.size()) {
        m_sorted.clear();
        m_sorted.reserve(m_values.size());
        for_each([this](std::string_view key, const V& value) { m_sorted.emplace_back(key, &value); });
        std::sort(m_sorted.begin(), m_sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      }
      return m_sorted;
    }

   private:
    void add(std::string_view key, V value) {
      m_values.push_back(std::move(value));
      m_keys.insert(key, static_cast<std::uint32_t>(m_values.size() - 1));
    }
    util::StringTable m_keys;  // each key's index in m_values
    std::deque<V> m_values;
    // sorted()'s answer while it holds every key (keys are only added:
    // its size tells; views of keys and values neither move nor change).
    mutable std::vector<std::pair<std::string_view, const V*>> m_sorted;
  };
  using YamlMap = std::map<std::string, Kept<YamlFacts>, std::less<>>;
  using GlobMap = Keyed<Kept<std::vector<std::string>>>;
  struct ListedGlob : Loaded {  // a loaded glob entry
    std::int32_t decoded = -1;  // index into m_glob_decoded once looked up; -1: not yet
    bool used = false;
  };
  bool load_from(std::shared_ptr<const void> owner, std::string_view text, util::PagesBehind& behind);
  static bool decode_tail(cache::Decoder& d, const std::shared_ptr<const void>& owner, std::string_view text, bool fresh,
                          YamlMap& yaml, std::vector<ListedGlob>& globs, util::PagesBehind& behind);
  std::string encode_journal() const;
  // Fewer bytes than encode_journal() writes (its keys, projects.yaml's texts).
  std::size_t journal_lower_bound() const;
  // Decides what write_whole keeps (m_trim) and clears the pending writes.
  void choose_whole();
  std::size_t lower_bound(std::string_view key);

  std::shared_ptr<const void> m_owner;  // what m_text lies in
  std::string_view m_text;              // the loaded payload
  std::vector<Listed> m_listed;                              // sorted by key (in m_text)
  std::vector<std::vector<diag::Finding>> m_decoded;          // the loaded non-empty lists
  std::size_t m_cursor = 0;                                   // where the last lookup in m_listed ended
  // Not in the loaded pack: the journal's findings entries and those added since.
  Keyed<std::vector<diag::Finding>> m_fresh;
  YamlMap m_yaml;
  GlobMap m_globs;                       // kept since loading, or from the journal
  std::vector<ListedGlob> m_glob_listed;  // the loaded pack's, sorted by key (in m_text)
  std::vector<std::uint64_t> m_glob_prefixes;  // their keys' first eight bytes, in the same order
  std::vector<std::shared_ptr<const std::vector<std::string>>> m_glob_decoded;  // the loaded entries looked up
  bool m_dirty = false;
  bool m_rewrite_whole = false;
  bool m_hold_unused = false;
  bool m_trim = false;  // write_whole leaves out what was not used (choose_whole decides)
};

}  // namespace lg::rules
