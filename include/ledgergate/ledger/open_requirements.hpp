// The open-requirements ledger (tests/data/spec/open-requirements.md; docs/ledgers.md): a YAML file of
// obligations an autonomous pipeline took on (`gap`) or declined (`dropped`),
// plus an optional `topology_repair` escalation budget. The model keeps every
// field's value (its Python view) and line, every key in document order
// (duplicates included), and the document's shape, so the rules can judge a
// file that is only half right.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ledgergate/ledger/yaml_doc.hpp"

namespace lg::ledger {

// One YAML value as the rules need it: its kind and Python view, its line,
// and (for a sequence) its items.
struct OrlValue {
  YamlKind kind = YamlKind::null;
  PyType type = PyType::none;
  std::string str;   // Python str() ("" for null)
  std::string repr;  // Python repr(): the identity used to compare versions
  int line = 0;
  std::vector<OrlValue> items;  // sequence items

  bool is_null() const { return type == PyType::none; }
  bool is_string() const { return type == PyType::str; }
  bool is_bool() const { return type == PyType::bool_; }
  bool is_true() const { return type == PyType::bool_ && str == "True"; }
  // An int (not a bool); nullopt otherwise or when it does not fit 64 bits.
  std::optional<std::int64_t> as_int() const;
  // Present as a non-null value whose str() is not blank.
  bool non_empty() const;
};

// A key written in a mapping, in document order (duplicates kept).
struct OrlKey {
  std::string name;  // the key's str()
  int line = 0;
};

struct OrlEntry {
  int line = 0;             // the entry's first line
  std::size_t index = 0;    // 0-based position in `entries`
  bool is_mapping = false;  // false: the entry is not a mapping (nothing else is read)
  std::string not_mapping_type;  // Python type name when not a mapping
  std::vector<OrlKey> keys;      // every key, in order
  // Each field's value; for a duplicated key, the last one (as a loader keeps it).
  std::vector<std::pair<std::string, OrlValue>> fields;

  const OrlValue* get(std::string_view name) const;
  // The entry's id when it is a non-empty string; "" otherwise.
  std::string id() const;
  // The status's str() when it is a string; "" otherwise.
  std::string status() const;
  // "gap" when kind is absent or null; otherwise kind's str().
  std::string kind() const;
  bool blocking() const;  // blocking: true
  // `because` is struck: absent, null, blank, or wrapped in ~~…~~.
  bool because_struck() const;
  // A one-line label for messages: "entry `x` (line 7)" or "entry #3 (line 7)".
  std::string label() const;
};

struct OrlBudget {
  int line = 0;             // the `topology_repair:` key's line
  bool is_mapping = false;
  std::vector<OrlKey> keys;
  std::optional<OrlValue> escalations, cap, open_history;
};

struct OpenRequirements {
  enum class Form { empty, mapping, bare_list, other };
  std::optional<YamlError> yaml_error;  // set: nothing else is meaningful
  Form form = Form::empty;
  std::string root_type;  // Python type name of the root (Form::other)
  int root_line = 0;
  std::vector<OrlKey> top_keys;  // mapping form: every top-level key, in order
  bool entries_not_list = false; // `entries:` holds something other than a list or null
  std::string entries_type;
  int entries_line = 0;
  std::vector<OrlEntry> entries;
  std::optional<OrlBudget> budget;  // `topology_repair`, when present

  // The first entry with this id, or nullptr.
  const OrlEntry* find(std::string_view id) const;
  // Open entries with blocking: true.
  std::size_t open_blocking() const;
};

// Parses the text of a ledger file (already decoded UTF-8, "\n" line ends).
// An empty or comment-only text is an empty ledger. Never throws.
OpenRequirements parse_open_requirements(std::string_view text);

// The default glob naming open-requirements files in a tree.
inline constexpr std::string_view k_orl_default_glob = "**/open-requirements.ledger.yml";

// Matches a repository-relative POSIX path against a glob: `**/` is zero or
// more directories, `*` any run of characters within one segment, `?` one
// character. A glob without `/` matches the file name at any depth.
bool orl_glob_match(std::string_view glob, std::string_view path);

}  // namespace lg::ledger
