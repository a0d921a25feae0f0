#include "ledgergate/ledger/profile.hpp"

#include <catch2/catch.hpp>

#include "support/fixture_tree.hpp"

using namespace lg;
using ledger::Layout;

namespace {

Layout detect(const test::FileMap& files) {
  test::TempDir dir;
  test::write_tree(dir.path(), files);
  auto tree = git::open_directory_source(dir.path());
  REQUIRE(tree);
  auto layout = ledger::detect_layout(**tree);
  REQUIRE(layout);
  return *layout;
}

}  // namespace

TEST_CASE("profile: the layout is detected from the tree's top level, newest first", "[ledger][profile]") {
  CHECK(detect({{"projects/a.md", "# a\n"}}) == Layout::cortex_projects);
  CHECK(detect({{"projects.yaml", "{}\n"}}) == Layout::cortex_projects);  // a bare projects.yaml
  CHECK(detect({{"tasks/a/x.md", "# x\n"}}) == Layout::cortex_tasks);
  CHECK(detect({{"phases/a/x.md", "# x\n"}}) == Layout::cortex_phases);
  CHECK(detect({{"tasks/a/x.md", "# x\n"}, {"projects/a.md", "# a\n"}}) == Layout::cortex_projects);
  CHECK(detect({{"phases/a/x.md", "# x\n"}, {"tasks/a/x.md", "# x\n"}}) == Layout::cortex_tasks);
  CHECK(detect({{"tasks", "a file, not the marker directory\n"}}) == Layout::none);
  CHECK(detect({{"open-requirements.ledger.yml", "entries: []\n"}}) == Layout::none);  // found by the glob
  CHECK(detect({{"README.md", "x\n"}}) == Layout::none);
}

TEST_CASE("profile: NAME@SUB parses and prints as flags and reports spell it", "[ledger][profile]") {
  const auto name_of = [](std::string_view spelled) {
    auto p = ledger::parse_profile(spelled);
    REQUIRE(p);
    return p->name();
  };
  CHECK(name_of("cortex-projects") == "cortex-projects");  // R1 and R2 check alike: no default
  CHECK(name_of("cortex-projects@r1") == "cortex-projects@r1");
  CHECK(name_of("cortex-tasks") == "cortex-tasks@t2");  // the newest sub-era
  CHECK(name_of("cortex-tasks@t1") == "cortex-tasks@t1");
  CHECK(name_of("cortex-phases") == "cortex-phases@p3");
  CHECK(name_of("cortex-phases@p1b") == "cortex-phases@p1b");
  CHECK(name_of("open-requirements") == "open-requirements");
  CHECK(*ledger::parse_profile("cortex-phases@p2") == ledger::Profile{Layout::cortex_phases, "p2"});
  CHECK(ledger::newest_profile(Layout::cortex_tasks).name() == "cortex-tasks@t2");

  auto unknown = ledger::parse_profile("cortex-nothing@t2");
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().kind == ErrorKind::usage);
  CHECK(unknown.error().message == "unknown profile 'cortex-nothing'");
  auto bad_sub = ledger::parse_profile("cortex-tasks@p3");
  REQUIRE_FALSE(bad_sub);
  CHECK(bad_sub.error().message == "unknown sub-era 'p3' of profile cortex-tasks (one of: t1, t2)");
  auto no_subs = ledger::parse_profile("open-requirements@x");
  REQUIRE_FALSE(no_subs);
  CHECK(no_subs.error().message == "unknown sub-era 'x' of profile open-requirements (it has none)");
  CHECK_FALSE(ledger::parse_profile("cortex-phases@"));

  for (const Layout layout : ledger::known_layouts()) {
    CHECK(ledger::layout_named(ledger::layout_name(layout)) == layout);
    for (const std::string_view sub : ledger::sub_eras(layout)) {
      CHECK(name_of(ledger::Profile{layout, sub}.name()) == ledger::Profile{layout, sub}.name());
    }
  }
  CHECK_FALSE(ledger::layout_named("auto"));

  const ledger::ProfileName split = ledger::split_profile_name("cortex-tasks@t2+open-requirements");
  CHECK(split.layout == "cortex-tasks");
  CHECK(split.sub == "t2");
  CHECK(split.with_open_requirements);
  CHECK_FALSE(ledger::split_profile_name("cortex-projects").with_open_requirements);
}

TEST_CASE("profile: the ledger path predicates", "[ledger][profile]") {
  CHECK(ledger::is_projects_yaml("projects.yaml"));
  CHECK_FALSE(ledger::is_projects_yaml("sub/projects.yaml"));
  CHECK(ledger::is_project_ledger_path("projects/alpha.md"));
  CHECK(ledger::is_project_ledger_path("projects/a.md"));
  CHECK_FALSE(ledger::is_project_ledger_path("projects/.md"));
  CHECK_FALSE(ledger::is_project_ledger_path("projects/a/b.md"));
  CHECK_FALSE(ledger::is_project_ledger_path("projects/a.txt"));
  CHECK_FALSE(ledger::is_project_ledger_path("projectsx/a.md"));
  CHECK_FALSE(ledger::is_project_ledger_path("projects.yaml"));
  CHECK(ledger::project_ledger_key("projects/alpha_2.md") == "alpha_2");
  CHECK(ledger::project_ledger_path("alpha_2") == "projects/alpha_2.md");
  CHECK(ledger::era_dir(Layout::cortex_tasks) == "tasks");
  CHECK(ledger::era_dir(Layout::cortex_phases) == "phases");
  CHECK(ledger::era_dir(Layout::cortex_projects).empty());
  const auto paths = ledger::cortex_ledger_paths();
  CHECK(std::vector<std::string_view>(paths.begin(), paths.end()) ==
        std::vector<std::string_view>{"projects.yaml", "projects/", "checkin.yaml", "tasks/", "phases/", "rulings/",
                                      "batches/"});
}
