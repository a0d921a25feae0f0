// The era-R verbs (spec §8.4, §8.5). Each editor runs the reference's checks
// in the reference's order (§8.5.1), loads what it edits (the ledger must
// exist and parse clean), and rewrites the sections it touches as the
// reference does (§8.5.2). Messages are the reference's, byte for byte; a
// refusal the reference words badly for a person carries ledgergate's own
// words beside them (Refusal::human, the text format's). The whole-tree
// validation that the reference lacks (G-01, G-02) is write/apply's.
#include "ledgergate/write/cortex_r.hpp"

#include <algorithm>
#include <variant>

#include "ledgergate/diag/rule_table.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/rules/cortex_projects.hpp"
#include "ledgergate/util/cursor.hpp"
#include "ledgergate/util/suggest.hpp"
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

// The reference's pattern checks with `$`, which also matches before one
// final LF: the value passes with it, and is then used as given (§8.5.0).
bool matches_but_lf(std::string_view s, bool (*matches)(std::string_view)) {
  return matches(s) || (!s.empty() && s.back() == '\n' && matches(s.substr(0, s.size() - 1)));
}

// A one-line text with its label (§8.5.0): trimmed, dash-normalised, not
// empty, no LF (a CR, VT or U+2028 passes, as in the reference).
Checked<std::string> one_line(std::string_view text, std::string_view label) {
  std::string s = util::dash(util::strip(text));
  if (s.empty()) return Refusal{std::string(label) + " must say something"};
  if (s.find('\n') != std::string::npos) {
    return Refusal{std::string(label) + " is one line (continuation lines are for the file)"};
  }
  return s;
}

// The text cut at LF only (a CR stays inside its line, §8.5.2).
std::vector<std::string> cut_at_lf(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t start = 0;;) {
    const std::size_t lf = text.find('\n', start);
    out.emplace_back(text.substr(start, lf == std::string_view::npos ? text.npos : lf - start));
    if (lf == std::string_view::npos) return out;
    start = lf + 1;
  }
}

// The text up to its first line break as str.splitlines() sees one.
std::string_view first_line(std::string_view text) {
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t at = pos;
    switch (util::next_code_point(text, pos)) {
      case '\n': case '\r': case 0x0B: case 0x0C: case 0x1C: case 0x1D: case 0x1E:
      case 0x85: case 0x2028: case 0x2029:
        return text.substr(0, at);
      default:
        break;
    }
  }
  return text;
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

// ---- ledgergate's own words for the text format ----

// The project keys a mistyped `key` may have meant: the tree's ledgers'
// keys, then projects.yaml's rows'.
Result<std::vector<std::string>> known_keys(git::TreeSource& tree, const ProjectsRows& rows) {
  std::vector<std::string> keys;
  LG_TRY(auto listed, tree.list(ledger::k_projects_dir));
  for (const git::Entry& e : listed.value_or(std::vector<git::Entry>{})) {
    if (e.name.size() > 3 && e.name.ends_with(".md") && is_project_key(e.name.substr(0, e.name.size() - 3))) {
      keys.push_back(e.name.substr(0, e.name.size() - 3));
    }
  }
  for (const rules::ProjectRow& row : rows.table.rows) {
    if (std::find(keys.begin(), keys.end(), row.key) == keys.end()) keys.push_back(row.key);
  }
  return keys;
}

Result<std::optional<std::string>> did_you_mean(git::TreeSource& tree, const ProjectsRows& rows, const std::string& key) {
  LG_TRY(const std::vector<std::string> keys, known_keys(tree, rows));
  if (std::find(keys.begin(), keys.end(), key) != keys.end()) return std::optional<std::string>();
  return util::closest_word(key, keys);
}

std::string new_hint(const std::string& key) { return "`ledgergate project new " + key + " --summary ...` opens one"; }

// L1 and L2 of the ledger lookup, with ledgergate's words beside the reference's.
Result<Refusal> not_a_key(git::TreeSource& tree, const std::string& key) {
  Refusal r{util::py_repr(key) + " is not a project key"};
  LG_TRY(const ProjectsRows rows, read_rows(tree));
  LG_TRY(const auto guess, did_you_mean(tree, rows, key));
  r.human = r.message + " (a key is lower-case letters, digits and _, starting with a letter)";
  if (guess) r.human = util::py_repr(key) + " is not a project key \xE2\x80\x94 did you mean " + *guess + "?";
  return r;
}

Result<Refusal> no_ledger(git::TreeSource& tree, const std::string& key) {
  Refusal r{"no ledger for " + key + " \xE2\x80\x94 `new " + key + " --summary ...` opens one"};
  LG_TRY(const ProjectsRows rows, read_rows(tree));
  if (rows.table.find(key)) {
    r.human = "no ledger for " + key + " \xE2\x80\x94 " + new_hint(key);
    return r;
  }
  LG_TRY(const auto guess, did_you_mean(tree, rows, key));
  if (guess) {
    r.human = "no ledger for " + key + " \xE2\x80\x94 did you mean " + *guess + "?";
  } else {
    r.human = "no ledger for " + key + ", and " + key +
              " is not a projects.yaml key \xE2\x80\x94 add its row to projects.yaml first (projects.yaml is code: "
              "a human's turn), then " + new_hint(key);
  }
  return r;
}

// A refusal for a key that is not a projects.yaml row, with a guess when
// one is close: "KEY is not a projects.yaml key — did you mean K? (`then`)".
Result<Refusal> with_row_guess(git::TreeSource& tree, const ProjectsRows& rows, const std::string& key, Refusal r,
                               std::string_view then = {}) {
  LG_TRY(const auto guess, did_you_mean(tree, rows, key));
  if (guess) {
    r.human = key + " is not a projects.yaml key \xE2\x80\x94 did you mean " + *guess + "?";
    if (!then.empty()) r.human += " (" + std::string(then) + ")";
  }
  return r;
}

// ---- the ledger under edit ----

struct Ledger {
  std::string rel;
  ledger::ProjectLedger parsed;
  RawLines lines;
};

// The parse findings (R-P01..R-P08, and bytes that are not UTF-8) as the
// reference joins them: in §4.3 order, without the `{rel}: ` prefix.
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
    out += f.message;
  }
  return out;
}

// L3 on a ledger file's bytes: the ledger, or the refusal.
Checked<Ledger> clean_ledger(const std::string& key, const std::string& bytes) {
  const std::string rel = ledger::project_ledger_path(key);
  ledger::ProjectLedger parsed = ledger::parse_project_ledger(bytes);
  const std::string problems = parse_problems(parsed, rel, key);
  if (!problems.empty()) return Refusal{rel + " does not parse clean \xE2\x80\x94 run `check` first: " + problems};
  return Ledger{rel, std::move(parsed), RawLines(bytes)};
}

// LEDGER(key) of §8.5.1: L1 the key's grammar, L2 a regular file, L3 no parse finding.
Result<Checked<Ledger>> load_ledger(git::TreeSource& tree, const std::string& key) {
  if (!matches_but_lf(key, is_project_key)) {
    LG_TRY(Refusal r, not_a_key(tree, key));
    return Checked<Ledger>(std::move(r));
  }
  LG_TRY(auto bytes, git::read_regular_file(tree, ledger::project_ledger_path(key)));
  if (!bytes) {
    LG_TRY(Refusal r, no_ledger(tree, key));
    return Checked<Ledger>(std::move(r));
  }
  return clean_ledger(key, *bytes);
}

// A clean ledger has exactly ## Now, ## Runs, ## Log.
const ledger::Section& section(const Ledger& l, std::size_t i) { return l.parsed.sections[i]; }
constexpr std::size_t k_now = 0, k_runs = 1, k_log = 2;

// The body of section `i` — the lines strictly between its heading and the
// next one, or the file's end — replaced by an empty line, `body` and an
// empty line (§8.5.2): an empty body leaves two empty lines, and the last
// section ends the file with one line end.
void replace_body(Ledger& l, std::size_t i, const std::vector<std::string>& body) {
  std::vector<std::string> framed{""};
  framed.insert(framed.end(), body.begin(), body.end());
  framed.emplace_back();
  const ledger::Section& s = section(l, i);
  l.lines.replace(static_cast<std::size_t>(s.body_begin), static_cast<std::size_t>(s.body_end), framed);
}

struct Run {
  std::string ident, state, partition, date, what;  // what: trimmed
  std::vector<std::string> continuations;          // trimmed, without the two leading spaces
};

// The item at `line` (1-based) of a section and the continuation texts up
// to `next` (0-based, exclusive), trimmed.
std::vector<std::string> continuations(const Ledger& l, int line, std::size_t next) {
  std::vector<std::string> out;
  for (auto i = static_cast<std::size_t>(line); i < next; ++i) {
    if (!util::is_blank(l.lines.text(i))) out.emplace_back(util::strip(l.lines.text(i)));
  }
  return out;
}

std::vector<Run> runs_of(const Ledger& l) {
  std::vector<Run> out;
  const auto& runs = l.parsed.runs;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const ledger::RunLine& r = runs[k];
    const auto next = k + 1 < runs.size() ? static_cast<std::size_t>(runs[k + 1].line - 1)
                                          : static_cast<std::size_t>(section(l, k_runs).body_end);
    out.push_back(Run{r.ident, r.state, r.partition, r.date, std::string(util::strip(r.what)), continuations(l, r.line, next)});
  }
  return out;
}

std::string run_line(const Run& r) {
  return "- " + r.ident + std::string(k_em) + r.state + std::string(k_em) + r.partition + std::string(k_em) + r.date +
         std::string(k_em) + r.what;
}

// `## Runs` written out again from the parse, as the reference does.
void write_runs(Ledger& l, const std::vector<Run>& runs) {
  std::vector<std::string> body;
  for (const Run& r : runs) {
    body.push_back(run_line(r));
    for (const std::string& c : r.continuations) body.push_back("  " + c);
  }
  replace_body(l, k_runs, body);
}

// Prepends an entry to `## Log`: the body's leading and trailing blank lines
// go, every other line stays as it is (its bytes and line end included),
// and the body is framed as replace_body frames it.
void prepend_log(Ledger& l, const std::string& entry) {
  const ledger::Section& s = section(l, k_log);
  const auto begin = static_cast<std::size_t>(s.body_begin), end = static_cast<std::size_t>(s.body_end);
  std::size_t first = begin, last = end;
  while (first < end && util::is_blank(l.lines.text(first))) ++first;
  while (last > first && util::is_blank(l.lines.text(last - 1))) --last;
  if (first == last) {
    replace_body(l, k_log, {entry});
    return;
  }
  l.lines.replace(last, end, {""});
  l.lines.replace(begin, first, {"", entry});
}

std::string log_entry(const std::string& today, std::string_view kind, const std::string& text) {
  return "- " + today + std::string(k_em) + std::string(kind) + std::string(k_em) + text;
}

// The order guard of `log` (the only verb of the reference that has one):
// the head's date as written, compared as a string.
std::optional<Refusal> log_order_guard(const Ledger& l, const std::string& today) {
  if (l.parsed.log.empty() || !(today < l.parsed.log.front().date)) return std::nullopt;
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

// The ledger of `key` and its run `jobid` (the exact string); the refusal
// when either is missing.
Result<Checked<LedgerRun>> load_run(git::TreeSource& tree, const std::string& key, const std::string& jobid) {
  LG_TRY(auto loaded, load_ledger(tree, key));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Checked<LedgerRun>(std::move(*r));
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

// ---- the verbs, each in its §8.5.1 order (--today is the CLI's, first) ----

Result<Outcome> edit_new(git::TreeSource& tree, const NewArgs& a, EditNotes* notes) {
  LG_TRY(ProjectsRows rows, read_rows(tree));
  if (!rows.problems.empty()) {
    return refuse("projects.yaml does not parse clean \xE2\x80\x94 run `check` first: " + rows.problems);
  }
  if (!rows.table.find(a.key)) {
    LG_TRY(Refusal r, with_row_guess(tree, rows, a.key,
                                     Refusal{a.key + " is not a projects.yaml key \xE2\x80\x94 add its row first "
                                                     "(projects.yaml is code: a human's turn)"},
                                     "a new project's row comes first: projects.yaml is code, a human's turn"));
    return Outcome{std::move(r)};
  }
  auto summary = one_line(a.summary, "--summary");
  if (auto* r = std::get_if<Refusal>(&summary)) return Outcome{std::move(*r)};
  const std::string& s = std::get<std::string>(summary);
  if (util::split_words(s).size() > 15) return refuse("--summary is over 15 words");
  // An empty --issue is none; any other is trimmed (not dash-normalised).
  const std::string issue = !a.issue || a.issue->empty() ? "none" : std::string(util::strip(*a.issue));
  if (!ledger::is_issue_ref(issue)) return refuse("--issue must be Repo#N, an issue URL or none, not " + util::py_repr(issue));
  const std::string rel = ledger::project_ledger_path(a.key);
  LG_TRY(auto existing, tree.stat(rel));
  if (existing) return refuse(rel + " already exists");
  // --now is never refused: empty after trimming means the default text.
  std::string now = a.now ? util::dash(util::strip(*a.now)) : std::string();
  if (now.empty()) now = "Just opened \xE2\x80\x94 nothing submitted yet.";
  const std::string title = "# " + a.key + std::string(k_em) + s;
  std::string bytes = title + "\n\nProject: " + a.key + "\nIssue: " + issue + "\n\n## Now\n\n" + now +
                      "\n\n## Runs\n\n## Log\n\n" + log_entry(a.today, "note", "ledger opened") + "\n";
  note(notes, {title});
  return Outcome{Change{{FileEdit{rel, std::move(bytes)}}, "opened " + rel}};
}

Result<Outcome> edit_run(git::TreeSource& tree, const RunArgs& a, EditNotes* notes) {
  if (!matches_but_lf(a.jobid, ledger::is_run_ident)) {
    return refuse(util::py_repr(a.jobid) + " is not a SLURM job id (`342301`, `342301_3`, `342301_[0-9]`)");
  }
  auto what = one_line(a.what, "what the run is");
  if (auto* r = std::get_if<Refusal>(&what)) return Outcome{std::move(*r)};
  LG_TRY(auto loaded, load_ledger(tree, a.key));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{std::move(*r)};
  Ledger& l = std::get<Ledger>(loaded);
  std::vector<Run> runs = runs_of(l);
  if (find_run(runs, a.jobid)) return refuse(a.jobid + " is already listed under ## Runs");
  std::string partition;
  if (a.partition && !a.partition->empty()) {
    if (!matches_but_lf(*a.partition, is_bare_word)) {
      return refuse("--partition must be a bare word, not " + util::py_repr(*a.partition));
    }
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
  prepend_log(l, entry);  // the log first: the runs' positions stay valid
  write_runs(l, runs);
  note(notes, {run_line(runs.back()), entry});
  return Outcome{change(l, l.rel + ": run " + a.jobid + " open")};
}

Result<Outcome> edit_running(git::TreeSource& tree, const RunningArgs& a, EditNotes* notes) {
  LG_TRY(auto loaded, load_run(tree, a.key, a.jobid));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{std::move(*r)};
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
  // An empty --wall is no wall; any other is checked as typed, before the key.
  const bool wall = a.wall && !a.wall->empty();
  if (wall && !matches_but_lf(*a.wall, is_wall)) return refuse("--wall must be H:MM, not " + util::py_repr(*a.wall));
  LG_TRY(auto loaded, load_run(tree, a.key, a.jobid));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{std::move(*r)};
  auto& [l, runs, at] = std::get<LedgerRun>(loaded);
  // An empty --note is no note; any other is a one-line text, after the run's lookup.
  std::string suffix;
  if (a.note && !a.note->empty()) {
    auto text = one_line(*a.note, "--note");
    if (auto* r = std::get_if<Refusal>(&text)) return Outcome{std::move(*r)};
    suffix = std::string(k_em) + std::get<std::string>(text);
  }
  const auto it = runs.begin() + static_cast<std::ptrdiff_t>(at);
  const std::string outcome = a.failed ? "failed" : "finished";
  const std::string walled = wall ? std::string(k_em) + "wall " + *a.wall : "";
  // The run's first line only, as the reference writes it (G-20).
  const std::string entry = log_entry(a.today, "run", a.jobid + " " + outcome + walled + ": " + it->what + suffix);
  runs.erase(it);
  prepend_log(l, entry);
  write_runs(l, runs);
  note(notes, {entry});
  return Outcome{change(l, l.rel + ": run " + a.jobid + " " + outcome)};
}

Result<Outcome> edit_log(git::TreeSource& tree, const LogArgs& a, EditNotes* notes) {
  static constexpr std::string_view k_kinds[] = {"note", "result", "lesson", "run"};
  if (std::find(std::begin(k_kinds), std::end(k_kinds), a.kind) == std::end(k_kinds)) {
    return make_error(ErrorKind::usage, "--kind must be note, result, lesson or run, not " + a.kind);
  }
  auto text = one_line(a.text, "the entry");
  if (auto* r = std::get_if<Refusal>(&text)) return Outcome{std::move(*r)};
  LG_TRY(auto loaded, load_ledger(tree, a.key));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{std::move(*r)};
  Ledger& l = std::get<Ledger>(loaded);
  if (auto r = log_order_guard(l, a.today)) return Outcome{*r};
  const std::string& t = std::get<std::string>(text);
  const std::string entry = log_entry(a.today, a.kind, t);
  prepend_log(l, entry);
  note(notes, {entry});
  return Outcome{change(l, l.rel + ": " + a.kind + std::string(k_em) + t)};
}

Result<Outcome> edit_now(git::TreeSource& tree, const NowArgs& a, EditNotes* notes) {
  const std::string text = util::dash(util::strip(a.text));
  if (text.empty()) return refuse("`now` must say something");
  LG_TRY(auto loaded, load_ledger(tree, a.key));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{std::move(*r)};
  Ledger& l = std::get<Ledger>(loaded);
  const std::vector<std::string> lines = cut_at_lf(text);
  replace_body(l, k_now, lines);
  note(notes, lines);
  return Outcome{change(l, l.rel + ": now" + std::string(k_em) + std::string(first_line(text)))};
}

// An item's text in the issue block (§8.5.2): its trimmed head, then one
// space and each trimmed continuation text.
std::string item_text(std::string_view head, const std::vector<std::string>& continuations) {
  std::string out(util::strip(head));
  for (const std::string& c : continuations) out += " " + c;
  return out;
}

// Python's log[:count] for a count given as its canonical decimal.
std::size_t slice_length(const std::string& count, std::size_t size) {
  const bool negative = !count.empty() && count.front() == '-';
  const std::string digits = negative ? count.substr(1) : count;
  const std::string limit = std::to_string(size);
  const bool beyond = digits.size() > limit.size() || (digits.size() == limit.size() && digits >= limit);
  if (beyond) return negative ? 0 : size;
  const std::size_t n = std::stoul(digits);
  return negative ? size - n : n;
}

std::string issue_block(const Ledger& l, const std::string& key, const std::string& status, const std::string& count) {
  const ledger::ProjectLedger& p = l.parsed;
  const std::string em(k_em);
  std::string out = "<!-- cortex:ledger begin" + em + "regenerated from " + l.rel + "; edit there -->\n";
  out += "**" + key + "**" + em + p.title->summary + "  \n";
  out += "_" + (status.empty() ? "?" : status) + " \xC2\xB7 ledger: [" + l.rel + "](" + l.rel + ")";
  if (!p.log.empty()) out += " \xC2\xB7 updated " + p.log.front().date;
  out += "_\n\n**Now**\n\n" + (p.now.empty() ? std::string("_(nothing yet)_") : p.now) + "\n\n**Runs**\n\n";
  const std::vector<Run> runs = runs_of(l);
  if (runs.empty()) out += "_nothing on the cluster_\n";
  for (const Run& r : runs) {
    out += "- `" + r.ident + "`" + em + r.state + em + r.partition + em + r.date + em + item_text(r.what, r.continuations) + "\n";
  }
  out += "\n**Last " + count + "**\n\n";
  const std::size_t shown = slice_length(count, p.log.size());
  if (shown == 0) out += "_empty_\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const ledger::LogEntry& e = p.log[i];
    const auto next = i + 1 < p.log.size() ? static_cast<std::size_t>(p.log[i + 1].line - 1)
                                           : static_cast<std::size_t>(section(l, k_log).body_end);
    // The head as matched: the dash-normalised line after "- DATE — KIND — ".
    const std::string line = util::dash(l.lines.text(static_cast<std::size_t>(e.line - 1)));
    const std::size_t head = 2 + e.date.size() + em.size() + e.kind.size() + em.size();
    out += "- " + e.date + em + "*" + e.kind + "*" + em + item_text(std::string_view(line).substr(head),
                                                                      continuations(l, e.line, next)) + "\n";
  }
  return out + "<!-- cortex:ledger end -->";
}

Result<Outcome> edit_issue(git::TreeSource& tree, const IssueArgs& a) {
  const auto count = util::py_int(a.count);
  if (!count) return make_error(ErrorKind::usage, "-n must be an integer, not " + a.count);
  LG_TRY(auto loaded, load_ledger(tree, a.key));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{std::move(*r)};
  LG_TRY(ProjectsRows rows, read_rows(tree));
  const Ledger& l = std::get<Ledger>(loaded);
  return Outcome{Change{{}, issue_block(l, a.key, row_field(rows, a.key, "status"), *count)}};
}

Result<Outcome> edit_link(git::TreeSource& tree, const LinkArgs& a, EditNotes* notes) {
  if (!matches_but_lf(a.key, is_project_key)) {
    LG_TRY(Refusal r, not_a_key(tree, a.key));
    return Outcome{std::move(r)};
  }
  const std::string ref(util::strip(a.ref));
  if (!ledger::is_issue_ref(ref)) return refuse("the ref must be Repo#N, an issue URL or none, not " + util::py_repr(ref));
  LG_TRY(auto loaded, load_ledger(tree, a.key));
  if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{std::move(*r)};
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
  const std::string why(util::strip(a.why));
  const rules::ProjectsYamlEra era;
  LG_TRY(auto yaml, git::read_regular_file(tree, std::string(ledger::k_projects_yaml)));
  const auto yaml_view = yaml ? std::optional<std::string_view>(*yaml) : std::nullopt;
  if (auto r = retire_row_check(yaml_view, a.key, why, era)) {
    if (r->message == a.key + " is not a projects.yaml key") {
      LG_TRY(const ProjectsRows rows, read_rows(tree));
      LG_TRY(Refusal guessed, with_row_guess(tree, rows, a.key, std::move(*r)));
      return Outcome{std::move(guessed)};
    }
    return Outcome{*r};
  }
  // The key is a row's, so it is a key: its ledger path is a plain one.
  const std::string rel = ledger::project_ledger_path(a.key);
  LG_TRY(auto ledger_bytes, git::read_regular_file(tree, rel));
  if (ledger_bytes) {  // read even when it does not parse clean
    const ledger::ProjectLedger parsed = ledger::parse_project_ledger(*ledger_bytes);
    std::string ids;
    for (const ledger::RunLine& r : parsed.runs) ids += (ids.empty() ? "" : ", ") + r.ident;
    if (!ids.empty()) {
      return refuse(a.key + " still lists runs on the cluster \xE2\x80\x94 `done` them first: " + ids);
    }
  }
  auto row = retire_row_edit(*yaml, a.key, why, a.today, era);
  if (auto* r = std::get_if<Refusal>(&row)) return Outcome{std::move(*r)};
  Change out{{FileEdit{std::string(ledger::k_projects_yaml), std::move(std::get<std::string>(row))}}, "retired " + a.key};
  std::vector<std::string> written{"  status: retired"};
  if (ledger_bytes) {
    // The reference writes projects.yaml, then goes the `log` way (G-01):
    // here both are one change, refused whole.
    auto text = one_line("retired: " + why, "the entry");
    if (auto* r = std::get_if<Refusal>(&text)) return Outcome{std::move(*r)};
    auto loaded = clean_ledger(a.key, *ledger_bytes);
    if (auto* r = std::get_if<Refusal>(&loaded)) return Outcome{std::move(*r)};
    Ledger& l = std::get<Ledger>(loaded);
    if (auto r = log_order_guard(l, a.today)) return Outcome{*r};
    const std::string entry = log_entry(a.today, "note", std::get<std::string>(text));
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

std::optional<std::string> today_value(const std::string& today) { return util::iso_date(today); }

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
