// `ledgergate init`: the files of a new, empty ledger — projects.yaml with
// no row yet, projects/ (its AGENTS.md, which the check skips),
// checkin.yaml and a `.ledgergate.yaml` spelling out the built-in policy —
// as an editor (edit.hpp) that refuses when any of them is already there,
// so that the write layer checks the new tree and writes it atomically.
#pragma once

#include <string>
#include <vector>

#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/write/edit.hpp"

namespace lg::write {

struct InitArgs {
  ledger::Profile profile;  // the layout to start (cortex-projects)
  std::string stamp;        // checkin.yaml's `refreshed:` value, YYYY-MM-DDTHH:MMZ (UTC)
};

// The new ledger's files, in the order they are written. Errors: a
// profile whose layout init cannot start (only cortex-projects).
Result<std::vector<FileEdit>> new_ledger_files(const InitArgs& args);

// Writes new_ledger_files, or refuses ("PATH already exists: init starts a
// ledger from nothing") when any of them, or projects/, is in the tree.
Editor init_ledger(const InitArgs& args);

}  // namespace lg::write
