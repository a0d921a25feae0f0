// The fixer table (one row per certain or suggested rule, checked against
// the rule table at compile time), the context fixers read through, and the
// edits they share.
#include "ledgergate/fix/fixers.hpp"

#include <algorithm>
#include <array>

#include "fixers_impl.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::fix {
namespace {

using detail::Fixer;

struct FixerRow {
  std::string_view rule;
  Fixer fixer;
};

constexpr std::array k_fixers = {
    FixerRow{"input-bom", &detail::fix_bom},
    FixerRow{"input-line-endings", &detail::fix_line_endings},
    FixerRow{"input-control-char", &detail::fix_control_chars},
    FixerRow{"projects-yaml-field-known", &detail::fix_yaml_field_name},
    FixerRow{"projects-yaml-field-is-string", &detail::fix_yaml_field_quote},
    FixerRow{"ledger-sections-exact", &detail::fix_sections},
    FixerRow{"ledger-run-line-parses", &detail::fix_run_line_dashes},
    FixerRow{"ledger-log-line-parses", &detail::fix_log_line_dashes},
    FixerRow{"ledger-title-present", &detail::fix_title_present},
    FixerRow{"ledger-title-names-key", &detail::fix_title_key},
    FixerRow{"ledger-header-required", &detail::fix_header_project},
    FixerRow{"ledger-project-equals-key", &detail::fix_project_value},
    FixerRow{"ledger-run-listed-once", &detail::fix_run_repeated},
    FixerRow{"ledger-run-partition-agrees", &detail::fix_run_partition},
    FixerRow{"ledger-log-newest-first", &detail::fix_log_order},
    FixerRow{"ledger-run-tasks-ascending", &detail::fix_run_tasks},
    FixerRow{"ledger-non-ascii-digit", &detail::fix_ledger_digits},
    FixerRow{"ledger-header-duplicate-key", &detail::fix_ledger_header_duplicate},
    FixerRow{"pt-run-task-set-ascending", &detail::fix_pt_run_tasks},
    FixerRow{"pt-run-line-parses", &detail::fix_pt_run_line_dashes},
    FixerRow{"task-retired-phase-key", &detail::fix_task_phase_key},
    FixerRow{"pt-project-equals-directory", &detail::fix_pt_project_value},
    FixerRow{"pt-non-ascii-digit", &detail::fix_pt_digits},
    FixerRow{"pt-header-duplicate-key", &detail::fix_pt_header_duplicate},
    FixerRow{"orl-kind-gap-explicit", &detail::fix_orl_kind_gap},
};

// The table and the rule table agree: a fixer for every certain and
// suggested rule, exactly one, and none for a rule whose fix is a human's.
consteval bool fixers_match_table() {
  for (const diag::RuleInfo& r : diag::table::k_rules) {
    const bool fixable = r.fix.kind == diag::FixKind::certain || r.fix.kind == diag::FixKind::suggested;
    int rows = 0;
    for (const FixerRow& f : k_fixers) rows += f.rule == r.id ? 1 : 0;
    if (rows != (fixable ? 1 : 0)) return false;
  }
  for (const FixerRow& f : k_fixers) {
    bool known = false;
    for (const diag::RuleInfo& r : diag::table::k_rules) known = known || r.id == f.rule;
    if (!known) return false;
  }
  return true;
}
static_assert(fixers_match_table(),
              "fix/fixers.cpp: every certain or suggested rule has one fixer, and no other rule has one");

const FixerRow* find_fixer(std::string_view id) {
  for (const FixerRow& f : k_fixers) {
    if (f.rule == id) return &f;
  }
  return nullptr;
}

bool is_dash(char32_t c) {
  return c == '-' || c == 0x2010 || c == 0x2011 || c == 0x2012 || c == 0x2013 || c == 0x2014 || c == 0x2015 ||
         c == 0x2212;
}
bool is_blank_char(char32_t c) { return c == ' ' || c == '\t'; }

Place place_of(const util::LineIndex& lines, std::size_t offset) {
  const util::Position bytes = lines.position(offset, util::Unit::byte);
  return Place{bytes.line, bytes.column, lines.position(offset, util::Unit::code_point).column,
               lines.position(offset, util::Unit::utf16).column};
}

}  // namespace

bool overlaps(const Edit& a, const Edit& b) {
  if (a.path != b.path) return false;
  if (a.begin == a.end && b.begin == b.end) return a.begin == b.begin;
  return a.begin < b.end && b.begin < a.end;
}

Result<std::string> apply_edits(std::string_view bytes, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  std::string out;
  std::size_t at = 0;
  for (const Edit& e : edits) {
    if (e.begin < at || e.end < e.begin || e.end > bytes.size()) {
      return make_error(ErrorKind::internal, "fix: overlapping or out-of-range edits of " + e.path);
    }
    out.append(bytes.substr(at, e.begin - at)).append(e.text);
    at = e.end;
  }
  out.append(bytes.substr(at));
  return out;
}

Result<const SourceFile*> FixContext::file(const std::string& path) {
  if (auto it = m_files.find(path); it != m_files.end()) return it->second.get();
  LG_TRY(auto bytes, git::read_regular_file(m_tree, path));
  auto& slot = m_files[path];
  if (bytes) slot = std::make_unique<SourceFile>(path, std::move(*bytes));
  return slot.get();
}

Result<std::shared_ptr<const rules::ProjectsTable>> FixContext::rows() {
  if (!m_rows_read) {
    LG_TRY(m_rows, rules::projects_table(m_tree, m_cache));
    m_rows_read = true;
  }
  return m_rows;
}

bool has_fixer(std::string_view id) { return find_fixer(id) != nullptr; }

Result<std::optional<Fix>> fix_for(FixContext& context, const diag::Finding& finding) {
  const FixerRow* row = find_fixer(finding.rule);
  const diag::RuleInfo* info = diag::find_rule(finding.rule);
  if (!row || !info || finding.location.path.empty()) return std::optional<Fix>();
  LG_TRY(auto fix, row->fixer(context, finding));
  if (!fix || fix->edits.empty()) return std::optional<Fix>();
  fix->rule = finding.rule;
  fix->kind = info->fix.kind;
  std::sort(fix->edits.begin(), fix->edits.end(), [](const Edit& a, const Edit& b) {
    return a.path != b.path ? a.path < b.path : a.begin < b.begin;
  });
  for (Edit& e : fix->edits) {
    LG_TRY(const SourceFile* file, context.file(e.path));
    if (!file) continue;
    e.from = place_of(file->lines(), e.begin);
    e.to = place_of(file->lines(), e.end);
  }
  return fix;
}

std::optional<std::string> normalise_separators(std::string_view line, std::size_t skip, std::size_t count) {
  std::string out(line.substr(0, std::min(skip, line.size())));
  std::size_t at = out.size();
  std::size_t found = 0;
  while (at < line.size() && found < count) {
    // A run of blanks and dashes from `at`.
    std::size_t end = at;
    bool dash = false, other_dash = false;
    std::size_t first_dash = std::string_view::npos, last_dash_end = 0;
    while (end < line.size()) {
      std::size_t next = end;
      const char32_t c = util::next_code_point(line, next);
      if (!is_blank_char(c) && !is_dash(c)) break;
      if (is_dash(c)) {
        dash = true;
        other_dash = other_dash || c != '-';
        if (first_dash == std::string_view::npos) first_dash = end;
        last_dash_end = next;
      }
      end = next;
    }
    if (end == at) {  // not a blank or a dash: copy one code point
      std::size_t next = at;
      util::next_code_point(line, next);
      out.append(line.substr(at, next - at));
      at = next;
      continue;
    }
    const bool spaced = dash && first_dash > at && last_dash_end < end;
    if (dash && end < line.size() && (other_dash || spaced)) {
      out += " \xE2\x80\x94 ";
      ++found;
    } else {
      out.append(line.substr(at, end - at));
    }
    at = end;
  }
  if (found < count) return std::nullopt;
  out.append(line.substr(at));
  return out;
}

namespace detail {

Fix make_fix(std::string title, std::vector<Edit> edits) {
  Fix f;
  f.title = std::move(title);
  f.edits = std::move(edits);
  return f;
}

std::string_view line_of(const SourceFile& file, int line) {
  return line >= 1 ? file.lines().line(static_cast<std::size_t>(line - 1)) : std::string_view();
}

Edit replace_line(const SourceFile& file, int line, std::string text) {
  const auto i = static_cast<std::size_t>(line - 1);
  return Edit{file.path(), file.lines().line_begin(i), file.lines().line_end(i), std::move(text)};
}

Edit delete_lines(const SourceFile& file, int first, int last) {
  const util::LineIndex& lines = file.lines();
  std::size_t begin = lines.line_begin(static_cast<std::size_t>(first - 1));
  std::size_t end = lines.next_line(static_cast<std::size_t>(last - 1));
  // The file's last line has no line end: take the one before it instead.
  if (static_cast<std::size_t>(last) >= lines.line_count() && first > 1) {
    begin = lines.line_end(static_cast<std::size_t>(first - 2));
  }
  return Edit{file.path(), begin, end, ""};
}

Edit insert_before(const SourceFile& file, int line, std::string text) {
  const std::size_t at = file.lines().line_begin(static_cast<std::size_t>(line - 1));
  return Edit{file.path(), at, at, std::move(text)};
}

std::string with_line(const SourceFile& file, int line, std::string_view text) {
  const auto i = static_cast<std::size_t>(line - 1);
  const std::string& bytes = file.bytes();
  const std::size_t begin = file.lines().line_begin(i);
  const std::size_t end = file.lines().line_end(i);
  return bytes.substr(0, begin) + std::string(text) + bytes.substr(end);
}

std::string ledger_key(std::string_view path) {
  const std::string prefix = std::string(ledger::k_projects_dir) + "/";
  if (!util::starts_with(path, prefix) || path.size() <= prefix.size() + 3 || !path.ends_with(".md")) return {};
  const std::string_view key = path.substr(prefix.size(), path.size() - prefix.size() - 3);
  return key.find('/') == std::string_view::npos ? std::string(key) : std::string();
}

std::string ascii_digits(std::string_view text) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t next = at;
    const char32_t c = util::next_code_point(text, next);
    if (util::is_decimal(c) && !util::is_ascii_digit(c)) {
      out += static_cast<char>('0' + util::decimal_value(c));
    } else {
      out.append(text.substr(at, next - at));
    }
    at = next;
  }
  return out;
}

std::optional<std::string> canonical_task_set(const std::vector<std::pair<std::string, std::string>>& ranges) {
  std::vector<unsigned long long> numbers;
  const auto value = [](const std::string& digits) -> std::optional<unsigned long long> {
    if (digits.empty() || digits.size() > 9) return std::nullopt;
    unsigned long long v = 0;
    for (const char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + static_cast<unsigned long long>(c - '0');
    }
    return v;
  };
  for (const auto& [lo_text, hi_text] : ranges) {
    auto lo = value(lo_text), hi = value(hi_text);
    if (!lo || !hi) return std::nullopt;
    if (*lo > *hi) std::swap(lo, hi);
    if (*hi - *lo > 100000) return std::nullopt;
    for (unsigned long long n = *lo; n <= *hi; ++n) numbers.push_back(n);
  }
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  std::string out;
  for (std::size_t i = 0; i < numbers.size();) {
    std::size_t j = i;
    while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(numbers[i]);
    if (j > i) out += '-' + std::to_string(numbers[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace detail
}  // namespace lg::fix
