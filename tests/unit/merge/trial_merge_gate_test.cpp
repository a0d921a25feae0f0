// The trial merge judges the merged tree against BASE's: findings BASE
// already holds are pre-existing and do not fail it; a finding the branch
// brings (a second copy of an old one included) fails it; a finding the
// branch removes is fixed; a file the branch moves or renames keeps its
// findings; `gate: all` (BASE's policy, or the option) fails on every error;
// a baseline file BASE's policy names suppresses what it holds.
#include <catch2/catch.hpp>

#include "ledgergate/merge/trial_merge.hpp"
#include "support/fixture_tree.hpp"
#include "support/trial_merge.hpp"

using namespace lg;
using lg::test::FileMap;

namespace {

const std::string k_orl_path = "run/open-requirements.ledger.yml";
const std::string k_bad_line = "- 2026-09-05 — bogus — a log line that does not parse";

// The example ledger with an open-requirements file whose first entry has a
// bad status (orl-status), under a policy that makes run/ and later/ ledger
// dirs (so moving the file is a ledger-only change) and takes `extra` keys.
FileMap with_bad_orl(FileMap files, const std::string& path = k_orl_path, const std::string& extra = "") {
  files[".ledgergate.yaml"] = "ledger_dirs: [projects/, run/, later/]\n" + extra;
  std::string orl = test::read_file(std::string(LEDGERGATE_SOURCE_DIR) +
                                    "/fixtures/ledgers/open-requirements/run/open-requirements.ledger.yml");
  test::replace_once(orl, "  - id: mesh-gap\n    status: open\n", "  - id: mesh-gap\n    status: bogus\n");
  files[path] = orl;
  return files;
}

merge::TrialMergeReport trial(const FileMap& base, const FileMap& theirs, merge::TrialMergeOptions options = {}) {
  test::TempDir dir;
  return test::trial_merge_files(dir.path(), base, base, theirs, options);
}

std::size_t count(const merge::TrialMergeReport& r, diag::FindingState state) {
  return static_cast<std::size_t>(std::count_if(r.findings.begin(), r.findings.end(),
                                                [state](const diag::Finding& f) { return f.state == state; }));
}

}  // namespace

TEST_CASE("trial merge gate: BASE's findings are pre-existing; the branch's own fail it", "[merge][trial_merge][gate]") {
  const FileMap base = with_bad_orl(test::example_ledger_files());
  const FileMap logged = test::prepend_log(base, "- 2026-09-04 — note — a correct entry");
  SECTION("a ledger-only branch passes, BASE's error unchanged") {
    const auto r = trial(base, logged);
    CHECK(r.pass());
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].rule == "orl-status");
    CHECK(r.findings[0].state == diag::FindingState::pre_existing);
    CHECK(r.attribution.reference == "BASE");
    CHECK(r.attribution.gate == diag::Gate::introduced);
    CHECK(r.attribution.fixed.empty());
  }
  SECTION("--gate all, or BASE's `gate: all`, fails on it") {
    merge::TrialMergeOptions all;
    all.gate = diag::Gate::all;
    CHECK_FALSE(trial(base, logged, all).pass());
    const FileMap strict = with_bad_orl(test::example_ledger_files(), k_orl_path, "gate: all\n");
    CHECK_FALSE(trial(strict, test::prepend_log(strict, "- 2026-09-04 — note — a correct entry")).pass());
  }
  SECTION("a branch that fixes it passes and counts the fix") {
    FileMap fixed = test::prepend_log(base, "- 2026-09-04 — note — fixed");
    test::replace_once(fixed[k_orl_path], "    status: bogus\n", "    status: open\n");
    const auto r = trial(base, fixed);
    CHECK(r.pass());
    CHECK(r.findings.empty());
    REQUIRE(r.attribution.fixed.size() == 1);
    CHECK(r.attribution.fixed[0].rule == "orl-status");
    CHECK(r.attribution.fixed[0].location.rev == "BASE");
  }
  SECTION("a branch that adds an error fails on it alone") {
    const auto r = trial(base, test::prepend_log(base, k_bad_line));
    CHECK_FALSE(r.pass());
    CHECK(count(r, diag::FindingState::introduced) == 1);
    CHECK(count(r, diag::FindingState::pre_existing) == 1);
  }
}

TEST_CASE("trial merge gate: a second copy of an old finding is new", "[merge][trial_merge][gate]") {
  const FileMap base = test::prepend_log(test::example_ledger_files(), k_bad_line);
  const auto once = trial(base, test::prepend_log(base, "- 2026-09-06 — note — a correct entry"));
  CHECK(once.pass());
  CHECK(count(once, diag::FindingState::pre_existing) == 1);
  const auto twice = trial(base, test::prepend_log(base, k_bad_line));  // the same bad line again
  CHECK_FALSE(twice.pass());
  REQUIRE(twice.findings.size() == 2);
  CHECK(twice.findings[0].rule == "ledger-log-line-parses");
  CHECK(twice.findings[1].rule == "ledger-log-line-parses");
  CHECK(count(twice, diag::FindingState::pre_existing) == 1);
  CHECK(count(twice, diag::FindingState::introduced) == 1);
}

TEST_CASE("trial merge gate: a moved or renamed file keeps its findings", "[merge][trial_merge][gate]") {
  SECTION("moved to another folder, unchanged") {
    const FileMap base = with_bad_orl(test::example_ledger_files());
    FileMap moved = base;
    moved.erase(k_orl_path);
    moved["later/open-requirements.ledger.yml"] = base.at(k_orl_path);
    const auto r = trial(base, moved);
    CHECK(r.pass());
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].location.path == "later/open-requirements.ledger.yml");
    CHECK(r.findings[0].state == diag::FindingState::pre_existing);
    CHECK(r.attribution.fixed.empty());
  }
  SECTION("moved to another folder and edited") {
    const FileMap base = with_bad_orl(test::example_ledger_files());
    FileMap moved = base;
    moved.erase(k_orl_path);
    std::string text = base.at(k_orl_path);
    test::replace_once(text, "open_history: [2, 1]", "open_history: [2, 1, 1]");
    moved["later/open-requirements.ledger.yml"] = text;
    const auto r = trial(base, moved);
    CHECK(count(r, diag::FindingState::pre_existing) >= 1);
    CHECK(r.attribution.fixed.empty());
  }
  SECTION("renamed, the same content") {
    const FileMap base = with_bad_orl(test::example_ledger_files(), "run/alpha.ledger.yml",
                                      "open_requirements_glob: \"**/*.ledger.yml\"\n");
    FileMap renamed = base;
    renamed.erase("run/alpha.ledger.yml");
    renamed["run/beta.ledger.yml"] = base.at("run/alpha.ledger.yml");
    const auto r = trial(base, renamed);
    CHECK(r.pass());
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].location.path == "run/beta.ledger.yml");
    CHECK(r.findings[0].state == diag::FindingState::pre_existing);
    CHECK(r.attribution.fixed.empty());
  }
}

TEST_CASE("trial merge gate: a baseline file BASE's policy names suppresses what it holds",
          "[merge][trial_merge][gate]") {
  FileMap base = test::example_ledger_files();
  base[".ledgergate.yaml"] = "gate: all\nbaseline: .ledgergate-baseline\n";
  // The baseline of the one finding the branch below brings.
  FileMap theirs = test::prepend_log(base, k_bad_line);
  merge::TrialMergeOptions none;
  none.baseline = diag::Baseline::parse(std::string(diag::k_baseline_header) + "\n").value();
  const auto unsuppressed = trial(base, theirs, none);
  CHECK_FALSE(unsuppressed.pass());
  REQUIRE(unsuppressed.findings.size() == 1);
  base[".ledgergate-baseline"] = diag::Baseline::of(unsuppressed.findings).render();
  theirs[".ledgergate-baseline"] = base[".ledgergate-baseline"];
  const auto suppressed = trial(base, theirs);
  CHECK(suppressed.findings.empty());
  CHECK(suppressed.attribution.suppressed.size() == 1);
}
