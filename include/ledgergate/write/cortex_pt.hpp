// The era-T and era-P writer verbs of the reference (spec §8.3, §6.1):
// `move FILE STATE`, `rule FILE VERB`, `new PROJECT SLUG`, `retire PROJECT`
// and the read-only `gates`, as editors (write/edit.hpp) over a tree. Each
// verb checks what the reference checks, in its order and wording, and
// answers with the whole new content of the files it changes; the write
// layer (write/apply.hpp) then validates the edit against the whole tree and
// writes it, or refuses and writes nothing. Edits replace or insert whole
// lines of the file as read, so every other byte (CR endings, a BOM) stays.
// The era (which directory, which header keys, P1's clearance rules) is a
// rules::PtEra; dates and the clock are the caller's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/rules/cortex_eras.hpp"
#include "ledgergate/util/result.hpp"
#include "ledgergate/write/edit.hpp"

namespace lg::write {

// What every era-P/T verb is given besides its arguments.
struct PtContext {
  const rules::PtEra* era = nullptr;
  std::string root;   // the root as an absolute path: FILE arguments are resolved against it
  std::string today;  // YYYY-MM-DD (--today, else the local date)
  std::string base = {};  // the folder a relative FILE is resolved against (absolute; empty: root)
};

struct PtMoveArgs {
  std::string file, state;
  std::optional<std::string> run, partition, note, after, resumes, reason, pulled_to;
  std::optional<std::string> override_reason;  // P1: gated → ready (`Gate-override:`)
  bool partial = false;
};

struct PtRuleArgs {
  std::string file, verb;
  std::optional<std::string> body;  // the --body file's text; nullopt: not a file
  std::string body_path;            // as given (messages)
  std::optional<std::string> supersedes, batch;
  std::optional<long> minutes;
  std::vector<std::string> follow_ups;
  std::vector<std::string> also;  // P1: --also FILE, each ruled alike with its own ruling
  std::string clock;              // HH:MM, UTC (Reviewed-at)
};

struct PtNewArgs {
  std::string project, slug;
  std::optional<std::string> summary;  // T (required by the CLI)
  std::optional<long> phase;           // P (required by the CLI)
  std::optional<std::string> gates, epic, where, partition, witness, budget, title;
  std::optional<long> minutes;
  std::vector<std::string> legacy_runs, legacy_wrong;
};

struct PtRetireArgs {
  std::string project, why;
};

Editor pt_move(PtContext context, PtMoveArgs args);
Editor pt_rule(PtContext context, PtRuleArgs args);
Editor pt_new(PtContext context, PtNewArgs args);
// P3 and T only (the caller refuses it in other eras).
Editor pt_retire(PtContext context, PtRetireArgs args);
// The `gates` listing (spec §8.3; P1 without the URL lines), without the final newline.
Result<std::string> pt_gates(const rules::PtEra& era, git::TreeSource& tree);

}  // namespace lg::write
