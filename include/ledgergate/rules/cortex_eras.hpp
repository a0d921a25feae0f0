// The older Cortex eras: phases (P1a, P1b, P1c, P2, P3 — profile
// cortex-phases) and tasks (T1, T2 — profile cortex-tasks), spec §2 and §3.
// One engine checks both; what differs between the sub-eras (directory, head
// field, key sets, which rules are on, the nouns in messages) is the data in
// a PtEra. The tree is read by the check driver; the rules read parsed files.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/rules/cortex_p1.hpp"
#include "ledgergate/rules/projects_yaml.hpp"

namespace lg::rules {

struct PtEra {
  std::string_view name;      // "p1a", "p1b", "p1c", "p2", "p3", "t1", "t2"
  ledger::Layout layout = ledger::Layout::none;  // cortex_phases or cortex_tasks
  std::string_view dir;       // "phases" or "tasks"
  std::string_view noun;      // "phase" or "task" (messages)
  std::string_view head_key;  // a ruling's target field: "Phase" or "Task"
  std::string_view second_key;  // required after Project: "Phase" (P) or "Summary" (T)
  std::span<const std::string_view> file_keys;    // the header keys a phase/task may carry
  std::span<const std::string_view> ruling_keys;  // the header keys a ruling may carry
  bool phase_number = false;   // P: `Phase:` is an integer, unique per directory (P-F07, P-F08)
  bool tasks = false;          // T: `Phase:` retired (T-F03, T-G04), `Summary:` capped (T-F05)
  bool p1 = false;             // P1: Lane (F14), clearance (F16), Gates-cleared date, batches, restricted YAML
  P1Sub p1_sub = P1Sub::c;     // which P1 (P1 only)
  bool where_to_look = false;  // P3, T: P-F24 / T-F22
  ProjectsYamlEra yaml;        // P2+: the PyYAML-era field set and status wording
};

// The sub-era `sub` of `layout` (one of ledger::sub_eras(layout)); nullptr if unknown.
const PtEra* find_pt_era(ledger::Layout layout, std::string_view sub);

// One ledger file of the tree as the driver found it.
struct PtTreeFile {
  std::string path;
  std::shared_ptr<const ledger::PtFile> file;  // null: listed but not read (the driver reported why)
};

struct PtTree {
  std::vector<PtTreeFile> targets;  // every <dir>/**/*.md path, in Python Path order
  std::vector<PtTreeFile> rulings;  // every rulings/**/*.md path but rulings/AGENTS.md, same order
  const ProjectsTable* rows = nullptr;            // projects.yaml's rows
  std::function<bool(std::string_view)> is_file;  // a repository path is a regular file (`Batch:`)
};

// Reports, in the reference's order (§2.8, §3.3 steps 2–5), the path rules,
// every phase/task file's rules, then every ruling's rules, each file's gap
// warnings after its reference findings.
void check_pt_tree(const PtEra& era, const PtTree& tree, diag::FindingSink& sink);

// What the P1 batch rules need of the loaded phases: rel path → stem and body stems.
std::map<std::string, P1Phase, std::less<>> p1_phases(const PtEra& era, const PtTree& tree);

// Python `Path` ordering: component tuples compared code point by code point.
bool path_less(std::string_view a, std::string_view b);

}  // namespace lg::rules
