// Three-way detectors for the rulings of the tasks and phases eras (spec
// §2.4, §2.7), run by the trial merge when BASE's profile is cortex-tasks or
// cortex-phases: the same ruling id assigned on both sides (the ruling-id
// race), a chain that the merge turns into a tree, and a `Ruling:`,
// `Supersedes:` or `ruled:` a side added that dangles after the merge.
#pragma once

#include <string>
#include <vector>

#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/policy/classifier.hpp"
#include "ledgergate/rules/check.hpp"

namespace lg::merge {

struct RulingSides {
  git::TreeSource& base;    // the merge base
  git::TreeSource& ours;    // BASE (the target)
  git::TreeSource& theirs;  // HEAD (the branch)
  const std::vector<policy::Change>& ours_changes;    // merge base → BASE
  const std::vector<policy::Change>& theirs_changes;  // merge base → HEAD
  rules::CheckCache& cache;                            // parses shared with the merged check
};

// Kinds: "ruling-id-assigned-twice", "ruling-chain-fork", "ruling-ref-dangles".
// Each message names both sides (BASE, HEAD; the merge base where it holds
// the other end). Errors: unreadable objects.
Result<std::vector<SemanticConflict>> detect_ruling_conflicts(const RulingSides& s);

}  // namespace lg::merge
