// The trial merge's ruling detectors on tasks-era trees (the shared tasks
// skeleton): the id race, the chain fork, the dangling reference — each with
// a merge that must trip it and one that must not.
#include <catch2/catch.hpp>

#include "ledgergate/git/trial_repo.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "support/fixture_tree.hpp"
#include "support/trial_merge.hpp"

using namespace lg;
using lg::test::FileMap;

namespace {

FileMap skeleton() { return test::read_tree(test::data_dir() + "/corpus/cortex-fixtures/tasks-skeleton"); }

std::string ruling(const std::string& id, const std::string& task, const std::string& verb, const std::string& title,
                   const std::string& supersedes = "") {
  return "# " + id + " — " + title + "\n\nProject: example\nTask: tasks/example/" + task + ".md\nRuling: " + verb +
         "\n" + (supersedes.empty() ? "" : "Supersedes: " + supersedes + "\n") +
         "\n## Ruling\n\n" + verb + ".\n\n## Evidence\n\n- x\n";
}


std::vector<merge::SemanticConflict> semantic(const FileMap& base, const FileMap& ours, const FileMap& theirs) {
  test::TempDir dir;
  return test::trial_merge_files(dir.path(), base, ours, theirs).semantic;
}

std::vector<std::string> kinds(const std::vector<merge::SemanticConflict>& s) {
  std::vector<std::string> out;
  for (const auto& c : s) out.push_back(c.kind);
  return out;
}

}  // namespace

TEST_CASE("ruling detectors: one id assigned on both sides", "[merge][ruling_semantic]") {
  const FileMap base = skeleton();
  FileMap ours = base, theirs = base;
  const std::string path = "rulings/2026/09/R-20260902-01.md";
  ours[path] = ruling("R-20260902-01", "07_awaiting_ruling", "accept", "accept example 07");
  theirs[path] = ruling("R-20260902-01", "06_pulled", "drop", "drop example 06");
  const auto race = semantic(base, ours, theirs);
  REQUIRE(kinds(race) == std::vector<std::string>{"ruling-id-assigned-twice"});
  CHECK(race[0].path == path);
  CHECK_THAT(race[0].message, Catch::Contains("ruling id R-20260902-01 assigned on both sides") &&
                                  Catch::Contains("BASE \xE2\x80\x9CR-20260902-01 — accept example 07\xE2\x80\x9D") &&
                                  Catch::Contains("HEAD \xE2\x80\x9CR-20260902-01 — drop example 06\xE2\x80\x9D") &&
                                  Catch::Contains("the next free id of 2026-09-02 across both sides is R-20260902-02"));
  // The next free id skips what either side holds that day.
  theirs["rulings/2026/09/R-20260902-02.md"] = ruling("R-20260902-02", "09_rerun", "drop", "drop 09");
  CHECK_THAT(semantic(base, ours, theirs)[0].message, Catch::Contains("is R-20260902-03"));

  // Not a race: the same ruling filed byte for byte on both sides, or two ids.
  FileMap same = base;
  same[path] = ours[path];
  CHECK(kinds(semantic(base, ours, same)).empty());
  FileMap other = base;
  other["rulings/2026/09/R-20260902-02.md"] = ruling("R-20260902-02", "06_pulled", "drop", "drop example 06");
  CHECK(kinds(semantic(base, ours, other)).empty());
}

TEST_CASE("ruling detectors: a chain becomes a tree", "[merge][ruling_semantic]") {
  const FileMap base = skeleton();  // R-20260901-01 is superseded by R-20260901-02
  FileMap ours = base, theirs = base;
  // One successor of the head per side.
  ours["rulings/2026/09/R-20260902-01.md"] = ruling("R-20260902-01", "08_accepted", "rerun", "rerun 08", "R-20260901-02");
  theirs["rulings/2026/09/R-20260902-02.md"] = ruling("R-20260902-02", "08_accepted", "drop", "drop 08", "R-20260901-02");
  const auto per_side = semantic(base, ours, theirs);
  REQUIRE(kinds(per_side) == std::vector<std::string>{"ruling-chain-fork"});
  CHECK_THAT(per_side[0].message, Catch::Contains("HEAD's R-20260902-02") &&
                                      Catch::Contains("supersedes R-20260901-02, which R-20260902-01 (added on BASE)"));
  // HEAD supersedes a ruling that already has a successor in the merge base.
  FileMap stale = base;
  stale["rulings/2026/09/R-20260902-01.md"] = ruling("R-20260902-01", "08_accepted", "rerun", "rerun 08", "R-20260901-01");
  const auto from_base = semantic(base, base, stale);
  REQUIRE(kinds(from_base) == std::vector<std::string>{"ruling-chain-fork"});
  CHECK_THAT(from_base[0].message, Catch::Contains("which R-20260901-02 (in the merge base, so on both sides)"));
  // A chain stays a chain: HEAD supersedes the head and BASE does not touch it.
  FileMap chain = base;
  chain["rulings/2026/09/R-20260902-01.md"] = ruling("R-20260902-01", "08_accepted", "rerun", "rerun 08", "R-20260901-02");
  CHECK(kinds(semantic(base, base, chain)).empty());
}

TEST_CASE("ruling detectors: a reference that dangles after the merge", "[merge][ruling_semantic]") {
  const FileMap base = skeleton();
  FileMap ours = base, theirs = base;
  ours.erase("rulings/2026/09/R-20260901-04.md");  // BASE removes a ruling …
  lg::test::replace_once(theirs["tasks/example/07_awaiting_ruling.md"], "    resumes: 342110\n",
          "    resumes: 342110\n    ruled: R-20260901-04\n");  // … HEAD starts citing it
  const auto dangling = semantic(base, ours, theirs);
  REQUIRE(kinds(dangling) == std::vector<std::string>{"ruling-ref-dangles"});
  CHECK(dangling[0].message ==
        "HEAD's tasks/example/07_awaiting_ruling.md cites ruled: (run 342120_[5-9]) R-20260901-04, which BASE removed "
        "(rulings/2026/09/R-20260901-04.md): it dangles after the merge");
  // The other way round: BASE cites what HEAD removed.
  const auto reverse = semantic(base, theirs, ours);
  REQUIRE(kinds(reverse) == std::vector<std::string>{"ruling-ref-dangles"});
  CHECK_THAT(reverse[0].message, Catch::StartsWith("BASE's tasks/example/07_awaiting_ruling.md") &&
                                     Catch::Contains("which HEAD removed"));
  // The cited ruling survives the merge: nothing dangles.
  CHECK(kinds(semantic(base, base, theirs)).empty());
}

TEST_CASE("ruling detectors: the phases era too, and never an era-R tree", "[merge][ruling_semantic]") {
  const FileMap phases = test::read_tree(test::data_dir() + "/corpus/cortex-fixtures/phases-skeleton");
  FileMap ours = phases, theirs = phases;
  const std::string path = "rulings/2026/09/R-20260902-01.md";
  ours[path] = "# R-20260902-01 — accept example phase 7\n\nProject: example\nPhase: phases/example/07.md\nRuling: accept\n";
  theirs[path] = "# R-20260902-01 — drop example phase 6\n\nProject: example\nPhase: phases/example/06.md\nRuling: drop\n";
  const auto race = semantic(phases, ours, theirs);
  REQUIRE(kinds(race) == std::vector<std::string>{"ruling-id-assigned-twice"});
  CHECK_THAT(race[0].message, Catch::Contains("accept example phase 7") && Catch::Contains("drop example phase 6"));

  // An era-R tree: a rulings/ folder is nobody's ledger there, no ruling detector runs.
  const FileMap r = {{"projects.yaml", "a:\n  status: active\n"}, {"projects/a.md", "# a — x\n\nProject: a\nIssue: none\n"}};
  FileMap r_ours = r, r_theirs = r;
  r_ours[path] = ours[path];
  r_theirs[path] = theirs[path];
  CHECK(kinds(semantic(r, r_ours, r_theirs)).empty());
}
