// The record-level three-way merge of ledger files, format by format.
#include "ledgergate/merge/record_merge.hpp"

#include <catch2/catch.hpp>
#include <string>

namespace {

using lg::merge::merge_records;
using lg::merge::RecordFormat;
using Records = std::vector<std::pair<std::string, int>>;

// An era-R ledger from its parts (runs and log lines without the "- ").
std::string ledger(const std::string& now, const std::vector<std::string>& runs, const std::vector<std::string>& log,
                   const std::string& issue = "none") {
  std::string s = "# demo — a demo project\n\nProject: demo\nIssue: " + issue + "\n\n## Now\n\n" + now + "\n\n## Runs\n\n";
  for (const auto& r : runs) s += "- " + r + "\n";
  s += "\n## Log\n\n";
  for (const auto& e : log) s += "- " + e + "\n";
  return s;
}

const std::string k_run1 = "3001 — open — gpu — 2026-09-01 — train a";
const std::string k_run2 = "3002 — running — gpu — 2026-09-02 — train b";
const std::string k_e1 = "2026-09-02 — run — 3002 submitted: train b";
const std::string k_e0 = "2026-09-01 — run — 3001 submitted: train a";

lg::merge::RecordMerge merged(const std::string& b, const std::string& o, const std::string& t) {
  auto r = merge_records(RecordFormat::cortex_project, b, o, t);
  REQUIRE(r.has_value());
  return std::move(r).value();
}

}  // namespace

TEST_CASE("record merge: paths and names", "[merge][record]") {
  using lg::ledger::Layout;
  using lg::merge::record_format_of;
  const std::string_view glob = "**/open-requirements.ledger.yml";
  CHECK(record_format_of(Layout::cortex_projects, "projects/demo.md", glob) == RecordFormat::cortex_project);
  CHECK(record_format_of(Layout::cortex_projects, "projects.yaml", glob) == RecordFormat::projects_yaml);
  CHECK(record_format_of(Layout::cortex_projects, "projects/sub/demo.md", glob) == std::nullopt);
  CHECK(record_format_of(Layout::cortex_projects, "README.md", glob) == std::nullopt);
  CHECK(record_format_of(Layout::cortex_tasks, "tasks/demo/a.md", glob) == RecordFormat::cortex_task);
  CHECK(record_format_of(Layout::cortex_tasks, "projects/demo.md", glob) == std::nullopt);
  CHECK(record_format_of(Layout::cortex_phases, "phases/demo/p1.md", glob) == RecordFormat::cortex_phase);
  CHECK(record_format_of(Layout::none, "a/open-requirements.ledger.yml", glob) == RecordFormat::open_requirements);
  CHECK(record_format_of(Layout::none, "projects.yaml", glob) == std::nullopt);
  CHECK(lg::merge::to_string(RecordFormat::projects_yaml) == "projects-yaml");
  CHECK(lg::merge::to_string(RecordFormat::cortex_project) == "cortex-project");
}

TEST_CASE("record merge: log entries prepended on both sides interleave newest-first", "[merge][record]") {
  const std::string base = ledger("doing a", {k_run1}, {k_e0});
  const std::string ours = ledger("doing a", {k_run1}, {"2026-09-03 — note — ours", k_e0});
  const std::string theirs = ledger("doing a", {k_run1}, {"2026-09-04 — note — theirs", k_e0});
  const auto m = merged(base, ours, theirs);
  CHECK(m.clean());
  CHECK(m.bytes == ledger("doing a", {k_run1}, {"2026-09-04 — note — theirs", "2026-09-03 — note — ours", k_e0}));
  CHECK(m.records == Records{{"log_added", 2}});
  // Same date: ours' entries first, each side in its own order.
  const auto tie = merged(base, ledger("doing a", {k_run1}, {"2026-09-03 — note — o2", "2026-09-03 — note — o1", k_e0}),
                          ledger("doing a", {k_run1}, {"2026-09-03 — note — t1", k_e0}));
  CHECK(tie.bytes == ledger("doing a", {k_run1},
                            {"2026-09-03 — note — o2", "2026-09-03 — note — o1", "2026-09-03 — note — t1", k_e0}));
}

TEST_CASE("record merge: runs by job id", "[merge][record]") {
  const std::string base = ledger("n", {k_run1, k_run2}, {k_e0});
  const std::string run3 = "3003 — open — gpu — 2026-09-03 — train c";
  const std::string run4 = "3004 — open — gpu — 2026-09-03 — train d";
  // Added on each side: ours' then theirs'.
  CHECK(merged(base, ledger("n", {k_run1, k_run2, run3}, {k_e0}), ledger("n", {k_run1, k_run2, run4}, {k_e0})).bytes ==
        ledger("n", {k_run1, k_run2, run3, run4}, {k_e0}));
  // Finished (removed) on one side, unchanged on the other: removed.
  const auto done = merged(base, ledger("n", {k_run1, k_run2}, {k_e1, k_e0}), ledger("n", {k_run2}, {k_e0}));
  CHECK(done.clean());
  CHECK(done.bytes == ledger("n", {k_run2}, {k_e1, k_e0}));
  CHECK(done.records == Records{{"runs_removed", 1}, {"log_added", 1}});
  // A state change on one side, the run finished (removed) on the other: a
  // conflict, the changed line kept between the markers.
  const std::string run1_running = "3001 — running — gpu — 2026-09-01 — train a";
  const auto restated = merged(base, ledger("n", {run1_running, k_run2}, {k_e0}), ledger("n", {k_run2}, {k_e0}));
  REQUIRE(restated.conflicts.size() == 1);
  CHECK(restated.conflicts[0].record == "run 3001");
  CHECK(restated.conflicts[0].reason == "changed on ours, removed on theirs");
  CHECK(restated.bytes.find("<<<<<<< ours\n- " + run1_running + "\n=======\n>>>>>>> theirs\n- " + k_run2) != std::string::npos);
  // Same id added on both sides with different text: a conflict around that run only.
  const auto clash = merged(base, ledger("n", {k_run1, k_run2, run3}, {k_e0}),
                            ledger("n", {k_run1, k_run2, "3003 — open — gpu — 2026-09-03 — other"}, {k_e0}));
  REQUIRE(clash.conflicts.size() == 1);
  CHECK(clash.conflicts[0].record == "run 3003");
  CHECK(clash.bytes == ledger("n", {k_run1, k_run2}, {k_e0}).replace(
                           ledger("n", {k_run1, k_run2}, {k_e0}).find("\n## Log"), 0,
                           "<<<<<<< ours\n- " + run3 + "\n=======\n- 3003 — open — gpu — 2026-09-03 — other\n>>>>>>> theirs\n"));
}

TEST_CASE("record merge: header fields and Now", "[merge][record]") {
  const std::string base = ledger("n", {}, {k_e0});
  // One header field set to two values: a conflict.
  const auto issue = merged(base, ledger("n", {}, {k_e0}, "Repo#1"), ledger("n", {}, {k_e0}, "Repo#2"));
  REQUIRE(issue.conflicts.size() == 1);
  CHECK(issue.conflicts[0].record == "field Issue");
  // One side's field, the other's log entry: both.
  const auto both = merged(base, ledger("n", {}, {k_e0}, "Repo#1"), ledger("n", {}, {k_e1, k_e0}));
  CHECK(both.clean());
  CHECK(both.bytes == ledger("n", {}, {k_e1, k_e0}, "Repo#1"));
  CHECK(both.records == Records{{"fields_changed", 1}, {"log_added", 1}});
  // Both rewrote Now differently: a conflict; the same way: clean.
  const auto now = merged(base, ledger("ours now", {}, {k_e0}), ledger("theirs now", {}, {k_e0}));
  REQUIRE(now.conflicts.size() == 1);
  CHECK(now.conflicts[0].record == "## Now");
  CHECK(now.bytes.find("## Now\n\n<<<<<<< ours\nours now\n=======\ntheirs now\n>>>>>>> theirs\n\n## Runs") != std::string::npos);
  CHECK(merged(base, ledger("same", {}, {k_e0}), ledger("same", {}, {k_e0})).clean());
}

TEST_CASE("record merge: what cannot be placed with certainty", "[merge][record]") {
  const std::string base = ledger("n", {}, {k_e0});
  // A side whose new entries are not newest-first.
  const auto order = merged(base, ledger("n", {}, {"2026-08-01 — note — old", k_e0}),
                            ledger("n", {}, {"2026-09-05 — note — t", k_e0}));
  CHECK_FALSE(order.clean());
  // The same entry added on both sides next to different ones.
  const auto dup = merged(base, ledger("n", {}, {"2026-09-05 — note — x", "2026-09-04 — note — a", k_e0}),
                          ledger("n", {}, {"2026-09-04 — note — a", k_e0}));
  CHECK_FALSE(dup.clean());
  // An entry edited differently on both sides.
  const auto edit = merged(base, ledger("n", {}, {"2026-09-01 — run — 3001 submitted: A"}),
                           ledger("n", {}, {"2026-09-01 — run — 3001 submitted: B"}));
  CHECK_FALSE(edit.clean());
  // A side that does not parse as a ledger.
  const auto bad = merge_records(RecordFormat::cortex_project, base, base + "- not a log line\n", ledger("x", {}, {k_e0}));
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().kind == lg::ErrorKind::invalid_input);
}

TEST_CASE("record merge: untouched bytes stay as they were", "[merge][record]") {
  const auto crlf = [](std::string s) {
    for (std::size_t i = 0; (i = s.find('\n', i)) != std::string::npos; i += 2) s.replace(i, 1, "\r\n");
    return s;
  };
  const std::string base = crlf(ledger("n", {k_run1}, {k_e0}) + "\n## Extra\n\nkept\n");
  const std::string ours = crlf(ledger("n", {k_run1}, {k_e1, k_e0}) + "\n## Extra\n\nkept\n");
  const std::string theirs = crlf(ledger("n", {k_run1}, {"2026-09-03 — note — t", k_e0}) + "\n## Extra\n\nkept\n");
  const auto m = merged(base, ours, theirs);
  CHECK(m.clean());
  CHECK(m.bytes == crlf(ledger("n", {k_run1}, {"2026-09-03 — note — t", k_e1, k_e0}) + "\n## Extra\n\nkept\n"));
  // Continuation lines travel with their entry.
  const std::string cont_base = ledger("n", {}, {k_e0});
  const std::string cont_ours = ledger("n", {}, {"2026-09-03 — note — o\n  more of o", k_e0});
  const std::string cont_theirs = ledger("n", {}, {"2026-09-04 — note — t\n  more of t", k_e0});
  CHECK(merged(cont_base, cont_ours, cont_theirs).bytes ==
        ledger("n", {}, {"2026-09-04 — note — t\n  more of t", "2026-09-03 — note — o\n  more of o", k_e0}));
}

TEST_CASE("record merge: identities", "[merge][record]") {
  const std::string base = ledger("n", {k_run1}, {k_e0});
  const std::string x = ledger("m", {k_run2}, {k_e1, k_e0}, "Repo#3");
  CHECK(merged(x, x, x).bytes == x);
  CHECK(merged(base, x, base).bytes == x);
  CHECK(merged(base, base, x).bytes == x);
  CHECK(merged(base, x, x).bytes == x);
  // Also for sides the record merge cannot read.
  const std::string odd = "no ledger at all\n## Runs\nnot a run\n";
  CHECK(merged(base, base, odd).bytes == odd);
}

namespace {

std::string row(const std::string& key, const std::string& status = "active", const std::string& partition = "gpu",
                const std::string& extra = "") {
  return key + ":\n  remote: none\n  partition: " + partition + "\n  status: " + status + "\n" + extra;
}

lg::merge::RecordMerge merged_as(RecordFormat f, const std::string& b, const std::string& o, const std::string& t) {
  auto r = merge_records(f, b, o, t);
  REQUIRE(r.has_value());
  return std::move(r).value();
}

}  // namespace

TEST_CASE("record merge: projects.yaml rows by key, fields by name", "[merge][record]") {
  const auto yaml = [](const std::string& b, const std::string& o, const std::string& t) {
    return merged_as(RecordFormat::projects_yaml, b, o, t);
  };
  const std::string head = "# the projects\n# (comments kept)\n";
  const std::string base = head + row("alpha") + "\n# beta runs on ral\n" + row("beta", "active", "ral");
  // A row added on each side: both, ours' first; comments and blank lines kept.
  const auto added = yaml(base, base + "\n" + row("gamma"), base + "\n" + row("delta"));
  CHECK(added.clean());
  CHECK(added.bytes == base + "\n" + row("gamma") + "\n" + row("delta"));
  CHECK(added.records == Records{{"rows_added", 2}});
  // Different fields of one row changed on each side: both.
  const auto fields = yaml(base, head + row("alpha", "dormant") + "\n# beta runs on ral\n" + row("beta", "active", "ral"),
                           head + row("alpha", "active", "both") + "\n# beta runs on ral\n" + row("beta", "active", "ral"));
  CHECK(fields.clean());
  CHECK(fields.bytes == head + row("alpha", "dormant", "both") + "\n# beta runs on ral\n" + row("beta", "active", "ral"));
  // The same field changed differently: a conflict naming the row.
  const auto clash = yaml(base, head + row("alpha", "dormant") + "\n# beta runs on ral\n" + row("beta", "active", "ral"),
                          head + row("alpha", "retired") + "\n# beta runs on ral\n" + row("beta", "active", "ral"));
  REQUIRE(clash.conflicts.size() == 1);
  CHECK(clash.conflicts[0].record == "row alpha");
  // One side changes a row, the other adds one: both.
  const auto mixed = yaml(base, head + row("alpha", "dormant") + "\n# beta runs on ral\n" + row("beta", "active", "ral"),
                          base + "\n" + row("gamma"));
  CHECK(mixed.bytes == head + row("alpha", "dormant") + "\n# beta runs on ral\n" + row("beta", "active", "ral") + "\n" +
                           row("gamma"));
  // The same row added on both sides with different fields: a conflict.
  CHECK_FALSE(yaml(base, base + "\n" + row("gamma"), base + "\n" + row("gamma", "planned")).clean());
  // Not YAML: not merged as records.
  CHECK_FALSE(merge_records(RecordFormat::projects_yaml, base, base + "x: [\n", base + "\n" + row("g")).has_value());
}

TEST_CASE("record merge: open-requirements entries by id", "[merge][record]") {
  const auto orl = [](const std::string& b, const std::string& o, const std::string& t) {
    return merged_as(RecordFormat::open_requirements, b, o, t);
  };
  const auto gap = [](const std::string& id, const std::string& by, const std::string& status = "open") {
    return "  - id: " + id + "\n    status: " + status + "\n    raised_by: " + by + "\n    unmet: u\n    missing: m\n";
  };
  const std::string budget = "topology_repair:\n  escalations: 0\n  cap: 5\n";
  const std::string base = budget + "entries:\n" + gap("a", "s");
  // Appended on both sides: both, base-then-branch (ours, then theirs).
  const auto both = orl(base, base + gap("b", "x"), base + gap("c", "y"));
  CHECK(both.clean());
  CHECK(both.bytes == base + gap("b", "x") + gap("c", "y"));
  CHECK(both.records == Records{{"entries_added", 2}});
  // The same id appended on both sides — even with the same text — is a conflict (orl-m-id-collision).
  CHECK_FALSE(orl(base, base + gap("b", "x"), base + gap("b", "y")).clean());
  CHECK_FALSE(orl(base, base + gap("b", "x"), base + gap("b", "x")).clean());
  // Scalar fields three-way: one side's status, the other's budget and new entry.
  const std::string budget2 = "topology_repair:\n  escalations: 1\n  cap: 5\n";
  const auto fields = orl(base, budget + "entries:\n" + gap("a", "s", "closed"), budget2 + "entries:\n" + gap("a", "s") + gap("d", "z"));
  CHECK(fields.clean());
  CHECK(fields.bytes == budget2 + "entries:\n" + gap("a", "s", "closed") + gap("d", "z"));
  // One field set to two values.
  const auto clash = orl(base, budget + "entries:\n" + gap("a", "s", "closed"), budget + "entries:\n" + gap("a", "s", "struck"));
  REQUIRE(clash.conflicts.size() == 1);
  CHECK(clash.conflicts[0].record == "entry a");
}

TEST_CASE("record merge: era-T task files", "[merge][record]") {
  const auto task = [](const std::string& state, const std::vector<std::string>& runs, const std::vector<std::string>& where,
                       const std::string& question = "Does it?") {
    std::string s = "# Demo — a task\n\nProject: demo\nSummary: does it work\nState: " + state +
                    "\n\n## Question\n\n" + question + "\n\n## Witness\n\nnone yet\n\n## Where to look\n\n";
    for (const auto& w : where) s += "- " + w + "\n";
    s += "\n## Runs\n\n";
    for (const auto& r : runs) s += "- " + r + "\n";
    return s + "\n## Ruling\n\n(none)\n";
  };
  const auto pt = [](const std::string& b, const std::string& o, const std::string& t) {
    return merged_as(RecordFormat::cortex_task, b, o, t);
  };
  const std::string r1 = "3001: submitted — gpu — submitted 2026-09-01 — wall 0:00";
  const std::string r1_done = "3001: done — gpu — submitted 2026-09-01 — wall 1:30";
  const std::string r2 = "3002: submitted — gpu — submitted 2026-09-02 — wall 0:00";
  const std::string base = task("ready", {r1}, {"results/a"});
  // A run's state on one side, a new run and a place to look on the other, the state field on a third line.
  const auto m = pt(base, task("running", {r1_done}, {"results/a"}), task("ready", {r1, r2}, {"results/a", "results/b"}));
  CHECK(m.clean());
  CHECK(m.bytes == task("running", {r1_done, r2}, {"results/a", "results/b"}));
  // Places to look added on both sides: ours' then theirs'.
  CHECK(pt(base, task("ready", {r1}, {"results/a", "o"}), task("ready", {r1}, {"results/a", "t"})).bytes ==
        task("ready", {r1}, {"results/a", "o", "t"}));
  // A run removed on one side and changed on the other: a conflict (P/T runs are not removed when they finish).
  CHECK_FALSE(pt(base, task("ready", {r1_done}, {"results/a"}), task("ready", {}, {"results/a"})).clean());
  // Prose rewritten on both sides: a conflict.
  CHECK_FALSE(pt(base, task("ready", {r1}, {"results/a"}, "A?"), task("ready", {r1}, {"results/a"}, "B?")).clean());
  // A run line that does not parse: not merged as records.
  CHECK_FALSE(merge_records(RecordFormat::cortex_task, base, task("ready", {"bogus"}, {}), task("x", {r1}, {})).has_value());
}

TEST_CASE("record merge: log entries edited or deleted", "[merge][record]") {
  const std::string old_entry = "2026-09-01 — run — 3001 submitted: train a";
  const std::string fixed = "2026-09-01 — run — 3001 submitted: train a (fixed)";
  const std::string base = ledger("n", {}, {"2026-09-02 — note — b", old_entry});
  // Edited on one side, a new entry on the other: both.
  const auto edit = merged(base, ledger("n", {}, {"2026-09-02 — note — b", fixed}),
                           ledger("n", {}, {"2026-09-03 — note — t", "2026-09-02 — note — b", old_entry}));
  CHECK(edit.clean());
  CHECK(edit.bytes == ledger("n", {}, {"2026-09-03 — note — t", "2026-09-02 — note — b", fixed}));
  CHECK(edit.records == Records{{"log_added", 2}, {"log_removed", 1}});
  // Edited on one side, deleted on the other: a conflict around that entry only.
  const auto gone = merged(base, ledger("n", {}, {"2026-09-02 — note — b", fixed}), ledger("n", {}, {"2026-09-02 — note — b"}));
  REQUIRE(gone.conflicts.size() == 1);
  CHECK(gone.conflicts[0].record == "## Log");
  CHECK(gone.bytes.find("- 2026-09-02 — note — b\n<<<<<<< ours\n- " + fixed + "\n=======\n>>>>>>> theirs\n") != std::string::npos);
}

TEST_CASE("record merge: labels, marker size and line endings of conflicts", "[merge][record]") {
  const auto crlf = [](std::string s) {
    for (std::size_t i = 0; (i = s.find('\n', i)) != std::string::npos; i += 2) s.replace(i, 1, "\r\n");
    return s;
  };
  lg::merge::MergeLabels labels;
  labels.ours = "HEAD";
  labels.theirs = "topic";
  labels.marker_size = 3;
  const auto r = merge_records(RecordFormat::cortex_project, crlf(ledger("n", {}, {k_e0})),
                               crlf(ledger("n", {}, {k_e0}, "Repo#1")), crlf(ledger("n", {}, {k_e0}, "Repo#2")), labels);
  REQUIRE(r.has_value());
  CHECK(r->bytes.find("Project: demo\r\n<<< HEAD\r\nIssue: Repo#1\r\n===\r\nIssue: Repo#2\r\n>>> topic\r\n\r\n## Now") !=
        std::string::npos);
}

TEST_CASE("record merge: identities for every format", "[merge][record]") {
  const std::vector<std::pair<RecordFormat, std::pair<std::string, std::string>>> cases = {
      {RecordFormat::projects_yaml, {row("a") + "\n" + row("b"), "# top\n" + row("a", "retired") + "\n" + row("c")}},
      {RecordFormat::open_requirements,
       {"entries:\n  - id: a\n    status: open\n", "topology_repair:\n  cap: 2\nentries:\n  - id: b\n    status: closed\n"}},
      {RecordFormat::cortex_task,
       {"# T\n\nProject: p\nState: ready\n\n## Runs\n\n- 1: done — gpu — submitted 2026-09-01 — wall 0:10\n",
        "# T\n\nProject: p\nState: running\n\n## Runs\n\n"}},
  };
  for (const auto& [format, texts] : cases) {
    const auto& [b, x] = texts;
    const auto m = [&, fmt = format](const std::string& o, const std::string& t, const std::string& base) {
      auto r = merge_records(fmt, base, o, t);
      REQUIRE(r.has_value());
      return r->bytes;
    };
    CHECK(m(x, x, x) == x);
    CHECK(m(x, b, b) == x);
    CHECK(m(b, x, b) == x);
  }
}

TEST_CASE("record merge: a run finished on one side and given a line on the other", "[merge][record]") {
  // The skeleton's run 3003 with its continuation; one side adds a second
  // continuation line, the other finishes the run (`done` removes it and logs it).
  const std::string run3 = "3003 — open — gpu — 2026-09-02 — joint fit\n  chained after 3002 with afterok";
  const std::string more = "  resubmit with 4x memory if it OOMs";
  const std::string finished = "2026-09-03 — run — 3003 finished — wall 1:10: joint fit";
  const std::string base = ledger("n", {k_run2, run3}, {k_e0});
  const std::string continued = ledger("n", {k_run2, run3 + "\n" + more}, {k_e0});
  const std::string done = ledger("n", {k_run2}, {finished, k_e0});
  for (const bool ours_finished : {true, false}) {
    const auto m = ours_finished ? merged(base, done, continued) : merged(base, continued, done);
    REQUIRE(m.conflicts.size() == 1);
    CHECK(m.conflicts[0].record == "run 3003");
    CHECK(m.conflicts[0].reason == (ours_finished ? "changed on theirs, removed on ours" : "changed on ours, removed on theirs"));
    CHECK(m.bytes.find(more + "\n") != std::string::npos);  // inside the markers, never dropped
    CHECK(m.bytes.find("- " + finished + "\n") != std::string::npos);  // the other parts still merge
  }
  // Deleted by hand (no log entry) on one side: the same conflict.
  CHECK_FALSE(merged(base, ledger("n", {k_run2}, {k_e0}), continued).clean());
}

TEST_CASE("record merge: a key a side lists twice is a conflict", "[merge][record]") {
  // A resubmission of 3003 above the one listed, while the other side finishes 3003:
  // never the finished run put back with the branch's line dropped.
  const std::string run3 = "3003 — open — gpu — 2026-09-02 — joint fit";
  const std::string again = "3003 — open — gpu — 2026-09-03 — joint fit again with 4x memory";
  const std::string finished = "2026-09-03 — run — 3003 finished — wall 1:10: joint fit";
  const std::string base = ledger("n", {k_run2, run3}, {k_e0});
  const std::string twice = ledger("n", {k_run2, again, run3}, {k_e0});
  const std::string done = ledger("n", {k_run2}, {finished, k_e0});
  for (const bool ours_finished : {true, false}) {
    const auto m = ours_finished ? merged(base, done, twice) : merged(base, twice, done);
    REQUIRE(m.conflicts.size() == 1);
    CHECK(m.conflicts[0].record == "run 3003");
    CHECK(m.conflicts[0].reason == (ours_finished ? "listed twice on theirs" : "listed twice on ours"));
    CHECK(m.bytes.find("- " + again + "\n") != std::string::npos);
    CHECK(m.bytes.find("## Runs\n\n- " + k_run2 + "\n<<<<<<< ours\n") != std::string::npos);  // the part's shared lines stay outside
  }
  // A side that alone changed the part keeps its duplicate (git's answer; the check reports it).
  const std::string log_only = ledger("n", {k_run2, run3}, {finished, k_e0});
  const auto alone = merged(base, log_only, twice);
  CHECK(alone.clean());
  CHECK(alone.bytes == ledger("n", {k_run2, again, run3}, {finished, k_e0}));
  // A header field a side lists twice, while the other side changes it.
  const std::string header = ledger("n", {}, {k_e0});
  std::string doubled = header;
  doubled.replace(doubled.find("Issue: none\n"), 12, "Issue: none\nIssue: x#2\n");
  CHECK_FALSE(merged(header, doubled, ledger("n", {}, {k_e0}, "y#3")).clean());
}

TEST_CASE("record merge: removed on one side, changed on the other, in every format", "[merge][record]") {
  // projects.yaml: a row retired on one side and deleted on the other; a key written twice.
  const std::string rows = row("alpha") + "\n" + row("beta");
  const auto yaml = merged_as(RecordFormat::projects_yaml, rows, row("alpha", "retired") + "\n" + row("beta") + "\n" + row("gamma"),
                              row("beta"));
  REQUIRE(yaml.conflicts.size() == 1);
  CHECK(yaml.conflicts[0].record == "row alpha");
  CHECK(yaml.bytes.find("status: retired") != std::string::npos);
  const auto yaml_twice = merged_as(RecordFormat::projects_yaml, rows, row("alpha", "dormant") + "\n" + row("beta"),
                                    rows + "\n" + row("alpha", "active", "ral"));
  REQUIRE(yaml_twice.conflicts.size() == 1);
  CHECK(yaml_twice.conflicts[0].record == "row alpha");
  CHECK(yaml_twice.conflicts[0].reason == "listed twice on theirs");
  // open-requirements: an entry closed on one side and deleted on the other; an id twice.
  const auto gap = [](const std::string& id, const std::string& status = "open") {
    return "  - id: " + id + "\n    status: " + status + "\n    raised_by: s\n";
  };
  const std::string orl = "entries:\n" + gap("a") + gap("b");
  const auto closed = merged_as(RecordFormat::open_requirements, orl, "entries:\n" + gap("a", "resolved") + gap("b"),
                                "entries:\n" + gap("b") + gap("c"));
  REQUIRE(closed.conflicts.size() == 1);
  CHECK(closed.conflicts[0].record == "entry a");
  CHECK(closed.bytes.find("status: resolved") != std::string::npos);
  CHECK_FALSE(merged_as(RecordFormat::open_requirements, orl, "entries:\n" + gap("a", "struck") + gap("b"),
                        orl + gap("a", "resolved")).clean());
  // era T: a run listed twice on one side while the other changes it.
  const auto task = [](const std::vector<std::string>& runs) {
    std::string s = "# T\n\nProject: p\nState: running\n\n## Runs\n\n";
    for (const auto& r : runs) s += "- " + r + "\n";
    return s;
  };
  const std::string r1 = "1: submitted — gpu — submitted 2026-09-01 — wall 0:00";
  const std::string r1_done = "1: done — gpu — submitted 2026-09-01 — wall 1:00";
  const std::string r1_again = "1: submitted — gpu — submitted 2026-09-02 — wall 0:00";
  const auto pt = merged_as(RecordFormat::cortex_task, task({r1}), task({r1_done}), task({r1_again, r1}));
  REQUIRE(pt.conflicts.size() == 1);
  CHECK(pt.conflicts[0].record == "run 1");
  CHECK(pt.bytes.find("- " + r1_again + "\n") != std::string::npos);
}
