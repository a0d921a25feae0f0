#include "ledgergate/report/land.hpp"
#include "ledgergate/report/trial_merge.hpp"
#include "ledgergate/report/sarif.hpp"

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
  CHECK(text.substr(text.rfind('\n', text.size() - 2) + 1) ==
        "left for a human: claude/\"q\" (1 attempt, waited 0s)\n");
  const std::string gh = report::render_land_github(r);
  CHECK(gh.find("::error file=projects/x.md,line=4,title=ledger-run-listed-once::merged: run 1 listed twice\n") !=
        std::string::npos);
  CHECK(gh.find("::warning title=ledgergate land::left for a human") != std::string::npos);
  CHECK(report::render_land_markdown(r).find("| trial-merge [1] | fail | conflicts; conflict (content): projects/x.md; "
                                             "projects/x.md:4: run 1 listed twice [ledger-run-listed-once] |") !=
        std::string::npos);
}

TEST_CASE("land: the reports say how many attempts it took and how long it waited", "[land]") {
  land::LandReport r;
  r.options.branch = "claude/note";
  r.options.mode = land::Mode::merge;
  r.outcome = land::Outcome::landed;
  r.merge_commit = "0155ae304e0a1111111111111111111111111111";
  r.attempts = 3;
  r.waited_ms = 1'440;
  r.lease_taken = true;
  const std::string json = report::render_land_json(r);
  CHECK(json.find("\"attempts\": 3, \"waited_ms\": 1440, \"lease_taken\": true, \"branch_deleted\": false") !=
        std::string::npos);
  const std::string text = report::render_land_text(r);
  CHECK(text.substr(text.rfind('\n', text.size() - 2) + 1) ==
        "landed: claude/note is in main at 0155ae304e0a (3 attempts, waited 1.4s, in turn)\n");
  CHECK(report::render_land_markdown(r).find("(3 attempts, waited 1.4s, in turn)") != std::string::npos);
  // Audit mode never waits: no pacing in its summary.
  r.options.mode = land::Mode::audit;
  r.outcome = land::Outcome::would_land;
  r.attempts = 1;
  r.waited_ms = 0;
  r.lease_taken = false;
  const std::string audit = report::render_land_text(r);
  CHECK(audit.substr(audit.rfind('\n', audit.size() - 2) + 1) ==
        "would land: claude/note passes every check (audit mode)\n");
  CHECK(report::render_land_json(r).find("\"waited_ms\": 0, \"lease_taken\": false") != std::string::npos);
}

TEST_CASE("land --format sarif: a step's conflicts are located results, before its check findings", "[land][sarif]") {
  land::LandReport r;
  r.options.branch = "claude/x";
  r.outcome = land::Outcome::left_for_human;
  land::Step s{"trial-merge", 2, land::StepStatus::fail, "conflicts",
               {{{"projects/x.md", merge::ConflictKind::rename_delete, "projects/old.md"}}, {},
                {{"run-added-twice", "projects/y.md", "run 7 is added on both sides"}}, {}},
               {}};
  r.steps.push_back(s);
  const std::string sarif = report::render_land_sarif(r);
  const std::size_t conflict = sarif.find("{\"ruleId\": \"merge-conflict\", \"ruleIndex\": 0, \"level\": \"error\", "
                                          "\"message\": {\"text\": \"the trial merge conflicts here (rename/delete), "
                                          "renamed from projects/old.md\"}, \"locations\": [{\"physicalLocation\": "
                                          "{\"artifactLocation\": {\"uri\": \"projects/x.md\"");
  CHECK(conflict != std::string::npos);
  const std::size_t semantic = sarif.find("{\"ruleId\": \"merge-semantic-conflict\", \"ruleIndex\": 1, \"level\": "
                                          "\"error\", \"message\": {\"text\": \"run 7 is added on both sides "
                                          "(run-added-twice)\"}, \"locations\": [{\"physicalLocation\": "
                                          "{\"artifactLocation\": {\"uri\": \"projects/y.md\"");
  CHECK(semantic != std::string::npos);
  CHECK(conflict < semantic);
  CHECK(sarif.find("\"properties\": {\"rev\": \"merged\", \"step\": \"trial-merge\", \"attempt\": 2}") !=
        std::string::npos);
  // The rule's docs/rules.md section when the build names its repository, else no link.
  if (report::rules_doc_url().empty()) {
    CHECK(sarif.find("\"helpUri\"") == std::string::npos);
  } else {
    CHECK(sarif.find("\"helpUri\": \"" + report::rule_help_uri("merge-conflict") + "\"") != std::string::npos);
  }
}

TEST_CASE("trial-merge --format sarif: no conflict, no merge result", "[sarif]") {
  CHECK(report::merge_findings({}, {}).empty());
  const auto found = report::merge_findings({{"a b.md", merge::ConflictKind::content}}, {});
  REQUIRE(found.size() == 1);
  CHECK(found[0].rule == "merge-conflict");
  CHECK(found[0].location.path == "a b.md");
  CHECK(found[0].message == "the trial merge conflicts here (content)");
}
