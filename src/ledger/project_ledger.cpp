// Parser for era-R project ledgers (spec §4.2). Lines are matched with
// hand-written equivalents of the reference's regexes; run and log lines are
// matched after ` -- ` → ` — `, continuations on the raw line. Only the first
// `## Runs` / `## Log` section is read, as the reference does; fences and
// repeated headings are recorded for the gap rules.
#include "ledgergate/ledger/project_ledger.hpp"

#include "ledgergate/util/cursor.hpp"

namespace lg::ledger {
namespace {

using util::Cursor;
constexpr std::string_view k_sep = " \xE2\x80\x94 ";  // " — "
constexpr int k_header_lines = 12;

bool is_partition_tail(char32_t c) { return util::is_key_char(c) || c == '-'; }
bool is_bracket_char(char32_t c) { return util::is_decimal(c) || c == ',' || c == '-'; }
bool is_upper_ascii(char32_t c) { return c >= 'A' && c <= 'Z'; }
bool is_header_key_char(char32_t c) {
  return is_upper_ascii(c) || util::is_lower_ascii(c) || (c >= '0' && c <= '9') || c == '-';
}
bool is_repo_char(char32_t c) {
  return is_upper_ascii(c) || util::is_lower_ascii(c) || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '-';
}
bool is_word_dot_dash(char32_t c) { return util::is_word(c) || c == '.' || c == '-'; }

bool date_field(Cursor& c) {
  return c.many(util::is_decimal, 4, 4) && c.literal("-") && c.many(util::is_decimal, 2, 2) &&
         c.literal("-") && c.many(util::is_decimal, 2, 2);
}

// ^\d{4}-\d{2}-\d{2} — (\S.*)$ tail shared by run and log lines.
bool text_tail(Cursor& c, std::string& out) {
  const std::string_view rest = c.rest();
  if (!c.one(util::is_not_space)) return false;
  out = std::string(rest);
  return true;
}

std::optional<RunLine> match_run_line(std::string_view line) {
  Cursor c(line);
  RunLine run;
  if (!c.literal("- ")) return std::nullopt;
  std::size_t start = c.pos();
  if (!c.many(util::is_decimal)) return std::nullopt;
  if (c.literal("_")) {
    if (c.literal("[")) {
      if (!c.many(is_bracket_char) || !c.literal("]")) return std::nullopt;
    } else if (!c.many(util::is_decimal)) {
      return std::nullopt;
    }
  }
  run.ident = std::string(c.since(start));
  if (!c.literal(k_sep)) return std::nullopt;
  if (c.literal("open")) {
    run.state = "open";
  } else if (c.literal("running")) {
    run.state = "running";
  } else {
    return std::nullopt;
  }
  if (!c.literal(k_sep)) return std::nullopt;
  start = c.pos();
  if (!c.one(util::is_lower_ascii) || !c.many(is_partition_tail, 0)) return std::nullopt;
  run.partition = std::string(c.since(start));
  if (!c.literal(k_sep)) return std::nullopt;
  start = c.pos();
  if (!date_field(c)) return std::nullopt;
  run.date = std::string(c.since(start));
  if (!c.literal(k_sep) || !text_tail(c, run.what)) return std::nullopt;
  run.text = run.what;
  return run;
}

std::optional<LogEntry> match_log_line(std::string_view line) {
  Cursor c(line);
  LogEntry entry;
  if (!c.literal("- ")) return std::nullopt;
  const std::size_t start = c.pos();
  if (!date_field(c)) return std::nullopt;
  entry.date = std::string(c.since(start));
  if (!c.literal(k_sep)) return std::nullopt;
  for (std::string_view kind : {"run", "result", "lesson", "note"}) {
    Cursor attempt = c;
    if (attempt.literal(kind) && attempt.literal(k_sep)) {
      entry.kind = std::string(kind);
      c = attempt;
      break;
    }
  }
  if (entry.kind.empty() || !text_tail(c, entry.text)) return std::nullopt;
  return entry;
}

// CONT_RE = ^  (\S.*)$ on the raw line.
std::optional<std::string> match_continuation(std::string_view line) {
  Cursor c(line);
  std::string text;
  if (!c.literal("  ") || !text_tail(c, text)) return std::nullopt;
  return text;
}

std::optional<Title> parse_title(std::string_view line1) {
  if (!util::starts_with(line1, "# ")) return std::nullopt;
  Title t;
  t.written = std::string(util::strip(line1.substr(2)));
  const std::string dashed = util::dash(t.written);
  Cursor c(dashed);
  if (c.one(util::is_lower_ascii) && c.many(util::is_key_char, 0)) {
    t.key = std::string(c.since(0));
    std::string summary;
    if (c.literal(k_sep) && text_tail(c, summary)) {
      t.matches = true;
      t.summary = std::string(util::strip(summary));
    }
  }
  if (!t.matches) t.key.clear();
  return t;
}

void parse_header(const TextFile& file, ProjectLedger& out) {
  const auto scan = find_header(file, k_header_lines);
  if (!scan) return;
  for (int i = scan->start; i < scan->limit; ++i) {
    const std::string_view line = file.line(static_cast<std::size_t>(i));
    if (util::is_blank(line)) break;
    auto f = match_header_line(line);
    if (!f) continue;
    f->line = i + 1;
    if (out.header_field(f->key)) {
      out.header_dups.push_back(std::move(*f));
    } else {
      out.header.push_back(std::move(*f));
    }
  }
}

const Section* first_section(const ProjectLedger& l, std::string_view name) {
  for (const Section& s : l.sections) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

// Run and log sections share one shape: item lines (matched after dash
// normalisation), two-space continuations attached to the item above, blank
// lines skipped, anything else a problem quoting the raw line.
template <class Item>
void parse_items(const TextFile& file, const Section& s, std::optional<Item> (*match)(std::string_view),
                 std::vector<Item>& items, std::vector<ParseProblem>& problems, ParseProblemKind orphan,
                 ParseProblemKind unparsed) {
  Item* current = nullptr;
  for (int i = s.body_begin; i < s.body_end; ++i) {
    const std::string_view raw = file.line(static_cast<std::size_t>(i));
    if (util::is_blank(raw)) continue;
    if (auto cont = match_continuation(raw)) {
      if (current) {
        current->text += " " + *cont;
      } else {
        problems.push_back({orphan, i + 1, ""});
      }
    } else if (auto item = raw.find(" -- ") == std::string_view::npos ? match(raw) : match(util::dash(raw))) {
      item->line = i + 1;
      items.push_back(std::move(*item));
      current = &items.back();
    } else {
      problems.push_back({unparsed, i + 1, std::string(util::strip(raw))});
    }
  }
}

std::string section_text(const TextFile& file, const Section& s) {
  std::string body;
  for (int i = s.body_begin; i < s.body_end; ++i) {
    if (i > s.body_begin) body += '\n';
    body += file.line(static_cast<std::size_t>(i));
  }
  return std::string(util::strip(body));
}

}  // namespace

std::optional<HeaderField> match_header_line(std::string_view line) {
  Cursor c(line);
  const std::size_t start = c.pos();
  if (!c.one(is_upper_ascii) || !c.many(is_header_key_char, 0)) return std::nullopt;
  HeaderField f;
  f.key = std::string(c.since(start));
  if (!c.literal(":")) return std::nullopt;
  const std::string_view rest = c.rest();
  if (!rest.empty() && rest.front() != ' ' && rest.front() != '\t') return std::nullopt;
  f.value = std::string(util::strip(rest));
  return f;
}

std::vector<Section> parse_sections(const TextFile& file) {
  const auto is_fence = [](std::string_view line) {
    const std::string_view t = util::lstrip(line);
    return util::starts_with(t, "```") || util::starts_with(t, "~~~");
  };
  std::vector<Section> out;
  bool fenced = false;
  const std::size_t count = file.line_count();
  for (std::size_t i = 0; i < count; ++i) {
    const std::string_view line = file.line(i);
    if (is_fence(line)) fenced = !fenced;
    if (!util::starts_with(line, "## ")) continue;
    if (!out.empty()) out.back().body_end = static_cast<int>(i);
    Section s;
    s.name = std::string(util::strip(line.substr(3)));
    s.line = static_cast<int>(i) + 1;
    s.in_fence = fenced;
    s.body_begin = static_cast<int>(i) + 1;
    s.body_end = static_cast<int>(count);
    out.push_back(std::move(s));
  }
  return out;
}

const HeaderField* ProjectLedger::header_field(std::string_view key) const {
  for (const HeaderField& f : header) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

void ProjectLedger::compact() {
  std::string().swap(now);  // rules read has_now
  for (RunLine& r : runs) {
    std::string().swap(r.what);
    std::string().swap(r.text);
  }
  for (LogEntry& e : log) std::string().swap(e.text);
  // A check keeps thousands of parses at once: no growth slack.
  runs.shrink_to_fit();
  log.shrink_to_fit();
  sections.shrink_to_fit();
  problems.shrink_to_fit();
}

ProjectLedger parse_project_ledger(std::string_view bytes) { return parse_owned_project_ledger(std::string(bytes)); }

ProjectLedger parse_owned_project_ledger(std::string&& bytes) {
  ProjectLedger out;
  const TextFile file = decode_owned_text(std::move(bytes));
  out.input = file.facts;
  out.title = parse_title(file.line(0));
  parse_header(file, out);
  out.sections = parse_sections(file);
  if (const Section* now = first_section(out, "Now")) out.now = section_text(file, *now);
  out.has_now = !out.now.empty();
  if (const Section* runs = first_section(out, "Runs")) {
    out.has_runs = true;
    parse_items(file, *runs, match_run_line, out.runs, out.problems, ParseProblemKind::run_orphan,
                ParseProblemKind::run_unparsed);
  }
  if (const Section* log = first_section(out, "Log")) {
    out.has_log = true;
    parse_items(file, *log, match_log_line, out.log, out.problems, ParseProblemKind::log_orphan,
                ParseProblemKind::log_unparsed);
  }
  return out;
}

bool is_issue_ref(std::string_view value) {
  if (value == "none") return true;
  {
    Cursor c(value);
    if (c.many(is_repo_char) && c.literal("#") && c.many(util::is_decimal) && c.at_end()) return true;
  }
  Cursor c(value);
  return c.literal("https://github.com/") && c.many(is_word_dot_dash) && c.literal("/") &&
         c.many(is_word_dot_dash) && c.literal("/issues/") && c.many(util::is_decimal) && c.at_end();
}

bool is_run_ident(std::string_view ident) {
  Cursor c(ident);
  if (!c.many(util::is_decimal)) return false;
  if (c.at_end()) return true;
  if (!c.literal("_")) return false;
  if (!c.literal("[")) return c.many(util::is_decimal) && c.at_end();
  do {
    if (!c.many(util::is_decimal)) return false;
    if (c.literal("-") && !c.many(util::is_decimal)) return false;
  } while (c.literal(","));
  return c.literal("]") && c.at_end();
}

std::optional<HeaderScan> find_header(const TextFile& file, int max_lines) {
  const int limit = std::min(max_lines, static_cast<int>(file.line_count()));
  for (int i = 1; i < limit; ++i) {
    if (match_header_line(file.line(static_cast<std::size_t>(i)))) return HeaderScan{i, limit};
  }
  return std::nullopt;
}

}  // namespace lg::ledger
