// Private to audit/: the era-P/T events of one commit against its first
// parent (spec §6.1, §6.2, §6.4): state edges and run lines of the phase or
// task files it modified, ruling files that were changed or whose id came
// back, and schema migrations recognised as moves (with what else changed on
// the way). The pure comparisons live in pt_invariants.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::audit {

// What the walk remembers between commits.
struct PtHistory {
  std::set<std::string> deleted_ruling_ids;  // ids whose file a commit deleted or renamed away
  std::vector<std::string> deleted_now;      // of which the current commit's (the caller clears it)
};

// `before_layout`: the parent tree's detected layout; `after_profile`: the
// profile the commit's tree was checked as (layout none: no ledger).
// Errors: an object that cannot be read.
Result<std::vector<diag::Finding>> pt_commit_events(git::TreeSource& before, git::TreeSource& after,
                                                    ledger::Layout before_layout,
                                                    const ledger::Profile& after_profile,
                                                    const std::vector<git::DiffEntry>& changes, PtHistory& history);

}  // namespace lg::audit
