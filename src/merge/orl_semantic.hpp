// Semantic conflicts between two branches of one open-requirements ledger
// file (spec/open-requirements.md, "Merge semantics"): orl-m-id-collision,
// orl-m-divergent-status, orl-m-double-escalation.
#pragma once

#include <string>
#include <vector>

#include "ledgergate/ledger/open_requirements.hpp"
#include "ledgergate/merge/trial_merge.hpp"

namespace lg::merge {

// `ours` is the target branch (BASE), `theirs` the branch under judgement
// (HEAD), `base` their merge base. Versions that failed to parse are skipped.
std::vector<SemanticConflict> detect_orl_conflicts(const ledger::OpenRequirements& base,
                                                   const ledger::OpenRequirements& ours,
                                                   const ledger::OpenRequirements& theirs, const std::string& path);

}  // namespace lg::merge
