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
  run.results = {{&located, false, {}}, {&tree_level, true, {}}};
  const std::string log = report::render_sarif(run);
  CHECK(has(log, "\"uri\": \"projects/a%20b.md\", \"uriBaseId\": \"%SRCROOT%\"}, \"region\": {\"startLine\": 4, "
                 "\"startColumn\": 2}"));
  CHECK(has(log, "\"uri\": \"projects.yaml\", \"uriBaseId\": \"%SRCROOT%\"}, \"region\": {\"startLine\": 1}"));
  CHECK(has(log, "\"whole_tree\": true"));
  CHECK(has(log, "\"partialFingerprints\": {\"ledgergate/v1\": \"" + diag::fingerprint(located) + "\"}"));
  CHECK(has(log, "\"suppressions\": [{\"kind\": \"external\""));
  CHECK(has(log, "\"automationDetails\": {\"id\": \"ledgergate/audit/\"}"));
  CHECK(has(log, "\"invocations\": [{\"executionSuccessful\": true, \"exitCode\": 1}]"));
  // Every rule the results name is in the driver, with help and its docs/rules.md anchor.
  CHECK(has(log, "\"helpUri\": \"" + std::string(report::k_rules_doc_url) + "#ledger-run-listed-once\""));
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
  run.results = {{&f, false, {}}};
  CHECK(has(report::render_sarif(run), "\"uri\": \"x/projects/y.md\""));
}

TEST_CASE("sarif: a command that could not run writes a log that says so", "[report][sarif]") {
  const std::string log = report::render_sarif_error("trial-merge", "no such revision: nope");
  CHECK(has(log, "\"executionSuccessful\": false, \"exitCode\": 2, \"toolExecutionNotifications\": [{\"level\": "
                 "\"error\", \"message\": {\"text\": \"no such revision: nope\"}"));
  CHECK(has(log, "\"results\": []"));
  CHECK(has(log, "\"automationDetails\": {\"id\": \"ledgergate/trial-merge/\"}"));
}
