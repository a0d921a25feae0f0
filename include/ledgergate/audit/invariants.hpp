// The era-R cross-commit invariants (spec §6.3): what may change between two
// consecutive versions of one project ledger. Pure functions over parses, so
// the audit walk and the tests share them.
#pragma once

#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/ledger/project_ledger.hpp"

namespace lg::audit {

// Compares `before` and `after` (uncompacted parses of one ledger, `after` at
// `path`): log entries only prepended (never edited, removed or inserted
// below the head); a run line appears with a prepended `{id} submitted` log
// entry and leaves with a prepended `{id} finished` / `{id} failed` one.
// Findings carry the audit-* rules and locate `after` (line 0 when the entry
// is gone).
std::vector<diag::Finding> compare_ledgers(const ledger::ProjectLedger& before, const ledger::ProjectLedger& after,
                                           const std::string& path);

}  // namespace lg::audit
