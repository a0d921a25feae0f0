// The era-T/P writer verbs (write/cortex_pt): each edit's exact bytes, each
// refusal family's exact text, and the whole edit going through the write
// layer (validated, then written) on the reference's T-skeleton.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/write/apply.hpp"
#include "ledgergate/write/cortex_pt.hpp"
#include "support/fixture_tree.hpp"
#include "support/peer_cases.hpp"

using namespace lg;
using test::FileMap;

namespace {

constexpr const char* k_today = "2026-09-02";

const rules::PtEra& t2() { return *rules::find_pt_era(ledger::Layout::cortex_tasks, "t2"); }

struct Run {
  write::Outcome outcome;
  FileMap before, after;
  std::string message() const {
    if (const auto* r = std::get_if<write::Refusal>(&outcome)) return "refused: " + r->message;
    return std::get<write::Change>(outcome).message;
  }
};

// Writes `files` to a folder, applies the editor made for that folder with
// the era pinned, and reads the folder back.
template <class Make>
Run apply(const FileMap& files, const rules::PtEra& era, Make make) {
  test::TempDir dir;
  test::write_tree(dir.path(), files);
  write::PtContext cx{&era, dir.path(), k_today};
  write::ApplyOptions options;
  options.profile = ledger::Profile{era.layout, era.name};
  auto applied = write::apply_to_directory(dir.path(), make(cx), options);
  REQUIRE(applied);
  return Run{applied->outcome, files, test::read_tree(dir.path())};
}

FileMap t_skeleton() { return test::peer_fixture(test::peer_cases(), "T-skeleton"); }

write::Editor move(const write::PtContext& cx, std::string file, std::string state,
                   void (*tweak)(write::PtMoveArgs&) = nullptr) {
  write::PtMoveArgs a;
  a.file = std::move(file);
  a.state = std::move(state);
  if (tweak) tweak(a);
  return write::pt_move(cx, a);
}

const std::string k_scope = "tasks/example/01_scope.md";
const std::string k_ready = "tasks/example/03_ready_cleared.md";
const std::string k_submitted = "tasks/example/04_submitted_override.md";
const std::string k_awaiting = "tasks/example/07_awaiting_ruling.md";

}  // namespace

TEST_CASE("pt move: an edge rewrites State: and nothing else", "[write][pt]") {
  const FileMap files = t_skeleton();
  const Run r = apply(files, t2(), [](const write::PtContext& cx) { return move(cx, k_scope, "ready"); });
  CHECK(r.message() == k_scope + ": planned → ready");
  CHECK(r.after.at(k_scope) == test::replaced(files.at(k_scope), "State: planned", "State: ready"));
  FileMap rest = r.after;
  rest.erase(k_scope);
  FileMap was = files;
  was.erase(k_scope);
  CHECK(rest == was);
}

TEST_CASE("pt move: ready → submitted appends the run and inserts Runs: at its slot", "[write][pt]") {
  const Run r = apply(t_skeleton(), t2(), [](const write::PtContext& cx) {
    return move(cx, k_ready, "submitted", [](write::PtMoveArgs& a) {
      a.run = "350000";
      a.note = "first wave";
    });
  });
  CHECK(r.message() == k_ready + ": ready → submitted");
  std::string want = test::replaced(r.before.at(k_ready), "State: ready\n", "State: submitted\n");
  test::replace_once(want, "Budget: 5:00\n", "Budget: 5:00\nRuns: 350000\n");
  test::replace_once(want, "## Runs\n\n## Ruling",
                     "## Runs\n\n- 350000: submitted — gpu — submitted 2026-09-02 — wall 0:00 — first wave\n\n## Ruling");
  CHECK(r.after.at(k_ready) == want);
}

TEST_CASE("pt move: a self-loop appends after the last run with its continuation", "[write][pt]") {
  const Run r = apply(t_skeleton(), t2(), [](const write::PtContext& cx) {
    return move(cx, k_submitted, "submitted", [](write::PtMoveArgs& a) {
      a.run = "342020";
      a.after = "342010";
    });
  });
  CHECK(r.message() == k_submitted + ": submitted — appended run 342020");
  std::string want = test::replaced(r.before.at(k_submitted), "Runs: 342001, 342010\n", "Runs: 342001, 342010, 342020\n");
  test::replace_once(want, "wall 0:00\n\n## Ruling",
                     "wall 0:00\n- 342020: submitted — gpu — submitted 2026-09-02 — wall 0:00\n    after: 342010\n\n## Ruling");
  CHECK(r.after.at(k_submitted) == want);
}

TEST_CASE("pt move: a legacy-born pull adds pulled_to: after the run's continuations", "[write][pt]") {
  FileMap files = t_skeleton();
  const std::string rel = "tasks/example/09_rerun.md";
  test::replace_once(files.at(rel), "State: rerun\n", "State: ready\n");
  const Run r = apply(files, t2(), [&](const write::PtContext& cx) { return move(cx, rel, "pulled"); });
  CHECK(r.message() == rel + ": ready → pulled");
  CHECK(r.after.at(rel).find("    where: /mnt/c/Users/Jammy/Science/example/output/legacy/task_09\n"
                             "    ruled: R-20260901-04\n"
                             "    pulled_to: /mnt/c/Users/Jammy/Science/example/output/legacy/task_09\n\n## Ruling") !=
        std::string::npos);
}

TEST_CASE("pt move: the refusals of §6.1, exactly, and nothing written", "[write][pt]") {
  struct Case {
    std::string file, state, message;
    void (*tweak)(write::PtMoveArgs&);
  };
  const std::vector<Case> cases = {
      {k_scope, "gated", "tasks/example/01_scope.md: Gates: is empty — planned → ready", nullptr},
      {k_ready, "gated", "ready → gated is a hand edit of the header — re-gating a ready task is a judgement, not an edge",
       nullptr},
      {k_ready, "submitted", "ready → submitted needs --run <id>", nullptr},
      {k_ready, "ready", "tasks/example/03_ready_cleared.md is already ready; --run is for submitted | running tasks",
       [](write::PtMoveArgs& a) { a.run = "1"; }},
      {k_awaiting, "accepted", "accepted is a ruling edge: `cortex.py rule <task> accept`", nullptr},
      {"tasks/example/08_accepted.md", "rerun", "rerun is a ruling edge: `cortex.py rule <task> rerun` --supersedes <Ruling:>",
       nullptr},
      {k_scope, "dropped", "dropped is a ruling edge: `cortex.py rule <task> drop`", nullptr},
      {"tasks/example/10_dropped.md", "ready", "tasks/example/10_dropped.md is dropped — terminal; revival is a new slug",
       nullptr},
      {k_submitted, "pulled", "no edge submitted → pulled in the transition table", nullptr},
      {k_scope, "flying",
       "'flying' is not a task state (planned | gated | ready | submitted | running | pulled | awaiting-ruling | "
       "accepted | rerun | dropped)",
       nullptr},
      {"tasks/example/05_running_array.md", "pulled",
       "tasks/example/05_running_array.md: a run is still submitted | running — --partial for a partial array (then "
       "rule leave-to-finish)",
       nullptr},
      {"tasks/example/05_running_array.md", "running", "run 342091_[9-10] overlaps 342091_[0-8,10] already on this task",
       [](write::PtMoveArgs& a) { a.run = "342091_[9-10]"; }},
      {"tasks/example/05_running_array.md", "running", "after: 999 names no run of this task", [](write::PtMoveArgs& a) {
         a.run = "342200";
         a.after = "999";
       }},
      {k_submitted, "running", "--run 'x1' is not <stem>[_<task>|_[<set>]]", [](write::PtMoveArgs& a) { a.run = "x1"; }},
      {"tasks/example/nope.md", "ready", "no task file at tasks/example/nope.md", nullptr},
      {"../outside.md", "ready", "", nullptr},
  };
  for (const Case& c : cases) {
    INFO(c.file << " → " << c.state);
    const Run r = apply(t_skeleton(), t2(), [&](const write::PtContext& cx) { return move(cx, c.file, c.state, c.tweak); });
    REQUIRE(std::holds_alternative<write::Refusal>(r.outcome));
    if (!c.message.empty()) CHECK(std::get<write::Refusal>(r.outcome).message == c.message);
    else CHECK(std::get<write::Refusal>(r.outcome).message.find(" is outside ") != std::string::npos);
    CHECK(r.after == r.before);
  }
}

TEST_CASE("pt move: an edit that adds a finding is refused by validation (better than the reference)", "[write][pt]") {
  // A partial pull of a task whose Ruling: is no leave-to-finish head: the
  // reference writes it and its `check` then reports T-F23; here the edit is
  // refused and nothing is written.
  FileMap files = t_skeleton();
  test::replace_once(files.at(k_submitted), "State: submitted\n", "State: running\n");
  test::replace_once(files.at(k_submitted), "- 342001: failed", "- 342001: done");
  const Run r = apply(files, t2(), [](const write::PtContext& cx) {
    return move(cx, k_submitted, "pulled", [](write::PtMoveArgs& a) {
      a.partial = true;
      a.pulled_to = "/mnt/c/out";
    });
  });
  CHECK(r.message() ==
        "refused: the edit would add a finding: tasks/example/04_submitted_override.md: State: pulled with a live run "
        "needs a leave-to-finish ruling head (--partial)");
  CHECK(r.after == r.before);
}

TEST_CASE("pt move: CRLF endings are kept, and every other byte", "[write][pt]") {
  FileMap files = t_skeleton();
  std::string crlf;
  for (char c : files.at(k_scope)) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  files[k_scope] = crlf;
  write::PtContext cx{&t2(), "/", k_today};
  write::PtMoveArgs a;
  a.file = k_scope;
  a.state = "ready";
  test::TempDir dir;
  test::write_tree(dir.path(), files);
  auto source = git::open_directory_source(dir.path());
  REQUIRE(source);
  cx.root = dir.path();
  auto outcome = write::pt_move(cx, a)(**source);
  REQUIRE(outcome);
  const auto& change = std::get<write::Change>(*outcome);
  REQUIRE(change.files.size() == 1);
  CHECK(change.files[0].bytes == test::replaced(crlf, "State: planned\r\n", "State: ready\r\n"));
}

namespace {

write::Editor rule(const write::PtContext& cx, std::string file, std::string verb,
                   void (*tweak)(write::PtRuleArgs&) = nullptr) {
  write::PtRuleArgs a;
  a.file = std::move(file);
  a.verb = std::move(verb);
  a.body = "Accept. The human's words, verbatim.\n";
  a.body_path = "/tmp/body.txt";
  a.clock = "10:30";
  if (tweak) tweak(a);
  return write::pt_rule(cx, a);
}

}  // namespace

TEST_CASE("pt rule: the ruling file and the task's three edits", "[write][pt]") {
  const Run r = apply(t_skeleton(), t2(), [](const write::PtContext& cx) {
    return rule(cx, k_awaiting, "accept", [](write::PtRuleArgs& a) {
      a.batch = "2026-09-01-pm";
      a.minutes = 4;
      a.follow_ups = {"PyAutoLens#902"};
    });
  });
  CHECK(r.message() == "wrote rulings/2026/09/R-20260902-01.md");
  CHECK(r.after.at("rulings/2026/09/R-20260902-01.md") ==
        "# R-20260902-01 — accept example 07_awaiting_ruling\n\nProject: example\n"
        "Task: tasks/example/07_awaiting_ruling.md\nRuns: 342110, 342120\nRuling: accept\nBatch: 2026-09-01-pm\n"
        "Reviewed-at: 2026-09-02T10:30Z\nReview-minutes-actual: 4\nFollow-ups: PyAutoLens#902\n\n## Ruling\n\n"
        "Accept. The human's words, verbatim.\n\n## Evidence\n\n"
        "- `/mnt/c/Users/Jammy/Science/example/output/task_07/`\n");
  std::string want = test::replaced(r.before.at(k_awaiting), "State: awaiting-ruling\n", "State: accepted\n");
  test::replace_once(want, "Runs: 342110, 342120\n", "Runs: 342110, 342120\nRuling: R-20260902-01\n");
  test::replace_once(want, "## Ruling\n\n(none)\n", "## Ruling\n\nR-20260902-01 — accept\n");
  CHECK(r.after.at(k_awaiting) == want);
}

TEST_CASE("pt rule: a REWIND supersedes the accepted head", "[write][pt]") {
  const std::string rel = "tasks/example/08_accepted.md";
  const Run r = apply(t_skeleton(), t2(), [&](const write::PtContext& cx) {
    return rule(cx, rel, "rerun", [](write::PtRuleArgs& a) { a.supersedes = "R-20260901-02"; });
  });
  CHECK(r.message() == "wrote rulings/2026/09/R-20260902-01.md");
  CHECK(r.after.at(rel).find("State: rerun\n") != std::string::npos);
  CHECK(r.after.at(rel).find("R-20260901-02 — accept (supersedes R-20260901-01)\n"
                             "R-20260902-01 — rerun (supersedes R-20260901-02)\n") != std::string::npos);
  CHECK(r.after.at("rulings/2026/09/R-20260902-01.md").find("Ruling: rerun\nSupersedes: R-20260901-02\n") !=
        std::string::npos);
}

TEST_CASE("pt rule: the refusals, exactly, and nothing written", "[write][pt]") {
  struct Case {
    std::string file, verb, message;
    void (*tweak)(write::PtRuleArgs&);
  };
  const std::string accepted = "tasks/example/08_accepted.md";
  const std::vector<Case> cases = {
      {"tasks/example/05_running_array.md", "accept",
       "'accept' is not allowed from State: running (the table: awaiting-ruling → accepted)", nullptr},
      {k_scope, "leave-to-finish", "leave-to-finish applies to running | pulled | awaiting-ruling, not planned", nullptr},
      {"tasks/example/10_dropped.md", "drop", "tasks/example/10_dropped.md is dropped — terminal", nullptr},
      {accepted, "rerun", "accepted → rerun needs --supersedes R-20260901-02 (the REWIND case)", nullptr},
      {accepted, "accept", "accepted takes only rerun | drop, with --supersedes R-20260901-02",
       [](write::PtRuleArgs& a) { a.supersedes = "R-20260901-02"; }},
      {accepted, "rerun", "R-20260901-01 already has a successor (R-20260901-02) — supersede the head",
       [](write::PtRuleArgs& a) { a.supersedes = "R-20260901-01"; }},
      {accepted, "rerun", "--supersedes R-20260901-03 rules on tasks/example/05_running_array.md, not "
                          "tasks/example/08_accepted.md",
       [](write::PtRuleArgs& a) { a.supersedes = "R-20260901-03"; }},
      {accepted, "rerun", "--supersedes R-20260101-01 does not resolve to a ruling file",
       [](write::PtRuleArgs& a) { a.supersedes = "R-20260101-01"; }},
      {k_awaiting, "accept", "--batch 2026-09-09-x names no batches/2026-09-09-x.md",
       [](write::PtRuleArgs& a) { a.batch = "2026-09-09-x"; }},
      {k_awaiting, "accept", "--follow-up 'PyAutoLabs/PyAutoLens#1' is not Repo#N or an issue/PR URL (create the issue first)",
       [](write::PtRuleArgs& a) { a.follow_ups = {"PyAutoLabs/PyAutoLens#1"}; }},
      {k_awaiting, "accept", "--body is empty — the human's words, verbatim", [](write::PtRuleArgs& a) { a.body = "\n\n"; }},
      {k_awaiting, "accept", "--body /tmp/body.txt is not a file", [](write::PtRuleArgs& a) { a.body.reset(); }},
  };
  for (const Case& c : cases) {
    INFO(c.file << " " << c.verb);
    const Run r = apply(t_skeleton(), t2(), [&](const write::PtContext& cx) { return rule(cx, c.file, c.verb, c.tweak); });
    REQUIRE(std::holds_alternative<write::Refusal>(r.outcome));
    CHECK(std::get<write::Refusal>(r.outcome).message == c.message);
    CHECK(r.after == r.before);
  }
}

TEST_CASE("pt rule: the 99th ruling of a day is the last", "[write][pt]") {
  FileMap files = t_skeleton();
  for (int n = 1; n <= 99; ++n) files[fmt::format("rulings/2026/09/R-20260902-{:02}.md", n)] = "# x\n";
  const Run r = apply(files, t2(), [](const write::PtContext& cx) { return rule(cx, k_awaiting, "accept"); });
  CHECK(r.message() == "refused: 99 rulings already filed on 2026-09-02");
  CHECK(r.after == r.before);
}

namespace {

write::Editor make_new(const write::PtContext& cx, std::string project, std::string slug,
                       void (*tweak)(write::PtNewArgs&) = nullptr) {
  write::PtNewArgs a;
  a.project = std::move(project);
  a.slug = std::move(slug);
  a.summary = "Does the next idea hold up";
  if (tweak) tweak(a);
  return write::pt_new(cx, a);
}

}  // namespace

TEST_CASE("pt new: the task template, byte for byte", "[write][pt]") {
  const Run r = apply(t_skeleton(), t2(), [](const write::PtContext& cx) {
    return make_new(cx, "example", "11_next", [](write::PtNewArgs& a) {
      a.gates = "PyAutoLens#1, https://github.com/o/r/pull/2";
      a.epic = "example-programme";
      a.budget = "6:00";
      a.minutes = 5;
      a.witness = "a claim";
    });
  });
  CHECK(r.message() == "wrote tasks/example/11_next.md");
  const YAML::Node c = test::peer_case("CT-83");
  CHECK(r.after.at("tasks/example/11_next.md") ==
        c["steps"][0]["after"]["derived_file_equals"]["tasks/example/11_next.md"].as<std::string>());
}

TEST_CASE("pt new: a legacy-born task is ready with its run lines", "[write][pt]") {
  const Run r = apply(t_skeleton(), t2(), [](const write::PtContext& cx) {
    return make_new(cx, "example", "12_legacy", [](write::PtNewArgs& a) {
      a.legacy_runs = {"300000"};
      a.legacy_wrong = {"300001_[0-3]"};
      a.where = "/mnt/q";
      a.witness = "w";
    });
  });
  REQUIRE(r.message() == "wrote tasks/example/12_legacy.md");
  const std::string& text = r.after.at("tasks/example/12_legacy.md");
  CHECK(text.find("State: ready\n") != std::string::npos);
  CHECK(text.find("Runs: 300000, 300001\n") != std::string::npos);
  CHECK(text.find("## Where to look\n\n- `/mnt/q`\n\n## Runs\n\n"
                  "- 300000: legacy — gpu — submitted 2026-09-02 — wall 0:00 — pre-Cortex run, migrated\n"
                  "    where: /mnt/q\n"
                  "- 300001_[0-3]: legacy_wrong — gpu — submitted 2026-09-02 — wall 0:00 — pre-Cortex run, migrated\n"
                  "    where: /mnt/q\n\n## Ruling\n\n(none)\n") != std::string::npos);
}

TEST_CASE("pt new: the refusals, exactly, and nothing written", "[write][pt]") {
  struct Case {
    std::string project, slug, message;
    void (*tweak)(write::PtNewArgs&);
  };
  const std::vector<Case> cases = {
      {"nobody", "x", "project nobody is not a projects.yaml key", nullptr},
      {"example", "X!", "slug 'X!' must match ^[a-z0-9][a-z0-9_-]*$", nullptr},
      {"example", "03_ready_cleared", "tasks/example/03_ready_cleared.md already exists", nullptr},
      {"example", "x", "--summary must say what the task asks, in one line",
       [](write::PtNewArgs& a) { a.summary = "   "; }},
      {"example", "x", "--summary is 11 words — at most 10 (the question the task answers)",
       [](write::PtNewArgs& a) { a.summary = "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10"; }},
      {"example", "x", "--gates 'PyAutoLabs/PyAutoLens#1' is not Repo#N or an issue/PR URL (no owner/Repo#N form)",
       [](write::PtNewArgs& a) { a.gates = "PyAutoLabs/PyAutoLens#1"; }},
      {"example", "x", "a legacy-born task cannot be gated — its runs already happened", [](write::PtNewArgs& a) {
         a.legacy_runs = {"1"};
         a.where = "/q";
         a.gates = "PyAutoLens#1";
       }},
      {"example", "x", "--legacy-run needs --where <quarantine path> (check requires where:)",
       [](write::PtNewArgs& a) { a.legacy_runs = {"1"}; }},
      {"example", "x", "--budget '6h' is not H+:MM", [](write::PtNewArgs& a) { a.budget = "6h"; }},
  };
  for (const Case& c : cases) {
    INFO(c.project << " " << c.slug);
    const Run r = apply(t_skeleton(), t2(), [&](const write::PtContext& cx) { return make_new(cx, c.project, c.slug, c.tweak); });
    REQUIRE(std::holds_alternative<write::Refusal>(r.outcome));
    CHECK(std::get<write::Refusal>(r.outcome).message == c.message);
    CHECK(r.after == r.before);
  }
}

namespace {

FileMap quiet_skeleton() {
  FileMap files = t_skeleton();
  for (const char* name : {"02_gated_on_dev", "03_ready_cleared", "04_submitted_override", "05_running_array",
                           "06_pulled", "07_awaiting_ruling"}) {
    files.erase(std::string("tasks/example/") + name + ".md");
  }
  files.erase("rulings/2026/09/R-20260901-03.md");
  return files;
}

write::Editor retire(const write::PtContext& cx, std::string project, std::string why) {
  return write::pt_retire(cx, write::PtRetireArgs{std::move(project), std::move(why)});
}

}  // namespace

TEST_CASE("pt retire: the row's status and note, every other byte kept", "[write][pt]") {
  const Run r = apply(quiet_skeleton(), t2(), [](const write::PtContext& cx) {
    return retire(cx, "example", "the question was answered");
  });
  CHECK(r.message() == "retired example");
  CHECK(r.after.at("projects.yaml") ==
        test::replaced(r.before.at("projects.yaml"), "  status: active\n",
                       "  status: retired\n  note: \"retired 2026-09-02: the question was answered\"\n"));
  FileMap noted = quiet_skeleton();
  test::replace_once(noted.at("projects.yaml"), "  status: active\n", "  status: active\n  note: \"a fact: recorded\"\n");
  const Run again = apply(noted, t2(), [](const write::PtContext& cx) { return retire(cx, "example", "done"); });
  CHECK(again.after.at("projects.yaml") ==
        test::replaced(noted.at("projects.yaml"), "  status: active\n  note: \"a fact: recorded\"\n",
                       "  status: retired\n  note: \"retired 2026-09-02: done\"\n"));
}

TEST_CASE("pt retire: the refusals, exactly, and nothing written", "[write][pt]") {
  struct Case {
    FileMap files;
    std::string project, why, message;
  };
  FileMap retired = quiet_skeleton();
  test::replace_once(retired.at("projects.yaml"), "  status: active\n", "  status: retired\n");
  FileMap broken = quiet_skeleton();
  test::replace_once(broken.at("projects.yaml"), "  status: active\n", "  status: active\n  colour: red\n");
  const std::vector<Case> cases = {
      {quiet_skeleton(), "example", " ", "--why must say why, in one line"},
      {quiet_skeleton(), "example", "a \"q\"",
       "--why cannot hold a double quote or a newline (projects.yaml quotes with no escapes)"},
      {quiet_skeleton(), "nobody", "why", "nobody is not a projects.yaml key"},
      {retired, "example", "why", "example is already retired"},
      {broken, "example", "why",
       "projects.yaml does not parse clean — run `check` and fix it before retiring: projects.yaml: unknown field "
       "`colour` on example"},
      {t_skeleton(), "example", "why",
       "example still has live work — rule or drop it first: tasks/example/02_gated_on_dev.md — gated, "
       "tasks/example/03_ready_cleared.md — ready, tasks/example/04_submitted_override.md — submitted, "
       "tasks/example/05_running_array.md — running, tasks/example/06_pulled.md — pulled, "
       "tasks/example/07_awaiting_ruling.md — awaiting-ruling"},
  };
  for (const Case& c : cases) {
    INFO(c.message);
    const Run r = apply(c.files, t2(), [&](const write::PtContext& cx) { return retire(cx, c.project, c.why); });
    REQUIRE(std::holds_alternative<write::Refusal>(r.outcome));
    CHECK(std::get<write::Refusal>(r.outcome).message == c.message);
    CHECK(r.after == r.before);
  }
}

TEST_CASE("pt gates: the offline listing", "[write][pt]") {
  test::TempDir dir;
  test::write_tree(dir.path(), t_skeleton());
  auto source = git::open_directory_source(dir.path());
  REQUIRE(source);
  auto listing = write::pt_gates(t2(), **source);
  REQUIRE(listing);
  CHECK(*listing ==
        "gates: 1 task(s)\n"
        "  tasks/example/02_gated_on_dev.md: gated — PyAutoArray#431, https://github.com/PyAutoLabs/PyAutoFit/pull/1436\n"
        "    PyAutoArray#431 → https://github.com/PyAutoLabs/PyAutoArray/issues/431\n"
        "    https://github.com/PyAutoLabs/PyAutoFit/pull/1436 → https://github.com/PyAutoLabs/PyAutoFit/issues/1436");
  test::TempDir empty;
  test::write_tree(empty.path(), {{"projects.yaml", "# nothing\n"}});
  auto none_source = git::open_directory_source(empty.path());
  REQUIRE(none_source);
  auto none = write::pt_gates(t2(), **none_source);
  REQUIRE(none);
  CHECK(*none == "gates: no gated task");
}

namespace {

const rules::PtEra& p1c() { return *rules::find_pt_era(ledger::Layout::cortex_phases, "p1c"); }
FileMap p1_skeleton() { return test::p1_skeleton(test::peer_cases()); }
const std::string k_p_gated = "phases/example/02_gated_on_dev.md";

}  // namespace

TEST_CASE("pt move P1: gated → ready takes --override and writes Gate-override: at its slot", "[write][pt][p1]") {
  const Run plain = apply(p1_skeleton(), p1c(), [](const write::PtContext& cx) { return move(cx, k_p_gated, "ready"); });
  CHECK(plain.message() ==
        "refused: gated → ready is `gates --grade --write` when the refs clear, or `move ready --override \"<reason>\"`");
  CHECK(plain.after == plain.before);
  const Run r = apply(p1_skeleton(), p1c(), [](const write::PtContext& cx) {
    return move(cx, k_p_gated, "ready", [](write::PtMoveArgs& a) { a.override_reason = "verified on the branch"; });
  });
  CHECK(r.message() == k_p_gated + ": gated → ready");
  std::string want = test::replaced(r.before.at(k_p_gated), "State: gated\n", "State: ready\n");
  test::replace_once(want, "https://github.com/PyAutoLabs/PyAutoFit/pull/1436\n",
                     "https://github.com/PyAutoLabs/PyAutoFit/pull/1436\nGate-override: verified on the branch\n");
  CHECK(r.after.at(k_p_gated) == want);
  const Run back = apply(p1_skeleton(), p1c(), [](const write::PtContext& cx) {
    return move(cx, "phases/example/03_ready_cleared.md", "gated");
  });
  CHECK(back.message() == "refused: ready → gated is written by `gates --grade --write` only, when a cleared gate reopened");
}

TEST_CASE("pt rule P1: --also rules each file alike, an accepted one superseding its own head", "[write][pt][p1]") {
  const Run r = apply(p1_skeleton(), p1c(), [](const write::PtContext& cx) {
    return rule(cx, "phases/example/07_awaiting_ruling.md", "drop", [](write::PtRuleArgs& a) {
      a.batch = "2026-09-01-pm";
      a.also = {"phases/example/08_accepted.md", "phases/example/01_scope.md"};
    });
  });
  CHECK(r.message() ==
        "wrote rulings/2026/09/R-20260902-01.md\nwrote rulings/2026/09/R-20260902-02.md\n"
        "wrote rulings/2026/09/R-20260902-03.md");
  CHECK_THAT(r.after.at("rulings/2026/09/R-20260902-01.md"),
             Catch::StartsWith("# R-20260902-01 — drop example phase 7\n\nProject: example\n"
                               "Phase: phases/example/07_awaiting_ruling.md\n"));
  CHECK_THAT(r.after.at("rulings/2026/09/R-20260902-02.md"), Catch::Contains("Ruling: drop\nSupersedes: R-20260901-02\n"));
  CHECK_THAT(r.after.at("phases/example/01_scope.md"), Catch::Contains("State: dropped\n"));
  const Run twice = apply(p1_skeleton(), p1c(), [](const write::PtContext& cx) {
    return rule(cx, "phases/example/07_awaiting_ruling.md", "drop",
                [](write::PtRuleArgs& a) { a.also = {"./phases/example/07_awaiting_ruling.md"}; });
  });
  CHECK(twice.message() == "refused: phases/example/07_awaiting_ruling.md named twice");
  CHECK(twice.after == twice.before);
}

TEST_CASE("pt new P1: the phase template, and a taken phase number", "[write][pt][p1]") {
  const Run r = apply(p1_skeleton(), p1c(), [](const write::PtContext& cx) {
    return make_new(cx, "example", "11_next", [](write::PtNewArgs& a) {
      a.summary.reset();
      a.phase = 11;
    });
  });
  CHECK(r.message() == "wrote phases/example/11_next.md");
  CHECK(r.after.at("phases/example/11_next.md") ==
        "# Example — phase 11: 11 next\n\nProject: example\nPhase: 11\nState: planned\nGates:\nWitness:\nBudget:\n"
        "Runs:\nRuling:\nLane: local-dev\nReview-minutes:\nEpic:\nFiled: 2026-09-02\n\n## Question\n\n"
        "(the question this phase answers)\n\n## Witness\n\n(not yet registered — a planned phase may leave this "
        "empty)\n\n## Where to look\n\n- (the output path, once there is one)\n\n## Runs\n\n## Ruling\n\n(none)\n");
  const Run taken = apply(p1_skeleton(), p1c(), [](const write::PtContext& cx) {
    return make_new(cx, "example", "03_again", [](write::PtNewArgs& a) { a.phase = 3; });
  });
  CHECK(taken.message() == "refused: phase 3 already exists: phases/example/03_ready_cleared.md");
  const Run zero = apply(p1_skeleton(), p1c(), [](const write::PtContext& cx) {
    return make_new(cx, "example", "x", [](write::PtNewArgs& a) { a.phase = 0; });
  });
  CHECK(zero.message() == "refused: --phase must be a positive integer");
}

TEST_CASE("pt gates P1: the offline listing has no URL lines", "[write][pt][p1]") {
  test::TempDir dir;
  test::write_tree(dir.path(), p1_skeleton());
  auto source = git::open_directory_source(dir.path());
  REQUIRE(source);
  auto listing = write::pt_gates(p1c(), **source);
  REQUIRE(listing);
  CHECK(*listing ==
        "gates: 1 phase(s)\n"
        "  phases/example/02_gated_on_dev.md: gated — PyAutoArray#431, https://github.com/PyAutoLabs/PyAutoFit/pull/1436");
}

TEST_CASE("pt move: a BOM stays where it is and nothing else changes", "[write][pt]") {
  FileMap files = t_skeleton();
  files[k_scope] = "\xEF\xBB\xBF" + files.at(k_scope);
  test::TempDir dir;
  test::write_tree(dir.path(), files);
  auto source = git::open_directory_source(dir.path());
  REQUIRE(source);
  write::PtMoveArgs a;
  a.file = k_scope;
  a.state = "ready";
  auto outcome = write::pt_move(write::PtContext{&t2(), dir.path(), k_today}, a)(**source);
  REQUIRE(outcome);
  const auto& change = std::get<write::Change>(*outcome);
  REQUIRE(change.files.size() == 1);
  CHECK(change.files[0].bytes == test::replaced(files.at(k_scope), "State: planned\n", "State: ready\n"));
}

TEST_CASE("pt writer: a relative FILE is taken from the context's base, and must lie under its root", "[write][pt]") {
  const FileMap files = t_skeleton();
  test::TempDir dir;
  test::write_tree(dir.path(), files);
  auto source = git::open_directory_source(dir.path());
  REQUIRE(source);
  write::PtContext cx{&t2(), dir.path() + "/", k_today, dir.path() + "/tasks/example/"};
  const auto moved = [&](const std::string& file) {
    write::PtMoveArgs a;
    a.file = file;
    a.state = "ready";
    auto outcome = write::pt_move(cx, a)(**source);
    REQUIRE(outcome);
    return *outcome;
  };
  const write::Outcome good = moved("01_scope.md");
  REQUIRE(std::holds_alternative<write::Change>(good));
  CHECK(std::get<write::Change>(good).files.at(0).path == k_scope);
  // From the base, the root-relative path names no file; and the tree's parent is outside.
  const write::Outcome top = moved(k_scope);
  REQUIRE(std::holds_alternative<write::Refusal>(top));
  CHECK(std::get<write::Refusal>(top).message == "no task file at " + k_scope);
  const write::Outcome outside = moved("../../../elsewhere.md");
  REQUIRE(std::holds_alternative<write::Refusal>(outside));
  CHECK(std::get<write::Refusal>(outside).message == "../../../elsewhere.md is outside " + dir.path() + "/");
}
