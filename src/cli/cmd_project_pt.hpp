// The era-T and era-P side of `ledgergate project` (write/cortex_pt.hpp):
// the options of `move`, `rule` and `gates`, the T/P options of `new`, and
// the editor of a verb for a T/P profile. cmd_project.cpp registers the
// verbs and calls pt_editor when the tree's layout is cortex-tasks or
// cortex-phases.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/util/result.hpp"
#include "ledgergate/write/cortex_pt.hpp"
#include "ledgergate/write/cortex_r.hpp"
#include "ledgergate/write/edit.hpp"
#include "ledgergate/write/verb_args.hpp"

namespace lg::cli {

struct PtOptions {
  write::PtMoveArgs move;
  write::PtRuleArgs rule;
  std::string body_file;       // rule --body FILE
  write::PtNewArgs new_args;   // new: SLUG and the T/P options (KEY and --summary are NewArgs')
  bool summary_given = false;  // new --summary was given (T requires it, P has none)
  std::string today;           // move/rule/gates --today
  std::string root;            // the tree's top folder (absolute): FILE must name a file under it
  std::string base;            // the folder a relative FILE is resolved against (absolute)
};

// `move FILE STATE [--run ID ...]`, `rule FILE VERB --body FILE ...`: their
// positionals and options on `cmd`.
void add_pt_move_options(CLI::App* cmd, PtOptions& o);
void add_pt_rule_options(CLI::App* cmd, PtOptions& o);
// `new`'s SLUG positional and the T/P options.
void add_pt_new_options(CLI::App* cmd, PtOptions& o);

// The editor of `verb` ("move", "rule", "gates", "new", "retire") for the
// T/P profile `profile`; nullopt when `profile` is not a T/P layout or the
// layout has no such verb (the caller reports that).
// `r_new` and `retire` carry the arguments the verbs share with era R
// (KEY, --summary, --why, --today). `notes` (when not null) gets the lines
// the edit wrote: each new or changed line of an edited file, a new file's
// title. Errors (usage, exit 2): the era has no such verb (retire before
// P3), a missing argument the era requires, a P1 option in another era.
Result<std::optional<write::Editor>> pt_editor(const std::string& verb, const ledger::Profile& profile,
                                               const PtOptions& o, const write::NewArgs& r_new,
                                               const write::RetireArgs& retire, write::EditNotes* notes);

}  // namespace lg::cli
