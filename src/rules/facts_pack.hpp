// The facts pack (docs/cache.md): the one persistent-cache entry that holds
// what `check` learnt per blob — each ledger's and open-requirements file's
// findings, each projects.yaml's row facts, each subtree's glob matches —
// kept as read: the loaded payload is one string and the entries are views
// into it, found by binary search, so loading a pack of 20,000 ledgers is a
// scan, not 20,000 allocations, and a lookup builds nothing. What a check
// adds is kept beside it until the pack is written back.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"

namespace lg::rules {

// What the pack keeps of a projects.yaml blob (newest era): its findings
// and, per row, what the ledger pass and the active-row pass read.
struct YamlFacts {
  struct Row {
    std::string_view key;
    int line = 0;
    bool active = false;
    std::string_view inputs;  // rules::projects_step_row_inputs of the row's key
  };
  std::shared_ptr<const std::string> storage;  // what the views point into
  std::vector<diag::Finding> findings;
  std::vector<Row> rows;  // document order
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

class FactsPack {
 public:
  FactsPack() = default;
  FactsPack(const FactsPack&) = delete;
  FactsPack& operator=(const FactsPack&) = delete;

  // Reads a pack's payload; false (and the pack left empty) when it does
  // not decode exactly: a malformed field, keys out of order, a rule this
  // build does not know.
  bool load(std::string payload);
  void clear();

  // The findings kept at `key` ("L…" a ledger, "O…" an open-requirements
  // file); nullptr when none. The pointer stays valid for the pack's life.
  const std::vector<diag::Finding>* find(std::string_view key);
  void keep(std::string key, std::vector<diag::Finding> findings);

  // A projects.yaml's facts by its blob id (hex); null when none.
  std::shared_ptr<const YamlFacts> find_yaml(std::string_view id);
  void keep_yaml(std::string id, std::shared_ptr<const YamlFacts> facts);

  // A subtree's glob matches ("G" tree id, glob); null when none.
  std::shared_ptr<const std::vector<std::string>> find_glob(std::string_view key);
  void keep_glob(std::string key, std::shared_ptr<const std::vector<std::string>> matches);

  // Whether a check added to the pack since it was loaded (or written).
  bool dirty() const { return m_dirty; }
  void set_dirty() { m_dirty = true; }
  // The payload to write back: the entries used since loading, and those
  // not used only while the pack stays within twice that (plus 1,024), so
  // it tracks the working set; clears dirty().
  std::string encode();

 private:
  struct Listed {  // a loaded findings entry
    std::string_view key;
    std::string_view encoded;       // its findings as the codec wrote them
    std::int32_t decoded = -1;      // index into m_decoded; -1: no findings
    bool used = false;
  };
  template <class T>
  struct Kept {
    std::shared_ptr<const T> value;
    bool used = false;
  };
  std::shared_ptr<const std::string> m_payload;
  std::vector<Listed> m_listed;                              // sorted by key
  std::vector<std::vector<diag::Finding>> m_decoded;          // the loaded non-empty lists
  std::map<std::string, std::vector<diag::Finding>, std::less<>> m_added;  // added since loading
  std::map<std::string, Kept<YamlFacts>, std::less<>> m_yaml;
  std::map<std::string, Kept<std::vector<std::string>>, std::less<>> m_globs;
  bool m_dirty = false;
};

}  // namespace lg::rules
