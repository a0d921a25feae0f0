// The era-R `after:` checkers (support/peer_cli_r.cpp) on a fixed tree: each
// holds where it should, and fails where it should.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>

#include "support/fixture_tree.hpp"
#include "support/peer_cli.hpp"

using lg::test::FileMap;

namespace {

const std::string k_example = lg::test::example_ledger(
    "Pulled.\nNext: compare.\n",
    "- 3002 — running — ral — 2026-09-01 — wave 2\n- 3003 — open — gpu — 2026-09-02 — joint fit\n  chained\n",
    "- 2026-09-03 — lesson — the sigma\n- 2026-09-02 — note — hi\n");
const std::string k_single =
    "# single — B\n\nProject: single\nIssue: none\n\n## Now\n\nx\n\n## Runs\n\n- 77 — open — ral — 2026-09-03 — first\n\n"
    "## Log\n\n- 2026-09-03 — note — retired: never started\n";
const FileMap k_tree = {{"projects.yaml", "single:\n  status: retired\n  note: \"retired 2026-09-03: never started\"\n"},
                        {"projects/example.md", k_example},
                        {"projects/single.md", k_single}};

void check(const std::string& name, const std::string& value) {
  const YAML::Node case_node = YAML::Load("{era: R}");
  const YAML::Node step_node = YAML::Load("{}");
  const lg::test::CliCase c{case_node, "R", "/nonexistent", k_tree, {k_tree}};
  const lg::test::CliStep step{step_node, {"log", "example"}, 0, "", "", k_tree, k_tree};
  const lg::test::AfterCheck* checker = lg::test::find_after_check(name);
  REQUIRE(checker != nullptr);
  (*checker)(YAML::Load(value), step, c);
}

}  // namespace

TEST_CASE("era-R peer cli checkers hold on a matching tree", "[conformance][cli][harness]") {
  check("runs_idents", R"(["3002", "3003"])");
  check("last_run", "{state: open, partition: gpu}");
  check("runs1_state", "open");
  check("single_runs0_partition", "ral");
  check("log0", R"({kind: lesson, date: "2026-09-03", text: the sigma})");
  check("log0_text", "the sigma");
  check("log0_text_startswith", "the s");
  check("log0_kind", "lesson");
  check("log0_date", "2026-09-03");
  check("log_len", "2");
  check("now", R"("Pulled.\nNext: compare.")");
  check("single_log0_text", R"("retired: never started")");
  check("row_single", R"({status: retired, note: "retired 2026-09-03: never started"})");
}

// One case per checker: a [!shouldfail] case passes when any assertion fails.
TEST_CASE("runs_idents fails on other runs", "[conformance][cli][harness][!shouldfail]") { check("runs_idents", R"(["3003"])"); }
TEST_CASE("last_run fails on another state", "[conformance][cli][harness][!shouldfail]") { check("last_run", "{state: running}"); }
TEST_CASE("runs1_state fails on another state", "[conformance][cli][harness][!shouldfail]") { check("runs1_state", "running"); }
TEST_CASE("log0 fails on another kind", "[conformance][cli][harness][!shouldfail]") { check("log0", "{kind: note}"); }
TEST_CASE("log0_text_startswith fails on another head", "[conformance][cli][harness][!shouldfail]") {
  check("log0_text_startswith", "hi");
}
TEST_CASE("log_len fails on another length", "[conformance][cli][harness][!shouldfail]") { check("log_len", "3"); }
TEST_CASE("now fails on another text", "[conformance][cli][harness][!shouldfail]") { check("now", "Pulled."); }
TEST_CASE("row_ fails on another status", "[conformance][cli][harness][!shouldfail]") {
  check("row_single", "{status: active}");
}
