// A measurement, not a test (hidden: run with `ledgergate_unit_tests
// "[.bench]"`): the time of 1,000 record merges of a realistic era-R ledger
// (8 runs, 400 log entries) where each side added a run and two log entries,
// and of a 300-row projects.yaml where each side changed one row and added one.
#include <catch2/catch.hpp>
#include <ctime>
#include <iostream>
#include <string>

#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/ledger/yaml_doc.hpp"
#include "ledgergate/merge/record_merge.hpp"

namespace {

std::string ledger(const std::string& runs_tail, const std::string& log_head) {
  std::string s = "# demo — a demo project\n\nProject: demo\nIssue: PyAutoLabs/demo#12\n\n## Now\n\nTraining the "
                  "second model; waiting on 3007.\n\n## Runs\n\n";
  for (int i = 0; i < 8; ++i) s += "- 300" + std::to_string(i) + " — running — gpu — 2026-08-2" + std::to_string(i % 9) + " — train model " + std::to_string(i) + "\n  with the long config\n";
  s += runs_tail + "\n## Log\n\n" + log_head;
  for (int i = 400; i-- > 0;) {
    s += "- 2026-0" + std::to_string(1 + i / 60) + "-" + std::to_string(10 + i % 60 / 4) + " — note — entry " + std::to_string(i) + " of the long history\n";
  }
  return s;
}

std::string rows(int changed, const std::string& status, const std::string& extra) {
  std::string s = "# the projects\n";
  for (int i = 0; i < 300; ++i) {
    s += "p" + std::to_string(i) + ":\n  remote: none\n  partition: gpu\n  status: " + (i == changed ? status : "active") + "\n\n";
  }
  return s + extra;
}

template <class F>
void time_it(const char* what, F&& merge) {
  // CPU time, not wall time: the figure should not depend on what else the machine runs.
  const std::clock_t start = std::clock();
  for (int i = 0; i < 1000; ++i) merge();
  const double took_us = 1e6 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  std::cout << what << ": " << took_us / 1000 << " us CPU per merge (1,000 merges)\n";
}

}  // namespace

TEST_CASE("record merge: time per resolved file", "[.bench]") {
  using lg::merge::RecordFormat;
  const std::string base = ledger("", "");
  const std::string ours = ledger("- 3010 — open — gpu — 2026-09-03 — ours\n",
                                  "- 2026-09-03 — run — 3010 submitted: ours\n- 2026-09-03 — note — o\n");
  const std::string theirs = ledger("- 3011 — open — gpu — 2026-09-04 — theirs\n",
                                    "- 2026-09-04 — run — 3011 submitted: theirs\n- 2026-09-02 — note — t\n");
  REQUIRE(lg::merge::merge_records(RecordFormat::cortex_project, base, ours, theirs)->clean());
  time_it("cortex-project, 400 entries", [&] { (void)lg::merge::merge_records(RecordFormat::cortex_project, base, ours, theirs); });
  // For scale: what the three parses alone cost (the checker pays them too).
  time_it("  of which 3 x parse_project_ledger", [&] {
    for (const std::string* s : {&base, &ours, &theirs}) (void)lg::ledger::parse_project_ledger(*s);
  });
  const std::string yb = rows(-1, "", ""), yo = rows(7, "dormant", "new_a:\n  status: planned\n"),
                    yt = rows(200, "retired", "new_b:\n  status: planned\n");
  REQUIRE(lg::merge::merge_records(RecordFormat::projects_yaml, yb, yo, yt)->clean());
  time_it("projects.yaml, 300 rows", [&] { (void)lg::merge::merge_records(RecordFormat::projects_yaml, yb, yo, yt); });
  time_it("  of which 3 x load_yaml", [&] {
    for (const std::string* s : {&yb, &yo, &yt}) (void)lg::ledger::load_yaml(*s);
  });
}
