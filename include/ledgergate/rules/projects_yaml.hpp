// projects.yaml validation with the reference's PyYAML-era semantics
// (spec/cortex-ledger.md §5.1, rules Y-01..Y-18) plus duplicate keys (G-04).
// Returns the rows the ledger rules look up (status, partition, ...).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ledgergate/diag/finding.hpp"

namespace lg::rules {

struct ProjectRow {
  std::string key;
  int line = 0;  // 1-based line of the row's key
  // Kept field values in row order, as the reference keeps them: strings as
  // written, null as "", other scalars as Python's str() ("True", "5",
  // "2026-09-01"); sync_verbs as its good words joined with ", ".
  std::vector<std::pair<std::string, std::string>> fields;

  // The kept value of `field`, or nullptr when the row lacks it.
  const std::string* get(std::string_view field) const;
};

struct ProjectsTable {
  bool present = false;          // the file exists
  std::vector<ProjectRow> rows;  // document order; one row per distinct key
  // The row for `key`, or nullptr.
  const ProjectRow* find(std::string_view key) const;
};

// What differs between the PyYAML eras (P2, P3, T1, T2, R).
struct ProjectsYamlEra {
  bool assistant_known = true;     // T2, R: `assistant` is a known, required field
  std::vector<std::string> statuses = {"active", "dormant", "planned", "retired"};
};

// Validates projects.yaml `text` (nullopt when the file is absent) and
// reports Y-01..Y-18 and projects-yaml-duplicate-key findings to `sink`, in
// the reference's order. `path` is the file's repository path.
ProjectsTable check_projects_yaml(std::optional<std::string_view> text, const ProjectsYamlEra& era,
                                  diag::FindingSink& sink, const std::string& path = "projects.yaml");

}  // namespace lg::rules
