#include "ledgergate/report/land.hpp"

#include <catch2/catch.hpp>

using namespace lg;

TEST_CASE("land: every step is in the JSON document, strings escaped", "[land]") {
  land::LandReport r;
  r.options.branch = "claude/\"q\"";
  r.options.mode = land::Mode::merge;
  r.outcome = land::Outcome::left_for_human;
  r.head = "abc";
  r.attempts = 1;
  land::Step s{"trial-merge", 1, land::StepStatus::fail, "conflicts",
                {{{"projects/x.md", merge::ConflictKind::content}}, {}, {}}, {}};
  diag::Finding f;
  f.rule = "ledger-run-listed-once";
  f.location = {"merged", "projects/x.md", 4, 0};
  f.message = "run 1 listed twice";
  s.findings.push_back(f);
  r.steps.push_back(s);
  const std::string json = report::render_land_json(r);
  CHECK(json.rfind("{\"schema\": \"ledgergate-land/2\", \"verdict\": \"fail\", \"outcome\": \"left-for-human\", "
                   "\"exit\": 1, \"branch\": \"claude/\\\"q\\\"\"",
                   0) == 0);
  CHECK(json.find("\"mode\": \"merge\"") != std::string::npos);
  CHECK(json.find("\"merge_commit\": null") != std::string::npos);
  CHECK(json.find("{\"step\": \"trial-merge\", \"attempt\": 1, \"status\": \"fail\", \"message\": \"conflicts\", "
                  "\"details\": [\"conflict (content): projects/x.md\"], \"findings\": [") != std::string::npos);
  CHECK(json.find("\"rule\": \"ledger-run-listed-once\"") != std::string::npos);
  const std::string text = report::render_land_text(r);
  CHECK(text.find("trial-merge [1]: fail: conflicts\n  conflict (content): projects/x.md\n"
                  "  merged:projects/x.md:4: error: run 1 listed twice [ledger-run-listed-once]\n") !=
        std::string::npos);
  CHECK(text.substr(text.rfind('\n', text.size() - 2) + 1) == "left for a human: claude/\"q\"\n");
  const std::string gh = report::render_land_github(r);
  CHECK(gh.find("::error file=projects/x.md,line=4,title=ledger-run-listed-once::merged: run 1 listed twice\n") !=
        std::string::npos);
  CHECK(gh.find("::warning title=ledgergate land::left for a human") != std::string::npos);
  CHECK(report::render_land_markdown(r).find("| trial-merge [1] | fail | conflicts; conflict (content): projects/x.md; "
                                             "projects/x.md:4: run 1 listed twice [ledger-run-listed-once] |") !=
        std::string::npos);
}
