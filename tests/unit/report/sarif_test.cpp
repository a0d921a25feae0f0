#include "ledgergate/report/sarif.hpp"

#include <catch2/catch.hpp>

#include "ledgergate/diag/baseline.hpp"

using namespace lg;

namespace {
bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("sarif: every result is located, a tree-level finding on the root file", "[report][sarif]") {
  diag::Finding located;
  located.rule = "ledger-run-listed-once";
  located.location = {"HEAD", "projects/a b.md", 4, 2};
  located.message = "run 1 listed twice";
  diag::Finding tree_level;
  tree_level.rule = "audit-migration";
  tree_level.message = "";
  report::SarifRun run;
  run.command = "audit";
  run.exit_code = 1;
  run.results = {{&located, false, false, {}}, {&tree_level, true, false, {}}};
  const std::string log = report::render_sarif(run);
  CHECK(has(log, "\"uri\": \"projects/a%20b.md\", \"uriBaseId\": \"%SRCROOT%\"}, \"region\": {\"startLine\": 4, "
                 "\"startColumn\": 2}"));
  CHECK(has(log, "\"uri\": \"projects.yaml\", \"uriBaseId\": \"%SRCROOT%\"}, \"region\": {\"startLine\": 1}"));
  CHECK(has(log, "\"whole_tree\": true"));
  CHECK(has(log, "\"partialFingerprints\": {\"ledgergate/v1\": \"" + diag::fingerprint(located) + "\"}"));
  CHECK(has(log, "\"suppressions\": [{\"kind\": \"external\""));
  CHECK(has(log, "\"automationDetails\": {\"id\": \"ledgergate/audit/\"}"));
  CHECK(has(log, "\"invocations\": [{\"executionSuccessful\": true, \"exitCode\": 1}]"));
  // Every rule the results name is in the driver, with help, and its docs/rules.md section when the
  // build names its repository (else no link: it would lead nowhere).
  if (report::rules_doc_url().empty()) {
    CHECK(!has(log, "\"helpUri\""));
    CHECK(!has(log, "\"informationUri\""));
  } else {
    CHECK(has(log, "\"helpUri\": \"" + std::string(report::rules_doc_url()) + "#ledger-run-listed-once\""));
  }
  CHECK(has(log, "{\"id\": \"audit-migration\""));
  CHECK(has(log, "\"help\": {\"text\": "));
  CHECK(!has(log, "\"message\": {\"text\": \"\"}"));  // an empty message takes the rule's summary
}

TEST_CASE("sarif: a path cannot climb out of the checkout or be absolute", "[report][sarif]") {
  diag::Finding f;
  f.rule = "input-unreadable";
  f.location = {"", "/x/../../projects/./y.md", 0, 0};
  f.message = "m";
  report::SarifRun run;
  run.command = "check";
  run.results = {{&f, false, false, {}}};
  CHECK(has(report::render_sarif(run), "\"uri\": \"x/projects/y.md\""));
}

TEST_CASE("sarif: a command that could not run writes a log that says so", "[report][sarif]") {
  const std::string log = report::render_sarif_error("trial-merge", "no such revision: nope");
  CHECK(has(log, "\"executionSuccessful\": false, \"exitCode\": 2, \"toolExecutionNotifications\": [{\"level\": "
                 "\"error\", \"message\": {\"text\": \"no such revision: nope\"}"));
  CHECK(has(log, "\"results\": []"));
  CHECK(has(log, "\"automationDetails\": {\"id\": \"ledgergate/trial-merge/\"}"));
}

TEST_CASE("sarif: a rule's help is explain's why, examples and fix, not its summary again", "[report][sarif]") {
  diag::Finding f;
  f.rule = "ledger-issue-grammar";
  f.location = {"HEAD", "projects/x.md", 4, 0};
  f.message = "`Issue:` must be Repo#N";
  report::SarifRun run;
  run.command = "check";
  run.results = {{&f, false, false, {}}};
  const std::string log = report::render_sarif(run);
  CHECK(has(log, "\"help\": {\"text\": \"Bad (in projects/example.md of the R-skeleton ledger):"));
  CHECK(has(log, "Fix: Write `Issue:` as Repo#N, an issue URL or `none`."));
  CHECK(has(log, "```text\\nIssue: nonsense\\n```"));
}

TEST_CASE("sarif: a change's results carry their baselineState, a fixed finding is absent", "[report][sarif][gate]") {
  diag::Finding introduced;
  introduced.rule = "ledger-issue-grammar";
  introduced.location = {"merged", "projects/a.md", 4, 0};
  introduced.message = "bad";
  introduced.state = diag::FindingState::introduced;
  diag::Finding old = introduced;
  old.location.path = "projects/b.md";
  old.state = diag::FindingState::pre_existing;
  diag::Attribution change;
  change.gate = diag::Gate::introduced;
  diag::Finding gone = old;
  gone.location.path = "projects/c.md";
  gone.state = diag::FindingState::unjudged;
  change.fixed = {gone};
  const std::vector<diag::Finding> findings = {introduced, old};
  report::SarifRun run;
  run.command = "trial-merge";
  report::add_change_results(run, findings, change);
  const std::string log = report::render_sarif(run);
  CHECK(has(log, "\"baselineState\": \"new\""));
  CHECK(has(log, "\"baselineState\": \"unchanged\""));
  CHECK(has(log, "{\"ruleId\": \"ledger-issue-grammar\", \"ruleIndex\": 0, \"kind\": \"pass\", \"level\": \"none\", "
                 "\"message\": {\"text\": \"fixed by this change: bad\"}"));
  CHECK(has(log, "\"baselineState\": \"absent\""));
}
