// Parser for era-P/T phase, task and ruling files (spec §1.2–§1.4, §2.3).
// Lines are matched with hand-written equivalents of the reference's regexes
// (util::Cursor, Unicode \d \w \s); run lines and continuations are matched
// after ` -- ` → ` — `, the "does not parse" text quotes the raw line. Only
// the first `## Runs` and `## Where to look` are read, as the reference does.
#include "ledgergate/ledger/pt_file.hpp"

#include <algorithm>

#include "ledgergate/util/cursor.hpp"

namespace lg::ledger {
namespace {

using util::Cursor;
constexpr std::string_view k_sep = " \xE2\x80\x94 ";  // " — "
constexpr int k_header_lines = 30;
constexpr std::string_view k_placeholder = "(the output path, once there is one)";

bool is_ascii_letter(char32_t c) { return (c >= 'A' && c <= 'Z') || util::is_lower_ascii(c); }
bool is_partition_tail(char32_t c) { return util::is_key_char(c) || c == '-'; }
bool is_word_dot_dash(char32_t c) { return util::is_word(c) || c == '.' || c == '-'; }
bool is_word_dot(char32_t c) { return util::is_word(c) || c == '.'; }
bool is_ref_head(char32_t c) { return is_ascii_letter(c) || c == '_'; }
bool is_not_slash(char32_t c) { return c != '/'; }

bool digits(Cursor& c, std::size_t n) { return c.many(util::is_decimal, n, n); }

void append_item(HeaderField& owner, std::string_view item) {
  if (owner.value.empty()) {
    owner.value = std::string(item);
  } else {
    owner.value += ", ";
    owner.value += item;
  }
}

void parse_header(const TextFile& file, PtHeader& out) {
  const auto scan = find_header(file, k_header_lines);
  if (!scan) return;
  const int start = scan->start, limit = scan->limit;
  out.first_line = start + 1;
  std::ptrdiff_t owner = -1;  // index into out.fields of the list owner
  for (int i = start; i < limit; ++i) {
    const std::string_view line = file.line(static_cast<std::size_t>(i));
    if (util::is_blank(line)) break;
    out.last_line = i + 1;
    if (auto f = match_header_line(line)) {
      f->line = i + 1;
      if (out.find(f->key)) {
        out.duplicates.push_back(std::move(*f));
        owner = -1;
      } else {
        out.fields.push_back(std::move(*f));
        owner = static_cast<std::ptrdiff_t>(out.fields.size()) - 1;
      }
    } else if (owner >= 0 && util::starts_with(line, "- ")) {
      append_item(out.fields[static_cast<std::size_t>(owner)], util::strip(line.substr(2)));
    } else {
      out.dropped.push_back(HeaderField{"", std::string(line), i + 1});
    }
  }
}

// \d+(?:-\d+)? parts separated by ",", inside `_[…]`.
bool task_list(Cursor& c, PtRun& run) {
  do {
    std::size_t start = c.pos();
    if (!c.many(util::is_decimal)) return false;
    TaskRange r;
    r.lo = number_value(c.since(start));
    r.hi = r.lo;
    if (c.literal("-")) {
      start = c.pos();
      if (!c.many(util::is_decimal)) return false;
      r.hi = number_value(c.since(start));
    }
    run.tasks.push_back(std::move(r));
  } while (c.literal(","));
  return true;
}

bool run_ident(Cursor& c, PtRun& run) {
  const std::size_t start = c.pos();
  if (!c.many(util::is_decimal)) return false;
  run.stem = std::string(c.since(start));
  if (c.literal("_")) {
    run.whole_job = false;
    if (c.literal("[")) {
      if (!task_list(c, run) || !c.literal("]")) return false;
    } else {
      const std::size_t t = c.pos();
      if (!c.many(util::is_decimal)) return false;
      const TaskNumber n = number_value(c.since(t));
      run.tasks.push_back(TaskRange{n, n});
    }
  }
  run.ident = std::string(c.since(start));
  return true;
}

bool run_state(Cursor& c, PtRun& run) {
  // legacy_wrong before legacy: the regex backtracks to the alternative that
  // is followed by " — ".
  for (std::string_view s : {"submitted", "running", "done", "failed", "timeout", "void", "legacy_wrong", "legacy"}) {
    Cursor attempt = c;
    if (attempt.literal(s) && attempt.literal(k_sep)) {
      run.state = std::string(s);
      c = attempt;
      return true;
    }
  }
  return false;
}

bool ascending(const std::vector<TaskRange>& parts) {
  const TaskNumber* previous_end = nullptr;
  for (const TaskRange& r : parts) {
    if (r.hi < r.lo) return false;
    if (previous_end && !(*previous_end < r.lo)) return false;
    previous_end = &r.hi;
  }
  return true;
}

void parse_runs(const TextFile& file, const Section& s, PtFile& out) {
  PtRun* current = nullptr;
  for (int i = s.body_begin; i < s.body_end; ++i) {
    const std::string_view raw = file.line(static_cast<std::size_t>(i));
    if (util::is_blank(raw)) continue;
    const std::string dashed = util::dash(raw);
    if (auto run = match_pt_run_line(dashed)) {
      run->line = i + 1;
      out.runs.push_back(std::move(*run));
      current = &out.runs.back();
      if (!current->ascending) out.problems.push_back({PtProblemKind::not_ascending, i + 1, current->ident});
    } else if (auto cont = match_pt_continuation(dashed)) {
      if (!current) {
        out.problems.push_back({PtProblemKind::orphan_continuation, i + 1, ""});
        continue;
      }
      auto& slot = cont->first == "pulled_to" ? current->pulled_to
                   : cont->first == "after"   ? current->after
                   : cont->first == "resumes" ? current->resumes
                   : cont->first == "where"   ? current->where
                                              : current->ruled;
      slot = std::move(cont->second);
    } else {
      out.problems.push_back({PtProblemKind::unparsed, i + 1, std::string(util::strip(raw))});
    }
  }
}

bool names_a_place(const TextFile& file, const Section& s) {
  for (int i = s.body_begin; i < s.body_end; ++i) {
    const std::string_view line = file.line(static_cast<std::size_t>(i));
    if (util::starts_with(line, "- ") && util::strip(line) != "-" && line.find(k_placeholder) == std::string_view::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::string_view PtHeader::value(std::string_view key) const {
  const HeaderField* f = find(key);
  return f ? std::string_view(f->value) : std::string_view();
}

const HeaderField* PtHeader::find(std::string_view key) const {
  for (const HeaderField& f : fields) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

const Section* PtFile::section(std::string_view name) const {
  for (const Section& s : sections) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::vector<std::string> PtFile::body_stems() const {
  std::vector<std::string> out;
  out.reserve(runs.size());
  for (const PtRun& r : runs) out.push_back(r.stem);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

PtFile parse_pt_file(std::string_view bytes) {
  PtFile out;
  const TextFile file = decode_text(bytes);
  out.input = file.facts;
  const std::string_view line1 = file.line(0);
  if (util::starts_with(line1, "# ")) out.title = std::string(util::strip(line1.substr(2)));
  parse_header(file, out.header);
  out.sections = parse_sections(file);
  if (const Section* runs = out.section("Runs")) parse_runs(file, *runs, out);
  if (const Section* where = out.section("Where to look")) out.where_names_a_place = names_a_place(file, *where);
  return out;
}

std::optional<PtRun> match_pt_run_line(std::string_view line) {
  Cursor c(line);
  PtRun run;
  if (!c.literal("- ") || !run_ident(c, run) || !c.literal(": ") || !run_state(c, run)) return std::nullopt;
  std::size_t start = c.pos();
  if (!c.one(util::is_lower_ascii) || !c.many(is_partition_tail, 0)) return std::nullopt;
  run.partition = std::string(c.since(start));
  if (!c.literal(k_sep) || !c.literal("submitted ")) return std::nullopt;
  start = c.pos();
  if (!digits(c, 4) || !c.literal("-") || !digits(c, 2) || !c.literal("-") || !digits(c, 2)) return std::nullopt;
  run.date = std::string(c.since(start));
  if (!c.literal(k_sep) || !c.literal("wall ")) return std::nullopt;
  start = c.pos();
  if (!c.many(util::is_decimal) || !c.literal(":") || !digits(c, 2)) return std::nullopt;
  run.wall = std::string(c.since(start));
  if (!c.at_end()) {
    if (!c.literal(k_sep) || c.at_end()) return std::nullopt;
    run.note = std::string(c.rest());
  }
  run.ascending = ascending(run.tasks);
  return run;
}

std::optional<std::pair<std::string, std::string>> match_pt_continuation(std::string_view line) {
  Cursor c(line);
  if (!c.literal("    ")) return std::nullopt;
  for (std::string_view key : {"pulled_to", "after", "resumes", "where", "ruled"}) {
    Cursor attempt = c;
    if (!attempt.literal(key) || !attempt.literal(": ")) continue;
    const std::string_view value = attempt.rest();
    if (!attempt.one(util::is_not_space)) return std::nullopt;
    return std::make_pair(std::string(key), std::string(value));
  }
  return std::nullopt;
}

bool runs_overlap(const PtRun& a, const PtRun& b) {
  if (a.stem != b.stem) return false;
  if (a.whole_job || b.whole_job) return true;
  for (const TaskRange& x : a.tasks) {
    for (const TaskRange& y : b.tasks) {
      if (x.hi < x.lo || y.hi < y.lo) continue;
      if (!(x.hi < y.lo) && !(y.hi < x.lo)) return true;
    }
  }
  return false;
}

bool is_gate_ref(std::string_view token) {
  {
    Cursor c(token);
    if (c.literal("https://github.com/") && c.many(is_word_dot_dash) && c.literal("/") && c.many(is_word_dot_dash) &&
        c.literal("/") && (c.literal("issues/") || c.literal("pull/")) && c.many(util::is_decimal) && c.at_end()) {
      return true;
    }
  }
  Cursor c(token);
  return c.one(is_ref_head) && c.many(is_word_dot, 0) && c.literal("#") && c.many(util::is_decimal) && c.at_end();
}

std::string gate_url(std::string_view ref) {
  if (!is_gate_ref(ref)) return std::string();
  if (util::starts_with(ref, "https://")) {
    // https://github.com/{owner}/{repo}/{issues|pull}/{n}: the kind is the
    // segment before the number (owner and repo hold no "/").
    const std::size_t number = ref.rfind('/');
    const std::size_t kind = ref.rfind('/', number - 1);
    return std::string(ref.substr(0, kind)) + "/issues" + std::string(ref.substr(number));
  }
  const std::size_t hash = ref.find('#');
  return "https://github.com/PyAutoLabs/" + std::string(ref.substr(0, hash)) + "/issues/" +
         std::string(ref.substr(hash + 1));
}

std::vector<std::string> split_refs(std::string_view value) {
  std::vector<std::string> out;
  while (true) {
    const std::size_t comma = value.find(',');
    const std::string_view part = util::strip(value.substr(0, comma));
    if (!part.empty()) out.emplace_back(part);
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return out;
}

bool is_ruling_id(std::string_view value) {
  Cursor c(value);
  return c.literal("R-") && digits(c, 8) && c.literal("-") && digits(c, 2) && c.at_end();
}

bool is_int_text(std::string_view value) {
  Cursor c(value);
  return c.many(util::is_decimal) && c.at_end();
}

bool is_wall_text(std::string_view value) {
  Cursor c(value);
  return c.many(util::is_decimal) && c.literal(":") && digits(c, 2) && c.at_end();
}

std::optional<RulingPath> match_ruling_path(std::string_view path) {
  Cursor c(path);
  RulingPath out;
  if (!c.literal("rulings/")) return std::nullopt;
  std::size_t start = c.pos();
  if (!digits(c, 4)) return std::nullopt;
  out.year = std::string(c.since(start));
  if (!c.literal("/")) return std::nullopt;
  start = c.pos();
  if (!digits(c, 2)) return std::nullopt;
  out.month = std::string(c.since(start));
  if (!c.literal("/")) return std::nullopt;
  start = c.pos();
  if (!c.literal("R-") || !digits(c, 8) || !c.literal("-") || !digits(c, 2)) return std::nullopt;
  out.id = std::string(c.since(start));
  if (!c.literal(".md") || !c.at_end()) return std::nullopt;
  return out;
}

std::optional<PtPath> match_pt_path(std::string_view path, std::string_view dir) {
  Cursor c(path);
  if (!c.literal(dir) || !c.literal("/")) return std::nullopt;
  const std::size_t start = c.pos();
  if (!c.one(util::is_lower_ascii) || !c.many(util::is_key_char, 0)) return std::nullopt;
  PtPath out;
  out.project = std::string(c.since(start));
  if (!c.literal("/")) return std::nullopt;
  const std::string_view name = c.rest();
  if (name.size() <= 3 || name.substr(name.size() - 3) != ".md") return std::nullopt;
  Cursor stem(name.substr(0, name.size() - 3));
  if (!stem.many(is_not_slash) || !stem.at_end()) return std::nullopt;
  out.slug = std::string(name.substr(0, name.size() - 3));
  return out;
}

std::string code_point_slice(std::string_view s, std::size_t begin, std::size_t end) {
  std::size_t pos = 0, index = 0, from = s.size();
  while (pos < s.size() && index < end) {
    if (index == begin) from = pos;
    util::next_code_point(s, pos);
    ++index;
  }
  if (begin >= index) return std::string();
  return std::string(s.substr(from, pos - from));
}

TaskNumber number_value(std::string_view text) {
  TaskNumber n;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const int d = util::decimal_value(util::next_code_point(text, pos));
    if (n.digits.empty() && d == 0) continue;
    n.digits.push_back(static_cast<char>('0' + d));
  }
  if (n.digits.empty()) n.digits.push_back('0');
  return n;
}

}  // namespace lg::ledger
