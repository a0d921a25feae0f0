#include "ledgergate/ledger/project_ledger.hpp"

#include <catch2/catch.hpp>

using namespace lg::ledger;

namespace {
const char* k_good =
    "# demo \u2014 A short summary\n"
    "\n"
    "Project: demo\n"
    "Issue: demo#1\n"
    "\n"
    "## Now\n"
    "\n"
    "Working.\n"
    "\n"
    "## Runs\n"
    "\n"
    "- 12_[0-3] \u2014 running \u2014 ral \u2014 2026-09-01 \u2014 four seeds\n"
    "  second line\n"
    "\n"
    "## Log\n"
    "\n"
    "- 2026-09-02 \u2014 result \u2014 it worked\n"
    "  really\n"
    "- 2026-09-01 \u2014 run \u2014 12_[0-3] submitted: four seeds\n";
}

TEST_CASE("project ledger: parses title, header, sections, runs and log", "[ledger][project_ledger]") {
  const ProjectLedger l = parse_project_ledger(k_good);
  REQUIRE(l.title);
  CHECK(l.title->matches);
  CHECK(l.title->key == "demo");
  CHECK(l.title->summary == "A short summary");
  REQUIRE(l.header.size() == 2);
  CHECK(l.header_field("Project")->value == "demo");
  CHECK(l.header_field("Issue")->line == 4);
  CHECK(l.now == "Working.");
  REQUIRE(l.runs.size() == 1);
  CHECK(l.runs[0].ident == "12_[0-3]");
  CHECK(l.runs[0].text == "four seeds second line");
  CHECK(l.runs[0].line == 12);
  REQUIRE(l.log.size() == 2);
  CHECK(l.log[0].text == "it worked really");
  CHECK(l.problems.empty());
}

TEST_CASE("project ledger: the header is presence-based, first wins, no list items", "[ledger][project_ledger]") {
  const ProjectLedger l =
      parse_project_ledger("# k \u2014 s\nProject:\nIssue: a#1\n- item\nIssue: b#2\nlower: x\nState:x\n\n## Now\n");
  REQUIRE(l.header_field("Project"));
  CHECK(l.header_field("Project")->value.empty());
  CHECK(l.header_field("Issue")->value == "a#1");
  REQUIRE(l.header_dups.size() == 1);
  CHECK(l.header_dups[0].line == 5);
  CHECK(l.header.size() == 2);  // `State:x` has no space: not a header line
}

TEST_CASE("project ledger: the header must start within the first 12 lines", "[ledger][project_ledger]") {
  std::string text = "# k \u2014 s\n";
  for (int i = 0; i < 11; ++i) text += "prose\n";
  text += "Project: k\n";
  CHECK(parse_project_ledger(text).header.empty());
}

TEST_CASE("project ledger: orphans and unparsed lines are problems in line order", "[ledger][project_ledger]") {
  const ProjectLedger l = parse_project_ledger(
      "# k \u2014 s\n\n## Now\n\n## Runs\n  orphan\n- 1 \u2014 done \u2014 ral \u2014 2026-09-01 \u2014 x\n"
      "## Log\n- yesterday \u2014 note \u2014 x\n  cont\n");
  REQUIRE(l.problems.size() == 4);
  CHECK(l.problems[0].kind == ParseProblemKind::run_orphan);
  CHECK(l.problems[0].line == 6);
  CHECK(l.problems[1].kind == ParseProblemKind::run_unparsed);
  CHECK(l.problems[1].raw == "- 1 \u2014 done \u2014 ral \u2014 2026-09-01 \u2014 x");
  CHECK(l.problems[2].kind == ParseProblemKind::log_unparsed);
  CHECK(l.problems[3].kind == ParseProblemKind::log_orphan);
}

TEST_CASE("project ledger: a BOM hides the title and CRLF reads like LF", "[ledger][project_ledger]") {
  const ProjectLedger bom = parse_project_ledger("\xef\xbb\xbf# k \u2014 s\n");
  CHECK(bom.input.bom);
  CHECK_FALSE(bom.title.has_value());
  const ProjectLedger crlf = parse_project_ledger("# k \u2014 s\r\n\r\nProject: k\r\n");
  CHECK(crlf.input.cr_line == 1);
  CHECK(crlf.header_field("Project")->value == "k");
}

TEST_CASE("project ledger: fenced and repeated headings are recorded", "[ledger][project_ledger]") {
  const ProjectLedger l = parse_project_ledger("# k \u2014 s\n## Now\n```\n## Log\n```\n## Now\n");
  REQUIRE(l.sections.size() == 3);
  CHECK(l.sections[1].in_fence);
  CHECK_FALSE(l.sections[2].in_fence);
}

TEST_CASE("project ledger: run idents and issue refs follow the reference grammars", "[ledger][project_ledger]") {
  CHECK(is_run_ident("3002"));
  CHECK(is_run_ident("3002_1"));
  CHECK(is_run_ident("3002_[0-3,5,7-9]"));
  CHECK_FALSE(is_run_ident("3002_[3-1,]"));
  CHECK_FALSE(is_run_ident("3002_[0,,1]"));
  CHECK_FALSE(is_run_ident("3002_"));
  CHECK(is_issue_ref("none"));
  CHECK(is_issue_ref("none#5"));
  CHECK(is_issue_ref("https://github.com/a.b/c-d/issues/12"));
  CHECK_FALSE(is_issue_ref("https://github.com/a/b/pull/12"));
  CHECK_FALSE(is_issue_ref("https://github.com/a/b/issues/12/"));
}
