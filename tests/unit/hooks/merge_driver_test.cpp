// The merge driver's installer: the attributes block edited as text (every
// byte outside it kept, uninstall giving back the file exactly), the
// patterns of each layout (each one a path the record merge knows), and the
// configuration keys, with a foreign driver never replaced without force.
#include "ledgergate/hooks/merge_driver.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "ledgergate/git/config.hpp"
#include "ledgergate/merge/record_merge.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> k_patterns = {"projects/*.md", "projects.yaml", "**/open-requirements.ledger.yml"};

std::string installed(std::string_view text, bool exists) {
  auto out = hooks::with_attributes_block(text, exists, k_patterns);
  REQUIRE(out);
  return *out;
}

std::optional<std::string> local_value(const std::string& dir, const std::string& key) {
  auto repo = git::Repository::open(dir, false);
  REQUIRE(repo);
  auto config = git::Config::local(*repo);
  REQUIRE(config);
  auto value = config->get_string(key);
  REQUIRE(value);
  return *value;
}

}  // namespace

TEST_CASE("merge driver: uninstall gives back the attributes file byte for byte", "[hooks][merge_driver]") {
  for (const auto& [before, exists] : std::vector<std::pair<std::string, bool>>{
           {"", false}, {"", true}, {"*.bin binary\n", true}, {"*.bin binary", true}, {"a -text\r\n\n", true}}) {
    CAPTURE(before, exists);
    const std::string after = installed(before, exists);
    CHECK(after.starts_with(before));
    CHECK(after.find("projects/*.md merge=ledgergate\n") != std::string::npos);
    CHECK(installed(after, true) == after);  // installing twice changes nothing
    auto without = hooks::without_attributes_block(after);
    REQUIRE(without);
    REQUIRE(*without);
    CHECK((*without)->text == before);
    CHECK((*without)->remove_file == !exists);
  }
}

TEST_CASE("merge driver: the block is replaced in place, lines after it kept", "[hooks][merge_driver]") {
  const std::string old = "a x\n" + hooks::render_attributes_block({"projects/*.md"}, false, false) + "b y\n";
  const std::string now = installed(old, true);
  CHECK(now == "a x\n" + hooks::render_attributes_block(k_patterns, false, false) + "b y\n");
  auto patterns = hooks::block_patterns(now);
  REQUIRE(patterns);
  CHECK(*patterns == std::optional<std::vector<std::string>>(k_patterns));
  auto none = hooks::block_patterns("a x\n");
  REQUIRE(none);
  CHECK_FALSE(*none);
  auto unterminated = hooks::with_attributes_block(std::string(hooks::k_block_begin) + "\nx merge=ledgergate\n", true,
                                                   k_patterns);
  REQUIRE_FALSE(unterminated);
  CHECK_THAT(unterminated.error().message, Catch::Contains("has no end line"));
}

TEST_CASE("merge driver: each layout's patterns name files the record merge knows", "[hooks][merge_driver]") {
  using ledger::Layout;
  CHECK(hooks::driver_patterns(Layout::cortex_projects, "**/x.yml") ==
        std::vector<std::string>{"projects/*.md", "projects.yaml", "**/x.yml"});
  CHECK(hooks::driver_patterns(Layout::cortex_tasks, "**/x.yml") ==
        std::vector<std::string>{"tasks/*/*.md", "projects.yaml", "**/x.yml"});
  CHECK(hooks::driver_patterns(Layout::none, "**/x.yml") == std::vector<std::string>{"**/x.yml"});
  // One path per pattern, with the pattern's `*` filled in.
  const std::vector<std::tuple<Layout, std::string>> examples = {
      {Layout::cortex_projects, "projects/lens.md"}, {Layout::cortex_projects, "projects.yaml"},
      {Layout::cortex_tasks, "tasks/lens/scope.md"}, {Layout::cortex_phases, "phases/lens/01_scope.md"},
      {Layout::cortex_tasks, "projects.yaml"},       {Layout::none, "docs/open-requirements.ledger.yml"}};
  for (const auto& [layout, path] : examples) {
    CAPTURE(path);
    CHECK(merge::record_format_of(layout, path, ledger::k_default_open_requirements_glob));
  }
  CHECK(hooks::is_our_driver(hooks::driver_command("/opt/it's here/ledgergate")));
  CHECK(hooks::driver_command("/usr/bin/ledgergate") ==
        "/usr/bin/ledgergate merge-file %O %A %B --path %P --marker-size %L");
  CHECK_FALSE(hooks::is_our_driver("cat %A"));
}

TEST_CASE("merge driver: install, status and uninstall in a repository", "[hooks][merge_driver]") {
  test::TempDir dir;
  test::commit_tree(dir.path(), {{"projects.yaml", "{}\n"}}, "c1");
  const std::string attributes = dir.path() + "/.git/info/attributes";
  fs::remove(attributes);
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto patterns = hooks::detected_patterns(*repo, "");
  REQUIRE(patterns);
  CHECK(*patterns == k_patterns);
  const hooks::DriverSetup setup{"/usr/bin/ledgergate", *patterns, hooks::AttributesFile::info, false};
  auto first = hooks::install_merge_driver(*repo, setup);
  REQUIRE(first);
  CHECK(first->config == hooks::Action::installed);
  CHECK(first->attributes == hooks::Action::installed);
  CHECK(local_value(dir.path(), "merge.ledgergate.driver") == hooks::driver_command("/usr/bin/ledgergate"));
  CHECK(test::read_file(attributes) == hooks::render_attributes_block(k_patterns, true, false));
  auto again = hooks::install_merge_driver(*repo, setup);
  REQUIRE(again);
  CHECK(again->config == hooks::Action::unchanged);
  CHECK(again->attributes == hooks::Action::unchanged);
  auto status = hooks::merge_driver_status(*repo, setup);
  REQUIRE(status);
  CHECK(status->driver_matches);
  CHECK(status->block_matches);
  auto other = hooks::merge_driver_status(*repo, {"/elsewhere/ledgergate", {"projects/*.md"}});
  REQUIRE(other);
  CHECK(other->driver_ours);
  CHECK_FALSE(other->driver_matches);
  CHECK_FALSE(other->block_matches);
  auto removed = hooks::uninstall_merge_driver(*repo, hooks::AttributesFile::info, false);
  REQUIRE(removed);
  CHECK(removed->config == hooks::Action::removed);
  CHECK(removed->attributes == hooks::Action::removed);
  CHECK_FALSE(fs::exists(attributes));  // install created it
  CHECK_FALSE(local_value(dir.path(), "merge.ledgergate.driver"));
  CHECK_FALSE(local_value(dir.path(), "merge.ledgergate.name"));
  auto nothing = hooks::uninstall_merge_driver(*repo, hooks::AttributesFile::info, false);
  REQUIRE(nothing);
  CHECK(nothing->config == hooks::Action::not_present);
  CHECK(nothing->attributes == hooks::Action::not_present);
}

TEST_CASE("merge driver: a foreign merge.ledgergate.driver is kept without --force", "[hooks][merge_driver]") {
  test::TempDir dir;
  test::commit_tree(dir.path(), {{"projects.yaml", "{}\n"}}, "c1");
  const std::string attributes = dir.path() + "/.git/info/attributes";
  test::write_file(attributes, "*.bin binary\n");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  {
    auto config = git::Config::local(*repo);
    REQUIRE(config);
    REQUIRE(config->set_string("merge.ledgergate.driver", "cat %A"));
  }
  const hooks::DriverSetup setup{"/usr/bin/ledgergate", k_patterns, hooks::AttributesFile::info, false};
  auto refused = hooks::install_merge_driver(*repo, setup);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("not ledgergate's: --force replaces it"));
  CHECK(test::read_file(attributes) == "*.bin binary\n");  // nothing written
  auto kept = hooks::uninstall_merge_driver(*repo, hooks::AttributesFile::info, false);
  REQUIRE(kept);
  CHECK(kept->config == hooks::Action::not_ours);
  CHECK(local_value(dir.path(), "merge.ledgergate.driver") == "cat %A");
  hooks::DriverSetup forced = setup;
  forced.force = true;
  auto replaced = hooks::install_merge_driver(*repo, forced);
  REQUIRE(replaced);
  CHECK(replaced->config == hooks::Action::updated);
  CHECK(replaced->saved == std::vector<hooks::ConfigValue>{{"merge.ledgergate.driver", "cat %A"}});
  auto removed = hooks::uninstall_merge_driver(*repo, hooks::AttributesFile::info, false);
  REQUIRE(removed);
  CHECK(removed->restored == std::vector<hooks::ConfigValue>{{"merge.ledgergate.driver", "cat %A"}});
  CHECK(test::read_file(attributes) == "*.bin binary\n");
  CHECK(local_value(dir.path(), "merge.ledgergate.driver") == "cat %A");  // put back, not removed
  CHECK_FALSE(local_value(dir.path(), "merge.ledgergate.name"));
  CHECK_FALSE(local_value(dir.path(), std::string(hooks::k_saved_driver_key)));
  // --force on uninstall removes a foreign driver outright.
  auto forced_out = hooks::uninstall_merge_driver(*repo, hooks::AttributesFile::info, true);
  REQUIRE(forced_out);
  CHECK(forced_out->config == hooks::Action::removed);
  CHECK(forced_out->restored.empty());
  CHECK_FALSE(local_value(dir.path(), "merge.ledgergate.driver"));
}

TEST_CASE("merge driver: install then uninstall leaves the config and attributes files byte for byte",
          "[hooks][merge_driver]") {
  // Each as `git config` writes it: nothing of ours, a foreign driver
  // (--force), a foreign driver among other keys of the section, a name alone.
  const std::vector<std::pair<std::string, std::vector<hooks::ConfigValue>>> cases = {
      {"", {}},
      {"[merge \"ledgergate\"]\n\tdriver = cat %A\n", {{"merge.ledgergate.driver", "cat %A"}}},
      {"[merge \"ledgergate\"]\n\tname = mine\n\trecursive = binary\n\tdriver = \"x ; y\"\n[user]\n\tname = u\n",
       {{"merge.ledgergate.driver", "x ; y"}, {"merge.ledgergate.name", "mine"}}},
      {"[merge \"ledgergate\"]\n\tname = mine\n", {{"merge.ledgergate.name", "mine"}}},
  };
  for (const auto& [section, foreign] : cases) {
    for (const std::string attributes_before : {"", "*.bin binary\n"}) {
      CAPTURE(section, attributes_before);
      test::TempDir dir;
      test::commit_tree(dir.path(), {{"projects.yaml", "{}\n"}}, "c1");
      const std::string config = dir.path() + "/.git/config", attributes = dir.path() + "/.git/info/attributes";
      test::write_file(config, test::read_file(config) + section);
      fs::remove(attributes);
      if (!attributes_before.empty()) test::write_file(attributes, attributes_before);
      const std::string config_before = test::read_file(config);
      auto repo = git::Repository::open(dir.path(), false);
      REQUIRE(repo);
      const hooks::DriverSetup setup{"/usr/bin/ledgergate", k_patterns, hooks::AttributesFile::info, true};
      auto in = hooks::install_merge_driver(*repo, setup);
      REQUIRE(in);
      CHECK(in->saved == foreign);
      CHECK(test::read_file(config) != config_before);
      auto status = hooks::merge_driver_status(*repo, setup);
      REQUIRE(status);
      CHECK(status->saved == foreign);
      auto out = hooks::uninstall_merge_driver(*repo, hooks::AttributesFile::info, false);
      REQUIRE(out);
      CHECK(out->restored == foreign);
      CHECK(test::read_file(config) == config_before);
      CHECK(fs::exists(attributes) == !attributes_before.empty());
      if (!attributes_before.empty()) CHECK(test::read_file(attributes) == attributes_before);
    }
  }
}

TEST_CASE("merge driver: a bare repository has its attributes in its git dir", "[hooks][merge_driver]") {
  test::TempDir dir;
  git_repository* raw = nullptr;
  REQUIRE(git_repository_init(&raw, dir.path().c_str(), 1) == 0);
  git_repository_free(raw);
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto info = hooks::attributes_path(*repo, hooks::AttributesFile::info);
  REQUIRE(info);
  CHECK(fs::weakly_canonical(*info) == fs::weakly_canonical(dir.path() + "/info/attributes"));
  CHECK_FALSE(hooks::attributes_path(*repo, hooks::AttributesFile::committed));
  auto unborn = hooks::detected_patterns(*repo, "");
  REQUIRE_FALSE(unborn);
  CHECK_THAT(unborn.error().message, Catch::Contains("pass --profile"));
  auto pinned = hooks::detected_patterns(*repo, "cortex-phases");
  REQUIRE(pinned);
  CHECK(pinned->front() == "phases/*/*.md");
}
