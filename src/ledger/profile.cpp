// The profile table (name, summary, marker directory, sub-eras per layout),
// the NAME@SUB spelling, layout detection and the ledger path predicates.
#include "ledgergate/ledger/profile.hpp"

#include <algorithm>
#include <array>

#include "ledgergate/util/text.hpp"

namespace lg::ledger {
namespace {

constexpr std::array<std::string_view, 2> k_r_subs = {"r1", "r2"};  // R1 and R2 check alike (spec §0.2)
constexpr std::array<std::string_view, 2> k_t_subs = {"t1", "t2"};
constexpr std::array<std::string_view, 5> k_p_subs = {"p1a", "p1b", "p1c", "p2", "p3"};

struct LayoutRow {
  Layout layout;
  std::string_view name;
  std::string_view marker;  // a directory whose presence names the layout ("" = found by file name)
  std::span<const std::string_view> subs;
  bool default_sub;  // an unpinned check runs the newest sub-era
};

// Newest first: detection takes the first marker present.
constexpr std::array k_rows = {
    // PyAutoCortex era R: projects/<key>.md, projects.yaml (spec §4, §5.1).
    LayoutRow{Layout::cortex_projects, "cortex-projects", k_projects_dir, k_r_subs, false},
    // Era T: tasks/, rulings/, batches/ (spec §3).
    LayoutRow{Layout::cortex_tasks, "cortex-tasks", "tasks", k_t_subs, true},
    // Era P: phases/, rulings/, batches/ (spec §2).
    LayoutRow{Layout::cortex_phases, "cortex-phases", "phases", k_p_subs, true},
    // **/open-requirements.ledger.yml (spec/open-requirements.md), found by the glob.
    LayoutRow{Layout::open_requirements, "open-requirements", "", {}, false},
};

constexpr std::array k_layouts = {Layout::cortex_projects, Layout::cortex_tasks, Layout::cortex_phases,
                                  Layout::open_requirements};

constexpr std::array<std::string_view, 7> k_cortex_paths = {k_projects_yaml, "projects/", "checkin.yaml", "tasks/",
                                                            "phases/",       "rulings/",  "batches/"};

const LayoutRow* row_of(Layout layout) {
  for (const LayoutRow& r : k_rows) {
    if (r.layout == layout) return &r;
  }
  return nullptr;
}

const LayoutRow* row_named(std::string_view name) {
  for (const LayoutRow& r : k_rows) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

Error unknown_sub_era(const LayoutRow& row, std::string_view sub) {
  std::string known;
  for (std::string_view s : row.subs) known += (known.empty() ? "" : ", ") + std::string(s);
  return make_error(ErrorKind::usage, "unknown sub-era '" + std::string(sub) + "' of profile " +
                                          std::string(row.name) +
                                          (known.empty() ? " (it has none)" : " (one of: " + known + ")"));
}

}  // namespace

std::span<const Layout> known_layouts() { return k_layouts; }

std::string_view layout_name(Layout layout) {
  const LayoutRow* r = row_of(layout);
  return r ? r->name : std::string_view();
}

std::optional<Layout> layout_named(std::string_view name) {
  const LayoutRow* r = row_named(name);
  return r ? std::optional<Layout>(r->layout) : std::nullopt;
}

std::span<const std::string_view> sub_eras(Layout layout) {
  const LayoutRow* r = row_of(layout);
  return r ? r->subs : std::span<const std::string_view>();
}

std::string Profile::name() const {
  std::string out(layout_name(layout));
  if (!sub.empty()) out += "@" + std::string(sub);
  return out;
}

Profile newest_profile(Layout layout) {
  const LayoutRow* row = row_of(layout);
  return Profile{layout, row && row->default_sub ? row->subs.back() : std::string_view()};
}

Result<Profile> parse_profile(std::string_view spelled) {
  const std::size_t at = spelled.find('@');
  const std::string_view name = spelled.substr(0, at);
  const LayoutRow* row = row_named(name);
  if (!row) return make_error(ErrorKind::usage, "unknown profile '" + std::string(name) + "'");
  if (at == std::string_view::npos) return newest_profile(row->layout);
  const std::string_view sub = spelled.substr(at + 1);
  const auto it = std::find(row->subs.begin(), row->subs.end(), sub);
  if (it == row->subs.end()) return unknown_sub_era(*row, sub);
  return Profile{row->layout, *it};
}

ProfileName split_profile_name(std::string_view name) {
  ProfileName out;
  if (const auto plus = name.find('+'); plus != std::string_view::npos) {
    out.with_open_requirements = name.substr(plus + 1) == layout_name(Layout::open_requirements);
    name = name.substr(0, plus);
  }
  const auto at = name.find('@');
  out.layout = name.substr(0, at);
  if (at != std::string_view::npos) out.sub = name.substr(at + 1);
  return out;
}

Result<Layout> detect_layout(git::TreeSource& tree) {
  for (const LayoutRow& r : k_rows) {
    if (r.marker.empty()) continue;
    LG_TRY(bool found, git::is_directory(tree, r.marker));
    if (found) return r.layout;
  }
  // A bare projects.yaml (no ledger yet) is the newest layout.
  LG_TRY(auto yaml, tree.stat(k_projects_yaml));
  return yaml ? k_rows.front().layout : Layout::none;
}

Result<bool> pin_fits(git::TreeSource& tree, Layout layout) {
  const LayoutRow* pinned = row_of(layout);
  if (!pinned || pinned->marker.empty()) return true;
  LG_TRY(bool own, git::is_directory(tree, pinned->marker));
  if (own) return true;
  for (const LayoutRow& r : k_rows) {
    if (r.marker.empty() || r.layout == layout) continue;
    LG_TRY(bool other, git::is_directory(tree, r.marker));
    if (other) return false;
  }
  return true;
}

std::string_view era_dir(Layout layout) {
  const LayoutRow* r = row_of(layout);
  const bool era = layout == Layout::cortex_tasks || layout == Layout::cortex_phases;
  return era && r ? r->marker : std::string_view();
}

std::span<const std::string_view> cortex_ledger_paths() { return k_cortex_paths; }

bool is_projects_yaml(std::string_view path) { return path == k_projects_yaml; }

bool is_project_ledger_path(std::string_view path) {
  constexpr std::string_view prefix = "projects/";
  if (path.size() <= prefix.size() || !util::starts_with(path, prefix)) return false;
  const std::string_view rest = path.substr(prefix.size());
  return rest.find('/') == std::string_view::npos && rest.size() > 3 && rest.substr(rest.size() - 3) == ".md";
}

std::string_view project_ledger_key(std::string_view path) {
  constexpr std::size_t prefix = k_projects_dir.size() + 1;
  return path.substr(prefix, path.size() - prefix - 3);
}

std::string project_ledger_path(std::string_view key) {
  return std::string(k_projects_dir) + "/" + std::string(key) + ".md";
}

}  // namespace lg::ledger
