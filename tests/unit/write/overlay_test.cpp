// OverlaySource: a base tree with files replaced and added.
#include <catch2/catch.hpp>
#include <sys/stat.h>

#include "ledgergate/git/repository.hpp"
#include "ledgergate/write/overlay.hpp"
#include "unit/write/ledger_fixture.hpp"

using namespace lg;

namespace {

const git::Entry& named(const std::vector<git::Entry>& entries, const std::string& name) {
  for (const auto& e : entries) {
    if (e.name == name) return e;
  }
  FAIL("no entry " << name);
  throw;
}

}  // namespace

TEST_CASE("overlay over a git tree: edited and new files, no content ids where the overlay reaches", "[write][overlay]") {
  test::TempDir dir;
  const git_oid commit = test::commit_tree(dir.path(), test::clean_tree(), "base");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto tree_id = repo->commit_tree(test::id_of(commit));
  REQUIRE(tree_id);
  auto base = git::open_tree_source(*repo, *tree_id, "main");
  REQUIRE(base);
  write::OverlaySource overlay(**base, {{test::k_ledger_path, "edited\n"}, {"notes/a/new.md", "new\n"}});

  CHECK(overlay.rev() == "main");
  CHECK_FALSE(overlay.root_entry().content_id);
  auto root = overlay.list("");
  REQUIRE(root);
  REQUIRE(*root);
  CHECK(test::entry_names(**root) == std::vector<std::string>{"notes", "projects", "projects.yaml"});
  CHECK(named(**root, "notes").kind == git::EntryKind::directory);
  CHECK_FALSE(named(**root, "notes").content_id);
  CHECK_FALSE(named(**root, "projects").content_id);    // holds an edited file
  CHECK(named(**root, "projects.yaml").content_id);     // untouched: the base's blob id

  auto projects = overlay.list_entry("projects", named(**root, "projects"));
  REQUIRE(projects);
  REQUIRE(*projects);
  REQUIRE(test::entry_names(**projects) == std::vector<std::string>{"single.md"});
  CHECK_FALSE((**projects)[0].content_id);
  CHECK(overlay.read(test::k_ledger_path, (**projects)[0]).value() == "edited\n");

  auto deep = git::read_regular_file(overlay, "notes/a/new.md");
  REQUIRE(deep);
  CHECK(*deep == std::optional<std::string>("new\n"));
  CHECK(git::read_regular_file(overlay, "projects.yaml").value() == std::optional<std::string>(test::k_rows));
  CHECK(overlay.stat("notes/a").value()->kind == git::EntryKind::directory);
  CHECK_FALSE(overlay.stat("notes/a/new.md/below").value());
  CHECK_FALSE(overlay.stat("missing").value());

  auto all = git::list_recursive(overlay, "notes");
  REQUIRE(all);
  std::vector<std::string> paths;
  for (const auto& [path, entry] : *all) paths.push_back(path);
  CHECK(paths == std::vector<std::string>{"notes/a", "notes/a/new.md"});
  // The base is unchanged.
  CHECK(git::read_regular_file(**base, test::k_ledger_path).value() == std::optional<std::string>(test::k_ledger));
}

TEST_CASE("overlay over a folder: an executable stays executable, a directory becomes a file", "[write][overlay]") {
  test::TempDir dir;
  test::write_tree(dir.path(), {{"run.sh", "#!/bin/sh\n"}, {"d/x", "x\n"}});
  REQUIRE(::chmod((dir.path() + "/run.sh").c_str(), 0755) == 0);
  auto base = git::open_directory_source(dir.path());
  REQUIRE(base);
  write::OverlaySource overlay(**base, {{"run.sh", "#!/bin/sh\necho\n"}, {"d", "now a file\n"}});
  CHECK(overlay.stat("run.sh").value()->kind == git::EntryKind::executable);
  CHECK(overlay.stat("d").value()->kind == git::EntryKind::file);
  CHECK_FALSE(overlay.stat("d/x").value());
  CHECK(git::read_regular_file(overlay, "d").value() == std::optional<std::string>("now a file\n"));
}

TEST_CASE("an empty overlay is the base", "[write][overlay]") {
  test::TempDir dir;
  const git_oid commit = test::commit_tree(dir.path(), test::clean_tree(), "base");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto base = git::open_tree_source(*repo, repo->commit_tree(test::id_of(commit)).value(), "main");
  REQUIRE(base);
  write::OverlaySource overlay(**base, {});
  CHECK(overlay.root_entry().content_id == (*base)->root_entry().content_id);
  CHECK(test::entry_names(*overlay.list("").value()) == test::entry_names(*(*base)->list("").value()));
}
