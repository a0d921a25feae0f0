// The fixers of the era-R ledger rules (projects/<key>.md, spec §4.2–§4.3).
// Each re-parses the file with ledger::parse_project_ledger, edits whole
// lines of the file as read (line ends kept), and, where the fix is meant to
// make a line parse, re-parses the edited file to be sure it does.
#include <algorithm>
#include <map>

#include "fixers_impl.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::fix::detail {
namespace {

constexpr std::string_view k_sep = " \xE2\x80\x94 ";  // " — "

struct Ledger {
  const SourceFile* file = nullptr;
  ledger::ProjectLedger parsed;
  std::string key;
};

Result<std::optional<Ledger>> read_ledger(FixContext& context, const diag::Finding& finding) {
  Ledger l;
  l.key = ledger_key(finding.location.path);
  if (l.key.empty()) return std::optional<Ledger>();
  LG_TRY(l.file, context.file(finding.location.path));
  if (!l.file) return std::optional<Ledger>();
  l.parsed = ledger::parse_project_ledger(l.file->bytes());
  return std::optional<Ledger>(std::move(l));
}

const ledger::Section* first_section(const ledger::ProjectLedger& l, std::string_view name) {
  for (const ledger::Section& s : l.sections) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

bool problem_at(const ledger::ProjectLedger& l, int line) {
  return std::any_of(l.problems.begin(), l.problems.end(), [line](const ledger::ParseProblem& p) { return p.line == line; });
}

// The byte offset where the free text of a `count`-field line starts (after
// its `count`-th separator, ` — ` or ` -- `); the line's end when it has fewer.
std::size_t fields_end(std::string_view line, std::size_t count) {
  std::size_t at = 0;
  for (std::size_t n = 0; n < count; ++n) {
    const std::size_t em = line.find(k_sep, at);
    const std::size_t dd = line.find(" -- ", at);
    const std::size_t next = std::min(em, dd);
    if (next == std::string_view::npos) return line.size();
    at = next + (next == em ? k_sep.size() : 4);
  }
  return at;
}

bool is_continuation(std::string_view line) {
  return line.size() > 2 && line.substr(0, 2) == "  " && line[2] != ' ' && line[2] != '\t';
}

// The run whose line is `line`, or nullptr.
const ledger::RunLine* run_at(const ledger::ProjectLedger& l, int line) {
  for (const ledger::RunLine& r : l.runs) {
    if (r.line == line) return &r;
  }
  return nullptr;
}

// The last line of the run block starting at `line`: its continuations follow it directly.
int run_block_end(const SourceFile& file, int line) {
  int last = line;
  while (static_cast<std::size_t>(last) < file.lines().line_count() && is_continuation(line_of(file, last + 1))) ++last;
  return last;
}

// A line of `count` separated fields with its separators written ` — `, if
// that makes the edited file parse at that line.
Answer dashes(FixContext& context, const diag::Finding& finding, std::size_t count, std::string title) {
  LG_TRY(auto l, read_ledger(context, finding));
  if (!l) return std::optional<Fix>();
  const int line = finding.location.line;
  const std::string_view raw = line_of(*l->file, line);
  const auto fixed = normalise_separators(raw, 2, count);
  if (!fixed || *fixed == raw) return std::optional<Fix>();
  if (problem_at(ledger::parse_project_ledger(with_line(*l->file, line, *fixed)), line)) return std::optional<Fix>();
  return std::optional<Fix>(make_fix(std::move(title), {replace_line(*l->file, line, *fixed)}));
}

// The item a log section is made of: a blank line, or an entry (its log line and continuations).
struct LogItem {
  bool entry = false;
  int first = 0, last = 0;  // 1-based lines
  std::string date;
};

// The log section's items from its first entry to its last; nullopt when a
// line in between is neither blank, a log line nor a continuation.
std::optional<std::vector<LogItem>> log_items(const Ledger& l, const ledger::Section& log) {
  std::map<int, const ledger::LogEntry*> entries;
  for (const ledger::LogEntry& e : l.parsed.log) entries.emplace(e.line, &e);
  std::vector<LogItem> items;
  for (int i = log.body_begin; i < log.body_end; ++i) {
    const int line = i + 1;
    const std::string_view text = line_of(*l.file, line);
    if (auto it = entries.find(line); it != entries.end()) {
      items.push_back(LogItem{true, line, line, it->second->date});
    } else if (util::is_blank(text)) {
      items.push_back(LogItem{false, line, line, {}});
    } else if (is_continuation(text)) {
      while (!items.empty() && !items.back().entry) items.pop_back();  // blank lines inside the entry
      if (items.empty()) return std::nullopt;
      items.back().last = line;
    } else {
      return std::nullopt;
    }
  }
  while (!items.empty() && !items.back().entry) items.pop_back();
  const auto first = std::find_if(items.begin(), items.end(), [](const LogItem& it) { return it.entry; });
  items.erase(items.begin(), first);
  return items;
}

// The task set of an array ident `stem_[...]` as (lo, hi) texts; nullopt for another ident.
std::optional<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> array_ident(
    std::string_view ident) {
  const std::size_t open = ident.find("_[");
  if (open == std::string_view::npos || !ident.ends_with("]")) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> ranges;
  std::string_view set = ident.substr(open + 2, ident.size() - open - 3);
  while (true) {
    const std::size_t comma = set.find(',');
    const std::string_view part = set.substr(0, comma);
    const std::size_t dash = part.find('-');
    if (part.empty()) return std::nullopt;
    ranges.emplace_back(std::string(part.substr(0, dash)),
                        std::string(dash == std::string_view::npos ? part : part.substr(dash + 1)));
    if (comma == std::string_view::npos) break;
    set.remove_prefix(comma + 1);
  }
  return std::make_pair(std::string(ident.substr(0, open)), std::move(ranges));
}

}  // namespace

Answer fix_run_line_dashes(FixContext& context, const diag::Finding& finding) {
  return dashes(context, finding, 4, "write the run line's separators as ` \xE2\x80\x94 `");
}

Answer fix_log_line_dashes(FixContext& context, const diag::Finding& finding) {
  return dashes(context, finding, 2, "write the log line's separators as ` \xE2\x80\x94 `");
}

Answer fix_title_key(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto l, read_ledger(context, finding));
  if (!l) return std::optional<Fix>();
  const std::string_view line = line_of(*l->file, 1);
  if (!util::starts_with(line, "# ")) return std::optional<Fix>();
  const auto written = normalise_separators(line.substr(2), 0, 1);
  if (!written) return std::optional<Fix>();
  const std::size_t sep = written->find(k_sep);
  const std::string_view old_key = std::string_view(*written).substr(0, sep);
  if (old_key.empty() || std::any_of(old_key.begin(), old_key.end(), [](char c) { return c == ' ' || c == '\t'; })) {
    return std::optional<Fix>();
  }
  const std::string title = "# " + l->key + std::string(k_sep) + written->substr(sep + k_sep.size());
  if (title == line) return std::optional<Fix>();
  const auto parsed = ledger::parse_project_ledger(with_line(*l->file, 1, title));
  if (!parsed.title || !parsed.title->matches || parsed.title->key != l->key) return std::optional<Fix>();
  return std::optional<Fix>(make_fix("write the title as `# " + l->key + " \xE2\x80\x94 <summary>`",
                                     {replace_line(*l->file, 1, title)}));
}

Answer fix_title_present(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto l, read_ledger(context, finding));
  if (!l) return std::optional<Fix>();
  const std::string_view line = line_of(*l->file, 1);
  std::string title;
  if (line.size() > 1 && line[0] == '#' && line[1] != '#' && line[1] != ' ') {
    title = "# " + std::string(line.substr(1));
  } else if (!line.empty() && line[0] != '#' && !util::is_blank(line)) {
    title = "# " + std::string(line);
  } else {
    return std::optional<Fix>();
  }
  const auto parsed = ledger::parse_project_ledger(with_line(*l->file, 1, title));
  if (!parsed.title || !parsed.title->matches || parsed.title->key != l->key) return std::optional<Fix>();
  return std::optional<Fix>(make_fix("make line 1 the `# ` title", {replace_line(*l->file, 1, title)}));
}

Answer fix_header_project(FixContext& context, const diag::Finding& finding) {
  if (finding.message.find("`Project:`") == std::string::npos) return std::optional<Fix>();
  LG_TRY(auto l, read_ledger(context, finding));
  if (!l) return std::optional<Fix>();
  const SourceFile& file = *l->file;
  const std::string eol(file.lines().first_eol());
  const std::string line = "Project: " + l->key;
  Edit edit;
  if (!l->parsed.header.empty()) {
    int first = l->parsed.header.front().line;
    for (const ledger::HeaderField& f : l->parsed.header) first = std::min(first, f.line);
    edit = insert_before(file, first, line + eol);
  } else if (file.lines().line_count() >= 3 && util::is_blank(line_of(file, 2))) {
    edit = insert_before(file, 3, line + eol + (util::is_blank(line_of(file, 3)) ? "" : eol));
  } else {
    return std::optional<Fix>();
  }
  auto bytes = apply_edits(file.bytes(), {edit});
  if (!bytes) return bytes.error();
  const auto parsed = ledger::parse_project_ledger(*bytes);
  const ledger::HeaderField* project = parsed.header_field("Project");
  if (!project || project->value != l->key) return std::optional<Fix>();
  return std::optional<Fix>(make_fix("add `" + line + "` to the header", {edit}));
}

Answer fix_project_value(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto l, read_ledger(context, finding));
  if (!l) return std::optional<Fix>();
  const ledger::HeaderField* project = l->parsed.header_field("Project");
  if (!project || project->line != finding.location.line) return std::optional<Fix>();
  return std::optional<Fix>(make_fix("set `Project:` to " + l->key,
                                     {replace_line(*l->file, project->line, "Project: " + l->key)}));
}

Answer fix_log_order(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto l, read_ledger(context, finding));
  if (!l) return std::optional<Fix>();
  const ledger::Section* log = first_section(l->parsed, "Log");
  if (!log) return std::optional<Fix>();
  const auto items = log_items(*l, *log);
  if (!items) return std::optional<Fix>();
  std::vector<LogItem> entries;
  for (const LogItem& item : *items) {
    if (!item.entry) continue;
    if (!util::is_real_date(item.date)) return std::optional<Fix>();
    entries.push_back(item);
  }
  std::vector<LogItem> sorted = entries;
  std::stable_sort(sorted.begin(), sorted.end(), [](const LogItem& a, const LogItem& b) { return a.date > b.date; });
  if (std::equal(sorted.begin(), sorted.end(), entries.begin(),
                 [](const LogItem& a, const LogItem& b) { return a.first == b.first; })) {
    return std::optional<Fix>();
  }
  // The entries take the entry slots in date order; blank lines stay where they are.
  const SourceFile& file = *l->file;
  const std::string eol(file.lines().eol(static_cast<std::size_t>(items->front().first - 1)));
  std::vector<std::string> lines;
  std::size_t next = 0;
  for (const LogItem& slot : *items) {
    const LogItem& item = slot.entry ? sorted[next++] : slot;
    for (int line = item.first; line <= item.last; ++line) lines.emplace_back(line_of(file, line));
  }
  const std::string text = util::join(lines, eol);
  const std::size_t begin = file.lines().line_begin(static_cast<std::size_t>(items->front().first - 1));
  const std::size_t end = file.lines().line_end(static_cast<std::size_t>(items->back().last - 1));
  return std::optional<Fix>(make_fix("sort the log newest first", {Edit{file.path(), begin, end, text}}));
}

Answer fix_ledger_digits(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto l, read_ledger(context, finding));
  if (!l) return std::optional<Fix>();
  const int line = finding.location.line;
  std::size_t fields = 0;
  if (run_at(l->parsed, line)) {
    fields = 4;
  } else if (std::any_of(l->parsed.log.begin(), l->parsed.log.end(), [line](const ledger::LogEntry& e) { return e.line == line; })) {
    fields = 1;
  } else {
    return std::optional<Fix>();
  }
  const std::string_view raw = line_of(*l->file, line);
  const std::size_t end = fields_end(raw, fields);
  const std::string fixed = ascii_digits(raw.substr(0, end)) + std::string(raw.substr(end));
  if (fixed == raw) return std::optional<Fix>();
  return std::optional<Fix>(make_fix("write the digits as ASCII 0-9", {replace_line(*l->file, line, fixed)}));
}

Answer fix_run_repeated(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto l, read_ledger(context, finding));
  if (!l) return std::optional<Fix>();
  const int line = finding.location.line;
  const ledger::RunLine* later = run_at(l->parsed, line);
  if (!later) return std::optional<Fix>();
  const SourceFile& file = *l->file;
  const int later_end = run_block_end(file, line);
  for (const ledger::RunLine& r : l->parsed.runs) {
    if (r.line >= line || r.ident != later->ident) continue;
    const int end = run_block_end(file, r.line);
    if (end - r.line != later_end - line) continue;
    bool same = true;
    for (int i = 0; same && i <= end - r.line; ++i) same = line_of(file, r.line + i) == line_of(file, line + i);
    if (same) {
      return std::optional<Fix>(
          make_fix("delete the repeated run line " + later->ident, {delete_lines(file, line, later_end)}));
    }
  }
  return std::optional<Fix>();
}

Answer fix_run_partition(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto l, read_ledger(context, finding));
  if (!l) return std::optional<Fix>();
  LG_TRY(auto rows, context.rows());
  const ledger::RunLine* run = run_at(l->parsed, finding.location.line);
  const rules::ProjectRow* row = rows ? rows->find(l->key) : nullptr;
  const auto partition = row ? row->get("partition") : std::nullopt;
  if (!run || !partition || partition->empty() || *partition == "both" || *partition == run->partition) {
    return std::optional<Fix>();
  }
  const std::string line = "- " + run->ident + std::string(k_sep) + run->state + std::string(k_sep) +
                           std::string(*partition) + std::string(k_sep) + run->date + std::string(k_sep) + run->what;
  return std::optional<Fix>(make_fix("put run " + run->ident + " on the project's partition " + std::string(*partition),
                                     {replace_line(*l->file, run->line, line)}));
}

Answer fix_run_tasks(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto l, read_ledger(context, finding));
  if (!l) return std::optional<Fix>();
  const ledger::RunLine* run = run_at(l->parsed, finding.location.line);
  if (!run) return std::optional<Fix>();
  const auto array = array_ident(run->ident);
  const std::string_view raw = line_of(*l->file, run->line);
  if (!array || raw.substr(2, run->ident.size()) != run->ident) return std::optional<Fix>();
  const auto set = canonical_task_set(array->second);
  if (!set) return std::optional<Fix>();
  const std::string ident = array->first + "_[" + *set + "]";
  if (ident == run->ident) return std::optional<Fix>();
  const std::string fixed = "- " + ident + std::string(raw.substr(2 + run->ident.size()));
  return std::optional<Fix>(make_fix("write the task set as " + ident, {replace_line(*l->file, run->line, fixed)}));
}

Answer fix_ledger_header_duplicate(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto l, read_ledger(context, finding));
  if (!l) return std::optional<Fix>();
  for (const ledger::HeaderField& dup : l->parsed.header_dups) {
    if (dup.line == finding.location.line) {
      return std::optional<Fix>(make_fix("delete the repeated `" + dup.key + ":` line",
                                         {delete_lines(*l->file, dup.line, dup.line)}));
    }
  }
  return std::optional<Fix>();
}

Answer fix_sections(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto l, read_ledger(context, finding));
  if (!l) return std::optional<Fix>();
  static constexpr std::string_view k_names[] = {"Now", "Runs", "Log"};
  // The headings found are some of Now, Runs, Log, once each and in order.
  std::vector<const ledger::Section*> found(3, nullptr);
  std::size_t last = 0;
  for (const ledger::Section& s : l->parsed.sections) {
    const auto it = std::find(std::begin(k_names), std::end(k_names), s.name);
    if (it == std::end(k_names)) return std::optional<Fix>();
    const auto i = static_cast<std::size_t>(it - std::begin(k_names));
    if (found[i] || (i < last && found[last])) return std::optional<Fix>();
    found[i] = &s;
    last = i;
  }
  const SourceFile& file = *l->file;
  const std::string eol(file.lines().first_eol());
  // Whether a body line looks like it belongs to the missing section (then where it goes is not certain).
  const auto body_has = [&](const ledger::Section* s, bool (*looks)(std::string_view)) {
    if (!s) return false;
    for (int i = s->body_begin; i < s->body_end; ++i) {
      if (looks(line_of(file, i + 1))) return true;
    }
    return false;
  };
  const auto run_like = [](std::string_view t) { return t.size() > 2 && t.substr(0, 2) == "- " && t[2] >= '0' && t[2] <= '9'; };
  const auto log_like = [](std::string_view t) {
    return t.size() > 7 && t.substr(0, 2) == "- " && util::is_date_shape(t.substr(2, 10));
  };
  std::map<int, std::string> before;  // heading line → headings inserted before it
  std::string at_end;
  for (std::size_t i = 0; i < 3; ++i) {
    if (found[i]) continue;
    const ledger::Section* next = nullptr;
    for (std::size_t j = i + 1; j < 3 && !next; ++j) next = found[j];
    if (i == 1 && body_has(found[0], run_like)) return std::optional<Fix>();
    if (i == 2 && (body_has(found[1], log_like) || (!found[1] && body_has(found[0], log_like)))) {
      return std::optional<Fix>();
    }
    if (next) {
      before[next->line] += "## " + std::string(k_names[i]) + eol + eol;
    } else {
      at_end += (at_end.empty() ? "" : eol) + "## " + std::string(k_names[i]) + eol;
    }
  }
  if (before.empty() && at_end.empty()) return std::optional<Fix>();
  std::vector<Edit> edits;
  for (const auto& [line, text] : before) edits.push_back(insert_before(file, line, text));
  if (!at_end.empty()) {
    // A blank line before the first heading appended, and the last line ended.
    const std::string& bytes = file.bytes();
    const util::LineIndex& lines = file.lines();
    const std::size_t count = lines.line_count();
    const bool ended = !bytes.empty() && (bytes.back() == '\n' || bytes.back() == '\r');
    const std::string_view final_line =
        ended ? (count >= 2 ? lines.line(count - 2) : std::string_view()) : lines.line(count - 1);
    const std::string prefix = (ended ? "" : eol) + (util::is_blank(final_line) ? "" : eol);
    edits.push_back(Edit{file.path(), bytes.size(), bytes.size(), prefix + at_end});
  }
  return std::optional<Fix>(make_fix("add the missing sections", std::move(edits)));
}

}  // namespace lg::fix::detail
