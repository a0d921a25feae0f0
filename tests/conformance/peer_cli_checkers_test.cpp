// The cli harness's generic `after:` checkers (support/peer_cli.hpp) on a
// fixed before/after pair: each holds where it should, and each fails where
// it should (the [!shouldfail] cases pass only when an assertion fails).
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>

#include "support/fixture_tree.hpp"
#include "support/peer_cli.hpp"

using lg::test::FileMap;

namespace {

const std::string k_runs = "- 3003 — open — gpu — 2026-09-02 — joint fit\n";
const std::string k_ledger_before = lg::test::example_ledger("old\n", k_runs, "- 2026-09-02 — note — hi\n");
const std::string k_ledger_after = lg::test::example_ledger("new\n", k_runs, "- 2026-09-02 — note — hi\n");

const FileMap k_before = {{"projects.yaml", "example:\n  status: active\n  note: \"x\"\n"},
                          {"projects/example.md", k_ledger_before},
                          {"tasks/example/01_scope.md", "# t\n"}};
const FileMap k_after = {{"projects.yaml", "example:\n  status: retired\n  note: \"retired: y\"\n"},
                         {"projects/example.md", k_ledger_after},
                         {"tasks/example/01_scope.md", "# t\n"}};

// Runs checker `name` with the YAML `value` on the step `now argv1` that
// turned k_before into k_after; `step_yaml` is the step's node.
void check(const std::string& name, const std::string& value, const std::string& step_yaml = "{}") {
  const YAML::Node case_node = YAML::Load("{era: R}");
  const YAML::Node step_node = YAML::Load(step_yaml);
  const lg::test::CliCase c{case_node, "R", "/nonexistent", k_before, {k_after}};
  const lg::test::CliStep step{step_node, {"now", "example"}, 0, "", "", k_before, k_after};
  const lg::test::AfterCheck* checker = lg::test::find_after_check(name);
  REQUIRE(checker != nullptr);
  (*checker)(YAML::Load(value), step, c);
}

const std::string k_retired_lines = R"({after: {projects_yaml_contains_lines: ["  status: retired", "  note: \"retired: y\""]}})";

}  // namespace

TEST_CASE("peer cli checkers hold on a matching tree", "[conformance][cli][harness]") {
  check("file_equals", R"({tasks/example/01_scope.md: "# t\n"})");
  check("derived_file_equals", R"({tasks/example/01_scope.md: "# t\n"})");
  check("file_startswith", R"({projects/example.md: "# example — "})");
  check("file_contains", R"({projects/example.md: ["## Now\n\nnew\n", "joint fit"]})");
  check("file_count", R"({projects/example.md: {"—": 7}})");
  check("absent", "[tasks/example/02.md]");
  check("no_files_matching", "tasks/example/02*");
  check("projects_yaml_count", R"({"status: retired": 1})");
  check("projects_yaml_contains_lines", R"(["  status: retired"])");
  check("projects_yaml_not_contains", R"(["status: active"])");
  check("projects_yaml_line_diff",
        R"([["  status: active", "  status: retired"], ["  note: \"x\"", "  note: \"retired: y\""]])");
  check("projects_yaml_other_lines_unchanged", "true", k_retired_lines);
  check("file_equals_original_with", R"({file: projects/example.md, replace: "\nold\n", by: "\nnew\n"})");
  check("file_unchanged_since_step1", "projects/example.md");
  check("tasks_unchanged", "[01_scope.md]");
  check("runs_unchanged", "true");
  check("log_len_unchanged", "true");
}

TEST_CASE("peer cli checker file_equals fails on other bytes", "[conformance][cli][harness][!shouldfail]") {
  check("file_equals", R"({tasks/example/01_scope.md: "# t"})");
}
TEST_CASE("peer cli checker file_contains fails on a missing needle", "[conformance][cli][harness][!shouldfail]") {
  check("file_contains", R"({projects/example.md: ["old"]})");
}
TEST_CASE("peer cli checker file_startswith fails on another start", "[conformance][cli][harness][!shouldfail]") {
  check("file_startswith", R"({projects/example.md: "# other"})");
}
TEST_CASE("peer cli checker absent fails on a present file", "[conformance][cli][harness][!shouldfail]") {
  check("absent", "[tasks/example/01_scope.md]");
}
TEST_CASE("peer cli checker no_files_matching fails on a match", "[conformance][cli][harness][!shouldfail]") {
  check("no_files_matching", "tasks/*/01_*.md");
}
TEST_CASE("peer cli checker projects_yaml_count fails on another count", "[conformance][cli][harness][!shouldfail]") {
  check("projects_yaml_count", R"({"status:": 2})");
}
TEST_CASE("peer cli checker projects_yaml_contains_lines wants whole lines", "[conformance][cli][harness][!shouldfail]") {
  check("projects_yaml_contains_lines", R"(["status: retired"])");
}
TEST_CASE("peer cli checker projects_yaml_line_diff fails on a missing pair", "[conformance][cli][harness][!shouldfail]") {
  check("projects_yaml_line_diff", R"([["  status: active", "  status: retired"]])");
}
TEST_CASE("peer cli checker projects_yaml_other_lines_unchanged fails on an unnamed change",
          "[conformance][cli][harness][!shouldfail]") {
  check("projects_yaml_other_lines_unchanged", "true", R"({after: {projects_yaml_contains_lines: ["  status: retired"]}})");
}
TEST_CASE("peer cli checker projects_yaml_unchanged fails on a change", "[conformance][cli][harness][!shouldfail]") {
  check("projects_yaml_unchanged", "true");
}
TEST_CASE("peer cli checker file_equals_original_with fails on another replacement",
          "[conformance][cli][harness][!shouldfail]") {
  check("file_equals_original_with", R"({file: projects/example.md, replace: "\nold\n", by: "\nother\n"})");
}
TEST_CASE("peer cli checker log_len_unchanged fails when the log grew", "[conformance][cli][harness][!shouldfail]") {
  // The step's before is k_before; compare against a ledger with one more entry.
  const YAML::Node case_node = YAML::Load("{era: R}");
  const YAML::Node step_node = YAML::Load("{}");
  FileMap after = k_after;
  after["projects/example.md"] += "- 2026-09-01 — note — older\n";
  const lg::test::CliCase c{case_node, "R", "/nonexistent", k_before, {after}};
  const lg::test::CliStep step{step_node, {"now", "example"}, 0, "", "", k_before, after};
  (*lg::test::find_after_check("log_len_unchanged"))(YAML::Load("true"), step, c);
}
TEST_CASE("peer cli checker file_unchanged_since_step1 fails on a file changed since", "[conformance][cli][harness][!shouldfail]") {
  const YAML::Node case_node = YAML::Load("{era: R}");
  const YAML::Node step_node = YAML::Load("{}");
  const lg::test::CliCase c{case_node, "R", "/nonexistent", k_before, {k_before}};
  const lg::test::CliStep step{step_node, {"now", "example"}, 0, "", "", k_before, k_after};
  (*lg::test::find_after_check("file_unchanged_since_step1"))(YAML::Load("projects/example.md"), step, c);
}
TEST_CASE("peer cli: an unregistered after key has no checker", "[conformance][cli][harness]") {
  CHECK(lg::test::find_after_check("no_such_key") == nullptr);
  CHECK(lg::test::find_after_check("check_clean") != nullptr);
}
