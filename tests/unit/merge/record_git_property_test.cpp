// The record merge's no-silent-loss property, with `git merge-file` as the
// baseline, over random pairs of edits of every record format (an era-R
// project ledger, an era-T task file, projects.yaml, an open-requirements
// ledger): from a random base, each side makes one to three edits of the
// kinds writers make (a run added, resubmitted under an id already listed,
// finished or deleted, restated, given a continuation line; a log entry
// prepended, edited, deleted; a header field, `## Now`, a row's field, a
// comment; an entry raised or closed ...), ids shared between the sides now
// and then. For every pair the record merge either conflicts or
//   - keeps every line either side added (a line a side has more often than
//     the base),
//   - keeps no record a side removed that the other side left as it was (no
//     finished run comes back): no line that names its record (any line of
//     a Markdown ledger, a row's key line, an entry's `- id:` line) a side
//     removed entirely while the other has it as often as the base,
//   - and, where git's textual merge is clean too, holds the same lines as
//     git's result;
// a conflict keeps every added line inside its markers. A side the format's
// parser refuses is left to git's merge (counted, not judged).
// Fixed seed; LEDGERGATE_MERGE_PROPERTY_PAIRS (pairs per format, default 500)
// and LEDGERGATE_MERGE_PROPERTY_SEED change them (`scripts/fuzz --merge-property`).
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ledgergate/merge/record_merge.hpp"
#include "support/fixture_tree.hpp"

namespace {

using lg::merge::RecordFormat;
using Rng = std::mt19937_64;

std::uint32_t pick(Rng& rng, std::size_t n) { return static_cast<std::uint32_t>(rng() % n); }
bool chance(Rng& rng, int percent) { return pick(rng, 100) < static_cast<std::uint32_t>(percent); }

std::string day(int d) { return "2026-09-" + std::string(d < 10 ? "0" : "") + std::to_string(d); }

// A record with its continuation lines (or a row or entry with its fields).
struct Rec {
  std::string id, line;
  std::vector<std::string> more;
};

// One side's edits: its tag makes every line it writes its own; `today` only grows.
struct Writer {
  std::string tag;
  int today = 0, serial = 0;
  std::string text() { return tag + " " + std::to_string(++serial); }
};

// --- era R: projects/<key>.md ------------------------------------------------

struct Ledger {
  std::string issue = "demo#1", now = "Wave 1 is on the cluster.";
  std::vector<Rec> runs, log;  // log newest first
};

std::string render(const Ledger& l) {
  std::string s = "# demo — a demo project\n\nProject: demo\nIssue: " + l.issue + "\n\n## Now\n\n" + l.now + "\n\n## Runs\n\n";
  for (const Rec& r : l.runs) {
    s += r.line + "\n";
    for (const auto& m : r.more) s += m + "\n";
  }
  s += "\n## Log\n\n";
  for (const Rec& e : l.log) {
    s += e.line + "\n";
    for (const auto& m : e.more) s += m + "\n";
  }
  return s;
}

Rec run_line(const std::string& id, const std::string& state, int d, const std::string& what) {
  return {id, "- " + id + " — " + state + " — gpu — " + day(d) + " — " + what, {}};
}

Ledger ledger_base(Rng& rng) {
  Ledger l;
  const int runs = static_cast<int>(pick(rng, 5));
  for (int i = 0; i < runs; ++i) {
    Rec r = run_line(std::to_string(3001 + i), chance(rng, 50) ? "open" : "running", 1 + i, "base job " + std::to_string(i));
    if (chance(rng, 30)) r.more.push_back("  chained after the base job " + std::to_string(i));
    l.runs.push_back(r);
  }
  const int entries = 1 + static_cast<int>(pick(rng, 4));
  for (int i = entries; i-- > 0;) {
    Rec e{"", "- " + day(1 + i) + " — note — base entry " + std::to_string(i), {}};
    if (chance(rng, 20)) e.more.push_back("  more on base entry " + std::to_string(i));
    l.log.push_back(e);
  }
  return l;
}

void prepend(Ledger& l, Writer& w, Rng& rng, const std::string& kind, const std::string& text) {
  if (w.today < 28 && chance(rng, 50)) ++w.today;
  l.log.insert(l.log.begin(), Rec{"", "- " + day(w.today) + " — " + kind + " — " + text, {}});
}

void ledger_edit(Ledger& l, Writer& w, Rng& rng) {
  auto& runs = l.runs;
  const auto any_run = [&] { return static_cast<std::ptrdiff_t>(pick(rng, runs.size())); };
  switch (pick(rng, 12)) {
    case 0: {  // a new run: a fresh id, the id both sides use now and then, or a resubmission of one listed
      const std::string what = "job " + w.text();
      std::string id;
      if (!runs.empty() && chance(rng, 20)) {
        const auto at = any_run();
        id = runs[static_cast<std::size_t>(at)].id;
        runs.insert(runs.begin() + at, run_line(id, "open", w.today, "resubmitted " + what));
      } else {
        id = chance(rng, 15) ? "4000" : std::to_string((w.tag == "ours" ? 5000 : 6000) + w.serial);
        runs.push_back(run_line(id, "open", w.today, chance(rng, 30) && id == "4000" ? "the shared job" : what));
      }
      prepend(l, w, rng, "run", id + " submitted: " + what);
      break;
    }
    case 1:  // done: the run leaves ## Runs, the log says so
      if (!runs.empty()) {
        const auto at = any_run();
        const std::string id = runs[static_cast<std::size_t>(at)].id;
        runs.erase(runs.begin() + at);
        prepend(l, w, rng, "run", id + " finished — wall 1:00: " + w.text());
      }
      break;
    case 2:  // running
      if (!runs.empty()) {
        Rec& r = runs[static_cast<std::size_t>(any_run())];
        const std::string open = " — open — ";
        if (const auto p = r.line.find(open); p != std::string::npos) r.line.replace(p, open.size(), " — running — ");
      }
      break;
    case 3:  // a continuation line under a run
      if (!runs.empty()) runs[static_cast<std::size_t>(any_run())].more.push_back("  resubmit with 4x memory if it OOMs, " + w.text());
      break;
    case 4: prepend(l, w, rng, "note", "a note, " + w.text()); break;
    case 5:  // a continuation line under a log entry
      l.log[pick(rng, l.log.size())].more.push_back("  and more, " + w.text());
      break;
    case 6: l.issue = "demo#" + std::to_string(10 + w.serial) + w.tag; break;
    case 7: l.now = "Now as " + w.text() + " sees it."; break;
    case 8:  // a log entry deleted
      if (l.log.size() > 1) l.log.erase(l.log.begin() + static_cast<std::ptrdiff_t>(pick(rng, l.log.size())));
      break;
    case 9:  // a log entry edited
      l.log[pick(rng, l.log.size())].line += " (edited by " + w.text() + ")";
      break;
    case 10:  // a run deleted by hand
      if (!runs.empty()) runs.erase(runs.begin() + any_run());
      break;
    default:  // a run's continuation lines dropped
      if (!runs.empty()) runs[static_cast<std::size_t>(any_run())].more.clear();
  }
}

// --- era T: tasks/<project>/<task>.md -----------------------------------------

struct Task {
  std::string state = "running", question = "Does the pipeline recover the truth?";
  std::vector<std::string> where;
  std::vector<Rec> runs;
};

std::string render(const Task& t) {
  std::string s = "# Demo — a task\n\nProject: demo\nSummary: does it work\nState: " + t.state + "\n\n## Question\n\n" +
                  t.question + "\n\n## Witness\n\nnone yet\n\n## Where to look\n\n";
  for (const auto& w : t.where) s += "- " + w + "\n";
  s += "\n## Runs\n\n";
  for (const Rec& r : t.runs) {
    s += r.line + "\n";
    for (const auto& m : r.more) s += m + "\n";
  }
  return s + "\n## Ruling\n\n(none)\n";
}

Rec task_run(const std::string& id, const std::string& state, int d) {
  return {id, "- " + id + ": " + state + " — gpu — submitted " + day(d) + " — wall 0:00", {}};
}

Task task_base(Rng& rng) {
  Task t;
  const int places = static_cast<int>(pick(rng, 3));
  for (int i = 0; i < places; ++i) t.where.push_back("`output/base_" + std::to_string(i) + "/`");
  const int runs = static_cast<int>(pick(rng, 4));
  for (int i = 0; i < runs; ++i) {
    Rec r = task_run(std::to_string(342001 + i), chance(rng, 50) ? "submitted" : "running", 1 + i);
    if (chance(rng, 30)) r.more.push_back("    after: 34200" + std::to_string(i));
    t.runs.push_back(r);
  }
  return t;
}

void task_edit(Task& t, Writer& w, Rng& rng) {
  auto& runs = t.runs;
  const auto any_run = [&] { return static_cast<std::ptrdiff_t>(pick(rng, runs.size())); };
  switch (pick(rng, 9)) {
    case 0:
      if (!runs.empty() && chance(rng, 20)) {
        const auto at = any_run();
        runs.insert(runs.begin() + at, task_run(runs[static_cast<std::size_t>(at)].id, "submitted", w.today));
        runs[static_cast<std::size_t>(at)].line += " — resubmitted by " + w.text();
      } else {
        const std::string id = chance(rng, 15) ? "349000" : std::to_string(350000 + w.serial) + (w.tag == "ours" ? "0" : "1");
        runs.push_back(task_run(id, "submitted", w.today));
        if (id != "349000" || chance(rng, 50)) runs.back().line += " — by " + w.text();
      }
      break;
    case 1:  // a run's state
      if (!runs.empty()) {
        Rec& r = runs[static_cast<std::size_t>(any_run())];
        const auto colon = r.line.find(": ");
        const auto dash = r.line.find(" — ", colon);
        r.line.replace(colon + 2, dash - colon - 2, chance(rng, 50) ? "done" : "failed");
      }
      break;
    case 2:
      if (!runs.empty()) runs[static_cast<std::size_t>(any_run())].more.push_back("    pulled_to: /results/" + w.text());
      break;
    case 3:
      if (!runs.empty()) runs.erase(runs.begin() + any_run());
      break;
    case 4: t.where.push_back("`output/" + w.text() + "/`"); break;
    case 5:
      if (!t.where.empty()) t.where.erase(t.where.begin() + static_cast<std::ptrdiff_t>(pick(rng, t.where.size())));
      break;
    case 6: t.state = chance(rng, 50) ? "pulled" : "awaiting-ruling"; break;
    case 7: t.question = "Does it, as " + w.text() + " asks?"; break;
    default:
      if (!runs.empty()) runs[static_cast<std::size_t>(any_run())].more.clear();
  }
}

// --- projects.yaml -------------------------------------------------------------

struct Rows {
  std::vector<Rec> rows;  // id: the key; line: a comment above it ("" none); more: its field lines
};

std::string render(const Rows& r) {
  std::string s = "# the projects\n";
  for (const Rec& row : r.rows) {
    s += "\n";
    if (!row.line.empty()) s += row.line + "\n";
    s += row.id + ":\n";
    for (const auto& f : row.more) s += "  " + f + "\n";
  }
  return s;
}

Rec yaml_row(const std::string& key, const std::string& status, const std::string& partition) {
  return {key, "", {"remote: none", "local_path: /tmp/" + key, "partition: " + partition, "status: " + status}};
}

Rows rows_base(Rng& rng) {
  Rows r;
  const int n = 1 + static_cast<int>(pick(rng, 4));
  for (int i = 0; i < n; ++i) {
    r.rows.push_back(yaml_row("p" + std::to_string(i), chance(rng, 70) ? "active" : "dormant", chance(rng, 50) ? "ral" : "both"));
    if (chance(rng, 30)) r.rows.back().line = "# p" + std::to_string(i) + " is the base's";
  }
  return r;
}

void set_field(Rec& row, const std::string& name, const std::string& value) {
  for (auto& f : row.more) {
    if (f.rfind(name + ": ", 0) == 0) {
      f = name + ": " + value;
      return;
    }
  }
  row.more.push_back(name + ": " + value);
}

void rows_edit(Rows& r, Writer& w, Rng& rng) {
  auto& rows = r.rows;
  const auto any = [&] { return static_cast<std::ptrdiff_t>(pick(rng, rows.size())); };
  switch (pick(rng, 7)) {
    case 0: {  // a row added: a fresh key, the key both sides add now and then, or a key written twice
      std::string key = chance(rng, 15) ? "shared" : "new_" + w.tag + std::to_string(w.serial + 1);
      if (!rows.empty() && chance(rng, 15)) key = rows[static_cast<std::size_t>(any())].id;
      rows.push_back(yaml_row(key, "active", "ral"));
      if (key != "shared" || chance(rng, 50)) set_field(rows.back(), "note", "\"" + w.text() + "\"");
      break;
    }
    case 1:
      if (!rows.empty()) rows.erase(rows.begin() + any());
      break;
    case 2:
      if (!rows.empty()) set_field(rows[static_cast<std::size_t>(any())], "status", chance(rng, 50) ? "retired" : "dormant");
      break;
    case 3:
      if (!rows.empty()) set_field(rows[static_cast<std::size_t>(any())], "partition", chance(rng, 50) ? "gpu" : "cpu");
      break;
    case 4:
      if (!rows.empty()) set_field(rows[static_cast<std::size_t>(any())], "note", "\"" + w.text() + "\"");
      break;
    case 5:
      if (!rows.empty()) rows[static_cast<std::size_t>(any())].line = "# a comment by " + w.text();
      break;
    default:
      if (!rows.empty()) {
        auto& fields = rows[static_cast<std::size_t>(any())].more;
        if (fields.size() > 1) fields.erase(fields.begin() + static_cast<std::ptrdiff_t>(pick(rng, fields.size())));
      }
  }
}

// --- open-requirements ledger ----------------------------------------------------

struct Requirements {
  int escalations = 0;
  std::vector<Rec> entries;  // id; more: the fields after `id:`
};

std::string render(const Requirements& r) {
  std::string s = "# gaps\ntopology_repair:\n  escalations: " + std::to_string(r.escalations) + "\n  cap: 5\nentries:\n";
  for (const Rec& e : r.entries) {
    s += "  - id: " + e.id + "\n";
    for (const auto& f : e.more) s += "    " + f + "\n";
  }
  return s;
}

Rec gap(const std::string& id, const std::string& by) {
  return {id, "", {"status: open", "raised_by: " + by, "unmet: \"the " + id + " is unmet\"", "missing: \"a fix\""}};
}

Requirements requirements_base(Rng& rng) {
  Requirements r;
  r.escalations = static_cast<int>(pick(rng, 3));
  const int n = static_cast<int>(pick(rng, 4));
  for (int i = 0; i < n; ++i) r.entries.push_back(gap("gap-" + std::to_string(i), "step-one"));
  return r;
}

void requirements_edit(Requirements& r, Writer& w, Rng& rng) {
  auto& entries = r.entries;
  const auto any = [&] { return static_cast<std::size_t>(pick(rng, entries.size())); };
  switch (pick(rng, 6)) {
    case 0: {
      std::string id = chance(rng, 15) ? "gap-shared" : "gap-" + w.tag + std::to_string(w.serial + 1);
      if (!entries.empty() && chance(rng, 15)) id = entries[any()].id;
      entries.push_back(gap(id, w.text()));
      break;
    }
    case 1:
      if (!entries.empty()) entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(any()));
      break;
    case 2:
      if (!entries.empty()) set_field(entries[any()], "status", chance(rng, 50) ? "resolved" : "struck");
      break;
    case 3:
      if (!entries.empty()) set_field(entries[any()], "resolved_by", w.text());
      break;
    case 4: r.escalations += 1; break;
    default:
      if (!entries.empty()) set_field(entries[any()], "missing", "\"" + w.text() + "\"");
  }
}

// --- the property ------------------------------------------------------------------

struct Pair {
  std::string base, ours, theirs;
};

// One generator per format: a random base and each side's edits of it.
template <class Model>
std::function<Pair(Rng&)> generator(std::function<Model(Rng&)> make, std::function<void(Model&, Writer&, Rng&)> edit) {
  return [make, edit](Rng& rng) {
    const Model base = make(rng);
    Model ours = base, theirs = base;
    Writer o{"ours", 10, 0}, t{"theirs", 10, 0};
    const int n_o = 1 + static_cast<int>(pick(rng, 3)), n_t = 1 + static_cast<int>(pick(rng, 3));
    for (int i = 0; i < n_o; ++i) edit(ours, o, rng);
    for (int i = 0; i < n_t; ++i) edit(theirs, t, rng);
    return Pair{render(base), render(ours), render(theirs)};
  };
}

std::map<std::string, int> line_counts(const std::string& text) {
  std::map<std::string, int> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) ++out[line];
  }
  return out;
}

int count_of(const std::map<std::string, int>& counts, const std::string& line) {
  const auto it = counts.find(line);
  return it == counts.end() ? 0 : it->second;
}

bool is_marker(const std::string& line) {
  return line.rfind("<<<<<<<", 0) == 0 || line.rfind("=======", 0) == 0 || line.rfind(">>>>>>>", 0) == 0 ||
         line.rfind("|||||||", 0) == 0;
}

// git merge-file on each pair in `dir` (N.o N.b N.t → N.m, N.rc): one shell, one git process a pair.
void git_merge_files(const std::string& dir, std::size_t n) {
  const std::string script = "cd '" + dir + "' && i=0; while [ $i -lt " + std::to_string(n) +
                             " ]; do git merge-file -p $i.o $i.b $i.t > $i.m 2>/dev/null; echo $? > $i.rc; i=$((i+1)); done";
  REQUIRE(std::system(script.c_str()) == 0);
}

struct Tally {
  int pairs = 0, refused = 0, both_clean = 0, records_only = 0, git_only = 0, both_conflict = 0;
  std::string first_refusal;  // why the first side left to git did not parse
};

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtoull(v, nullptr, 10) : fallback;
}

}  // namespace

TEST_CASE("record merge property: no line either side added is lost, against git merge-file",
          "[merge][record][property][merge-property]") {
  const std::uint64_t seed = env_number("LEDGERGATE_MERGE_PROPERTY_SEED", 34);
  const auto pairs = static_cast<std::size_t>(env_number("LEDGERGATE_MERGE_PROPERTY_PAIRS", 500));
  // Which lines name their record (a YAML field line such as `status: open`
  // recurs in many records, so its count says nothing about one).
  using Names = std::function<bool(const std::string&)>;
  const Names every_line = [](const std::string&) { return true; };
  const Names row_keys = [](const std::string& line) { return line[0] != ' ' && line[0] != '#'; };
  const Names entry_ids = [](const std::string& line) { return line.rfind("  - id: ", 0) == 0; };
  const std::vector<std::tuple<std::string, RecordFormat, std::function<Pair(Rng&)>, Names>> formats = {
      {"era-R ledger", RecordFormat::cortex_project, generator<Ledger>(ledger_base, ledger_edit), every_line},
      {"era-T task", RecordFormat::cortex_task, generator<Task>(task_base, task_edit), every_line},
      {"projects.yaml", RecordFormat::projects_yaml, generator<Rows>(rows_base, rows_edit), row_keys},
      {"open-requirements", RecordFormat::open_requirements,
       generator<Requirements>(requirements_base, requirements_edit), entry_ids},
  };
  for (const auto& [name, format, make, names_record] : formats) {
    Rng rng(seed ^ std::hash<std::string>{}(name));
    lg::test::TempDir dir;
    std::vector<Pair> all;
    all.reserve(pairs);
    for (std::size_t i = 0; i < pairs; ++i) {
      all.push_back(make(rng));
      const std::string at = dir.path() + "/" + std::to_string(i);
      lg::test::write_file(at + ".b", all.back().base);
      lg::test::write_file(at + ".o", all.back().ours);
      lg::test::write_file(at + ".t", all.back().theirs);
    }
    git_merge_files(dir.path(), pairs);
    Tally tally;
    for (std::size_t i = 0; i < pairs; ++i) {
      const Pair& p = all[i];
      const std::string at = dir.path() + "/" + std::to_string(i);
      const std::string git_text = lg::test::read_file(at + ".m");
      const int git_rc = std::atoi(lg::test::read_file(at + ".rc").c_str());
      REQUIRE(git_rc >= 0);
      REQUIRE(git_rc < 128);
      const bool git_clean = git_rc == 0;
      ++tally.pairs;
      auto merged = lg::merge::merge_records(format, p.base, p.ours, p.theirs);
      if (!merged) {
        REQUIRE(merged.error().kind == lg::ErrorKind::invalid_input);
        if (tally.refused++ == 0) tally.first_refusal = merged.error().message;
        continue;
      }
      INFO(name << ", seed " << seed << ", pair " << i << "\n--- base\n" << p.base << "--- ours\n" << p.ours << "--- theirs\n"
                << p.theirs << "--- record merge (" << (merged->clean() ? "clean" : "conflict") << ")\n" << merged->bytes
                << "--- git merge-file (exit " << git_rc << ")\n" << git_text);
      const auto base = line_counts(p.base), ours = line_counts(p.ours), theirs = line_counts(p.theirs);
      const auto result = line_counts(merged->bytes);
      // Every line either side added is there, clean or not (a conflict keeps both sides between its markers).
      for (const auto* side : {&ours, &theirs}) {
        for (const auto& [line, n] : *side) {
          if (n > count_of(base, line)) {
            INFO("added line: " << line);
            CHECK(count_of(result, line) > 0);
          }
        }
      }
      if (!merged->clean()) {
        ++(git_clean ? tally.git_only : tally.both_conflict);
        continue;
      }
      ++(git_clean ? tally.both_clean : tally.records_only);
      for (const auto& [line, n] : result) CHECK_FALSE(is_marker(line));
      // A record one side removed while the other left it as it was is gone.
      for (const auto& [line, n] : base) {
        if (!names_record(line)) continue;
        for (const auto& [gone, kept] : {std::pair{&ours, &theirs}, std::pair{&theirs, &ours}}) {
          if (count_of(*gone, line) == 0 && count_of(*kept, line) == n) {
            INFO("removed line: " << line);
            CHECK(count_of(result, line) == 0);
          }
        }
      }
      // Where git's textual merge is clean too, the same lines (the order may differ: a log interleaves by date).
      if (git_clean) CHECK(result == line_counts(git_text));
    }
    WARN(name << ": " << tally.pairs << " pairs, " << tally.refused << " left to git (a side does not parse"
              << (tally.refused != 0 ? ", first: " + tally.first_refusal : std::string()) << "), " << tally.both_clean << " clean for both, " << tally.records_only << " clean only as records, "
              << tally.git_only << " clean only for git, " << tally.both_conflict << " conflicting for both");
    CHECK(tally.both_clean > 0);
    CHECK(tally.records_only > 0);
    CHECK(tally.both_conflict > 0);
  }
}
