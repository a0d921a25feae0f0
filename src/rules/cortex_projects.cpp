// The era-R ledger rules (spec §4.3) in the reference's emission order:
// parse findings, title, header, Now, per-run, per-entry, retired-with-runs.
// The gap rules (§10: G-04, G-05, G-06, G-08) follow as warnings.
#include "ledgergate/rules/cortex_projects.hpp"

#include <map>
#include <set>

#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/cursor.hpp"
#include "file_emitter.hpp"

namespace lg::rules {
namespace {

using diag::PeerForm;
using ledger::ProjectLedger;

std::string section_list(const ProjectLedger& l) {
  if (l.sections.empty()) return "none";
  std::string out;
  for (std::size_t i = 0; i < l.sections.size(); ++i) {
    if (i) out += ", ";
    out += l.sections[i].name;
  }
  return out;
}

void check_structure(const ProjectLedger& l, const Emitter& e) {
  const bool exact = l.sections.size() == 3 && l.sections[0].name == "Now" &&
                     l.sections[1].name == "Runs" && l.sections[2].name == "Log";
  if (!exact) {
    e.peer("ledger-sections-exact", l.sections.empty() ? 0 : l.sections.front().line,
           "sections must be exactly ## Now \xC2\xB7 ## Runs \xC2\xB7 ## Log in that order (found: " +
               section_list(l) + ")");
  }
  for (const ledger::ParseProblem& p : l.problems) {
    const std::string n = "line " + std::to_string(p.line) + ": ";
    switch (p.kind) {
      case ledger::ParseProblemKind::run_orphan:
        e.peer("ledger-run-continuation-orphan", p.line, n + "continuation line without a run line");
        break;
      case ledger::ParseProblemKind::run_unparsed:
        e.peer("ledger-run-line-parses", p.line, n + "run line does not parse: " + p.raw);
        break;
      case ledger::ParseProblemKind::log_orphan:
        e.peer("ledger-log-continuation-orphan", p.line, n + "continuation line without a log line");
        break;
      case ledger::ParseProblemKind::log_unparsed:
        e.peer("ledger-log-line-parses", p.line, n + "log line does not parse: " + p.raw);
        break;
    }
  }
}

void check_title(const ProjectLedger& l, const std::string& key, const Emitter& e) {
  if (!l.title) {
    e.peer("ledger-title-present", 1, "first line must be `# <key> \xE2\x80\x94 <summary>`");
    return;
  }
  // A `# ` line that is not `# <key> — <summary>` names the wrong title, as
  // the reference says, whether its key differs or it has no summary at all.
  if (!l.title->matches || l.title->key != key) {
    e.peer("ledger-title-names-key", 1,
           "title must be `# " + key + " \xE2\x80\x94 <summary>`, not `# " + l.title->written + "`");
  }
  if (util::split_words(l.title->summary).size() > 15) {
    e.peer("ledger-summary-word-cap", 1, "summary is over 15 words: " + l.title->summary);
  }
}

void check_header(const ProjectLedger& l, const std::string& key, const Emitter& e) {
  const ledger::HeaderField* project = l.header_field("Project");
  const ledger::HeaderField* issue = l.header_field("Issue");
  const int header_line = l.header.empty() ? 0 : l.header.front().line;
  if (!project) e.peer("ledger-header-required", header_line, "header is missing `Project:`");
  if (!issue) e.peer("ledger-header-required", header_line, "header is missing `Issue:`");
  std::string extra;
  int extra_line = 0;
  for (const ledger::HeaderField& f : l.header) {
    if (f.key == "Project" || f.key == "Issue") continue;
    if (!extra.empty()) extra += ", ";
    extra += f.key;
    if (!extra_line) extra_line = f.line;
  }
  if (!extra.empty()) {
    e.peer("ledger-header-closed", extra_line,
           "unknown header key(s) " + extra + " \xE2\x80\x94 the header holds only Project, Issue");
  }
  if (project && project->value != key) e.peer("ledger-project-equals-key", project->line, "`Project:` must be " + key);
  if (issue && !ledger::is_issue_ref(issue->value)) {
    e.peer("ledger-issue-grammar", issue->line,
           "`Issue:` must be Repo#N, an issue URL or none, not " + util::py_repr(issue->value));
  }
}

std::string row_value(const ProjectRow* row, std::string_view field) {
  const auto v = row ? row->get(field) : std::nullopt;
  return v ? std::string(*v) : std::string();
}

void check_runs(const ProjectLedger& l, const ProjectRow* row, const Emitter& e) {
  const std::string partition = row_value(row, "partition");
  std::set<std::string> seen;
  for (const ledger::RunLine& r : l.runs) {
    if (!seen.insert(r.ident).second) e.peer("ledger-run-listed-once", r.line, "run " + r.ident + " listed twice");
    if (!ledger::is_run_ident(r.ident)) e.peer("ledger-run-ident-grammar", r.line, "run ident does not parse: " + r.ident);
    if (!util::is_real_date(r.date)) {
      e.peer("ledger-run-date-real", r.line, "run " + r.ident + " date is not a real date: " + r.date);
    }
    if (row && !partition.empty() && partition != "both" && r.partition != partition) {
      e.peer("ledger-run-partition-agrees", r.line,
             "run " + r.ident + " is on `" + r.partition + "` but the project runs on `" + partition + "`");
    }
  }
}

void check_log(const ProjectLedger& l, const Emitter& e) {
  const ledger::LogEntry* previous = nullptr;
  for (const ledger::LogEntry& entry : l.log) {
    if (!util::is_real_date(entry.date)) {
      e.peer("ledger-log-date-real", entry.line,
             "log line " + std::to_string(entry.line) + " date is not a real date: " + entry.date);
    }
    if (previous && entry.date > previous->date) {
      e.peer("ledger-log-newest-first", entry.line,
             "log is not newest-first at line " + std::to_string(entry.line) + " (" + entry.date + " after " +
                 previous->date + ")");
    }
    previous = &entry;
  }
}

// G-05: a run ident as (job, task set); an empty set means "every task".
struct RunIdentity {
  std::string job;
  std::vector<std::pair<long, long>> ranges;
  bool ascending = true;
};

std::optional<long> ascii_number(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::optional<RunIdentity> run_identity(std::string_view ident) {
  if (!ledger::is_run_ident(ident)) return std::nullopt;
  RunIdentity id;
  const std::size_t us = ident.find('_');
  id.job = std::string(ident.substr(0, us));
  if (us == std::string_view::npos) return id;
  std::string_view tasks = ident.substr(us + 1);
  if (!tasks.empty() && tasks.front() == '[') tasks = tasks.substr(1, tasks.size() - 2);
  long last = -1;
  while (!tasks.empty()) {
    const std::size_t comma = tasks.find(',');
    const std::string_view item = tasks.substr(0, comma);
    const std::size_t dashpos = item.find('-');
    const auto lo = ascii_number(item.substr(0, dashpos));
    const auto hi = dashpos == std::string_view::npos ? lo : ascii_number(item.substr(dashpos + 1));
    if (!lo || !hi) return std::nullopt;
    if (*lo > *hi || *lo <= last) id.ascending = false;
    last = std::max(last, *hi);
    id.ranges.emplace_back(*lo, *hi);
    tasks = comma == std::string_view::npos ? std::string_view() : tasks.substr(comma + 1);
  }
  return id;
}

bool overlaps(const RunIdentity& a, const RunIdentity& b) {
  if (a.job != b.job) return false;
  if (a.ranges.empty() || b.ranges.empty()) return true;
  for (const auto& [alo, ahi] : a.ranges) {
    for (const auto& [blo, bhi] : b.ranges) {
      if (alo <= bhi && blo <= ahi) return true;
    }
  }
  return false;
}

void check_run_identities(const ProjectLedger& l, const Emitter& e) {
  std::vector<std::pair<const ledger::RunLine*, RunIdentity>> known;
  for (const ledger::RunLine& r : l.runs) {
    auto id = run_identity(r.ident);
    if (!id) continue;
    if (!id->ascending) {
      e.own("ledger-run-tasks-ascending", r.line,
            "run " + r.ident + " lists its tasks out of order or twice");
    }
    for (const auto& [other, other_id] : known) {
      if (other->ident != r.ident && overlaps(*id, other_id)) {
        e.own("ledger-run-overlap", r.line,
              "run " + r.ident + " overlaps run " + other->ident +
                  " (line " + std::to_string(other->line) + ") of job " + id->job);
        break;
      }
    }
    known.emplace_back(&r, std::move(*id));
  }
}

void check_structure_gaps(const ProjectLedger& l, const Emitter& e) {
  report_structure_gaps(l.sections, e, "ledger-heading-in-fence", "ledger-duplicate-section");
  for (const ledger::HeaderField& f : l.header_dups) {
    e.own("ledger-header-duplicate-key", f.line,
          "header key `" + f.key + "` appears again; the first is used");
  }
  auto digits = [&](int line, const std::string& what, const std::string& value) {
    if (util::has_non_ascii_digit(value)) {
      e.own("ledger-non-ascii-digit", line,
            what + " " + value + " uses non-ASCII digits");
    }
  };
  for (const ledger::RunLine& r : l.runs) {
    digits(r.line, "run ident", r.ident);
    digits(r.line, "run date", r.date);
  }
  for (const ledger::LogEntry& entry : l.log) digits(entry.line, "log date", entry.date);
}

}  // namespace

void check_project_ledger(const ProjectLedger& l, const std::string& path, const std::string& key,
                          const ProjectsTable& rows, diag::FindingSink& sink) {
  const Emitter e{sink, path};
  const ProjectRow* row = rows.find(key);
  const std::string status = row_value(row, "status");
  check_structure(l, e);
  check_title(l, key, e);
  if (!row) e.peer("ledger-has-row", 0, key + " is not a projects.yaml key");
  check_header(l, key, e);
  if (row && status == "active" && !l.has_now) {
    e.peer("ledger-now-on-active", 0, "`## Now` is empty on an active project");
  }
  check_runs(l, row, e);
  check_log(l, e);
  if (row && status == "retired" && !l.runs.empty()) {
    e.peer("ledger-retired-has-no-runs", l.runs.front().line, "a retired project still lists runs");
  }
  check_run_identities(l, e);
  check_structure_gaps(l, e);
}

void check_text_input(const ledger::TextFacts& file, const std::string& path, diag::FindingSink& sink) {
  const Emitter e{sink, path};
  if (file.bad_utf8) {
    e.own("input-not-utf8", file.bad_utf8->line,
          "not valid UTF-8 at byte " + std::to_string(file.bad_utf8->offset) + " (line " +
              std::to_string(file.bad_utf8->line) + "): the file cannot be judged");
  }
  if (file.bom) e.own("input-bom", 1, "starts with a UTF-8 byte-order mark, so line 1 is not read as a title");
  if (file.cr_line) {
    e.own("input-line-endings", file.cr_line,
          "a line ends with CR or CRLF (first: line " + std::to_string(file.cr_line) + "); ledger files use LF");
  }
  if (const auto& c = file.control) {
    static constexpr const char* k_hex = "0123456789ABCDEF";
    const std::string code = std::string("U+00") + k_hex[c->code >> 4] + k_hex[c->code & 0xF];
    diag::Finding f = make_finding(
        "input-control-char", path, c->line,
        "holds the control character " + code + " at line " + std::to_string(c->line) + ", column " +
            std::to_string(c->column) +
            (c->code == 0 ? ": git treats the file as binary, and `git diff` hides what changed"
                          : ": it does not show in a diff or an editor"),
        diag::PeerForm::none);
    f.location.column = c->column;
    sink.report(std::move(f));
  }
}

}  // namespace lg::rules
