#include "ledgergate/merge/tree_merge.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

std::string hex(const git_oid& id) { return test::oid_hex(id); }
std::string hex(const git::ObjectId& id) { return id.hex(); }

// git's own verdict: `git merge-tree --write-tree` prints the tree id first
// and exits 1 on conflicts.
std::pair<int, std::string> git_merge_tree(const std::string& dir, const git_oid& ours, const git_oid& theirs) {
  const std::string cmd = "git -C '" + dir + "' merge-tree --write-tree " + hex(ours) + " " + hex(theirs) + " 2>&1";
  const test::Captured c = test::capture(cmd);
  return {c.status, c.out.substr(0, 40)};
}

struct Case {
  const char* name;
  test::FileMap base, ours, theirs;
  std::vector<std::string> conflicts;  // "kind path"
};

// The case's commits in `dir` (ours and theirs on base) and merge_trees'
// merge of them.
struct Merged {
  git_oid ours, theirs;
  merge::TreeMerge result;
};

Merged merge_case(const std::string& dir, const Case& c) {
  const git_oid base = test::commit_tree(dir, c.base, "base");
  const git_oid ours = test::commit_tree(dir, c.ours, "ours", &base, "refs/heads/ours");
  const git_oid theirs = test::commit_tree(dir, c.theirs, "theirs", &base, "refs/heads/theirs");
  auto repo = git::Repository::open(dir, false);
  REQUIRE(repo);
  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  auto result = merge::merge_trees(*trial, *repo->commit_tree(test::id_of(base)), *repo->commit_tree(test::id_of(ours)),
                                   *repo->commit_tree(test::id_of(theirs)));
  REQUIRE(result);
  return Merged{ours, theirs, std::move(*result)};
}

}  // namespace

TEST_CASE("tree merge: agrees with git merge-tree, clean or conflicted", "[merge][tree_merge]") {
  const std::string ledger = "a\nb\nc\nd\ne\nf\ng\n";
  const auto c = GENERATE_COPY(
      Case{"different files", {{"p/a.md", "1\n"}, {"p/b.md", "2\n"}}, {{"p/a.md", "1x\n"}, {"p/b.md", "2\n"}},
           {{"p/a.md", "1\n"}, {"p/b.md", "2y\n"}}, {}},
      Case{"one file, distant edits", {{"p/a.md", ledger}}, {{"p/a.md", "A\nb\nc\nd\ne\nf\ng\n"}},
           {{"p/a.md", "a\nb\nc\nd\ne\nf\nG\n"}}, {}},
      Case{"one line, both edits", {{"p/a.md", ledger}}, {{"p/a.md", "X\nb\nc\nd\ne\nf\ng\n"}},
           {{"p/a.md", "Y\nb\nc\nd\ne\nf\ng\n"}}, {"content p/a.md"}},
      Case{"modify/delete", {{"p/a.md", ledger}, {"k", "k\n"}}, {{"p/a.md", "X\n" + ledger}, {"k", "k\n"}},
           {{"k", "k\n"}}, {"modify/delete p/a.md"}},
      Case{"add/add", {{"k", "k\n"}}, {{"k", "k\n"}, {"p/n.md", "one\n"}}, {{"k", "k\n"}, {"p/n.md", "two\n"}},
           {"add/add p/n.md"}},
      Case{"rename on one side, edit on the other", {{"p/a.md", ledger}},
           {{"q/a.md", ledger}}, {{"p/a.md", "a\nb\nc\nd\ne\nf\nG\n"}}, {}},
      Case{"deletion of an untouched file", {{"p/a.md", ledger}, {"p/b.md", "b\n"}}, {{"p/b.md", "b\n"}},
           {{"p/a.md", ledger}, {"p/b.md", "B\n"}}, {}},
      Case{"one side changes only", {{"p/a.md", ledger}}, {{"p/a.md", ledger}}, {{"p/a.md", ledger + "h\n"}}, {}});
  CAPTURE(c.name);
  test::TempDir dir;
  const auto [ours, theirs, result] = merge_case(dir.path(), c);
  std::vector<std::string> got;
  for (const auto& k : result.conflicts) got.push_back(std::string(merge::to_string(k.kind)) + " " + k.path);
  CHECK(got == c.conflicts);
  const auto [git_status, git_tree] = git_merge_tree(dir.path(), ours, theirs);
  CHECK(git_status == (c.conflicts.empty() ? 0 : 1));
  if (c.conflicts.empty()) CHECK(hex(result.tree) == git_tree);
}

TEST_CASE("tree merge: writes nothing into the repository", "[merge][tree_merge]") {
  test::TempDir dir;
  const git_oid base = test::commit_tree(dir.path(), {{"a", "1\n2\n3\n4\n5\n"}}, "base");
  const git_oid ours = test::commit_tree(dir.path(), {{"a", "0\n2\n3\n4\n5\n"}}, "ours", &base, "refs/heads/ours");
  const git_oid theirs =
      test::commit_tree(dir.path(), {{"a", "1\n2\n3\n4\n6\n"}}, "theirs", &base, "refs/heads/theirs");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  const auto before = test::read_tree(dir.path() + "/.git");
  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  auto result = merge::merge_trees(*trial, *repo->commit_tree(test::id_of(base)), *repo->commit_tree(test::id_of(ours)),
                                   *repo->commit_tree(test::id_of(theirs)));
  REQUIRE(result);
  CHECK(result->conflicts.empty());
  git_odb* odb = nullptr;
  REQUIRE(git_repository_odb(&odb, repo->raw()) == 0);
  const git_oid merged = test::oid_of(result->tree);
  CHECK_FALSE(git_odb_exists(odb, &merged));  // only in the trial's memory
  git_odb_free(odb);
  CHECK(test::read_tree(dir.path() + "/.git") == before);
}

namespace {

// git's conflicted paths: `git merge-tree --write-tree --name-only`, the
// lines between the tree id and the first blank line.
std::vector<std::string> git_conflicted_paths(const std::string& dir, const git_oid& ours, const git_oid& theirs) {
  const std::string cmd =
      "git -C '" + dir + "' merge-tree --write-tree --name-only " + hex(ours) + " " + hex(theirs) + " 2>/dev/null";
  std::vector<std::string> lines;
  std::istringstream listed(test::capture(cmd).out);
  for (std::string line; std::getline(listed, line);) lines.push_back(line);
  std::vector<std::string> out;
  for (std::size_t i = 1; i < lines.size() && !lines[i].empty(); ++i) out.push_back(lines[i]);
  return out;
}

// Twenty distinct lines: renamed copies are detected by git and libgit2 alike.
std::string body(const std::string& tag, const std::string& line5 = "") {
  std::string out;
  for (int i = 1; i <= 20; ++i) out += (i == 5 && !line5.empty() ? line5 : tag + " " + std::to_string(i)) + "\n";
  return out;
}

}  // namespace

TEST_CASE("tree merge: a rename's conflict is reported once, where git leaves the file", "[merge][tree_merge]") {
  const auto c = GENERATE_COPY(
      Case{"renamed on one side, edited on the other", {{"a", body("a")}}, {{"a2", body("a", "ours")}},
           {{"a", body("a", "theirs")}}, {"content a2 <- a"}},
      Case{"edited on one side, renamed on the other", {{"a", body("a")}}, {{"a", body("a", "ours")}},
           {{"a2", body("a", "theirs")}}, {"content a2 <- a"}},
      Case{"renamed on one side, deleted on the other", {{"b", body("b")}, {"k", "k\n"}}, {{"b2", body("b")}, {"k", "k\n"}},
           {{"k", "k\n"}}, {"rename/delete b2 <- b"}},
      Case{"renamed differently on each side", {{"c", body("c")}}, {{"c2", body("c")}}, {{"c3", body("c")}},
           {"rename/rename c", "rename/rename c2 <- c", "rename/rename c3 <- c"}},
      // (git looks for renames only where the other side changed the source too)
      Case{"renamed onto a file the other side adds", {{"e", body("e")}}, {{"e2", body("e")}},
           {{"e", body("e", "theirs")}, {"e2", body("other")}}, {"add/add e2 <- e"}},
      Case{"two files renamed onto one name", {{"m", body("m")}, {"n", body("n")}},
           {{"mn", body("m")}, {"n", body("n", "ours")}}, {{"m", body("m", "theirs")}, {"mn", body("n")}},
           {"add/add mn"}},
      Case{"renamed alike on both sides, edits conflict", {{"c", body("c")}}, {{"c2", body("c", "ours")}},
           {{"c2", body("c", "theirs")}}, {"content c2 <- c"}},
      Case{"a rename and a plain modify/delete", {{"a", body("a")}, {"f", body("f")}},
           {{"a2", body("a", "ours")}, {"f", body("f", "ours")}}, {{"a", body("a", "theirs")}},
           {"content a2 <- a", "modify/delete f"}});
  CAPTURE(c.name);
  test::TempDir dir;
  const auto [ours, theirs, result] = merge_case(dir.path(), c);
  CHECK(result.full_merge);
  std::vector<std::string> got, paths;
  for (const auto& k : result.conflicts) {
    got.push_back(std::string(merge::to_string(k.kind)) + " " + k.path + (k.old_path ? " <- " + *k.old_path : ""));
    paths.push_back(k.path);
  }
  CHECK(got == c.conflicts);
  CHECK(paths == git_conflicted_paths(dir.path(), ours, theirs));
}

TEST_CASE("tree merge: refuses where git may apply a directory rename", "[merge][tree_merge]") {
  // Ours moves d/ to e/; theirs adds d/z: git moves d/z to e/z and reports
  // "CONFLICT (file location)", libgit2 merges it cleanly at d/z.
  test::TempDir dir;
  const git_oid base = test::commit_tree(dir.path(), {{"d/x", body("x")}, {"d/y", body("y")}}, "base");
  const git_oid ours = test::commit_tree(dir.path(), {{"e/x", body("x")}, {"e/y", body("y")}}, "ours", &base,
                                         "refs/heads/ours");
  const git_oid theirs = test::commit_tree(dir.path(), {{"d/x", body("x")}, {"d/y", body("y")}, {"d/z", body("z")}},
                                           "theirs", &base, "refs/heads/theirs");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  auto result = merge::merge_trees(*trial, *repo->commit_tree(test::id_of(base)), *repo->commit_tree(test::id_of(ours)),
                                   *repo->commit_tree(test::id_of(theirs)));
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == ErrorKind::invalid_input);
  CHECK_THAT(result.error().message, Catch::Contains("directory rename (d/x -> e/x"));
  CHECK(git_conflicted_paths(dir.path(), ours, theirs) == std::vector<std::string>{"e/z"});
  // Without the file added into d/, no directory rename applies: merged.
  const git_oid plain = test::commit_tree(dir.path(), {{"d/x", body("x", "theirs")}, {"d/y", body("y")}}, "plain",
                                          &base, "refs/heads/plain");
  auto merged = merge::merge_trees(*trial, *repo->commit_tree(test::id_of(base)), *repo->commit_tree(test::id_of(ours)),
                                   *repo->commit_tree(test::id_of(plain)));
  REQUIRE(merged);
  CHECK(merged->conflicts.empty());
  CHECK(hex(merged->tree) == git_merge_tree(dir.path(), ours, plain).second);
}

TEST_CASE("tree merge: reports the widest directory it read", "[merge][tree_merge]") {
  test::TempDir dir;
  test::FileMap base{{"README.md", "r\n"}, {"docs/a.md", "a\n"}};
  for (int i = 0; i < 12; ++i) base["projects/p" + std::to_string(i) + ".md"] = "p\n";
  test::FileMap ours = base, theirs = base;
  ours["projects/p3.md"] = "ours\n";
  theirs["projects/p9.md"] = "theirs\n";
  theirs["projects/p12.md"] = "new\n";
  const Merged m = merge_case(dir.path(), Case{"wide", base, ours, theirs, {}});
  CHECK(m.result.conflicts.empty());
  CHECK(m.result.widest == 13);  // theirs' projects/; docs/ is the same on every side, so not read
}
