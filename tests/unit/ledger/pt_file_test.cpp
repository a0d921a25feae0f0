#include "ledgergate/ledger/pt_file.hpp"

#include <catch2/catch.hpp>

using namespace lg::ledger;

namespace {
const std::string k_em = "\xE2\x80\x94";
std::string run_line(const std::string& ident, const std::string& state, const std::string& tail = "") {
  return "- " + ident + ": " + state + " " + k_em + " gpu " + k_em + " submitted 2026-08-30 " + k_em + " wall 6:12" +
         tail;
}
}  // namespace

TEST_CASE("pt file: title is line 1 after `# `, stripped; anything else is no title", "[ledger][pt_file]") {
  CHECK(*parse_pt_file("#  Example \u2014 x  \n").title == "Example \u2014 x");
  CHECK_FALSE(parse_pt_file("#Title\n").title);
  CHECK_FALSE(parse_pt_file("\n# Title\n").title);
  CHECK_FALSE(parse_pt_file("\xEF\xBB\xBF# Title\n").title);  // a BOM stays part of line 1
}

TEST_CASE("pt file: the header's first occurrence wins, list items join, other lines are recorded as dropped",
          "[ledger][pt_file]") {
  const auto f = parse_pt_file(
      "# T\n\nProject: one\nGates:\n- A#1\n-  B#2 \nProject: two\n- C#3\nstate: ready\nState:ready\nWitness:\t\n\nBudget: 1:00\n");
  CHECK(f.header.first_line == 3);
  CHECK(f.header.last_line == 11);
  CHECK(f.header.value("Gates") == "A#1, B#2");
  CHECK(f.header.value("Project") == "one");
  CHECK(f.header.find("Witness") != nullptr);
  CHECK(f.header.value("Witness").empty());
  CHECK(f.header.find("Budget") == nullptr);  // after the blank line: body
  REQUIRE(f.header.duplicates.size() == 1);
  CHECK(f.header.duplicates[0].line == 7);
  // `- C#3` after a duplicate key has no owner; `state:` and `State:ready` are not header lines.
  REQUIRE(f.header.dropped.size() == 3);
  CHECK(f.header.dropped[0].line == 8);
  CHECK(f.header.dropped[1].value == "state: ready");
  CHECK(f.header.dropped[2].value == "State:ready");
}

TEST_CASE("pt file: the header may start on any of lines 2..30 and stops at line 30", "[ledger][pt_file]") {
  std::string text = "# T\n";
  for (int i = 0; i < 10; ++i) text += "prose\n";
  text += "Project: p\n";
  CHECK(parse_pt_file(text).header.value("Project") == "p");
  std::string late = "# T\n";
  for (int i = 0; i < 29; ++i) late += "prose\n";
  late += "Project: p\n";  // file line 31
  CHECK(parse_pt_file(late).header.first_line == 0);
}

TEST_CASE("pt file: sections are `## ` lines, first name wins, fences are recorded", "[ledger][pt_file]") {
  const auto f = parse_pt_file("# T\n\n## Runs\n\n```\n## Runs\n```\n### Sub\n## Where to look\n\n- (the output path, once there is one)\n");
  REQUIRE(f.sections.size() == 3);
  CHECK(f.sections[1].in_fence);
  CHECK(f.section("Runs")->line == 3);
  CHECK_FALSE(f.where_names_a_place);
  CHECK(parse_pt_file("# T\n## Where to look\n- `/mnt/x`\n").where_names_a_place);
  CHECK_FALSE(parse_pt_file("# T\n## Where to look\n-\n- \n  - /indented\n").where_names_a_place);
}

TEST_CASE("pt file: run lines, continuations and their problems in line order", "[ledger][pt_file]") {
  const std::string text = "# T\n\n## Runs\n\n    after: 1\n" + run_line("342091_[0-8,10]", "done") +
                           "\n    pulled_to: /a\n    pulled_to: /b\n" + run_line("342091_[5-3]", "legacy_wrong", " " +
                           k_em + " a note") + "\n- 7: failed -- gpu -- submitted 2026-08-30 -- wall 0:00\n- bad\n\n## Ruling\n";
  const auto f = parse_pt_file(text);
  REQUIRE(f.runs.size() == 3);
  CHECK(f.runs[0].ident == "342091_[0-8,10]");
  CHECK(f.runs[0].pulled_to == std::optional<std::string>("/b"));  // the last value wins
  CHECK(f.runs[1].state == "legacy_wrong");
  CHECK(f.runs[1].note == "a note");
  CHECK_FALSE(f.runs[1].ascending);
  CHECK(f.runs[2].state == "failed");  // ` -- ` reads as ` — `
  REQUIRE(f.problems.size() == 3);
  CHECK(f.problems[0].kind == PtProblemKind::orphan_continuation);
  CHECK(f.problems[0].line == 5);
  CHECK(f.problems[1].kind == PtProblemKind::not_ascending);
  CHECK(f.problems[1].text == "342091_[5-3]");
  CHECK(f.problems[2].kind == PtProblemKind::unparsed);
  CHECK(f.problems[2].text == "- bad");
  CHECK(f.body_stems() == std::vector<std::string>{"342091", "7"});
}

TEST_CASE("pt file: the run grammar follows RUN_LINE_RE exactly", "[ledger][pt_file]") {
  CHECK(match_pt_run_line(run_line("1", "legacy")));
  CHECK(match_pt_run_line(run_line("1_2", "void")));
  CHECK_FALSE(match_pt_run_line(run_line("1_", "done")));
  CHECK_FALSE(match_pt_run_line(run_line("1_[2,]", "done")));
  CHECK_FALSE(match_pt_run_line(run_line("1", "open")));
  CHECK_FALSE(match_pt_run_line(run_line("1", "done", " " + k_em + " ")));  // an empty note
  CHECK_FALSE(match_pt_run_line(run_line("1", "done", "0")));                // wall 6:120
  CHECK_FALSE(match_pt_continuation("    after:  "));
  CHECK(match_pt_continuation("    where: x ")->second == "x ");
  CHECK_FALSE(match_pt_continuation("    note: x"));
  // Unicode digits are \d: an Arabic-Indic stem parses, and its value is read as Python's int().
  const auto run = match_pt_run_line(run_line("1_[\u0663-\u0665]", "done"));
  REQUIRE(run);
  CHECK(run->tasks[0].lo.digits == "3");
  CHECK(run->tasks[0].hi.digits == "5");
}

TEST_CASE("pt file: task sets overlap on one stem; a bare stem overlaps everything", "[ledger][pt_file]") {
  auto run = [](const std::string& ident) { return *match_pt_run_line(run_line(ident, "done")); };
  CHECK(runs_overlap(run("1_[0-8,10]"), run("1_[7-9]")));
  CHECK_FALSE(runs_overlap(run("1_[0-4]"), run("1_[5-9]")));
  CHECK(runs_overlap(run("1"), run("1_3")));
  CHECK_FALSE(runs_overlap(run("1"), run("2")));
  CHECK_FALSE(runs_overlap(run("1_[5-3]"), run("1_4")));  // an inverted range is empty
  CHECK(runs_overlap(run("1_010"), run("1_10")));           // compared by value
}

TEST_CASE("pt file: reference grammars for refs, ruling ids, ruling paths and file paths", "[ledger][pt_file]") {
  CHECK(is_gate_ref("PyAutoArray#431"));
  CHECK(is_gate_ref("_x.y#1"));
  CHECK(is_gate_ref("https://github.com/o/r/pull/7"));
  CHECK_FALSE(is_gate_ref("o/r#1"));
  CHECK_FALSE(is_gate_ref("#1"));
  CHECK_FALSE(is_gate_ref("https://github.com/o/r/issues/7/"));
  CHECK(gate_url("https://github.com/o/pull/issues/7") == "https://github.com/o/pull/issues/7");
  CHECK(gate_url("https://github.com/o/r/pull/7") == "https://github.com/o/r/issues/7");
  CHECK(split_refs(" a, ,b ,") == std::vector<std::string>{"a", "b"});
  CHECK(is_ruling_id("R-20260901-01"));
  CHECK_FALSE(is_ruling_id("R-2026091-01"));
  CHECK(is_int_text("\u0661\u0662"));
  CHECK(is_wall_text("10:05"));
  CHECK_FALSE(is_wall_text("1:5"));
  const auto rp = match_ruling_path("rulings/2026/08/R-20260901-04.md");
  REQUIRE(rp);
  CHECK(rp->year == "2026");
  CHECK(rp->month == "08");
  CHECK(rp->id == "R-20260901-04");
  CHECK_FALSE(match_ruling_path("rulings/2026/stray.md"));
  CHECK_FALSE(match_ruling_path("rulings/2026/09/R-20260901-04.MD"));
  const auto pp = match_pt_path("tasks/example/01_scope.md", "tasks");
  REQUIRE(pp);
  CHECK(pp->project == "example");
  CHECK(pp->slug == "01_scope");
  CHECK_FALSE(match_pt_path("tasks/notes.md", "tasks"));
  CHECK_FALSE(match_pt_path("tasks/Example/a.md", "tasks"));
  CHECK_FALSE(match_pt_path("tasks/e/a/b.md", "tasks"));
  CHECK_FALSE(match_pt_path("tasks/e/.md", "tasks"));
  CHECK(code_point_slice("R-\u0662\u0660\u0662\u0666", 2, 6) == "\u0662\u0660\u0662\u0666");
  CHECK(number_value("007").digits == "7");
  CHECK(number_value("000").digits == "0");
}
