// discover_work_tree (git/work_tree.hpp): the working tree and git directory
// of the repository found upward from a folder, as Repository::open finds it.
#include "ledgergate/git/work_tree.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "ledgergate/git/repository.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;
namespace fs = std::filesystem;

namespace {

std::string canonical_dir(const std::string& path) { return fs::canonical(path).string() + "/"; }

}  // namespace

TEST_CASE("discover_work_tree: from a working tree's subfolder, its top and .git", "[git][work_tree]") {
  test::TempDir dir;
  const std::string repo = dir.path() + "/repo";
  REQUIRE(test::run_quiet("git init -q " + repo) == 0);
  fs::create_directories(repo + "/projects/deep");
  for (const std::string& from : {repo, repo + "/projects/deep"}) {
    CAPTURE(from);
    const auto found = git::discover_work_tree(from);
    REQUIRE(found);
    REQUIRE(*found);
    CHECK((*found)->workdir == canonical_dir(repo));
    CHECK((*found)->git_dir == canonical_dir(repo + "/.git"));
    // The same as the repository Repository::open finds there.
    const auto opened = git::Repository::open(from, true);
    REQUIRE(opened);
    CHECK((*found)->workdir == opened->workdir());
    CHECK((*found)->git_dir == opened->git_dir());
  }
}

TEST_CASE("discover_work_tree: a linked worktree's own top and per-worktree git directory", "[git][work_tree]") {
  test::TempDir dir;
  const std::string repo = dir.path() + "/repo";
  REQUIRE(test::sh_pinned(dir.path(), "git init -q repo && git -C repo commit -q --allow-empty -m start && "
                                      "git -C repo worktree add -q ../linked") == 0);
  const auto found = git::discover_work_tree(dir.path() + "/linked");
  REQUIRE(found);
  REQUIRE(*found);
  CHECK((*found)->workdir == canonical_dir(dir.path() + "/linked"));
  CHECK((*found)->git_dir == canonical_dir(repo + "/.git/worktrees/linked"));
}

TEST_CASE("discover_work_tree: none outside a repository and none for a bare one", "[git][work_tree]") {
  test::TempDir dir;
  fs::create_directories(dir.path() + "/plain");
  const auto outside = git::discover_work_tree(dir.path() + "/plain");
  REQUIRE(outside);
  CHECK_FALSE(*outside);
  REQUIRE(test::run_quiet("git init -q --bare " + dir.path() + "/bare.git") == 0);
  const auto bare = git::discover_work_tree(dir.path() + "/bare.git");
  REQUIRE(bare);
  CHECK_FALSE(*bare);
}
