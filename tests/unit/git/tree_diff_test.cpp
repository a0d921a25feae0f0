// TreeDiffer as a unit: the changes between two trees agree with
// diff_trees' (without renames), identical trees cost nothing, and the trees
// of one diff serve the next.
#include "ledgergate/git/tree_diff.hpp"

#include <catch2/catch.hpp>

#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

std::vector<std::string> lines(const std::vector<git::DiffEntry>& diff) {
  std::vector<std::string> out;
  for (const git::DiffEntry& e : diff) out.push_back(e.status + " " + e.path);
  return out;
}

}  // namespace

TEST_CASE("tree diff: nested changes, additions and deletions as diff_trees lists them", "[git][tree_diff]") {
  test::TempDir dir;
  const git_oid c1 = test::commit_tree(
      dir.path(), {{"projects/a.md", "a"}, {"projects/b.md", "b"}, {"x/y/z.md", "z"}, {"projects.yaml", "{}"}}, "c1");
  const git_oid c2 = test::commit_tree(
      dir.path(), {{"projects/a.md", "a2"}, {"projects/c.md", "c"}, {"x/y/z.md", "z"}, {"projects.yaml", "{}"}}, "c2",
      &c1);
  const git_oid c3 = test::commit_tree(
      dir.path(), {{"projects/a.md", "a2"}, {"projects/c.md", "c"}, {"x/y/z.md", "z2"}, {"x/w.md", "w"}}, "c3", &c2);
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto t1 = repo->commit_tree(test::id_of(c1));
  auto t2 = repo->commit_tree(test::id_of(c2));
  auto t3 = repo->commit_tree(test::id_of(c3));
  REQUIRE(t1);
  REQUIRE(t2);
  REQUIRE(t3);
  git::TreeDiffer differ(*repo);
  auto walked = differ.changes(&*t1, &*t2);
  REQUIRE(walked);
  CHECK(lines(*walked) == std::vector<std::string>{"M projects/a.md", "D projects/b.md", "A projects/c.md"});
  CHECK(git::may_have_renames(*walked));
  // The next diff reuses the trees the first one read (t2's), and agrees
  // with libgit2's diff.
  differ.next_generation();
  auto next = differ.changes(&*t2, &*t3);
  REQUIRE(next);
  CHECK(lines(*next) == std::vector<std::string>{"D projects.yaml", "A x/w.md", "M x/y/z.md"});
  auto next_listed = git::diff_trees(*repo, &*t2, &*t3);
  REQUIRE(next_listed);
  CHECK(lines(*next) == lines(*next_listed));
  auto from_empty = differ.changes(nullptr, &*t1);
  REQUIRE(from_empty);
  CHECK(from_empty->size() == 4);
  CHECK_FALSE(git::may_have_renames(*from_empty));
  auto listed = git::diff_trees(*repo, nullptr, &*t1);
  REQUIRE(listed);
  CHECK(lines(*from_empty) == lines(*listed));
}
