// A measurement, not a test (hidden: run with `ledgergate_unit_tests
// "[.bench]"`): the CPU time of one record merge of a realistic era-R ledger
// (8 runs and 20, 400, 1,000 or 2,000 log entries) where each side added a
// run and two log entries, and of a projects.yaml of 300 or 2,000 rows where
// each side changed one row and added one; the sizes show how it scales.
#include <catch2/catch.hpp>
#include <ctime>
#include <iostream>
#include <string>

#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/ledger/yaml_doc.hpp"
#include "ledgergate/merge/record_merge.hpp"

namespace {

std::string two_digits(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

std::string ledger(const std::string& runs_tail, const std::string& log_head, int entries) {
  std::string s = "# demo — a demo project\n\nProject: demo\nIssue: PyAutoLabs/demo#12\n\n## Now\n\nTraining the "
                  "second model; waiting on 3007.\n\n## Runs\n\n";
  for (int i = 0; i < 8; ++i) s += "- 300" + std::to_string(i) + " — running — gpu — 2026-08-2" + std::to_string(i % 9) + " — train model " + std::to_string(i) + "\n  with the long config\n";
  s += runs_tail + "\n## Log\n\n" + log_head;
  for (int i = entries; i-- > 0;) {  // four entries a day, newest first, all before 2026-09
    const int day = i / 4;
    s += "- " + std::to_string(2020 + day / 336) + "-" + two_digits(1 + day / 28 % 12) + "-" + two_digits(1 + day % 28) +
         " — note — entry " + std::to_string(i) + " of the long history\n";
  }
  return s;
}

std::string rows(int count, int changed, const std::string& status, const std::string& extra) {
  std::string s = "# the projects\n";
  for (int i = 0; i < count; ++i) {
    s += "p" + std::to_string(i) + ":\n  remote: none\n  partition: gpu\n  status: " + (i == changed ? status : "active") + "\n\n";
  }
  return s + extra;
}

// CPU time, not wall time: the figure should not depend on what else the machine runs.
template <class F>
void time_it(const std::string& what, int times, F&& merge) {
  const std::clock_t start = std::clock();
  for (int i = 0; i < times; ++i) merge();
  const double took_us = 1e6 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  std::cout << what << ": " << took_us / times << " us CPU per merge (" << times << " merges)\n";
}

// Fewer repetitions of the larger files, so the whole stays within seconds.
int times_for(int size) { return size <= 20 ? 1000 : 200000 / size; }

}  // namespace

TEST_CASE("record merge: time per resolved file", "[.bench]") {
  using lg::merge::RecordFormat;
  for (const int entries : {20, 400, 1000, 2000}) {
    const std::string base = ledger("", "", entries);
    const std::string ours = ledger("- 3010 — open — gpu — 2026-09-03 — ours\n",
                                    "- 2026-09-03 — run — 3010 submitted: ours\n- 2026-09-03 — note — o\n", entries);
    const std::string theirs = ledger("- 3011 — open — gpu — 2026-09-04 — theirs\n",
                                      "- 2026-09-04 — run — 3011 submitted: theirs\n- 2026-09-02 — note — t\n", entries);
    REQUIRE(lg::merge::merge_records(RecordFormat::cortex_project, base, ours, theirs)->clean());
    const std::string size = std::to_string(entries) + " entries";
    time_it("cortex-project, " + size, times_for(entries),
            [&] { (void)lg::merge::merge_records(RecordFormat::cortex_project, base, ours, theirs); });
    // For scale: what the three parses alone cost (the checker pays them too).
    time_it("  of which 3 x parse_project_ledger", times_for(entries), [&] {
      for (const std::string* s : {&base, &ours, &theirs}) (void)lg::ledger::parse_project_ledger(*s);
    });
  }
  for (const int count : {300, 2000}) {
    const std::string yb = rows(count, -1, "", ""), yo = rows(count, 7, "dormant", "new_a:\n  status: planned\n"),
                      yt = rows(count, 200, "retired", "new_b:\n  status: planned\n");
    REQUIRE(lg::merge::merge_records(RecordFormat::projects_yaml, yb, yo, yt)->clean());
    time_it("projects.yaml, " + std::to_string(count) + " rows", times_for(count),
            [&] { (void)lg::merge::merge_records(RecordFormat::projects_yaml, yb, yo, yt); });
    time_it("  of which 3 x load_yaml", times_for(count), [&] {
      for (const std::string* s : {&yb, &yo, &yt}) (void)lg::ledger::load_yaml(*s);
    });
  }
}
