// Era-P/T history invariants (spec §6.1, §6.2, §6.4) over pairs of parses.
#include "ledgergate/audit/pt_invariants.hpp"

#include <catch2/catch.hpp>

namespace {

using lg::audit::AddedRuling;
using lg::audit::PtEraInfo;
using lg::ledger::parse_pt_file;

std::string task(std::string_view state, std::string_view extra_header = "", std::string_view runs = "",
                 std::string_view ruling = "") {
  std::string t = "# Example — a task\n\nProject: example\nSummary: Does it fit\nState: " + std::string(state) + "\n";
  t += extra_header;
  if (!ruling.empty()) t += "Ruling: " + std::string(ruling) + "\n";
  t += "\n## Question\n\nq\n\n## Witness\n\nw\n\n## Where to look\n\n- x\n\n## Runs\n\n";
  t += runs;
  t += "\n## Ruling\n\n(none)\n";
  return t;
}

std::string ruling(std::string_view id, std::string_view verb, std::string_view target,
                   std::string_view supersedes = "") {
  std::string r = "# " + std::string(id) + "\n\nProject: example\nTask: " + std::string(target) + "\nRuling: " +
                  std::string(verb) + "\n";
  if (!supersedes.empty()) r += "Supersedes: " + std::string(supersedes) + "\n";
  return r + "\n## Ruling\n\nx\n\n## Evidence\n\ny\n";
}

std::vector<std::string> rules_of(const std::vector<lg::diag::Finding>& fs) {
  std::vector<std::string> out;
  for (const auto& f : fs) out.push_back(f.rule);
  return out;
}

const std::string k_path = "tasks/example/07_x.md";
const PtEraInfo k_t{false, "task", "Task"};
const PtEraInfo k_p1{true, "phase", "Phase"};

}  // namespace

TEST_CASE("audit P/T: move edges follow the table with their evidence", "[audit][pt]") {
  const auto planned = parse_pt_file(task("planned"));
  CHECK(lg::audit::compare_pt_states(planned, parse_pt_file(task("ready")), k_path, k_t, {}).empty());
  CHECK(rules_of(lg::audit::compare_pt_states(planned, parse_pt_file(task("gated")), k_path, k_t, {})) ==
        std::vector<std::string>{"audit-state-edge-evidence"});  // gated with no Gates: ref
  CHECK(lg::audit::compare_pt_states(planned, parse_pt_file(task("gated", "Gates: PyAutoLens#1\n")), k_path, k_t, {})
            .empty());
  const auto bad = lg::audit::compare_pt_states(planned, parse_pt_file(task("running")), k_path, k_t, {});
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].rule == "audit-state-edge");
  CHECK(bad[0].message == "State: planned → running is not an edge of the transition table");
  CHECK(bad[0].location.line == 5);

  // ready → submitted needs a Witness: and a new submitted run line.
  const auto ready = parse_pt_file(task("ready", "Witness: w\n"));
  const std::string run = "- 342001: submitted — gpu — submitted 2026-09-01 — wall 0:00\n";
  CHECK(lg::audit::compare_pt_states(ready, parse_pt_file(task("submitted", "Witness: w\n", run)), k_path, k_t, {})
            .empty());
  CHECK(rules_of(lg::audit::compare_pt_states(ready, parse_pt_file(task("submitted", "Witness: w\n")), k_path, k_t,
                                              {})) == std::vector<std::string>{"audit-state-edge-evidence"});

  // submitted → ready needs a reset-from run and a Reset: reason.
  const auto submitted = parse_pt_file(task("submitted", "Witness: w\n", run));
  const std::string failed = "- 342001: failed — gpu — submitted 2026-09-01 — wall 0:10\n";
  CHECK(lg::audit::compare_pt_states(submitted, parse_pt_file(task("ready", "Witness: w\nReset: node died\n", failed)),
                                     k_path, k_t, {})
            .empty());
  CHECK(lg::audit::compare_pt_states(submitted, parse_pt_file(task("ready", "Witness: w\n", failed)), k_path, k_t, {})
            .size() == 1);

  // dropped is terminal.
  const auto dropped = parse_pt_file(task("dropped", "", "", "R-20260901-01"));
  const auto revived = lg::audit::compare_pt_states(dropped, parse_pt_file(task("ready", "", "", "R-20260901-01")),
                                                    k_path, k_t, {});
  REQUIRE(revived.size() == 1);
  CHECK(revived[0].message == "State: dropped → ready: dropped is terminal (revival is a new slug)");
}

TEST_CASE("audit P/T: P1 gate clearance is written by the grader or an override", "[audit][pt]") {
  const auto gated = parse_pt_file(task("gated", "Gates: PyAutoLens#1\n"));
  CHECK(lg::audit::compare_pt_states(gated, parse_pt_file(task("ready", "Gates: PyAutoLens#1\n")), k_path, k_t, {})
            .empty());  // P2+: a plain move
  CHECK(lg::audit::compare_pt_states(gated, parse_pt_file(task("ready", "Gates: PyAutoLens#1\n")), k_path, k_p1, {})
            .size() == 1);
  CHECK(lg::audit::compare_pt_states(
            gated, parse_pt_file(task("ready", "Gates: PyAutoLens#1\nGates-cleared: 2026-09-01\n")), k_path, k_p1, {})
            .empty());
  CHECK(lg::audit::compare_pt_states(
            gated, parse_pt_file(task("ready", "Gates: PyAutoLens#1\nGate-override: waited long enough\n")), k_path,
            k_p1, {})
            .empty());
}

TEST_CASE("audit P/T: rule edges need their ruling in the same commit", "[audit][pt]") {
  const auto awaiting = parse_pt_file(task("awaiting-ruling", "Witness: w\n"));
  const auto accepted = parse_pt_file(task("accepted", "Witness: w\n", "", "R-20260902-01"));
  const auto good = parse_pt_file(ruling("R-20260902-01", "accept", k_path));
  const auto wrong_verb = parse_pt_file(ruling("R-20260902-01", "drop", k_path));
  const auto other_task = parse_pt_file(ruling("R-20260902-01", "accept", "tasks/example/01_scope.md"));
  const std::string rp = "rulings/2026/09/R-20260902-01.md";
  CHECK(lg::audit::compare_pt_states(awaiting, accepted, k_path, k_t, {AddedRuling{rp, "R-20260902-01", &good}})
            .empty());
  CHECK(rules_of(lg::audit::compare_pt_states(awaiting, accepted, k_path, k_t, {})) ==
        std::vector<std::string>{"audit-state-edge-evidence"});
  CHECK(lg::audit::compare_pt_states(awaiting, accepted, k_path, k_t, {AddedRuling{rp, "R-20260902-01", &wrong_verb}})
            .size() == 1);
  CHECK(lg::audit::compare_pt_states(awaiting, accepted, k_path, k_t, {AddedRuling{rp, "R-20260902-01", &other_task}})
            .size() == 1);

  // accepted → rerun supersedes the accepted head.
  const auto rerun = parse_pt_file(task("rerun", "Witness: w\n", "", "R-20260903-01"));
  const auto sup = parse_pt_file(ruling("R-20260903-01", "rerun", k_path, "R-20260902-01"));
  const auto nosup = parse_pt_file(ruling("R-20260903-01", "rerun", k_path));
  const std::string rp2 = "rulings/2026/09/R-20260903-01.md";
  CHECK(lg::audit::compare_pt_states(accepted, rerun, k_path, k_t, {AddedRuling{rp2, "R-20260903-01", &sup}}).empty());
  CHECK(lg::audit::compare_pt_states(accepted, rerun, k_path, k_t, {AddedRuling{rp2, "R-20260903-01", &nosup}})
            .size() == 1);

  // leave-to-finish: the state stays, Ruling: changes with a ruling filed.
  const auto running = parse_pt_file(task("running", "Witness: w\n"));
  const auto ltf = parse_pt_file(task("running", "Witness: w\n", "", "R-20260903-01"));
  const auto ltf_ruling = parse_pt_file(ruling("R-20260903-01", "leave-to-finish", k_path));
  CHECK(lg::audit::compare_pt_states(running, ltf, k_path, k_t, {AddedRuling{rp2, "R-20260903-01", &ltf_ruling}})
            .empty());
  CHECK(lg::audit::compare_pt_states(running, ltf, k_path, k_t, {}).size() == 1);
  CHECK(rules_of(lg::audit::compare_pt_states(ltf, running, k_path, k_t, {})) ==
        std::vector<std::string>{"audit-state-edge"});  // a ruling is never unset
}

TEST_CASE("audit P/T: run lines move forward and are never rewritten", "[audit][pt]") {
  const std::string r1 = "- 342001: submitted — gpu — submitted 2026-09-01 — wall 0:00\n";
  const std::string r2 = "- 342002: submitted — gpu — submitted 2026-09-01 — wall 0:00\n";
  const auto before = parse_pt_file(task("submitted", "", r1 + r2));
  CHECK(lg::audit::compare_pt_runs(before, before, k_path).empty());
  const auto forward = parse_pt_file(task(
      "running", "", "- 342001: running — gpu — submitted 2026-09-01 — wall 0:20\n    where: /x\n" + r2 +
                         "- 342003: submitted — gpu — submitted 2026-09-02 — wall 0:00\n"));
  CHECK(lg::audit::compare_pt_runs(before, forward, k_path).empty());

  const auto done = parse_pt_file(task("running", "", "- 342001: done — gpu — submitted 2026-09-01 — wall 1:00\n" + r2));
  const auto back = parse_pt_file(task("running", "", "- 342001: running — gpu — submitted 2026-09-01 — wall 0:30\n" + r2));
  CHECK(rules_of(lg::audit::compare_pt_runs(done, back, k_path)) ==
        std::vector<std::string>{"audit-run-state-backwards", "audit-run-line-changed"});

  const auto moved = parse_pt_file(task("submitted", "", "- 342001: submitted — ral — submitted 2026-09-02 — wall 0:00\n" + r2));
  CHECK(lg::audit::compare_pt_runs(before, moved, k_path).size() == 2);  // partition and date
  CHECK(rules_of(lg::audit::compare_pt_runs(before, parse_pt_file(task("submitted", "", r2)), k_path)) ==
        std::vector<std::string>{"audit-run-line-removed"});
  CHECK(rules_of(lg::audit::compare_pt_runs(before, parse_pt_file(task("submitted", "", r2 + r1)), k_path)) ==
        std::vector<std::string>{"audit-run-line-changed"});  // reordered
  const auto with_where = parse_pt_file(task("submitted", "", r1 + "    where: /a\n" + r2));
  const auto where_changed = parse_pt_file(task("submitted", "", r1 + "    where: /b\n" + r2));
  CHECK(lg::audit::compare_pt_runs(with_where, where_changed, k_path).size() == 1);
  CHECK(lg::audit::compare_pt_runs(with_where, before, k_path).size() == 1);  // a continuation removed
}

TEST_CASE("audit P/T: a migration move may change only what the migration changes", "[audit][pt]") {
  const std::string phase =
      "# Example — a phase\n\nProject: example\nPhase: 3\nState: ready\nLane: local-dev\n\n## Question\n\nq\n";
  const std::string as_task = "# Example — a phase\n\nProject: example\nSummary: Does it fit\nState: ready\n\n## Question\n\nq\n";
  CHECK(lg::audit::compare_migrated(phase, as_task, "phases/example/03_x.md", "tasks/example/03_x.md").empty());
  const std::string edited = "# Example — a phase\n\nProject: example\nSummary: Does it fit\nState: gated\n\n## Question\n\nq\n";
  const auto f = lg::audit::compare_migrated(phase, edited, "phases/example/03_x.md", "tasks/example/03_x.md");
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule == "audit-migration-edited");
  CHECK(f[0].location.path == "tasks/example/03_x.md");
  CHECK(f[0].message ==
        "moved from phases/example/03_x.md by a schema migration with more changed than the migration changes: "
        "'State: ready' became 'State: gated'");

  const std::string old_ruling = "# R-20260907-01\n\nProject: example\nPhase: phases/example/03_x.md\nRuling: accept\n";
  const std::string new_ruling = "# R-20260907-01\n\nProject: example\nTask: tasks/example/03_x.md\nRuling: accept\n";
  CHECK(lg::audit::compare_migrated(old_ruling, new_ruling, "rulings/2026/09/R-20260907-01.md",
                                    "archive/rulings/2026/09/R-20260907-01.md")
            .empty());
  const std::string retitled = "# R-20260907-01 — accept example\n\nProject: example\nTask: tasks/example/03_x.md\nRuling: accept\n";
  CHECK(lg::audit::compare_migrated(old_ruling, retitled, "rulings/2026/09/R-20260907-01.md",
                                    "archive/rulings/2026/09/R-20260907-01.md")
            .size() == 1);
}
