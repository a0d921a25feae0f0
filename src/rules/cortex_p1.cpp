// Era P1 (P1a, P1b, P1c): the restricted-subset reader of projects.yaml
// (spec §5.2) and the batch records and reviews (spec §2.5, §2.6.5), in the
// reference's emission order. The reference's regular expressions are
// deterministic enough to be matched by hand: each matcher below notes the
// expression it stands for and why no backtracking is needed.
#include "ledgergate/rules/cortex_p1.hpp"

#include <algorithm>
#include <array>
#include <set>

#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/cursor.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::rules {
namespace {

using diag::PeerForm;

// The rule ids of this file, in one place (registry rows: src/rules/registry.cpp).
namespace id {
// projects.yaml, restricted subset (§5.2); Y-01 and Y-11..Y-17 are the §5.1 rows.
constexpr RuleId y1_duplicate_row_key{"projects-yaml-p1-duplicate-row"};       // Y1-01
constexpr RuleId y1_field_known{"projects-yaml-p1-field-known"};               // Y1-02
constexpr RuleId y1_field_unique{"projects-yaml-p1-field-unique"};             // Y1-03
constexpr RuleId y1_sync_verbs_flow_list{"projects-yaml-p1-sync-verbs-flow"};  // Y1-04
constexpr RuleId y1_sync_verbs_bare{"projects-yaml-p1-sync-verbs-bare"};       // Y1-05
constexpr RuleId y1_field_has_value{"projects-yaml-p1-field-has-value"};       // Y1-06
constexpr RuleId y1_quotes_balanced{"projects-yaml-p1-quotes"};                // Y1-07
constexpr RuleId y1_scalar_quoting{"projects-yaml-p1-scalar-quoting"};         // Y1-08
constexpr RuleId y1_inside_subset{"projects-yaml-p1-outside-subset"};          // Y1-09
constexpr RuleId y01_present{"projects-yaml-present"};                         // Y-01
// Batch records (§2.6.5).
constexpr RuleId b01_slot_name{"phase-batch-slot-name"};              // P-B01
constexpr RuleId b02_member_parses{"phase-batch-member-parses"};      // P-B02
constexpr RuleId b03_member_path{"phase-batch-member-path"};          // P-B03
constexpr RuleId b04_member_slug{"phase-batch-member-slug"};          // P-B04
constexpr RuleId b05_member_runs{"phase-batch-member-runs"};          // P-B05
constexpr RuleId b06_member_minutes{"phase-batch-member-minutes"};    // P-B06
constexpr RuleId b07_member_state{"phase-batch-member-state"};        // P-B07
constexpr RuleId b08_review_resolves{"phase-batch-review-resolves"};  // P-B08
// Batch reviews (§2.6.5).
constexpr RuleId v01_title{"phase-review-title"};                        // P-V01
constexpr RuleId v02_partial_number{"phase-review-partial-number"};      // P-V02
constexpr RuleId v03_has_record{"phase-review-has-record"};              // P-V03
constexpr RuleId v04_heading{"phase-review-heading"};                    // P-V04
constexpr RuleId v05_health{"phase-review-health"};                      // P-V05
constexpr RuleId v06_section_member{"phase-review-section-member"};      // P-V06
constexpr RuleId v07_decision_and_ruled{"phase-review-decision-ruled"};  // P-V07
constexpr RuleId v08_decision_verb{"phase-review-decision-verb"};        // P-V08
constexpr RuleId v09_ruled_yes_no{"phase-review-ruled-yes-no"};          // P-V09
constexpr RuleId v10_ruled_needs_verb{"phase-review-ruled-needs-verb"};  // P-V10
}  // namespace id

constexpr std::string_view k_sep = " \xE2\x80\x94 ";  // " — "

constexpr std::array<std::string_view, 10> k_phase_states = {
    "planned", "gated", "ready", "submitted", "running", "pulled", "awaiting-ruling", "accepted", "rerun", "dropped"};
constexpr std::array<std::string_view, 5> k_decisions = {"accept", "rerun", "drop", "leave-to-finish", "(none)"};
constexpr std::array<std::string_view, 4> k_health = {"HEALTHY", "SUSPECT", "FAILED", "RUNNING"};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& set, std::string_view s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Where the longest suffix of `s` whose code points all satisfy `pred` starts.
std::size_t suffix_start(std::string_view s, bool (*pred)(char32_t)) {
  std::size_t start = 0;
  for (std::size_t pos = 0; pos < s.size();) {
    const bool ok = pred(util::next_code_point(s, pos));
    if (!ok) start = pos;
  }
  return start;
}

// The length of the longest prefix of `s` whose code points all satisfy `pred`.
std::size_t prefix_length(std::string_view s, bool (*pred)(char32_t)) {
  util::Cursor c(s);
  c.many(pred, 0);
  return c.pos();
}

bool is_bare_char(char32_t c) { return util::is_key_char(c) || c == U'-'; }
bool is_slot_char(char32_t c) {
  return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c >= U'0' && c <= U'9') || c == U'_' || c == U'-';
}
bool is_field_char(char32_t c) { return util::is_lower_ascii(c) || c == U'_'; }
bool is_upper_ascii(char32_t c) { return c >= U'A' && c <= U'Z'; }

// ^[a-z][a-z0-9_-]*$
bool is_bare_word(std::string_view s) {
  util::Cursor c(s);
  return c.one(util::is_lower_ascii) && c.many(is_bare_char, 0) && c.at_end();
}

// ^\d+$ (Unicode \d); `s` holds no newline.
bool is_int(std::string_view s) {
  util::Cursor c(s);
  return c.many(util::is_decimal) && c.at_end();
}

// SLOT_RE ^\d{4}-\d{2}-\d{2}-[A-Za-z0-9_-]+$ (`$` also before one final "\n").
bool is_slot(std::string_view s) {
  if (ends_with(s, "\n")) s.remove_suffix(1);
  util::Cursor c(s);
  return c.many(util::is_decimal, 4, 4) && c.literal("-") && c.many(util::is_decimal, 2, 2) && c.literal("-") &&
         c.many(util::is_decimal, 2, 2) && c.literal("-") && c.many(is_slot_char) && c.at_end();
}

// int(digits), saturated at `cap` (only "is it < 2" is ever asked).
int int_value(std::string_view digits, int cap) {
  int n = 0;
  for (std::size_t pos = 0; pos < digits.size();)
    n = std::min(cap, n * 10 + util::decimal_value(util::next_code_point(digits, pos)));
  return n;
}

// "{a, b}" of the sorted set (Python's "{" + ", ".join(sorted(xs)) + "}").
std::string brace_list(const std::set<std::string, std::less<>>& xs) {
  std::string out = "{";
  bool first = true;
  for (const std::string& x : xs) {
    if (!first) out += ", ";
    out += x;
    first = false;
  }
  return out + "}";
}

// Python Path ordering: the tuple of components, each compared by code point
// (byte order of UTF-8 is code-point order).
bool path_less(std::string_view a, std::string_view b) {
  for (;;) {
    const std::size_t ea = a.find('/');
    const std::size_t eb = b.find('/');
    const std::string_view ca = a.substr(0, ea);
    const std::string_view cb = b.substr(0, eb);
    if (ca != cb) return ca < cb;
    if (ea == std::string_view::npos || eb == std::string_view::npos) return ea == std::string_view::npos && eb != ea;
    a.remove_prefix(ea + 1);
    b.remove_prefix(eb + 1);
  }
}

std::vector<const P1BatchFile*> sorted_files(const std::vector<P1BatchFile>& files) {
  std::vector<const P1BatchFile*> out;
  out.reserve(files.size());
  for (const P1BatchFile& f : files) out.push_back(&f);
  std::stable_sort(out.begin(), out.end(),
                   [](const P1BatchFile* a, const P1BatchFile* b) { return path_less(a->rel, b->rel); });
  return out;
}

// The file name without its directory and its last suffix.
std::string_view file_stem(std::string_view rel) {
  const std::size_t slash = rel.rfind('/');
  std::string_view name = slash == std::string_view::npos ? rel : rel.substr(slash + 1);
  const std::size_t dot = name.rfind('.');
  return dot == std::string_view::npos || dot == 0 ? name : name.substr(0, dot);
}

// ---------------------------------------------------------------------------
// projects.yaml, restricted subset (§5.2)

constexpr std::string_view k_p1_required[] = {"remote",     "local_path", "ral_root",     "mirror",    "sync_cli",
                                              "sync_verbs", "ledger",     "witness_file", "partition", "status"};

bool is_p1_field(std::string_view name, P1Sub sub) {
  if (name == "note") return sub != P1Sub::a;
  return std::find(std::begin(k_p1_required), std::end(k_p1_required), name) != std::end(k_p1_required);
}

ProjectsYamlEra p1_era(P1Sub sub) {
  ProjectsYamlEra era;
  era.assistant_known = false;
  era.statuses = sub == P1Sub::a ? std::vector<std::string>{"active", "dormant"}
                                 : std::vector<std::string>{"active", "dormant", "planned"};
  return era;
}

// Step 1: a comment-only line is blank; with a `"` on the line a ` #`
// comment is only recognised after the second `"` (none without one);
// otherwise the first ` #` starts it. Trailing whitespace is then removed.
std::string_view strip_comment(std::string_view line) {
  if (util::starts_with(util::lstrip(line), "#")) return {};
  std::size_t cut = std::string_view::npos;
  if (const std::size_t q1 = line.find('"'); q1 != std::string_view::npos) {
    if (const std::size_t q2 = line.find('"', q1 + 1); q2 != std::string_view::npos) cut = line.find(" #", q2 + 1);
  } else {
    cut = line.find(" #");
  }
  if (cut != std::string_view::npos) line = line.substr(0, cut);
  return util::rstrip(line);
}

// What `(?:\s+(.*?))?\s*$` takes after a key's colon: nothing, or whitespace
// then the value, stripped ("" when there is none); nullopt when the rest
// starts with anything but whitespace.
std::optional<std::string_view> colon_tail_value(std::string_view rest) {
  if (!rest.empty() && prefix_length(rest, util::is_space) == 0) return std::nullopt;
  return util::strip(rest);
}

// ^([a-z][a-z0-9_]*):\s*$ on a right-stripped line.
std::optional<std::string_view> match_row_key(std::string_view line) {
  util::Cursor c(line);
  if (!(c.one(util::is_lower_ascii) && c.many(util::is_key_char, 0))) return std::nullopt;
  const std::string_view key = c.since(0);
  if (!(c.literal(":") && c.many(util::is_space, 0) && c.at_end())) return std::nullopt;
  return key;
}

// A key line of projects.yaml or of a batch record: the key and the value
// after the colon ("" when absent).
struct FieldLine {
  std::string_view name;
  std::string_view value;
};

// The rest of a key line once its key (from `start`) has been read: a colon,
// then nothing or whitespace and the value.
std::optional<FieldLine> finish_key_line(util::Cursor& c, std::size_t start) {
  FieldLine f{c.since(start), {}};
  if (!c.literal(":")) return std::nullopt;
  const auto value = colon_tail_value(c.rest());
  if (!value) return std::nullopt;
  f.value = *value;
  return f;
}

// ^  ([a-z_]+):(?:\s+(.*?))?\s*$ on a right-stripped line: after the colon,
// either nothing or whitespace then the value (which ends in no whitespace,
// so the lazy group takes all of it).
std::optional<FieldLine> match_field(std::string_view line) {
  util::Cursor c(line);
  if (!c.literal("  ")) return std::nullopt;
  const std::size_t start = c.pos();
  if (!c.many(is_field_char)) return std::nullopt;
  return finish_key_line(c, start);
}

class P1ProjectsReader {
 public:
  P1ProjectsReader(P1Sub sub, diag::FindingSink& sink, const std::string& path)
      : m_sub(sub), m_era(p1_era(sub)), m_sink(sink), m_path(path) {}

  void read(std::string_view text) {
    const std::vector<std::string> lines = util::split_universal_lines(text);
    for (std::size_t i = 0; i < lines.size(); ++i) read_line(static_cast<int>(i + 1), lines[i]);
    finish_row();
  }

  ProjectsTable table() && {
    ProjectsTable table;
    table.present = true;
    for (Row& r : m_rows) {
      ProjectRow row;
      row.key = std::move(r.key);
      row.line = r.line;
      for (KeptProjectField& f : r.fields) row.fields.emplace_back(std::move(f.name), std::move(f.value));
      table.rows.push_back(std::move(row));
    }
    table.index();
    return table;
  }

 private:
  struct Row {
    std::string key;
    int line = 0;
    std::vector<KeptProjectField> fields;
  };

  void line_finding(RuleId rule, int n, std::string message) {
    m_sink.report(make_finding(rule, m_path, n, std::move(message), PeerForm::path_line_message));
  }

  void read_line(int n, std::string_view raw) {
    const std::string_view line = strip_comment(raw);
    if (line.empty()) return;
    if (const auto key = match_row_key(line)) return start_row(n, *key);
    if (m_current) {
      if (const auto field = match_field(line)) return read_field(n, *field);
    }
    line_finding(id::y1_inside_subset, n,
                 "outside the subset (a key is `^[a-z][a-z0-9_]*:$` at column 0, a field is two-space indented): " +
                     std::string(util::strip(line)));
  }

  void start_row(int n, std::string_view key) {
    finish_row();
    const auto it = std::find_if(m_rows.begin(), m_rows.end(), [&](const Row& r) { return r.key == key; });
    if (it != m_rows.end()) {
      line_finding(id::y1_duplicate_row_key, n, "duplicate project key " + std::string(key));
      *it = Row{std::string(key), n, {}};  // restarts empty, keeps its first position
      m_current = static_cast<std::size_t>(it - m_rows.begin());
      return;
    }
    m_rows.push_back(Row{std::string(key), n, {}});
    m_current = m_rows.size() - 1;
  }

  void finish_row() {
    if (!m_current) return;
    const Row& row = m_rows[*m_current];
    check_project_row_fields(row.key, row.line, row.fields, m_era, m_sink, m_path);
    m_current.reset();
  }

  void read_field(int n, const FieldLine& f) {
    Row& row = m_rows[*m_current];
    const std::string name(f.name);
    if (!is_p1_field(name, m_sub)) {
      line_finding(id::y1_field_known, n, "unknown field `" + name + "` on " + row.key);
      return;
    }
    if (std::any_of(row.fields.begin(), row.fields.end(), [&](const KeptProjectField& k) { return k.name == name; })) {
      line_finding(id::y1_field_unique, n, "duplicate field `" + name + "` on " + row.key);
      return;
    }
    if (name == "sync_verbs") return read_sync_verbs(n, f.value, row);
    const std::string_view v = f.value;
    if (v.empty()) {
      line_finding(id::y1_field_has_value, n, "`" + name + "` has no value");
      row.fields.push_back(KeptProjectField{name, "", false, n});
      return;
    }
    std::string kept(v);
    if (v.front() == '"') {
      if (v.size() < 2 || v.back() != '"' || v.substr(1, v.size() - 2).find('"') != std::string_view::npos) {
        line_finding(id::y1_quotes_balanced, n, "unterminated or nested quotes: " + std::string(v));
      } else {
        kept = std::string(v.substr(1, v.size() - 2));
      }
    } else if (v.find_first_of("#:") != std::string_view::npos ||
               std::string_view("[{'&*!|>").find(v.front()) != std::string_view::npos) {
      line_finding(id::y1_scalar_quoting, n,
                   "scalar needs quoting (contains `#`, `:` or a YAML indicator): " + std::string(v));
    }
    row.fields.push_back(KeptProjectField{name, std::move(kept), false, n});
  }

  void read_sync_verbs(int n, std::string_view v, Row& row) {
    if (!(util::starts_with(v, "[") && ends_with(v, "]") && v.size() >= 2)) {
      line_finding(id::y1_sync_verbs_flow_list, n, "sync_verbs must be a flow list `[a, b]`");
      return;
    }
    const std::string_view body = v.substr(1, v.size() - 2);
    std::vector<std::string> good;
    std::vector<std::string> bad;
    bool any = false;
    for (std::size_t start = 0;;) {
      const std::size_t comma = body.find(',', start);
      const std::string_view item =
          util::strip(body.substr(start, comma == std::string_view::npos ? comma : comma - start));
      if (!item.empty()) {
        any = true;
        (is_bare_word(item) ? good : bad).emplace_back(item);
      }
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (!bad.empty() || (!any && !util::is_blank(body))) {
      line_finding(id::y1_sync_verbs_bare, n, "sync_verbs holds a non-bare word: " + util::py_list_repr(bad));
    }
    row.fields.push_back(KeptProjectField{"sync_verbs", util::join(good, ", "), true, n});
  }

  P1Sub m_sub;
  ProjectsYamlEra m_era;
  diag::FindingSink& m_sink;
  const std::string& m_path;
  std::vector<Row> m_rows;  // first-appearance order
  std::optional<std::size_t> m_current;
};

// ---------------------------------------------------------------------------
// Batch records and reviews (§2.5, §2.6.5)

struct MemberLine {
  std::string slug;
  std::string path;
  std::string runs;
  std::string minutes;
  std::string state;
};

// MEMBER_RE ^  - (?P<slug>[^:]+): (?P<path>\S+) — (?P<runs>.+?) — (?P<minutes>\S+) — (?P<state>\S+)$
// on a dashed line. The slug runs to the first colon; path, minutes and
// state hold no whitespace, so each is the maximal non-space run next to its
// " — " (the lazy runs group takes what is left, at least one character).
std::optional<MemberLine> match_member(std::string_view line) {
  if (!util::starts_with(line, "  - ")) return std::nullopt;
  std::string_view rest = line.substr(4);
  const std::size_t colon = rest.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  MemberLine m;
  m.slug = std::string(rest.substr(0, colon));
  rest.remove_prefix(colon + 1);
  if (!util::starts_with(rest, " ")) return std::nullopt;
  rest.remove_prefix(1);
  const std::size_t path_len = prefix_length(rest, util::is_not_space);
  if (path_len == 0) return std::nullopt;
  m.path = std::string(rest.substr(0, path_len));
  rest.remove_prefix(path_len);
  if (!util::starts_with(rest, k_sep)) return std::nullopt;
  rest.remove_prefix(k_sep.size());
  std::string_view state;
  std::string_view minutes;
  for (std::string_view* out : {&state, &minutes}) {
    const std::size_t at = suffix_start(rest, util::is_not_space);
    if (at == rest.size()) return std::nullopt;
    *out = rest.substr(at);
    rest = rest.substr(0, at);
    if (!ends_with(rest, k_sep)) return std::nullopt;
    rest.remove_suffix(k_sep.size());
  }
  if (rest.empty()) return std::nullopt;
  m.runs = std::string(rest);
  m.minutes = std::string(minutes);
  m.state = std::string(state);
  return m;
}

// RECORD_KEY_RE ^- ([a-z][a-z0-9-]*):(?:\s+(.*?))?\s*$ — the value is the
// rest after the colon, stripped; the rest must be empty or start with
// whitespace.
std::optional<FieldLine> match_record_key(std::string_view line) {
  util::Cursor c(line);
  if (!c.literal("- ")) return std::nullopt;
  const std::size_t start = c.pos();
  if (!(c.one(util::is_lower_ascii) &&
        c.many([](char32_t ch) { return util::is_lower_ascii(ch) || util::is_ascii_digit(ch) || ch == U'-'; }, 0))) {
    return std::nullopt;
  }
  return finish_key_line(c, start);
}

struct ReviewHeading {
  std::string slug;
  std::string health;
};

// REVIEW_SECTION_RE ^## (?P<slug>.+?) — (?P<health>[A-Z]+)$: the health is
// the text after the last " — " (it holds no space), the slug the rest.
std::optional<ReviewHeading> match_review_heading(std::string_view line) {
  const std::string_view body = line.substr(3);
  const std::size_t at = body.rfind(k_sep);
  if (at == std::string_view::npos || at == 0) return std::nullopt;
  const std::string_view health = body.substr(at + k_sep.size());
  util::Cursor c(health);
  if (!(c.many(is_upper_ascii) && c.at_end())) return std::nullopt;
  return ReviewHeading{std::string(body.substr(0, at)), std::string(health)};
}

// REVIEW_KEY_RE ^- (decision|ruled): (.+?)\s*$: the value is the rest
// right-stripped, but at least its first character.
std::optional<std::pair<std::string, std::string>> match_review_key(std::string_view line) {
  for (std::string_view key : {std::string_view("decision"), std::string_view("ruled")}) {
    const std::string prefix = "- " + std::string(key) + ": ";
    if (!util::starts_with(line, prefix)) continue;
    const std::string_view rest = line.substr(prefix.size());
    if (rest.empty()) return std::nullopt;
    std::string_view value = util::rstrip(rest);
    if (value.empty()) {
      std::size_t pos = 0;
      util::next_code_point(rest, pos);
      value = rest.substr(0, pos);
    }
    return std::pair{std::string(key), std::string(value)};
  }
  return std::nullopt;
}

using PhaseMap = std::map<std::string, P1Phase, std::less<>>;
using SlugSet = std::set<std::string, std::less<>>;

class BatchChecker {
 public:
  BatchChecker(const PhaseMap& phases, const std::function<bool(std::string_view)>& exists, P1Sub sub,
               diag::FindingSink& sink)
      : m_phases(phases), m_exists(exists), m_sub(sub), m_sink(sink) {}

  void check_record(const P1BatchFile& file) {
    const std::string& rel = file.rel;
    if (!is_slot(file_stem(rel))) report(id::b01_slot_name, rel, 0, "not a slot name (<YYYY-MM-DD>-<slot>.md)");
    SlugSet& slugs = m_members[rel];
    std::vector<std::pair<int, std::string>> reviews;  // (line, value) of the `- review:` lines read
    bool review_seen = false;
    bool in_members = false;
    const std::vector<std::string> lines = util::split_universal_lines(file.text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const int n = static_cast<int>(i + 1);
      const std::string& line = lines[i];
      if (in_members) {
        if (util::starts_with(line, "  - ")) {
          check_member(rel, n, line, slugs);
          continue;
        }
        if (util::is_blank(line) || util::starts_with(line, "    ")) continue;
        in_members = false;
      }
      const auto key = match_record_key(line);
      if (!key) continue;
      if (key->name == "members") {
        in_members = true;
      } else if (key->name == "review" && (m_sub == P1Sub::c || !review_seen)) {
        review_seen = true;
        reviews.emplace_back(n, std::string(key->value));
      }
    }
    for (const auto& [n, target] : reviews) {
      if (!target.empty() && !m_exists(target))
        report(id::b08_review_resolves, rel, n, "review: " + target + " does not exist");
    }
  }

  void check_review(const P1BatchFile& file) {
    const std::string& rel = file.rel;
    const std::string stem(file_stem(rel));
    std::string slot = stem;
    bool partial = false;
    int part = 0;
    if (m_sub == P1Sub::c && !is_record(stem)) {
      // REVIEW_PART_RE -r(\d+)$: the trailing digits, after "-r".
      const std::size_t digits = suffix_start(stem, util::is_decimal);
      if (digits < stem.size() && digits >= 2 && stem.compare(digits - 2, 2, "-r") == 0) {
        partial = true;
        part = int_value(std::string_view(stem).substr(digits), 2);
        slot = stem.substr(0, digits - 2);
      }
    }
    const std::vector<std::string> lines = util::split_universal_lines(file.text);
    const std::string& title = lines.front();
    if (m_sub != P1Sub::c) {
      if (title != "# Batch review " + slot)
        report(id::v01_title, rel, 1, "title must be `# Batch review " + slot + "`");
    } else if (!partial) {
      if (title != "# Batch review " + stem)
        report(id::v01_title, rel, 1, "title must be `# Batch review " + stem + "`");
    } else if (title != "# Batch review " + stem && title != "# Batch review " + slot) {
      report(id::v01_title, rel, 1, "title must be `# Batch review " + stem + "` or `# Batch review " + slot + "`");
    }
    if (partial && part < 2) {
      report(id::v02_partial_number, rel, 0,
             "a partial review is -r2 or later (the first review of a slot is " + slot + ".md)");
    }
    const std::string record = "batches/" + slot + ".md";
    const bool record_exists = m_exists(record);
    if (!record_exists) report(id::v03_has_record, rel, 0, "no batch record " + record);
    const auto members_it = m_members.find(record);
    static const SlugSet k_none;
    const SlugSet& members = members_it == m_members.end() ? k_none : members_it->second;

    std::optional<Section> section;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const int n = static_cast<int>(i + 1);
      const std::string line = util::dash(lines[i]);
      if (util::starts_with(line, "## ")) {
        if (section) close_section(rel, *section);
        section.reset();
        const auto heading = match_review_heading(line);
        if (!heading) {
          report(id::v04_heading, rel, n,
                 "line " + std::to_string(n) + ": section heading is not `## <slug> \xE2\x80\x94 <HEALTH>`: " +
                     std::string(util::strip(lines[i])));
          continue;
        }
        if (!one_of(k_health, heading->health)) {
          report(id::v05_health, rel, n,
                 heading->slug + ": health '" + heading->health + "' not in HEALTHY | SUSPECT | FAILED | RUNNING");
        }
        if (record_exists && !members.contains(heading->slug)) {
          report(id::v06_section_member, rel, n, "section '" + heading->slug + "' names no member of " + record);
        }
        section = Section{heading->slug, n, {}, {}};
        continue;
      }
      if (!section) continue;
      const auto key = match_review_key(line);
      if (!key) continue;
      auto& slot_value = key->first == "decision" ? section->decision : section->ruled;
      if (!slot_value) slot_value = std::pair{n, key->second};  // the first of each wins
    }
    if (section) close_section(rel, *section);
  }

 private:
  struct Section {
    std::string slug;
    int line = 0;
    std::optional<std::pair<int, std::string>> decision;  // (line, value)
    std::optional<std::pair<int, std::string>> ruled;
  };

  void report(RuleId rule, const std::string& rel, int line, std::string message) {
    m_sink.report(make_finding(rule, rel, line, std::move(message), PeerForm::path_message));
  }

  bool is_record(std::string_view stem) const { return m_exists("batches/" + std::string(stem) + ".md"); }

  void check_member(const std::string& rel, int n, const std::string& raw, SlugSet& slugs) {
    const auto m = match_member(util::dash(raw));
    if (!m) {
      report(id::b02_member_parses, rel, n,
             "line " + std::to_string(n) + ": member line does not parse: " + std::string(util::strip(raw)));
      return;
    }
    slugs.insert(m->slug);
    const auto phase = m_phases.find(m->path);
    if (phase == m_phases.end()) {
      report(id::b03_member_path, rel, n, "member " + m->slug + ": " + m->path + " does not exist");
    } else {
      if (m->slug != phase->second.stem) {
        report(id::b04_member_slug, rel, n, "member slug '" + m->slug + "' != phase stem '" + phase->second.stem + "'");
      }
      SlugSet extras;
      if (util::strip(m->runs) != "none") {
        const std::vector<std::string>& body = phase->second.body_stems;
        for (std::size_t start = 0;;) {
          const std::size_t comma = m->runs.find(',', start);
          const std::string_view token =
              util::strip(std::string_view(m->runs).substr(start, comma == std::string::npos ? comma : comma - start));
          if (!token.empty() && std::find(body.begin(), body.end(), token) == body.end()) extras.emplace(token);
          if (comma == std::string::npos) break;
          start = comma + 1;
        }
      }
      if (!extras.empty()) {
        report(id::b05_member_runs, rel, n,
               "member " + m->slug + ": runs " + brace_list(extras) + " not in the phase's runs");
      }
    }
    if (!is_int(m->minutes)) {
      report(id::b06_member_minutes, rel, n,
             "member " + m->slug + ": review-minutes '" + m->minutes + "' is not an integer");
    }
    if (!one_of(k_phase_states, m->state)) {
      report(id::b07_member_state, rel, n, "member " + m->slug + ": state '" + m->state + "' is not a phase state");
    }
  }

  // V07–V10 for a finished section.
  void close_section(const std::string& rel, const Section& s) {
    if (!s.decision || !s.ruled) {
      report(id::v07_decision_and_ruled, rel, s.line, s.slug + ": needs `- decision:` and `- ruled:` lines");
      return;
    }
    const auto& [decision_line, decision] = *s.decision;
    const auto& [ruled_line, ruled] = *s.ruled;
    if (!one_of(k_decisions, decision)) {
      report(id::v08_decision_verb, rel, decision_line,
             s.slug + ": decision '" + decision + "' is not a ruling verb or (none)");
    }
    if (ruled != "yes" && ruled != "no") {
      report(id::v09_ruled_yes_no, rel, ruled_line, s.slug + ": ruled '" + ruled + "' is not yes | no");
    }
    if (ruled == "yes" && decision == "(none)") {
      report(id::v10_ruled_needs_verb, rel, ruled_line, s.slug + ": ruled: yes needs a verb, not (none)");
    }
  }

  const PhaseMap& m_phases;
  const std::function<bool(std::string_view)>& m_exists;
  P1Sub m_sub;
  diag::FindingSink& m_sink;
  std::map<std::string, SlugSet, std::less<>> m_members;  // record rel → its parsed member slugs
};

}  // namespace

ProjectsTable check_projects_yaml_p1(std::optional<std::string_view> text, P1Sub sub, diag::FindingSink& sink,
                                     const std::string& path) {
  if (!text) {
    sink.report(make_finding(id::y01_present, path, 0, "missing", PeerForm::path_message));
    return {};
  }
  P1ProjectsReader reader(sub, sink, path);
  reader.read(*text);
  return std::move(reader).table();
}

void check_p1_batches(const std::vector<P1BatchFile>& records, const std::vector<P1BatchFile>& reviews,
                      const std::map<std::string, P1Phase, std::less<>>& phases,
                      const std::function<bool(std::string_view)>& exists, P1Sub sub, diag::FindingSink& sink) {
  BatchChecker checker(phases, exists, sub, sink);
  for (const P1BatchFile* f : sorted_files(records)) checker.check_record(*f);
  for (const P1BatchFile* f : sorted_files(reviews)) checker.check_review(*f);
}

}  // namespace lg::rules
