// A trial merge's findings, their states and their order do not depend on
// how many threads read the checked trees' ledgers.
#include <algorithm>

#include <catch2/catch.hpp>

#include "ledgergate/merge/trial_merge.hpp"
#include "support/fixture_tree.hpp"
#include "support/many_ledgers.hpp"
#include "support/trial_merge.hpp"

using namespace lg;
using lg::test::FileMap;

namespace {

void set_issue(FileMap& files, const std::string& key, const std::string& issue) {
  std::string& text = files.at("projects/" + key + ".md");
  const std::size_t at = text.find("\nIssue: ");
  REQUIRE(at != std::string::npos);
  const std::size_t end = text.find('\n', at + 1);
  text.replace(at + 1, end - at - 1, "Issue: " + issue);
}

}  // namespace

TEST_CASE("trial merge: the findings and their order do not depend on the thread count",
          "[merge][trial_merge][threads]") {
  // 1,100 ledgers (two chunks of the check), every seventh one's Issue bad:
  // main breaks p2; the branch breaks p5 (introduced), fixes p14 (fixed)
  // and deletes p1098, whose row stays active (introduced).
  const FileMap base = test::many_ledgers(1100);
  FileMap ours = base;
  set_issue(ours, "p2", "bad");
  FileMap theirs = base;
  set_issue(theirs, "p5", "bad");
  set_issue(theirs, "p14", "none");
  theirs.erase("projects/p1098.md");
  auto findings_on = [&](unsigned threads) {
    const test::CheckThreads set(threads);
    test::TempDir dir;
    const merge::TrialMergeReport r = test::trial_merge_files(dir.path(), base, ours, theirs);
    REQUIRE(r.checked);
    return test::whole_findings(r.findings) + "fixed:\n" + test::whole_findings(r.attribution.fixed);
  };
  const std::string alone = findings_on(1);
  // 158 drifted less p14, plus p2 and p5, and p1098's row; p14 fixed.
  CHECK(std::count(alone.begin(), alone.end(), '\n') == 157 + 2 + 1 + 1 + 1);
  CHECK(alone.find("projects/p5.md") != std::string::npos);
  CHECK(alone.find("ledger-active-has-ledger|") != std::string::npos);
  for (const unsigned threads : {2u, 4u, 0u}) {
    INFO("threads: " << threads);
    CHECK(findings_on(threads) == alone);
  }
}
