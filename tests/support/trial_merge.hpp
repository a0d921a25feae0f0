// Trial merges of three trees written by the tests: base, ours (main) and
// theirs (branch) committed in a fresh repository, theirs merged into ours.
#pragma once

#include <functional>
#include <string>

#include "ledgergate/git/trial_repo.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "support/fixture_tree.hpp"

namespace lg::test {

// The bundled example ledger (fixtures/ledgers/example) and its one ledger.
inline const std::string k_example_ledger = "projects/single.md";
FileMap example_ledger_files();

// `files` with `entry` prepended to the example ledger's log.
FileMap prepend_log(FileMap files, const std::string& entry);

// The report of that merge in `dir`; `inspect` (when given) sees the trial
// repository, whose objects hold the merged tree, before it is closed.
merge::TrialMergeReport trial_merge_files(
    const std::string& dir, const FileMap& base, const FileMap& ours, const FileMap& theirs,
    const merge::TrialMergeOptions& options = {},
    const std::function<void(git::TrialRepo&, const merge::TrialMergeReport&)>& inspect = {});

}  // namespace lg::test
