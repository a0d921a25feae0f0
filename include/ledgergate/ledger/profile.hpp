// The ledger profiles: which layout a tree holds (era R, T or P of the
// Cortex ledger, or open-requirements files alone) and which sub-era a check
// is pinned to, with the spellings reports and flags use ("cortex-tasks@t2").
// Also the one place that says which paths belong to which ledger kind.
// Detection reads only the tree's top level: callers detect once per tree
// and carry the result (RepoPolicy::detected, CheckOptions::detected).
// What the eras and sub-eras are, and the words the code uses for them (PT,
// P1, …): docs/ledgers.md. "spec §N" in comments is a section of
// tests/data/spec/cortex-ledger.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::ledger {

// Newest first; `none`: the tree holds no Cortex layout.
enum class Layout : std::uint8_t { none, cortex_projects, cortex_tasks, cortex_phases, open_requirements };

// The layouts a check knows, newest first (`none` excluded).
std::span<const Layout> known_layouts();
// "cortex-projects", "cortex-tasks", "cortex-phases", "open-requirements" ("" for none).
std::string_view layout_name(Layout layout);
std::optional<Layout> layout_named(std::string_view name);
// The sub-eras a layout can be pinned to (`name@sub`), oldest first: r1 r2,
// t1 t2, p1a p1b p1c p2 p3; none for open-requirements.
std::span<const std::string_view> sub_eras(Layout layout);

// A profile a check runs: a layout and its sub-era ("" when the layout has
// none, or for era R when none was pinned: R1 and R2 check alike).
struct Profile {
  Layout layout = Layout::none;
  std::string_view sub;  // one of sub_eras(layout), or ""
  // "cortex-tasks@t2", "cortex-projects".
  std::string name() const;
  friend bool operator==(const Profile&, const Profile&) = default;
};

// The profile an unpinned check of `layout` runs: the newest sub-era for P
// and T ("cortex-tasks@t2"), none for the others.
Profile newest_profile(Layout layout);

// Parses `NAME` or `NAME@SUB` (a `--profile` flag, the policy's `profile:`).
// A P or T profile without a sub-era gets the newest. Errors (usage): an
// unknown profile, an unknown sub-era.
Result<Profile> parse_profile(std::string_view spelled);

// The parts of a profile name as reports spell it,
// "cortex-tasks@t2+open-requirements": layout "cortex-tasks", sub-era "t2"
// ("" when none), and whether open-requirements files were checked beside.
struct ProfileName {
  std::string_view layout;
  std::string_view sub;
  bool with_open_requirements = false;
};
ProfileName split_profile_name(std::string_view name);

// The Cortex layout of `tree`, newest first: cortex-projects for projects/ or
// a bare projects.yaml, cortex-tasks for tasks/, cortex-phases for phases/;
// `none` otherwise (open-requirements files are found by the glob, not here).
Result<Layout> detect_layout(git::TreeSource& tree);

// Whether a pinned profile of `layout` fits `tree`: the tree holds that
// layout's directory (projects/, tasks/, phases/), or no layout's directory
// at all (a bare projects.yaml, which every era has, or nothing). A tree
// moving between eras holds two, and either pin fits. Open-requirements
// files are the glob's to find: always true.
Result<bool> pin_fits(git::TreeSource& tree, Layout layout);

// Ledger paths, by kind.
inline constexpr std::string_view k_projects_yaml = "projects.yaml";
inline constexpr std::string_view k_projects_dir = "projects";
inline constexpr std::string_view k_rulings_dir = "rulings";
inline constexpr std::string_view k_default_open_requirements_glob = "**/open-requirements.ledger.yml";
// The directory of a P/T layout's phase or task files ("phases", "tasks"; "" otherwise).
std::string_view era_dir(Layout layout);
// Every path prefix a Cortex ledger of any era lives under, for a worktree's
// dirty check: projects.yaml, projects/, checkin.yaml, tasks/, phases/, rulings/, batches/.
std::span<const std::string_view> cortex_ledger_paths();

bool is_projects_yaml(std::string_view path);
// Whether `path` is an era-R ledger's path: projects/<name>.md, one level deep.
bool is_project_ledger_path(std::string_view path);
// The <name> of projects/<name>.md (a path is_project_ledger_path accepts).
std::string_view project_ledger_key(std::string_view path);
// projects/<key>.md.
std::string project_ledger_path(std::string_view key);

}  // namespace lg::ledger
