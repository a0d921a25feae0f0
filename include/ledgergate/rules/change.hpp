// A change judged against its reference tree: the changed tree's findings
// matched with the reference's (diag::attribute), so a hook, trial-merge,
// land and `check --against` fail on what a change introduces, not on what
// the ledger already held. The reference is checked with the same options
// as the changed tree (through the same CheckCache, and the persistent
// cache: a tree checked before is one lookup).
#pragma once

#include <vector>

#include "ledgergate/diag/baseline.hpp"
#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::rules {

// The files `after` holds where `before` held one of `gone` (paths absent
// from `after`), among `arrived` (paths absent from `before`): the same
// content (blob id), else the same file name when it is the only candidate
// on both sides (a file moved to another directory, edited or not).
// Errors: unreadable trees.
Result<std::vector<diag::PathMove>> moved_files(git::TreeSource& before, git::TreeSource& after,
                                                const std::vector<std::string>& gone,
                                                const std::vector<std::string>& arrived);

// Sets the state of each of `findings` (what `after` holds, found with
// `options`) against `reference` (what `before` holds, found the same way),
// with the files the change moved keeping their findings; returns the
// reference's findings the change no longer has (fixed).
// Errors: unreadable trees.
Result<std::vector<diag::Finding>> attribute_between(git::TreeSource& before, git::TreeSource& after,
                                                     std::vector<diag::Finding>& findings,
                                                     const std::vector<diag::Finding>& reference);

// The same, the reference being the check of `before` with `options`
// (`cache` shared with the check of `after`). Errors: the check's.
Result<std::vector<diag::Finding>> attribute_check(git::TreeSource& before, git::TreeSource& after,
                                                   std::vector<diag::Finding>& findings, const CheckOptions& options,
                                                   CheckCache& cache);

}  // namespace lg::rules
