// The era-P and era-T cross-commit invariants (spec §6.1, §6.2, §6.4): what
// may change between two consecutive versions of one phase or task file, and
// what a schema migration may change when it moves a file. Pure functions
// over parses (ledger/pt_file), so the audit walk and the tests share them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/ledger/pt_file.hpp"

namespace lg::audit {

struct PtEraInfo {
  bool p1 = false;                    // P1a..P1c: gate clearance is written by the grader
  std::string_view noun = "task";     // "phase" or "task"
  std::string_view head_key = "Task"; // a ruling's head field: "Phase" or "Task"
};

// A ruling file added by the commit under audit: the evidence of a rule edge.
struct AddedRuling {
  std::string path;  // rulings/YYYY/MM/R-….md
  std::string id;    // its file stem
  const ledger::PtFile* file = nullptr;
};

// §6.1: the `State:` change of the phase/task at `path` from `before` to
// `after` follows the era's transition table with its evidence; rule edges
// (→ accepted | rerun | dropped, and leave-to-finish) need a ruling among
// `added` that names `path`, carries the verb and is the file's new `Ruling:`.
std::vector<diag::Finding> compare_pt_states(const ledger::PtFile& before, const ledger::PtFile& after,
                                             const std::string& path, const PtEraInfo& era,
                                             const std::vector<AddedRuling>& added);

// §6.2 (our table; warnings): run lines are never removed or reordered; their
// ident, partition and submitted date never change; states move forward
// (submitted → running | done | failed | timeout | void; running → a final
// state; the final states and legacy states stay); wall never decreases;
// continuation keys are added, never changed or removed.
std::vector<diag::Finding> compare_pt_runs(const ledger::PtFile& before, const ledger::PtFile& after,
                                           const std::string& path);

// §6.4: a file moved by a schema migration (phases/ → tasks/, a ruling's
// `Phase:` → `Task:`) may change only what the migration changes: a phase
// loses `Phase:` and the P1 keys (Gates-cleared, Gate-override, Lane) and
// gains `Summary:`; a ruling's `Phase: phases/…` becomes `Task: tasks/…` of
// the same project and slug. Anything else changed is reported at `new_path`.
std::vector<diag::Finding> compare_migrated(std::string_view old_text, std::string_view new_text,
                                            const std::string& old_path, const std::string& new_path);

}  // namespace lg::audit
