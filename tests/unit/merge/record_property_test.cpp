// Property tests of the record merge over random concurrent writer
// histories of one era-R ledger: from a common base, each side runs the
// writer verbs (run, running, done, log, now) in a random order; the merge
// must keep every record of both sides exactly once, newest-first, equal to
// applying one side's edits after the other's, and conflict exactly where
// that is not defined (both sides rewrote ## Now; the same job id added on
// both sides with different text; a run one side finished while the other
// set it running). Fixed seed; LEDGERGATE_PROPERTY_ITERATIONS
// raises the default 300 iterations.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ledgergate/merge/record_merge.hpp"

namespace {

struct Run {
  int id = 0;
  std::string state = "open", date, what;
  friend bool operator==(const Run&, const Run&) = default;
};
struct Entry {
  std::string date, kind, text;
};
struct Ledger {
  std::string now = "Working on the base.";
  std::vector<Run> runs;
  std::vector<Entry> log;  // newest first
};

std::string day(int d) { return "2026-09-" + std::string(d < 10 ? "0" : "") + std::to_string(d); }

std::string render(const Ledger& l) {
  std::string s = "# demo — a demo project\n\nProject: demo\nIssue: none\n\n## Now\n\n" + l.now + "\n\n## Runs\n\n";
  for (const Run& r : l.runs) s += "- " + std::to_string(r.id) + " — " + r.state + " — gpu — " + r.date + " — " + r.what + "\n";
  s += "\n## Log\n\n";
  for (const Entry& e : l.log) s += "- " + e.date + " — " + e.kind + " — " + e.text + "\n";
  return s;
}

// One side's history: the writer verbs applied to its copy, and what it did.
struct Side {
  Ledger ledger;
  std::string tag;            // "ours" / "theirs": makes each side's texts its own
  int today = 0, next_id = 0;
  std::vector<Entry> added;   // its new log entries, newest first
  std::set<int> removed, restated;
  std::vector<Run> new_runs;  // its new runs still listed, in order
  bool now_changed = false;
};

std::uint32_t pick(std::mt19937& rng, std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); }

void prepend(Side& s, const std::string& kind, const std::string& text) {
  const Entry e{day(s.today), kind, text};
  s.ledger.log.insert(s.ledger.log.begin(), e);
  s.added.insert(s.added.begin(), e);
}

void add_run(Side& s, int id, const std::string& what) {
  const Run r{id, "open", day(s.today), what};
  s.ledger.runs.push_back(r);
  s.new_runs.push_back(r);
  prepend(s, "run", std::to_string(id) + " submitted: " + what);
}

void step(Side& s, std::mt19937& rng) {
  s.today += static_cast<int>(pick(rng, 2));
  auto& runs = s.ledger.runs;
  switch (pick(rng, 5)) {
    case 0: add_run(s, s.next_id++, "train " + s.tag + " " + std::to_string(s.next_id)); break;
    case 1: {  // running
      if (runs.empty()) break;
      Run& r = runs[pick(rng, static_cast<std::uint32_t>(runs.size()))];
      r.state = "running";
      s.restated.insert(r.id);
      for (Run& n : s.new_runs) {
        if (n.id == r.id) n.state = "running";
      }
      break;
    }
    case 2: {  // done
      if (runs.empty()) break;
      const auto at = runs.begin() + pick(rng, static_cast<std::uint32_t>(runs.size()));
      const Run r = *at;
      runs.erase(at);
      s.removed.insert(r.id);
      std::erase(s.new_runs, r);
      prepend(s, "run", std::to_string(r.id) + " finished — wall 1:00: " + r.what + " (" + s.tag + ")");
      break;
    }
    case 3: prepend(s, "note", "a note from " + s.tag + " " + std::to_string(s.added.size())); break;
    default:
      if (pick(rng, 3) == 0) {
        s.ledger.now = "Now as " + s.tag + " sees it, " + std::to_string(s.today);
        s.now_changed = true;
      }
  }
}

Ledger random_base(std::mt19937& rng) {
  Ledger b;
  const int runs = static_cast<int>(pick(rng, 4));
  for (int i = 0; i < runs; ++i) b.runs.push_back(Run{3000 + i, pick(rng, 2) ? "open" : "running", day(1 + i), "base job " + std::to_string(i)});
  const int entries = 1 + static_cast<int>(pick(rng, 4));
  for (int i = entries; i-- > 0;) b.log.push_back(Entry{day(1 + i), "note", "base entry " + std::to_string(i)});
  return b;
}

// The merge as a model: base runs neither side finished (restated where
// either did), then each side's new runs — ours' first or theirs' first, as
// applying one side's edits after the other's gives; the log's new entries
// interleaved newest-first, ours' first on a tie, above the base's.
std::string model(const Ledger& base, const Side& o, const Side& t, bool ours_first) {
  Ledger m = base;
  m.now = o.now_changed ? o.ledger.now : t.ledger.now;
  std::erase_if(m.runs, [&](const Run& r) { return o.removed.count(r.id) || t.removed.count(r.id); });
  for (Run& r : m.runs) {
    if (o.restated.count(r.id) || t.restated.count(r.id)) r.state = "running";
  }
  const Side& first = ours_first ? o : t;
  const Side& second = ours_first ? t : o;
  m.runs.insert(m.runs.end(), first.new_runs.begin(), first.new_runs.end());
  m.runs.insert(m.runs.end(), second.new_runs.begin(), second.new_runs.end());
  std::vector<Entry> added;
  std::merge(o.added.begin(), o.added.end(), t.added.begin(), t.added.end(), std::back_inserter(added),
             [](const Entry& a, const Entry& b) { return a.date > b.date; });
  m.log.insert(m.log.begin(), added.begin(), added.end());
  return render(m);
}

int iterations() {
  const char* env = std::getenv("LEDGERGATE_PROPERTY_ITERATIONS");
  return env != nullptr ? std::atoi(env) : 300;
}

lg::merge::RecordMerge merge3(const std::string& b, const std::string& o, const std::string& t) {
  auto r = lg::merge::merge_records(lg::merge::RecordFormat::cortex_project, b, o, t);
  REQUIRE(r.has_value());
  return std::move(r).value();
}

}  // namespace

TEST_CASE("record merge property: concurrent writer histories", "[merge][record][property]") {
  std::mt19937 rng(13);
  int clean = 0, conflicted = 0;
  for (int it = 0; it < iterations(); ++it) {
    const Ledger base = random_base(rng);
    const int head = static_cast<int>(base.log.size());  // the base's head date: day(head)
    Side o{base, "ours", head, 5000, {}, {}, {}, {}, false};
    Side t{base, "theirs", head, 7000, {}, {}, {}, {}, false};
    const int steps_o = static_cast<int>(pick(rng, 6)), steps_t = static_cast<int>(pick(rng, 6));
    for (int i = 0; i < steps_o; ++i) step(o, rng);
    for (int i = 0; i < steps_t; ++i) step(t, rng);
    // Sometimes both sides submit the same job id: a conflict unless the lines are equal.
    const bool same_id = pick(rng, 8) == 0;
    if (same_id) {
      add_run(o, 9000, "the shared job, by ours");
      add_run(t, 9000, "the shared job, by theirs");
    }
    const std::string b = render(base), ours = render(o.ledger), theirs = render(t.ledger);
    INFO("iteration " << it << "\n--- base\n" << b << "--- ours\n" << ours << "--- theirs\n" << theirs);
    const auto m = merge3(b, ours, theirs);
    CHECK(merge3(b, ours, theirs).bytes == m.bytes);  // deterministic
    std::set<std::string> expected;
    if (o.now_changed && t.now_changed && o.ledger.now != t.ledger.now) expected.insert("## Now");
    if (same_id) expected.insert("run 9000");
    for (const Run& r : base.runs) {
      const auto finished_restated = [&](const Side& done, const Side& other) {
        return done.removed.count(r.id) && !other.removed.count(r.id) && other.restated.count(r.id) && r.state == "open";
      };
      if (finished_restated(o, t) || finished_restated(t, o)) expected.insert("run " + std::to_string(r.id));
    }
    std::set<std::string> found;
    for (const auto& c : m.conflicts) found.insert(c.record);
    CHECK(found == expected);
    if (expected.empty()) {
      ++clean;
      INFO("--- merged\n" << m.bytes);
      CHECK((m.bytes == model(base, o, t, true) || m.bytes == model(base, o, t, false)));
    } else {
      ++conflicted;
      // Every new log entry of both sides is still there exactly once.
      for (const Side* s : {&o, &t}) {
        for (const Entry& e : s->added) {
          const std::string line = "- " + e.date + " — " + e.kind + " — " + e.text + "\n";
          std::size_t n = 0;
          for (std::size_t p = m.bytes.find(line); p != std::string::npos; p = m.bytes.find(line, p + 1)) ++n;
          CHECK(n == 1);
        }
      }
    }
    // Identities: merge(X, X, X) = X, merge(b, X, b) = X, merge(b, b, X) = X.
    CHECK(merge3(ours, ours, ours).bytes == ours);
    CHECK(merge3(b, ours, b).bytes == ours);
    CHECK(merge3(b, b, theirs).bytes == theirs);
  }
  CHECK(clean > 0);
  CHECK(conflicted > 0);
}
