// A small clean era-R tree for the write layer's tests: one active row with
// a ledger, and editors that append a log line (good) or break the title.
#pragma once

#include <string>

#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/write/edit.hpp"
#include "support/fixture_tree.hpp"

namespace lg::test {

inline const std::string k_rows =
    "single:\n"
    "  remote: none\n"
    "  local_path: /tmp/single\n"
    "  ral_root: /mnt/ral/single\n"
    "  mirror: none\n"
    "  sync_cli: hpc/sync\n"
    "  sync_verbs: [pull]\n"
    "  ledger: NOTES.md\n"
    "  assistant: none\n"
    "  witness_file: results/**/*.json\n"
    "  partition: ral\n"
    "  status: active\n";

inline const std::string k_ledger =
    "# single — A project that runs on one partition only\n"
    "\n"
    "Project: single\n"
    "Issue: none\n"
    "\n"
    "## Now\n"
    "\n"
    "Nothing submitted yet.\n"
    "\n"
    "## Runs\n"
    "\n"
    "## Log\n"
    "\n"
    "- 2026-09-01 — note — ledger opened\n";

inline const std::string k_ledger_path = "projects/single.md";

inline FileMap clean_tree() { return {{"projects.yaml", k_rows}, {k_ledger_path, k_ledger}}; }

// Prepends a dated note to the log: a good edit when `date` is the newest.
inline write::Editor log_note(std::string date, std::string text) {
  return [date, text](git::TreeSource& tree) -> Result<write::Outcome> {
    LG_TRY(auto bytes, git::read_regular_file(tree, k_ledger_path));
    if (!bytes) return write::Outcome(write::Refusal{"no ledger for single"});
    const std::string line = "- " + date + " — note — " + text + "\n";
    std::string out = *bytes;
    out.insert(out.find("- 20"), line);
    return write::Outcome(write::Change{{{k_ledger_path, out}}, k_ledger_path + ": logged"});
  };
}

// Replaces the whole ledger with `bytes`.
inline write::Editor overwrite(std::string bytes) {
  return [bytes](git::TreeSource&) -> Result<write::Outcome> {
    return write::Outcome(write::Change{{{k_ledger_path, bytes}}, "overwritten"});
  };
}

}  // namespace lg::test
