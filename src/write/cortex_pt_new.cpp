// `new PROJECT SLUG` (a phase or task file from the template), `retire
// PROJECT --why` (the one textual edit of projects.yaml) and the read-only
// `gates` listing (spec §8.3).
#include <fmt/format.h>

#include <algorithm>

#include "cortex_pt_doc.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/ledger/text_file.hpp"
#include "ledgergate/util/text.hpp"
#include "ledgergate/write/cortex_pt.hpp"
#include "ledgergate/write/retire_row.hpp"

namespace lg::write {
namespace {

using pt::k_dash;

constexpr std::string_view k_slug_rule = "^[a-z0-9][a-z0-9_-]*$";
constexpr std::string_view k_placeholder = "- (the output path, once there is one)";

bool is_slug(std::string_view s) {
  const auto head = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  return !s.empty() && head(s[0]) &&
         std::all_of(s.begin(), s.end(), [&](char c) { return head(c) || c == '_' || c == '-'; });
}

std::string field(std::string_view key, std::string_view value) {
  return value.empty() ? std::string(key) + ":" : std::string(key) + ": " + std::string(value);
}

class New : public pt::VerbState<PtNewArgs> {
 public:
  using VerbState::VerbState;

  Result<Outcome> run() {
    LG_TRY(m_rows, pt::load_project_rows(m_tree, m_era));
    if (!m_rows.table.find(m_args.project)) return refuse(pt::unknown_project(m_rows, m_args.project));
    if (!is_slug(m_args.slug)) return refuse(fmt::format("slug '{}' must match {}", m_args.slug, k_slug_rule));
    if (m_era.phase_number && (!m_args.phase || *m_args.phase < 1)) return refuse("--phase must be a positive integer");
    m_rel = fmt::format("{}/{}/{}.md", m_era.dir, m_args.project, m_args.slug);
    LG_TRY(auto existing, m_tree.stat(m_rel));
    if (existing) return refuse(m_rel + " already exists");
    LG_TRY(auto refused, m_era.phase_number ? phase_taken() : summary());
    if (refused) return Outcome{*refused};
    for (const std::string& ref : gates()) {
      if (!ledger::is_gate_ref(ref)) {
        return refuse(fmt::format("--gates '{}' is not Repo#N or an issue/PR URL (no owner/Repo#N form)", ref));
      }
    }
    if (auto r = legacy_runs()) return Outcome{*r};
    if (m_args.budget && !ledger::is_wall_text(*m_args.budget)) {
      return refuse(fmt::format("--budget '{}' is not H+:MM", *m_args.budget));
    }
    return Outcome{Change{{FileEdit{m_rel, text()}}, "wrote " + m_rel}};
  }

 private:
  static Outcome refuse(std::string message) { return Refusal{std::move(message)}; }
  bool legacy() const { return !m_args.legacy_runs.empty() || !m_args.legacy_wrong.empty(); }
  std::vector<std::string> gates() const { return ledger::split_refs(m_args.gates.value_or("")); }

  // P: the number is not taken by another phase of the project.
  Result<std::optional<Refusal>> phase_taken() {
    LG_TRY(auto paths, pt::md_files(m_tree, fmt::format("{}/{}", m_era.dir, m_args.project)));
    const std::string wanted = std::to_string(*m_args.phase);
    for (const std::string& path : paths) {
      LG_TRY(auto bytes, git::read_regular_file(m_tree, path));
      if (!bytes) continue;
      // The header is kept alive: value() is a view into it (ASan: use after free).
      const auto file = ledger::parse_pt_file(*bytes);
      const std::string_view phase = file.header.value("Phase");
      if (ledger::is_int_text(phase) && ledger::number_value(phase).digits == wanted) {
        return std::optional<Refusal>(Refusal{fmt::format("phase {} already exists: {}", wanted, path)});
      }
    }
    return std::optional<Refusal>();
  }

  // T: one line of at most ten words.
  Result<std::optional<Refusal>> summary() {
    const std::string s(util::strip(m_args.summary.value_or("")));
    if (s.empty() || s.find('\n') != std::string::npos) {
      return std::optional<Refusal>(Refusal{"--summary must say what the task asks, in one line"});
    }
    if (const auto n = util::split_words(s).size(); n > 10) {
      return std::optional<Refusal>(Refusal{
          fmt::format("--summary is {} words {} at most 10 (the question the task answers)", n, k_dash)});
    }
    return std::optional<Refusal>();
  }

  // The legacy-born run lines (`--legacy-run`, then `--legacy-wrong`).
  std::optional<Refusal> legacy_runs() {
    if (!legacy()) return std::nullopt;
    if (!gates().empty()) {
      return Refusal{fmt::format("a legacy-born {} cannot be gated {} its runs already happened", m_era.noun, k_dash)};
    }
    if (!m_args.where || util::is_blank(*m_args.where)) {
      return Refusal{"--legacy-run needs --where <quarantine path> (check requires where:)"};
    }
    const auto partition = pt::run_partition(m_rows, m_args.project, m_args.partition);
    if (const auto* refused = std::get_if<Refusal>(&partition)) return *refused;
    for (auto [flag, state, idents] : {std::tuple{std::string_view("--legacy-run"), std::string_view("legacy"),
                                                  &m_args.legacy_runs},
                                       {"--legacy-wrong", "legacy_wrong", &m_args.legacy_wrong}}) {
      for (const std::string& ident : *idents) {
        if (!ledger::is_run_ident(ident)) {
          return Refusal{fmt::format("{} '{}' is not <stem>[_<task>|_[<set>]]", flag, ident)};
        }
        m_runs.push_back(fmt::format("- {}: {} {} {} {} submitted {} {} wall 0:00 {} pre-Cortex run, migrated", ident,
                                     state, k_dash, std::get<std::string>(partition), k_dash, m_cx.today, k_dash,
                                     k_dash));
        m_runs.push_back("    where: " + std::string(util::strip(*m_args.where)));
        const std::string stem = ident.substr(0, ident.find('_'));
        if (std::find(m_stems.begin(), m_stems.end(), stem) == m_stems.end()) m_stems.push_back(stem);
      }
    }
    return std::nullopt;
  }

  std::string text() const {
    std::string title = m_args.title.value_or(m_args.slug);
    if (!m_args.title) std::replace_if(title.begin(), title.end(), [](char c) { return c == '_' || c == '-'; }, ' ');
    const std::string project = pt::capitalize(m_args.project);
    const std::string witness(util::strip(m_args.witness.value_or("")));
    std::vector<std::string> lines;
    if (m_era.phase_number) {
      lines.push_back(fmt::format("# {} {} phase {}: {}", project, k_dash, *m_args.phase, title));
    } else {
      lines.push_back(fmt::format("# {} {} {}", project, k_dash, title));
    }
    lines.emplace_back();
    lines.push_back(field("Project", m_args.project));
    lines.push_back(m_era.phase_number ? field("Phase", std::to_string(*m_args.phase))
                                       : field("Summary", util::strip(*m_args.summary)));
    lines.push_back(field("State", legacy() ? "ready" : "planned"));
    lines.push_back(field("Gates", util::join(gates(), ", ")));
    lines.push_back(field("Witness", witness));
    lines.push_back(field("Budget", m_args.budget.value_or("")));
    lines.push_back(field("Runs", util::join(m_stems, ", ")));
    lines.push_back(field("Ruling", ""));
    if (m_era.p1) lines.push_back(field("Lane", "local-dev"));
    lines.push_back(field("Review-minutes", m_args.minutes ? std::to_string(*m_args.minutes) : ""));
    lines.push_back(field("Epic", m_args.epic.value_or("")));
    lines.push_back(field("Filed", m_cx.today));
    const std::string where = legacy() && m_era.where_to_look
                                  ? fmt::format("- `{}`", util::strip(*m_args.where))
                                  : std::string(k_placeholder);
    lines.insert(lines.end(), {"", "## Question", "", fmt::format("(the question this {} answers)", m_era.noun), "",
                               "## Witness", "",
                               witness.empty() ? fmt::format("(not yet registered {} a planned {} may leave this empty)",
                                                             k_dash, m_era.noun)
                                               : witness,
                               "", "## Where to look", "", where, "", "## Runs", ""});
    if (!m_runs.empty()) {
      lines.insert(lines.end(), m_runs.begin(), m_runs.end());
      lines.emplace_back();
    }
    lines.insert(lines.end(), {"## Ruling", "", "(none)"});
    return util::join(lines, "\n") + "\n";
  }

  pt::ProjectRows m_rows;
  std::string m_rel;
  std::vector<std::string> m_runs, m_stems;
};

class Retire : public pt::VerbState<PtRetireArgs> {
 public:
  using VerbState::VerbState;

  // The reference's order: the row checks, the live work, the row edit.
  Result<Outcome> run() {
    const std::string why(util::strip(m_args.why));
    const std::string& key = m_args.project;
    LG_TRY(auto bytes, git::read_regular_file(m_tree, std::string(ledger::k_projects_yaml)));
    std::optional<std::string> yaml;
    if (bytes) yaml = ledger::decode_text(*bytes).text;
    if (auto refused = retire_row_check(yaml, key, why, m_era.yaml)) return Outcome{*refused};
    LG_TRY(auto live, live_work());
    if (!live.empty()) {
      return refuse(fmt::format("{} still has live work {} rule or drop it first: {}", key, k_dash, util::join(live, ", ")));
    }
    auto edited = retire_row_edit(*bytes, key, why, m_cx.today, m_era.yaml);
    if (auto* refused = std::get_if<Refusal>(&edited)) return Outcome{*refused};
    return Outcome{Change{{FileEdit{std::string(ledger::k_projects_yaml), std::get<std::string>(edited)}}, "retired " + key}};
  }

 private:
  static Outcome refuse(std::string message) { return Refusal{std::move(message)}; }

  // Every file of the project not in a quiet state, as "{rel} — {state}".
  Result<std::vector<std::string>> live_work() {
    LG_TRY(auto paths, pt::md_files(m_tree, fmt::format("{}/{}", m_era.dir, m_args.project)));
    std::vector<std::string> out;
    for (const std::string& path : paths) {
      LG_TRY(auto bytes, git::read_regular_file(m_tree, path));
      if (!bytes) continue;
      const std::string state(ledger::parse_pt_file(*bytes).header.value("State"));
      if (state == "accepted" || state == "rerun" || state == "dropped" || state == "planned") continue;
      out.push_back(fmt::format("{} {} {}", path, k_dash, state));
    }
    return out;
  }
};

}  // namespace

Editor pt_new(PtContext context, PtNewArgs args) {
  return pt::verb_editor<New>(std::move(context), std::move(args));
}

Editor pt_retire(PtContext context, PtRetireArgs args) {
  return pt::verb_editor<Retire>(std::move(context), std::move(args));
}

Result<std::string> pt_gates(const rules::PtEra& era, git::TreeSource& tree) {
  LG_TRY(auto paths, pt::md_files(tree, std::string(era.dir)));
  std::vector<std::string> lines;
  int gated = 0;
  for (const std::string& path : paths) {
    if (!ledger::match_pt_path(path, era.dir)) continue;
    LG_TRY(auto bytes, git::read_regular_file(tree, path));
    if (!bytes) continue;
    const ledger::PtFile f = ledger::parse_pt_file(*bytes);
    if (f.header.value("State") != "gated") continue;
    std::vector<std::string> refs = ledger::split_refs(f.header.value("Gates"));
    std::erase_if(refs, [](const std::string& r) { return !ledger::is_gate_ref(r); });
    if (refs.empty()) continue;
    ++gated;
    lines.push_back(fmt::format("  {}: gated {} {}", path, k_dash, util::join(refs, ", ")));
    if (era.p1) continue;  // P1's offline listing has no URL lines
    for (const std::string& ref : refs) lines.push_back(fmt::format("    {} {} {}", ref, pt::k_arrow, ledger::gate_url(ref)));
  }
  if (gated == 0) return fmt::format("gates: no gated {}", era.noun);
  lines.insert(lines.begin(), fmt::format("gates: {} {}(s)", gated, era.noun));
  return util::join(lines, "\n");
}

}  // namespace lg::write
