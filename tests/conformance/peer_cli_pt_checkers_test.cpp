// The era-T/P1 `after:` checkers (support/peer_cli_pt.cpp) on a fixed
// before/after pair of a rule step: each holds where it should and fails
// where it should (the [!shouldfail] cases pass only when an assertion fails).
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>

#include "support/fixture_tree.hpp"
#include "support/peer_cli.hpp"

using lg::test::FileMap;

namespace {

const std::string k_task_before =
    "# Example — t\n\nProject: example\nSummary: s\nState: awaiting-ruling\nRuns: 1\n\n## Question\n\nq\n\n"
    "## Runs\n\n- 1: done — gpu — submitted 2026-09-01 — wall 1:00\n\n## Ruling\n\n(none)\n";
const std::string k_task_after =
    "# Example — t\n\nProject: example\nSummary: s\nState: accepted\nRuns: 1\nRuling: R-20260902-01\n\n"
    "## Question\n\nq\n\n## Runs\n\n- 1: done — gpu — submitted 2026-09-01 — wall 1:00\n\n## Ruling\n\n"
    "R-20260902-01 — accept\n";
const std::string k_ruling =
    "# R-20260902-01 — accept example t\n\nProject: example\nTask: tasks/example/t.md\nRuns: 1\nRuling: accept\n"
    "Batch: 2026-09-01-pm\nReviewed-at: 2026-09-02T10:30Z\n\n## Ruling\n\nAccept it.\n\n## Evidence\n\n- (none given)\n";

const FileMap k_before = {{"tasks/example/t.md", k_task_before}};
const FileMap k_after = {{"tasks/example/t.md", k_task_after}, {"rulings/2026/09/R-20260902-01.md", k_ruling}};

void check(const std::string& name, const std::string& value, const std::string& step_yaml = "{}",
           const FileMap& before = k_before) {
  const YAML::Node case_node = YAML::Load("{era: T}");
  const YAML::Node step_node = YAML::Load(step_yaml);
  const lg::test::CliCase c{case_node, "T", "/nonexistent", before, {k_after}};
  const lg::test::CliStep step{step_node, {"rule", "tasks/example/t.md"}, 0, "", "", before, k_after};
  const lg::test::AfterCheck* checker = lg::test::find_after_check(name);
  REQUIRE(checker != nullptr);
  (*checker)(YAML::Load(value), step, c);
}

const std::string k_rulings = R"({after: {rulings: {R-20260902-01: tasks/example/t.md}}})";

}  // namespace

TEST_CASE("peer cli T/P1 checkers hold on a matching tree", "[conformance][cli][harness]") {
  check("header", R"({tasks/example/t.md: {State: accepted, Ruling: R-20260902-01}})");
  check("header_startswith", R"({rulings/2026/09/R-20260902-01.md: {Reviewed-at: "2026-09-02T"}})");
  check("header_absent", R"({rulings/2026/09/R-20260902-01.md: [Supersedes]})");
  check("task_ruling_section_contains", R"({tasks/example/t.md: "R-20260902-01 — accept"})");
  check("rulings", R"({R-20260902-01: tasks/example/t.md})");
  check("each_ruling", R"({Batch: 2026-09-01-pm, Ruling: accept, body_contains: "Accept it."})", k_rulings);
  check("each_target_state", "accepted", k_rulings);
}

TEST_CASE("peer cli checker header fails on another value", "[conformance][cli][harness][!shouldfail]") {
  check("header", R"({tasks/example/t.md: {State: rerun}})");
}
TEST_CASE("peer cli checker header_absent fails on a present key", "[conformance][cli][harness][!shouldfail]") {
  check("header_absent", R"({rulings/2026/09/R-20260902-01.md: [Batch]})");
}
TEST_CASE("peer cli checker task_ruling_section_contains fails outside the section",
          "[conformance][cli][harness][!shouldfail]") {
  check("task_ruling_section_contains", R"({tasks/example/t.md: "## Question"})");
}
TEST_CASE("peer cli checker rulings fails on another target", "[conformance][cli][harness][!shouldfail]") {
  check("rulings", R"({R-20260902-01: tasks/example/other.md})");
}
TEST_CASE("peer cli checker each_ruling fails on another body", "[conformance][cli][harness][!shouldfail]") {
  check("each_ruling", R"({body_contains: "Reject it."})", k_rulings);
}
TEST_CASE("peer cli checker each_target_state fails on another state", "[conformance][cli][harness][!shouldfail]") {
  check("each_target_state", "dropped", k_rulings);
}
TEST_CASE("peer cli checker unchanged fails when the text after ## Ruling changed",
          "[conformance][cli][harness][!shouldfail]") {
  check("unchanged", R"("the text after `## Ruling` is identical")");
}
TEST_CASE("peer cli checker unchanged holds when only State: and Runs: changed", "[conformance][cli][harness]") {
  const std::string before = "# t\n\nProject: example\nState: ready\n\n## Runs\n\n## Ruling\n\n(none)\n";
  const YAML::Node case_node = YAML::Load("{era: T}");
  const YAML::Node step_node = YAML::Load("{}");
  const FileMap a = {{"tasks/example/t.md", before}};
  const FileMap b = {{"tasks/example/t.md", "# t\n\nProject: example\nState: submitted\nRuns: 1\n\n## Runs\n\n- 1: x\n"
                                            "\n## Ruling\n\n(none)\n"}};
  const lg::test::CliCase c{case_node, "T", "/nonexistent", a, {b}};
  const lg::test::CliStep step{step_node, {"move"}, 0, "", "", a, b};
  (*lg::test::find_after_check("unchanged"))(YAML::Load("x"), step, c);
}
