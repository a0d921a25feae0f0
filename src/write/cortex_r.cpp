// The era-R verbs (spec §8.4). Each editor checks its arguments, loads what
// it edits (the ledger must exist and parse clean), and edits the file's
// lines bottom-up (the log before the runs, so section positions stay
// valid). Messages are the reference's, byte for byte; the whole-tree
// validation that the reference lacks (G-01, G-02) is write/apply's.
#include "ledgergate/write/cortex_r.hpp"

#include <algorithm>
#include <variant>

#include "ledgergate/diag/rule_table.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/rules/cortex_projects.hpp"
#include "ledgergate/util/cursor.hpp"
#include "ledgergate/write/retire_row.hpp"
#include "raw_lines.hpp"

namespace lg::write {
namespace {

using util::Cursor;
constexpr std::string_view k_em = " \xE2\x80\x94 ";  // " — "

template <class T>
using Checked = std::variant<T, Refusal>;

Outcome refuse(std::string message) { return Refusal{std::move(message)}; }

bool is_project_key(std::string_view s) {
  Cursor c(s);
  return c.one(util::is_lower_ascii) && c.many(util::is_key_char, 0) && c.at_end();
}

bool is_partition_char(char32_t c) { return util::is_key_char(c) || c == '-'; }
bool is_bare_word(std::string_view s) {  // PARTITION_RE
  Cursor c(s);
  return c.one(util::is_lower_ascii) && c.many(is_partition_char, 0) && c.at_end();
}

bool is_wall(std::string_view s) {  // WALL_RE
  Cursor c(s);
  return c.many(util::is_decimal) && c.literal(":") && c.many(util::is_decimal, 2, 2) && c.at_end();
}

std::optional<Refusal> check_key(const std::string& key) {
  if (is_project_key(key)) return std::nullopt;
  return Refusal{util::py_repr(key) + " is not a project key"};
}

// A one-line text as the verbs write it: stripped and dash-normalised.
Checked<std::string> one_line(std::string_view text, std::string_view what) {
  const std::string_view s = util::strip(text);
  if (s.empty()) return Refusal{std::string(what) + " must say something"};
  if (s.find_first_of("\n\r") != std::string_view::npos) {
    return Refusal{std::string(what) + " is one line (continuation lines are for the file)"};
  }
  return util::dash(s);
}

// projects.yaml's rows, read leniently (the verbs that need it clean say so).
Result<ProjectsRows> read_rows(git::TreeSource& tree) {
  LG_TRY(auto yaml, git::read_regular_file(tree, std::string(ledger::k_projects_yaml)));
  return projects_rows(yaml ? std::optional<std::string_view>(*yaml) : std::nullopt, rules::ProjectsYamlEra{});
}

std::string row_field(const ProjectsRows& rows, const std::string& key, std::string_view field) {
  const rules::ProjectRow* row = rows.table.find(key);
  return row ? std::string(row->get(field).value_or(std::string_view())) : std::string();
}

struct Ledger {
  std::string rel;
  ledger::ProjectLedger parsed;
  RawLines lines;
};

// The parse findings (R-P01..R-P08, and bytes that are not UTF-8) as the
// reference joins them.
std::string parse_problems(const ledger::ProjectLedger& parsed, const std::string& rel, const std::string& key) {
  diag::CollectingSink sink;
  rules::check_text_input(parsed.input, rel, sink);
  rules::check_project_ledger(parsed, rel, key, rules::ProjectsTable{}, sink);
  std::string out;
  for (const diag::Finding& f : sink.findings()) {
    const diag::RuleInfo* info = diag::find_rule(f.rule);
    const bool parse = f.rule == "input-not-utf8" || (info && util::starts_with(info->ref, "R-P"));
    if (!parse) continue;
    if (!out.empty()) out += "; ";
    out += f.peer == diag::PeerForm::none ? rel + ": " + f.message : diag::peer_text(f);
  }
  return out;
}

Result<Checked<Ledger>> load_ledger(git::TreeSource& tree, const std::string& key) {
  const std::string rel = ledger::project_ledger_path(key);
  LG_TRY(auto bytes, git::read_regular_file(tree, rel));
  if (!bytes) {
    return Checked<Ledger>(Refusal{"no ledger for " + key + " \xE2\x80\x94 `new " + key + " --summary ...` opens one"});
  }
  ledger::ProjectLedger parsed = ledger::parse_project_ledger(*bytes);
  const std::string problems = parse_problems(parsed, rel, key);
  if (!problems.empty()) {
    return Checked<Ledger>(Refusal{rel + " does not parse clean \xE2\x80\x94 run `check` first: " + problems});
  }
  return Checked<Ledger>(Ledger{rel, std::move(parsed), RawLines(*bytes)});
}

// A clean ledger has exactly ## Now, ## Runs, ## Log.
const ledger::Section& section(const Ledger& l, std::size_t i) { return l.parsed.sections[i]; }
constexpr std::size_t k_now = 0, k_runs = 1, k_log = 2;

struct Run {
  std::string ident, state, partition, date, what;
  std::vector<std::string> continuations;  // raw, without the two leading spaces
};

std::vector<Run> runs_of(const Ledger& l) {
  std::vector<Run> out;
  const auto& runs = l.parsed.runs;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const ledger::RunLine& r = runs[k];
    Run run{r.ident, r.state, r.partition, r.date, r.what, {}};
    const auto next = k + 1 < runs.size() ? static_cast<std::size_t>(runs[k + 1].line - 1)
                                          : static_cast<std::size_t>(section(l, k_runs).body_end);
    for (auto i = static_cast<std::size_t>(r.line); i < next; ++i) {
      if (!util::is_blank(l.lines.text(i))) run.continuations.emplace_back(l.lines.text(i).substr(2));
    }
    out.push_back(std::move(run));
  }
  return out;
}

std::string run_line(const Run& r) {
  return "- " + r.ident + std::string(k_em) + r.state + std::string(k_em) + r.partition + std::string(k_em) + r.date +
         std::string(k_em) + r.what;
}

// `## Runs` as the reference writes it: a blank line, each run with its
// continuations, a blank line (one blank line when there is no run).
void write_runs(Ledger& l, const std::vector<Run>& runs) {
  std::vector<std::string> body{""};
  for (const Run& r : runs) {
    body.push_back(run_line(r));
    for (const std::string& c : r.continuations) body.push_back("  " + c);
  }
  if (!runs.empty()) body.emplace_back();
  const ledger::Section& s = section(l, k_runs);
  l.lines.replace(static_cast<std::size_t>(s.body_begin), static_cast<std::size_t>(s.body_end), body);
}

// Prepends an entry to `## Log`: before its first entry, or as its only one.
void prepend_log(Ledger& l, const std::string& entry) {
  const ledger::Section& s = section(l, k_log);
  for (auto i = static_cast<std::size_t>(s.body_begin); i < static_cast<std::size_t>(s.body_end); ++i) {
    if (!util::is_blank(l.lines.text(i))) {
      l.lines.insert(i, entry);
      return;
    }
  }
  l.lines.replace(static_cast<std::size_t>(s.body_begin), static_cast<std::size_t>(s.body_end), {"", entry, ""});
}

std::string log_entry(const std::string& today, std::string_view kind, const std::string& text) {
  return "- " + today + std::string(k_em) + std::string(kind) + std::string(k_em) + text;
}

// The order guard of `log` (the only verb of the reference that has one).
std::optional<Refusal> log_order_guard(const Ledger& l, const std::string& today) {
  if (l.parsed.log.empty() || l.parsed.log.front().date <= today) return std::nullopt;
  return Refusal{"the log's head is " + l.parsed.log.front().date + "; an entry dated " + today +
                 " would break newest-first"};
}

const Run* find_run(const std::vector<Run>& runs, const std::string& ident) {
  for (const Run& r : runs) {
    if (r.ident == ident) return &r;
  }
  return nullptr;
}

Refusal not_under_runs(const Ledger& l, const std::vector<Run>& runs, const std::string& ident) {
  std::string listed;
  for (const Run& r : runs) listed += (listed.empty() ? "" : ", ") + r.ident;
  return Refusal{ident + " is not under ## Runs of " + l.rel + " (" + (listed.empty() ? "no runs" : listed) + ")"};
}

// A ledger with its runs, `at` the one the verb names.
struct LedgerRun {
  Ledger ledger;
  std::vector<Run> runs;
  std::size_t at = 0;
};

// The ledger of `key` and its run `jobid`; the refusal when either is missing.
Result<Checked<LedgerRun>> load_run(git::TreeSource& tree, const std::string& key, const std::string& jobid) {
  LG_TRY(auto loaded, load_ledger(tree, key));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Checked<LedgerRun>(*r);
  LedgerRun out{std::move(std::get<Ledger>(loaded)), {}, 0};
  out.runs = runs_of(out.ledger);
  const auto it = std::find_if(out.runs.begin(), out.runs.end(), [&](const Run& r) { return r.ident == jobid; });
  if (it == out.runs.end()) return Checked<LedgerRun>(not_under_runs(out.ledger, out.runs, jobid));
  out.at = static_cast<std::size_t>(it - out.runs.begin());
  return Checked<LedgerRun>(std::move(out));
}

Change change(Ledger& l, std::string message) {
  return Change{{FileEdit{l.rel, l.lines.bytes()}}, std::move(message)};
}

void note(EditNotes* notes, std::vector<std::string> lines) {
  if (notes) notes->lines = std::move(lines);
}

Result<Outcome> edit_new(git::TreeSource& tree, const NewArgs& a, EditNotes* notes) {
  if (auto r = check_key(a.key)) return Outcome{*r};
  LG_TRY(ProjectsRows rows, read_rows(tree));
  if (!rows.problems.empty()) {
    return refuse("projects.yaml does not parse clean \xE2\x80\x94 run `check` first: " + rows.problems);
  }
  if (!rows.table.find(a.key)) {
    return refuse(a.key + " is not a projects.yaml key \xE2\x80\x94 add its row first (projects.yaml is code: a human's turn)");
  }
  const std::string rel = ledger::project_ledger_path(a.key);
  LG_TRY(auto existing, tree.stat(rel));
  if (existing) return refuse(rel + " already exists");
  auto summary = one_line(a.summary, "--summary");
  if (auto* r = std::get_if<Refusal>(&summary)) return Outcome{*r};
  const std::string& s = std::get<std::string>(summary);
  if (util::split_words(s).size() > 15) return refuse("--summary is over 15 words");
  const std::string issue = a.issue ? std::string(util::strip(*a.issue)) : "none";
  if (!ledger::is_issue_ref(issue)) return refuse("--issue must be Repo#N, an issue URL or none, not " + util::py_repr(issue));
  std::string now = "Just opened \xE2\x80\x94 nothing submitted yet.";
  if (a.now) {
    auto text = one_line(*a.now, "--now");
    if (auto* r = std::get_if<Refusal>(&text)) return Outcome{*r};
    now = std::get<std::string>(text);
  }
  const std::string title = "# " + a.key + std::string(k_em) + s;
  std::string bytes = title + "\n\nProject: " + a.key + "\nIssue: " + issue + "\n\n## Now\n\n" + now +
                      "\n\n## Runs\n\n## Log\n\n" + log_entry(a.today, "note", "ledger opened") + "\n";
  note(notes, {title});
  return Outcome{Change{{FileEdit{rel, std::move(bytes)}}, "opened " + rel}};
}

Result<Outcome> edit_run(git::TreeSource& tree, const RunArgs& a, EditNotes* notes) {
  if (auto r = check_key(a.key)) return Outcome{*r};
  if (!ledger::is_run_ident(a.jobid)) {
    return refuse(util::py_repr(a.jobid) + " is not a SLURM job id (`342301`, `342301_3`, `342301_[0-9]`)");
  }
  auto what = one_line(a.what, "what");
  if (auto* r = std::get_if<Refusal>(&what)) return Outcome{*r};
  if (a.partition && !is_bare_word(*a.partition)) {
    return refuse("--partition must be a bare word, not " + util::py_repr(*a.partition));
  }
  LG_TRY(auto loaded, load_ledger(tree, a.key));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{*r};
  Ledger& l = std::get<Ledger>(loaded);
  std::vector<Run> runs = runs_of(l);
  if (find_run(runs, a.jobid)) return refuse(a.jobid + " is already listed under ## Runs");
  std::string partition;
  if (a.partition) {
    partition = *a.partition;
  } else {
    LG_TRY(ProjectsRows rows, read_rows(tree));
    partition = row_field(rows, a.key, "partition");
    if (partition != "gpu" && partition != "ral") {
      return refuse("the project runs on both partitions \xE2\x80\x94 say which with --partition");
    }
  }
  const std::string& w = std::get<std::string>(what);
  runs.push_back(Run{a.jobid, "open", partition, a.today, w, {}});
  const std::string entry = log_entry(a.today, "run", a.jobid + " submitted: " + w);
  prepend_log(l, entry);
  write_runs(l, runs);
  note(notes, {run_line(runs.back()), entry});
  return Outcome{change(l, l.rel + ": run " + a.jobid + " open")};
}

Result<Outcome> edit_running(git::TreeSource& tree, const RunningArgs& a, EditNotes* notes) {
  if (auto r = check_key(a.key)) return Outcome{*r};
  LG_TRY(auto loaded, load_run(tree, a.key, a.jobid));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{*r};
  auto& [l, runs, at] = std::get<LedgerRun>(loaded);
  const auto it = runs.begin() + static_cast<std::ptrdiff_t>(at);
  if (it->state == "running") {
    note(notes, {});
    return Outcome{Change{{}, l.rel + ": run " + a.jobid + " already running"}};
  }
  it->state = "running";
  write_runs(l, runs);
  note(notes, {run_line(*it)});
  return Outcome{change(l, l.rel + ": run " + a.jobid + " running")};
}

Result<Outcome> edit_done(git::TreeSource& tree, const DoneArgs& a, EditNotes* notes) {
  if (auto r = check_key(a.key)) return Outcome{*r};
  if (a.wall && !is_wall(*a.wall)) return refuse("--wall must be H:MM, not " + util::py_repr(*a.wall));
  std::string suffix;
  if (a.note) {
    auto text = one_line(*a.note, "--note");
    if (auto* r = std::get_if<Refusal>(&text)) return Outcome{*r};
    suffix = std::string(k_em) + std::get<std::string>(text);
  }
  LG_TRY(auto loaded, load_run(tree, a.key, a.jobid));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{*r};
  auto& [l, runs, at] = std::get<LedgerRun>(loaded);
  const auto it = runs.begin() + static_cast<std::ptrdiff_t>(at);
  const std::string outcome = a.failed ? "failed" : "finished";
  const std::string wall = a.wall ? std::string(k_em) + "wall " + *a.wall : "";
  // The run's first line only, as the reference writes it (G-20).
  const std::string entry = log_entry(a.today, "run", a.jobid + " " + outcome + wall + ": " + it->what + suffix);
  runs.erase(it);
  prepend_log(l, entry);
  write_runs(l, runs);
  note(notes, {entry});
  return Outcome{change(l, l.rel + ": run " + a.jobid + " " + outcome)};
}

Result<Outcome> edit_log(git::TreeSource& tree, const LogArgs& a, EditNotes* notes) {
  if (auto r = check_key(a.key)) return Outcome{*r};
  static constexpr std::string_view k_kinds[] = {"note", "result", "lesson", "run"};
  if (std::find(std::begin(k_kinds), std::end(k_kinds), a.kind) == std::end(k_kinds)) {
    return make_error(ErrorKind::usage, "--kind must be note, result, lesson or run, not " + a.kind);
  }
  auto text = one_line(a.text, "`log`");
  if (auto* r = std::get_if<Refusal>(&text)) return Outcome{*r};
  LG_TRY(auto loaded, load_ledger(tree, a.key));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{*r};
  Ledger& l = std::get<Ledger>(loaded);
  if (auto r = log_order_guard(l, a.today)) return Outcome{*r};
  const std::string& t = std::get<std::string>(text);
  const std::string entry = log_entry(a.today, a.kind, t);
  prepend_log(l, entry);
  note(notes, {entry});
  return Outcome{change(l, l.rel + ": " + a.kind + std::string(k_em) + t)};
}

Result<Outcome> edit_now(git::TreeSource& tree, const NowArgs& a, EditNotes* notes) {
  if (auto r = check_key(a.key)) return Outcome{*r};
  const std::string text = util::dash(util::strip(a.text));
  if (text.empty()) return refuse("`now` must say something");
  LG_TRY(auto loaded, load_ledger(tree, a.key));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{*r};
  Ledger& l = std::get<Ledger>(loaded);
  const std::vector<std::string> lines = util::split_universal_lines(text);
  std::vector<std::string> body{""};
  body.insert(body.end(), lines.begin(), lines.end());
  body.emplace_back();
  const ledger::Section& s = section(l, k_now);
  l.lines.replace(static_cast<std::size_t>(s.body_begin), static_cast<std::size_t>(s.body_end), body);
  note(notes, lines);
  return Outcome{change(l, l.rel + ": now" + std::string(k_em) + lines.front())};
}

std::string issue_block(const Ledger& l, const std::string& key, const std::string& status, int count) {
  const ledger::ProjectLedger& p = l.parsed;
  const std::string em(k_em);
  std::string out = "<!-- cortex:ledger begin" + em + "regenerated from " + l.rel + "; edit there -->\n";
  out += "**" + key + "**" + em + p.title->summary + "  \n";
  out += "_" + (status.empty() ? "?" : status) + " \xC2\xB7 ledger: [" + l.rel + "](" + l.rel + ")";
  if (!p.log.empty()) out += " \xC2\xB7 updated " + p.log.front().date;
  out += "_\n\n**Now**\n\n" + (p.now.empty() ? std::string("_(nothing yet)_") : p.now) + "\n\n**Runs**\n\n";
  if (p.runs.empty()) out += "_nothing on the cluster_\n";
  for (const ledger::RunLine& r : p.runs) {
    out += "- `" + r.ident + "`" + em + r.state + em + r.partition + em + r.date + em + r.text + "\n";
  }
  out += "\n**Last " + std::to_string(count) + "**\n\n";
  // Python's entries[:count]: a negative count drops that many from the end.
  const long size = static_cast<long>(p.log.size());
  const long shown = std::clamp(count < 0 ? size + count : static_cast<long>(count), 0L, size);
  if (shown == 0) out += "_empty_\n";
  for (long i = 0; i < shown; ++i) {
    const ledger::LogEntry& e = p.log[static_cast<std::size_t>(i)];
    out += "- " + e.date + em + "*" + e.kind + "*" + em + e.text + "\n";
  }
  return out + "<!-- cortex:ledger end -->";
}

Result<Outcome> edit_issue(git::TreeSource& tree, const IssueArgs& a) {
  if (auto r = check_key(a.key)) return Outcome{*r};
  LG_TRY(auto loaded, load_ledger(tree, a.key));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{*r};
  LG_TRY(ProjectsRows rows, read_rows(tree));
  const Ledger& l = std::get<Ledger>(loaded);
  return Outcome{Change{{}, issue_block(l, a.key, row_field(rows, a.key, "status"), a.count)}};
}

Result<Outcome> edit_link(git::TreeSource& tree, const LinkArgs& a, EditNotes* notes) {
  if (auto r = check_key(a.key)) return Outcome{*r};
  const std::string ref(util::strip(a.ref));
  if (!ledger::is_issue_ref(ref)) return refuse("the ref must be Repo#N, an issue URL or none, not " + util::py_repr(ref));
  LG_TRY(auto loaded, load_ledger(tree, a.key));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{*r};
  Ledger& l = std::get<Ledger>(loaded);
  std::vector<std::size_t> issue_lines;
  for (std::size_t i = 0; i < l.lines.size(); ++i) {
    if (util::starts_with(l.lines.text(i), "Issue:")) issue_lines.push_back(i);
  }
  if (issue_lines.size() != 1) {
    return refuse(l.rel + ": expected one `Issue:` header line, found " + std::to_string(issue_lines.size()));
  }
  const std::string line = "Issue: " + ref;
  l.lines.replace(issue_lines.front(), issue_lines.front() + 1, {line});
  note(notes, {line});
  return Outcome{change(l, l.rel + ": issue " + ref)};
}

Result<Outcome> edit_retire(git::TreeSource& tree, const RetireArgs& a, EditNotes* notes) {
  if (auto r = check_key(a.key)) return Outcome{*r};
  const std::string why(util::strip(a.why));
  const rules::ProjectsYamlEra era;
  LG_TRY(auto yaml, git::read_regular_file(tree, std::string(ledger::k_projects_yaml)));
  const auto yaml_view = yaml ? std::optional<std::string_view>(*yaml) : std::nullopt;
  if (auto r = retire_row_check(yaml_view, a.key, why, era)) return Outcome{*r};
  const std::string rel = ledger::project_ledger_path(a.key);
  LG_TRY(auto ledger_bytes, git::read_regular_file(tree, rel));
  if (ledger_bytes) {
    const ledger::ProjectLedger parsed = ledger::parse_project_ledger(*ledger_bytes);
    std::string ids;
    for (const ledger::RunLine& r : parsed.runs) ids += (ids.empty() ? "" : ", ") + r.ident;
    if (!ids.empty()) {
      return refuse(a.key + " still lists runs on the cluster \xE2\x80\x94 `done` them first: " + ids);
    }
  }
  auto row = retire_row_edit(*yaml, a.key, why, a.today, era);
  if (auto* r = std::get_if<Refusal>(&row)) return Outcome{*r};
  Change out{{FileEdit{std::string(ledger::k_projects_yaml), std::move(std::get<std::string>(row))}}, "retired " + a.key};
  std::vector<std::string> written{"  status: retired"};
  if (ledger_bytes) {
    // The reference writes projects.yaml, then goes the `log` way (G-01):
    // here both are one change, refused whole.
    LG_TRY(auto loaded, load_ledger(tree, a.key));
    if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{*r};
    Ledger& l = std::get<Ledger>(loaded);
    if (auto r = log_order_guard(l, a.today)) return Outcome{*r};
    const std::string entry = log_entry(a.today, "note", "retired: " + util::dash(why));
    prepend_log(l, entry);
    out.files.push_back(FileEdit{l.rel, l.lines.bytes()});
    written.push_back(entry);
  }
  note(notes, std::move(written));
  return Outcome{std::move(out)};
}

// The editor that runs `edit` with `args` (a copy) on the tree it is given.
template <class Args>
Editor bound(Result<Outcome> (*edit)(git::TreeSource&, const Args&, EditNotes*), const Args& args, EditNotes* notes) {
  return [edit, args, notes](git::TreeSource& tree) { return edit(tree, args, notes); };
}

}  // namespace

bool is_today_value(const std::string& today) { return util::is_real_date(today); }

Editor r_new(const NewArgs& args, EditNotes* notes) { return bound(&edit_new, args, notes); }
Editor r_run(const RunArgs& args, EditNotes* notes) { return bound(&edit_run, args, notes); }
Editor r_running(const RunningArgs& args, EditNotes* notes) { return bound(&edit_running, args, notes); }
Editor r_done(const DoneArgs& args, EditNotes* notes) { return bound(&edit_done, args, notes); }
Editor r_log(const LogArgs& args, EditNotes* notes) { return bound(&edit_log, args, notes); }
Editor r_now(const NowArgs& args, EditNotes* notes) { return bound(&edit_now, args, notes); }
Editor r_issue(const IssueArgs& args) {
  return [args](git::TreeSource& tree) { return edit_issue(tree, args); };
}
Editor r_link(const LinkArgs& args, EditNotes* notes) { return bound(&edit_link, args, notes); }
Editor r_retire(const RetireArgs& args, EditNotes* notes) { return bound(&edit_retire, args, notes); }

}  // namespace lg::write
