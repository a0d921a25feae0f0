// The trial merge's retry of conflicted ledger paths with the record merge:
// two branches that each prepend a log entry to one ledger merge clean, the
// entries newest first; `merge: git` keeps git's conflict; a conflict the
// record merge cannot decide stays; a resolution that leaves drift fails
// the check; a path with no record format is never retried.
#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>

#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/trial_repo.hpp"
#include "ledgergate/merge/record_merge.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "support/fixture_tree.hpp"
#include "support/trial_merge.hpp"

using namespace lg;
using lg::test::FileMap;

namespace {

struct Merged {
  merge::TrialMergeReport report;
  std::optional<std::string> ledger;  // the merged tree's ledger, when the merge is clean
};

Merged trial(const FileMap& base, const FileMap& ours, const FileMap& theirs, merge::TrialMergeOptions options = {}) {
  test::TempDir dir;
  Merged out;
  const auto read_ledger = [&out](git::TrialRepo& trial, const merge::TrialMergeReport& report) {
    if (!report.merge.conflicts.empty()) return;
    auto entry = git::tree_entry_at(trial.repo(), report.merge.tree, test::k_example_ledger);
    REQUIRE(entry);
    REQUIRE(*entry);
    auto bytes = git::read_blob(trial.repo(), (*entry)->id);
    REQUIRE(bytes);
    out.ledger = *bytes;
  };
  out.report = test::trial_merge_files(dir.path(), base, ours, theirs, options, read_ledger);
  return out;
}

const std::string k_ours_entry = "- 2026-09-03 — note — ours: the dataset is on RAL";
const std::string k_theirs_entry = "- 2026-09-02 — note — theirs: the mask is drawn";

}  // namespace

TEST_CASE("trial merge: two prepended log entries merge as records", "[merge][trial_merge][records]") {
  const FileMap base = test::example_ledger_files();
  const Merged m = trial(base, test::prepend_log(base, k_ours_entry), test::prepend_log(base, k_theirs_entry));
  CHECK(m.report.merge.conflicts.empty());
  REQUIRE(m.report.resolved.size() == 1);
  CHECK(m.report.resolved[0].path == test::k_example_ledger);
  CHECK(m.report.resolved[0].how == "records");
  CHECK(m.report.resolved[0].format == "cortex-project");
  CHECK(m.report.resolved[0].records == std::vector<std::pair<std::string, int>>{{"log_added", 2}});
  REQUIRE(m.ledger);
  CHECK(*m.ledger == test::prepend_log(test::prepend_log(base, k_theirs_entry), k_ours_entry)[test::k_example_ledger]);  // newest first
  CHECK(m.report.checked);
  CHECK(m.report.semantic.empty());
  CHECK(m.report.pass());
}

TEST_CASE("trial merge: `merge: git` keeps git's conflict", "[merge][trial_merge][records]") {
  FileMap base = test::example_ledger_files();
  base[".ledgergate.yaml"] = "merge: git\n";
  const FileMap ours = test::prepend_log(base, k_ours_entry), theirs = test::prepend_log(base, k_theirs_entry);
  const Merged m = trial(base, ours, theirs);
  REQUIRE(m.report.merge.conflicts.size() == 1);
  CHECK(m.report.merge.conflicts[0].path == test::k_example_ledger);
  CHECK(m.report.resolved.empty());
  CHECK_FALSE(m.report.pass());
  // The --merge flag pins the key either way.
  const Merged pinned = trial(base, ours, theirs, {true, "", policy::LedgerMerge::records});
  CHECK(pinned.report.merge.conflicts.empty());
  CHECK(pinned.report.resolved.size() == 1);
  base.erase(".ledgergate.yaml");
  const Merged off = trial(base, test::prepend_log(base, k_ours_entry), test::prepend_log(base, k_theirs_entry),
                           {true, "", policy::LedgerMerge::git});
  CHECK(off.report.merge.conflicts.size() == 1);
  CHECK(off.report.resolved.empty());
}

TEST_CASE("trial merge: a conflict between records stays a conflict", "[merge][trial_merge][records]") {
  const FileMap base = test::example_ledger_files();
  FileMap ours = test::prepend_log(base, k_ours_entry), theirs = test::prepend_log(base, k_theirs_entry);
  const std::string now = "Nothing submitted yet; the first run goes out once the dataset is on RAL.";
  test::replace_once(ours[test::k_example_ledger], now, "Ours: waiting for the mask.");
  test::replace_once(theirs[test::k_example_ledger], now, "Theirs: the dataset is late.");
  const Merged m = trial(base, ours, theirs);
  REQUIRE(m.report.merge.conflicts.size() == 1);
  CHECK(m.report.merge.conflicts[0].path == test::k_example_ledger);
  CHECK(m.report.resolved.empty());
  CHECK_FALSE(m.report.checked);
}

TEST_CASE("trial merge: a resolved ledger that drifts still fails the check", "[merge][trial_merge][records]") {
  const FileMap base = test::example_ledger_files();
  // The branch brings the drift (on BASE it would be pre-existing, not the merge's).
  FileMap theirs = test::prepend_log(base, k_theirs_entry);
  test::replace_once(theirs[test::k_example_ledger], "Issue: none", "Issue: not-a-ref");
  const Merged m = trial(base, test::prepend_log(base, k_ours_entry), theirs);
  CHECK(m.report.merge.conflicts.empty());
  CHECK(m.report.resolved.size() == 1);
  CHECK(m.report.checked);
  CHECK_FALSE(m.report.pass());
  REQUIRE(m.ledger);
  CHECK(m.ledger->find("Issue: not-a-ref") != std::string::npos);
}

TEST_CASE("trial merge: a path with no record format is not retried", "[merge][trial_merge][records]") {
  FileMap base = test::example_ledger_files();
  base["notes/plan.md"] = "one\n";
  FileMap ours = base, theirs = base;
  ours["notes/plan.md"] = "ours\n";
  theirs["notes/plan.md"] = "theirs\n";
  const Merged m = trial(base, ours, theirs);
  REQUIRE(m.report.merge.conflicts.size() == 1);
  CHECK(m.report.merge.conflicts[0].path == "notes/plan.md");
  CHECK(m.report.resolved.empty());
}

namespace {

const std::string k_runs_ledger = "projects/example.md";
const std::string k_run_3002 = "- 3002_[0-3] — running — ral — 2026-09-01 — wave 2, four seeds on the corrected settings\n";
const std::string k_run_3003 = "- 3003 — open — gpu — 2026-09-02 — joint fit on the same four seeds\n  chained after 3002 with afterok\n";

// `files` with run `line` (and its continuation) taken out of ## Runs and its end logged, as `project done` does.
FileMap finish(FileMap files, const std::string& line, const std::string& id) {
  test::replace_once(files[k_runs_ledger], line, "");
  test::replace_once(files[k_runs_ledger], "## Log\n\n", "## Log\n\n- 2026-09-03 — run — " + id + " finished — wall 1:10\n");
  return files;
}

std::size_t count_rev(const merge::TrialMergeReport& r, const std::string& rev) {
  return static_cast<std::size_t>(std::count_if(r.findings.begin(), r.findings.end(),
                                                [&](const diag::Finding& f) { return f.location.rev == rev; }));
}

}  // namespace

TEST_CASE("trial merge: a record one side finished and the other changed stays a conflict, named",
          "[merge][trial_merge][records]") {
  const FileMap base = test::example_ledger_files();
  FileMap theirs = base;
  test::replace_once(theirs[k_runs_ledger], "  chained after 3002 with afterok\n",
                     "  chained after 3002 with afterok\n  resubmit with 4x memory if it OOMs\n");
  const Merged m = trial(base, finish(base, k_run_3003, "3003"), theirs);
  REQUIRE(m.report.merge.conflicts.size() == 1);
  CHECK(m.report.merge.conflicts[0].path == k_runs_ledger);
  CHECK(m.report.resolved.empty());
  REQUIRE_FALSE(m.report.semantic.empty());
  CHECK(m.report.semantic[0].kind == "record-conflict");
  CHECK(m.report.semantic[0].message == "projects/example.md: run 3003 — changed on HEAD, removed on BASE");
  CHECK_FALSE(m.report.pass());
}

TEST_CASE("trial merge: a branch whose tip fails check never passes", "[merge][trial_merge][records]") {
  const FileMap base = test::example_ledger_files();
  SECTION("the merge hides the branch's duplicate run") {
    // 3002_[0-3] listed again at the end of ## Runs while BASE finishes it:
    // git's textual merge is clean and the merged tree checks clean.
    FileMap theirs = base;
    test::replace_once(theirs[k_runs_ledger], k_run_3003,
                       k_run_3003 + "- 3002_[0-3] — open — ral — 2026-09-03 — wave 2 again\n");
    const Merged m = trial(base, finish(base, k_run_3002, "3002_[0-3]"), theirs);
    CHECK(m.report.merge.conflicts.empty());
    CHECK(m.report.checked);
    REQUIRE(count_rev(m.report, "HEAD") == 1);
    CHECK(count_rev(m.report, "merged") == 0);
    CHECK(m.report.findings[0].rule == "ledger-run-listed-once");
    CHECK_FALSE(m.report.pass());
  }
  // A finding of the merge base, kept on both sides: BASE's, reported for the merged tree only.
  FileMap broken = base;
  test::replace_once(broken[test::k_example_ledger], "Issue: none", "Issue: not-a-ref");
  SECTION("a finding BASE has too is BASE's: pre-existing, it fails only the whole-tree gate") {
    const Merged m = trial(broken, test::prepend_log(broken, k_ours_entry), test::prepend_log(broken, k_theirs_entry));
    CHECK(m.report.checked);
    CHECK(count_rev(m.report, "merged") > 0);
    CHECK(count_rev(m.report, "HEAD") == 0);
    for (const auto& f : m.report.findings) CHECK(f.state == lg::diag::FindingState::pre_existing);
    CHECK(m.report.pass());
    merge::TrialMergeOptions all;
    all.gate = lg::diag::Gate::all;
    const Merged whole = trial(broken, test::prepend_log(broken, k_ours_entry), test::prepend_log(broken, k_theirs_entry), all);
    CHECK_FALSE(whole.report.pass());
  }
  SECTION("a finding the merge base had and BASE fixed since is not the branch's, but fails the whole-tree gate") {
    FileMap theirs = broken;
    test::replace_once(theirs[k_runs_ledger], "## Log\n\n", "## Log\n\n- 2026-09-03 — note — theirs\n");
    const Merged m = trial(broken, base, theirs);
    CHECK(m.report.checked);
    CHECK(count_rev(m.report, "merged") == 0);
    CHECK(count_rev(m.report, "HEAD") == 0);
    CHECK(m.report.pass());
    merge::TrialMergeOptions all;
    all.gate = lg::diag::Gate::all;
    const Merged whole = trial(broken, base, theirs, all);
    CHECK(count_rev(whole.report, "HEAD") > 0);
    CHECK_FALSE(whole.report.pass());
  }
}

// The retry's cost, for the README's figure (hidden: `ledgergate_unit_tests
// "[.bench]"`): the merge step of one resolved ledger, with the retry and
// without (`merge: git`), in the same trial repository setup.
TEST_CASE("trial merge: the record merge's retry per resolved file", "[.bench][merge][trial_merge]") {
  FileMap base = test::example_ledger_files();
  const int older = GENERATE(0, 1000);  // log entries below the example's (a long-lived ledger)
  for (int i = 0; i < older; ++i) base[test::k_example_ledger] += "- 2026-08-01 — note — older entry " + std::to_string(i) + "\n";
  test::TempDir dir;
  const git_oid b = test::commit_tree(dir.path(), base, "base");
  const git_oid o = test::commit_tree(dir.path(), test::prepend_log(base, k_ours_entry), "ours", &b, "refs/heads/main");
  const git_oid t = test::commit_tree(dir.path(), test::prepend_log(base, k_theirs_entry), "theirs", &b, "refs/heads/branch");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto mean_us = [&](policy::LedgerMerge mode) {
    constexpr int k_runs = 300;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < k_runs; ++i) {
      auto trial_repo = git::TrialRepo::open(*repo);
      REQUIRE(trial_repo);
      auto r = merge::trial_merge(*repo, *trial_repo, test::id_of(o), test::id_of(t), {false, "", mode});
      REQUIRE(r);
      REQUIRE(r->resolved.size() == (mode == policy::LedgerMerge::records ? 1u : 0u));
    }
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / k_runs;
  };
  const double git = mean_us(policy::LedgerMerge::git), records = mean_us(policy::LedgerMerge::records);
  const FileMap ours = test::prepend_log(base, k_ours_entry), theirs = test::prepend_log(base, k_theirs_entry);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 300; ++i) {
    REQUIRE(merge::merge_records(merge::RecordFormat::cortex_project, base.at(test::k_example_ledger), ours.at(test::k_example_ledger),
                                 theirs.at(test::k_example_ledger)));
  }
  const double alone = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 300;
  WARN("merge_records alone: " << alone << " us");
  WARN(older << " older log entries: merge step " << git << " us with merge: git, " << records << " us with the retry (+" << records - git
                      << " us per resolved file)");
}
