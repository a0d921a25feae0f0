#include "support/trial_merge.hpp"

#include <catch2/catch.hpp>

namespace lg::test {

FileMap example_ledger_files() {
  return read_tree(std::string(LEDGERGATE_SOURCE_DIR) + "/fixtures/ledgers/example");
}

FileMap prepend_log(FileMap files, const std::string& entry) {
  replace_once(files[k_example_ledger], "## Log\n\n", "## Log\n\n" + entry + "\n");
  return files;
}

merge::TrialMergeReport trial_merge_files(
    const std::string& dir, const FileMap& base, const FileMap& ours, const FileMap& theirs,
    const merge::TrialMergeOptions& options,
    const std::function<void(git::TrialRepo&, const merge::TrialMergeReport&)>& inspect) {
  const git_oid b = commit_tree(dir, base, "base");
  const git_oid o = commit_tree(dir, ours, "ours", &b, "refs/heads/main");
  const git_oid t = commit_tree(dir, theirs, "theirs", &b, "refs/heads/branch");
  auto repo = git::Repository::open(dir, false);
  REQUIRE(repo);
  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  auto report = merge::trial_merge(*repo, *trial, id_of(o), id_of(t), options);
  REQUIRE(report);
  if (inspect) inspect(*trial, *report);
  return std::move(*report);
}

}  // namespace lg::test
