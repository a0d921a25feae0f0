// projects.yaml validation with the reference's PyYAML-era semantics
// (spec/cortex-ledger.md §5.1, rules Y-01..Y-18) plus duplicate keys (G-04).
// Returns the rows the ledger rules look up (status, partition, ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/ledger/profile.hpp"

namespace lg::rules {

// A row's kept fields in row order, compactly (a 20,000-row table keeps
// some 260,000): one string holding, per field, its name as one byte (the
// index of a known field's name; any other name is written out) and its
// value's byte length (7 bits a byte) and bytes.
class ProjectFields {
 public:
  using value_type = std::pair<std::string_view, std::string_view>;  // (name, value)

  ProjectFields() = default;
  ProjectFields(std::initializer_list<value_type> fields);

  void emplace_back(std::string_view name, std::string_view value);
  void shrink_to_fit() { m_data.shrink_to_fit(); }
  std::size_t size() const;
  bool empty() const { return m_data.empty(); }
  // The value of the first field named `name`, or nullopt.
  std::optional<std::string_view> get(std::string_view name) const;
  // The same fields in the same order (the encoding is canonical).
  bool operator==(const ProjectFields&) const = default;

  class iterator {
   public:
    using value_type = ProjectFields::value_type;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    value_type operator*() const;
    iterator& operator++();
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator&) const = default;

   private:
    friend class ProjectFields;
    iterator(const std::string* data, std::size_t at) : m_data(data), m_at(at) {}
    const std::string* m_data = nullptr;
    std::size_t m_at = 0;
  };
  iterator begin() const { return {&m_data, 0}; }
  iterator end() const { return {&m_data, m_data.size()}; }

 private:
  std::string m_data;
};

struct ProjectRow {
  std::string key;
  int line = 0;  // 1-based line of the row's key
  // Kept field values in row order, as the reference keeps them: strings as
  // written, null as "", other scalars as Python's str() ("True", "5",
  // "2026-09-01"); sync_verbs as its good words joined with ", ".
  ProjectFields fields;

  // The kept value of `field`, or nullopt when the row lacks it.
  std::optional<std::string_view> get(std::string_view field) const { return fields.get(field); }
};

struct ProjectsTable {
  bool present = false;          // the file exists
  std::vector<ProjectRow> rows;  // document order; one row per distinct key
  // Row positions sorted by key, built by index(): find() is a binary search
  // then (a 20,000-row table is looked up once per ledger), a scan before.
  std::vector<std::uint32_t> by_key;

  // The row for `key`, or nullptr.
  const ProjectRow* find(std::string_view key) const;
  // Builds `by_key`; call once the rows are final (copies stay valid).
  void index();
};

// What differs between the PyYAML eras (P2, P3, T1, T2, R).
struct ProjectsYamlEra {
  bool assistant_known = true;     // T2, R: `assistant` is a known, required field
  std::vector<std::string> statuses = {"active", "dormant", "planned", "retired"};
};

// The fields a row may hold in `era`, the required ones in the reference's order, then `note`.
std::vector<std::string> known_project_fields(const ProjectsYamlEra& era);

// One field of a row as the reference keeps it, with the line of the entry
// it came from: the input of the finish-row rules.
struct KeptProjectField {
  std::string name;
  std::string value;
  bool is_list = false;  // sync_verbs: never tested for emptiness
  int line = 0;
};

// The finish-row rules run after a row's fields (Y-11..Y-18 of spec §5.1;
// the restricted subset of §5.2 runs the same code with `era` set for P1).
void check_project_row_fields(const std::string& key, int row_line, const std::vector<KeptProjectField>& fields,
                              const ProjectsYamlEra& era, diag::FindingSink& sink,
                              const std::string& path = std::string(ledger::k_projects_yaml));

// What a table's rows keep of their fields: every one, or only what a
// ledger's check reads of a row (its `status` then its `partition`:
// rules::projects_step_row_inputs; cortex_projects.cpp reads no other).
enum class RowFields { all, inputs };

// Validates projects.yaml `text` (nullopt when the file is absent) and
// reports Y-01..Y-18 and projects-yaml-duplicate-key findings to `sink`, in
// the reference's order. `path` is the file's repository path. The
// findings are the same whichever `fields` the rows keep.
ProjectsTable check_projects_yaml(std::optional<std::string_view> text, const ProjectsYamlEra& era,
                                  diag::FindingSink& sink, const std::string& path = std::string(ledger::k_projects_yaml),
                                  RowFields fields = RowFields::all);
// The same table, nothing reported: the checks that only report (duplicate
// keys and fields, each row's fields taken together) are skipped, the rest
// reads the rows as check_projects_yaml does, every field kept. For a
// caller that reads rows of a file it does not judge; the plain reader
// projects_yaml_row_inputs is tested against.
ProjectsTable projects_yaml_table(std::optional<std::string_view> text, const ProjectsYamlEra& era);
// The same rows, each keeping only what a ledger's check reads of it (its
// key, line and presence, and its `status` then `partition` field:
// rules::projects_step_row_inputs; cortex_projects.cpp reads no other). Rows of the common shape (a
// key line, then one `name: value` line per field, every scalar a plain
// or quoted str) are read straight from their lines, the others by the
// simple reader entry by entry; a document of neither shape is read whole,
// as projects_yaml_table reads it. For trial-merge --scope change, which
// reads BASE's rows without judging them.
ProjectsTable projects_yaml_row_inputs(std::optional<std::string_view> text, const ProjectsYamlEra& era);

}  // namespace lg::rules
