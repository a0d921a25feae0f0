#include "ledgergate/git/tree_source.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "../../../src/git/libgit2.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/trial_repo.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

TEST_CASE("tree source: a commit's tree lists children in byte order with kinds", "[git][tree_source]") {
  test::TempDir dir;
  const git_oid commit = test::commit_tree(dir.path(), {{"projects/b.md", "b"}, {"projects/a-b/x.md", "x"},
                                                         {"projects/a.md", "a"}, {"projects.yaml", "{}"}},
                                           "c1");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto tree_id = repo->commit_tree(test::id_of(commit));
  REQUIRE(tree_id);
  auto src = git::open_tree_source(*repo, *tree_id, "HEAD");
  REQUIRE(src);
  auto listed = (*src)->list("projects");
  REQUIRE(listed);
  REQUIRE(listed->has_value());
  CHECK(test::entry_names(**listed) == std::vector<std::string>{"a-b", "a.md", "b.md"});
  CHECK((**listed)[0].kind == git::EntryKind::directory);
  auto missing = (*src)->list("nowhere");
  REQUIRE(missing);
  CHECK_FALSE(missing->has_value());
  auto entry = (*src)->stat("projects/a.md");
  REQUIRE(entry);
  REQUIRE(entry->has_value());
  auto bytes = (*src)->read("projects/a.md", **entry);
  REQUIRE(bytes);
  CHECK(*bytes == "a");
  CHECK((*src)->rev() == "HEAD");
}

TEST_CASE("tree source: revisions resolve, unknown ones and unborn HEAD are errors", "[git][tree_source]") {
  test::TempDir dir;
  test::commit_tree(dir.path(), {{"projects.yaml", "{}"}}, "c1");
  auto repo = git::Repository::open(dir.path(), true);
  REQUIRE(repo);
  CHECK(repo->resolve_commit("HEAD"));
  CHECK(repo->resolve_commit("main"));
  auto bad = repo->resolve_commit("nope");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message == "unknown revision 'nope'");

  test::TempDir empty;
  git_repository* raw = nullptr;
  REQUIRE(git_repository_init(&raw, empty.path().c_str(), 0) == 0);
  git_repository_free(raw);
  auto unborn = git::Repository::open(empty.path(), false);
  REQUIRE(unborn);
  auto head = unborn->resolve_commit("HEAD");
  REQUIRE_FALSE(head);
  CHECK(head.error().message == "HEAD has no commits yet (unborn branch)");
}

TEST_CASE("tree source: a folder on disk reports symlinks and directories as such", "[git][tree_source]") {
  test::TempDir dir;
  test::write_tree(dir.path(), {{"projects/a.md", "a"}, {"projects/d.md/x", "x"}});
  std::filesystem::create_symlink("a.md", dir.path() + "/projects/l.md");
  auto src = git::open_directory_source(dir.path());
  REQUIRE(src);
  auto listed = (*src)->list("projects");
  REQUIRE(listed);
  REQUIRE(listed->has_value());
  REQUIRE((*listed)->size() == 3);
  CHECK((**listed)[0].kind == git::EntryKind::file);
  CHECK((**listed)[1].kind == git::EntryKind::directory);
  CHECK((**listed)[2].kind == git::EntryKind::symlink);
  CHECK_FALSE(git::open_directory_source(dir.path() + "/nowhere"));
}

TEST_CASE("tree source: a folder on disk reads nothing through a symlinked folder", "[git][tree_source]") {
  // projects -> ../victim/projects, as a commit of it holds a symlink: the
  // folder is an entry of kind symlink, and nothing below it is there.
  test::TempDir dir;
  test::write_tree(dir.path(), {{"victim/projects/example.md", "# example\n"}, {"repo/projects.yaml", "{}\n"}});
  std::filesystem::create_symlink("../victim/projects", dir.path() + "/repo/projects");
  auto src = git::open_directory_source(dir.path() + "/repo");
  REQUIRE(src);
  auto top = (*src)->list("");
  REQUIRE(top);
  REQUIRE(top->has_value());
  REQUIRE((*top)->size() == 2);
  CHECK((**top)[0].name == "projects");
  CHECK((**top)[0].kind == git::EntryKind::symlink);
  auto below = (*src)->list("projects");
  REQUIRE(below);
  CHECK_FALSE(below->has_value());
  auto file = (*src)->stat("projects/example.md");
  REQUIRE(file);
  CHECK_FALSE(file->has_value());
  CHECK_FALSE((*src)->read("projects/example.md", git::Entry{"example.md", git::EntryKind::file, std::nullopt}));
  // A symlinked file is reported, never read through.
  std::filesystem::create_symlink("../victim/projects/example.md", dir.path() + "/repo/l.md");
  CHECK((*src)->stat("l.md").value()->kind == git::EntryKind::symlink);
  CHECK_FALSE((*src)->read("l.md", git::Entry{"l.md", git::EntryKind::file, std::nullopt}));
}

TEST_CASE("tree source: the index source reads staged entries without writing", "[git][tree_source]") {
  test::TempDir dir;
  test::commit_tree(dir.path(), {{"projects/a.md", "old"}}, "c1");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  git_index* index = nullptr;
  REQUIRE(git_repository_index(&index, repo->raw()) == 0);
  git_index_entry e{};
  e.mode = GIT_FILEMODE_BLOB;
  e.path = "projects/b.md";
  REQUIRE(git_index_add_from_buffer(index, &e, "new", 3) == 0);
  REQUIRE(git_index_write(index) == 0);
  git_index_free(index);
  auto src = git::open_index_source(*repo);
  REQUIRE(src);
  auto listed = (*src)->list("projects");
  REQUIRE(listed);
  REQUIRE(listed->has_value());
  CHECK(test::entry_names(**listed) == std::vector<std::string>{"b.md"});  // the index was replaced wholesale above
  auto entry = (*src)->stat("projects/b.md");
  REQUIRE(entry);
  REQUIRE(entry->has_value());
  CHECK(*(*src)->read("projects/b.md", **entry) == "new");
  auto dir_entry = (*src)->stat("projects");
  REQUIRE(dir_entry);
  CHECK((*dir_entry)->kind == git::EntryKind::directory);
}

#if defined(__linux__)
namespace {

// Whether this process maps a file whose path ends with `suffix` (/proc/self/maps).
bool maps_file_ending(const std::string& suffix) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.size() >= suffix.size() && line.compare(line.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("tree source: release_read_caches closes the pack files of a repository's own objects, reads go on",
          "[git][tree_source]") {
  test::TempDir dir;
  const git_oid commit = test::commit_tree(dir.path(), {{"projects/a.md", "a\n"}, {"projects.yaml", "{}\n"}}, "c1");
  const std::string stem = test::pack_commit(dir.path(), commit, true);  // the loose copies removed
  const std::string idx = stem.substr(stem.rfind("/objects/pack/")) + ".idx";
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  CHECK(repo->can_reopen_object_database());
  auto head = test::commit_tree_of(*repo, commit, "HEAD");
  REQUIRE(head);
  const auto& src = head->source;
  const git::ObjectId tree_id = head->id;
  auto entry = src->stat("projects/a.md");
  REQUIRE(entry);
  REQUIRE(entry->has_value());
  REQUIRE(src->read("projects/a.md", **entry).value() == "a\n");
  REQUIRE(maps_file_ending(idx));
  ssize_t cached = 0, allowed = 0;
  git_libgit2_opts(GIT_OPT_GET_CACHED_MEMORY, &cached, &allowed);
  REQUIRE(cached > 0);  // the commit and its trees, in the handle's object cache

  auto released = src->release_read_caches();
  REQUIRE(released);
  CHECK(*released);
  CHECK_FALSE(maps_file_ending(idx));  // no handle has the pack open: libgit2 freed it
  ssize_t cached_after = 0;
  git_libgit2_opts(GIT_OPT_GET_CACHED_MEMORY, &cached_after, &allowed);
  if constexpr (git::k_cleanup_frees_only_caches) CHECK(cached_after < cached);  // the object cache emptied with it
  // The same objects, read from the pack opened again.
  CHECK(src->read("projects/a.md", **entry).value() == "a\n");
  CHECK(maps_file_ending(idx));
  auto listed = src->list("projects");
  REQUIRE(listed);
  REQUIRE(listed->has_value());
  CHECK(test::entry_names(**listed) == std::vector<std::string>{"a.md"});
  CHECK(git::open_tree_source(*repo, tree_id, "HEAD").has_value());

  // A trial repository's objects include what it wrote in memory: its
  // sources let nothing go.
  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  CHECK_FALSE(trial->repo().can_reopen_object_database());
  auto trial_src = git::open_tree_source(trial->repo(), tree_id, "trial");
  REQUIRE(trial_src);
  auto kept = (*trial_src)->release_read_caches();
  REQUIRE(kept);
  CHECK_FALSE(*kept);
  CHECK(maps_file_ending(idx));
}
#endif

// A blob of k_give_back_from bytes or more is copied out while libgit2's
// copy is given back page by page: every read, through a tree source and
// by id, gets the whole of it, however often (libgit2 keeps no blob it
// read, so a second read inflates it anew), in a loose object and a pack.
TEST_CASE("tree source: a large blob reads whole, again and again", "[git][tree_source]") {
  std::string big;
  big.reserve((std::size_t{9} << 20) + 4321);
  for (std::size_t i = 0; big.size() < (std::size_t{9} << 20) + 4321; ++i) {
    big += "- id: p" + std::to_string(i) + "\n  status: active\n";
  }
  big.resize((std::size_t{9} << 20) + 4321);
  test::TempDir dir;
  const git_oid commit = test::commit_tree(dir.path(), {{"projects.yaml", big}, {"small.md", "s"}}, "c1");
  for (const bool packed : {false, true}) {
    INFO(packed);
    if (packed) {
      REQUIRE(std::system(("git -C '" + dir.path() + "' gc -q 2>/dev/null").c_str()) == 0);
    }
    auto repo = git::Repository::open(dir.path(), false);
    REQUIRE(repo);
    auto tree = test::commit_tree_of(*repo, commit, "HEAD");
    REQUIRE(tree);
    const auto& src = tree->source;
    auto entry = src->stat("projects.yaml");
    REQUIRE(entry);
    REQUIRE(entry->has_value());
    for (int round = 0; round < 3; ++round) {
      auto bytes = src->read("projects.yaml", **entry);
      REQUIRE(bytes);
      CHECK(bytes->size() == big.size());
      CHECK(*bytes == big);
      auto by_id = git::read_blob(*repo, *(*entry)->content_id);
      REQUIRE(by_id);
      CHECK(*by_id == big);
    }
    auto small = src->stat("small.md");
    REQUIRE(small);
    REQUIRE(small->has_value());
    auto s = src->read("small.md", **small);
    REQUIRE(s);
    CHECK(*s == "s");
  }
}
