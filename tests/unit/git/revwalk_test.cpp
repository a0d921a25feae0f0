#include "ledgergate/git/revwalk.hpp"

#include <catch2/catch.hpp>

#include "ledgergate/git/commit.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

struct Chain {
  test::TempDir dir;
  git::ObjectId c1, c2, c3;
  Chain() {
    const git_oid a = test::commit_tree(dir.path(), {{"projects.yaml", "1"}}, "c1");
    const git_oid b = test::commit_tree(dir.path(), {{"projects.yaml", "2"}}, "c2", &a);
    const git_oid c = test::commit_tree(dir.path(), {{"projects.yaml", "3"}}, "c3\n\nbody\n", &b);
    c1 = test::id_of(a);
    c2 = test::id_of(b);
    c3 = test::id_of(c);
  }
};

std::vector<git::ObjectId> walk(const git::Repository& repo, git::WalkSort order, const git::ObjectId& tip,
                                const git::ObjectId* hidden = nullptr) {
  auto w = git::RevWalk::open(repo);
  REQUIRE(w);
  w->sort(order);
  REQUIRE(w->push(tip));
  if (hidden) REQUIRE(w->hide(*hidden));
  auto ids = w->remaining();
  REQUIRE(ids);
  return *ids;
}

}  // namespace

TEST_CASE("revwalk: topological order, reversed, and a hidden range start", "[git][revwalk]") {
  Chain chain;
  auto repo = git::Repository::open(chain.dir.path(), false);
  REQUIRE(repo);
  using V = std::vector<git::ObjectId>;
  CHECK(walk(*repo, git::WalkSort::topological, chain.c3) == V{chain.c3, chain.c2, chain.c1});
  CHECK(walk(*repo, git::WalkSort::topological | git::WalkSort::reverse, chain.c3) == V{chain.c1, chain.c2, chain.c3});
  CHECK(walk(*repo, git::WalkSort::topological, chain.c3, &chain.c1) == V{chain.c3, chain.c2});
}

TEST_CASE("revwalk: next() ends with nullopt; pushing an unknown commit fails", "[git][revwalk]") {
  Chain chain;
  auto repo = git::Repository::open(chain.dir.path(), false);
  REQUIRE(repo);
  auto w = git::RevWalk::open(*repo);
  REQUIRE(w);
  REQUIRE(w->push(chain.c1));
  auto first = w->next();
  REQUIRE(first);
  CHECK(*first == chain.c1);
  auto end = w->next();
  REQUIRE(end);
  CHECK_FALSE(end->has_value());
  auto w2 = git::RevWalk::open(*repo);
  REQUIRE(w2);
  CHECK_FALSE(w2->push(*git::ObjectId::from_hex(std::string(40, '1'))));
}

TEST_CASE("commit lookups: tree, parents, time, summary and message", "[git][commit]") {
  Chain chain;
  auto repo = git::Repository::open(chain.dir.path(), false);
  REQUIRE(repo);
  auto info = git::read_commit(*repo, chain.c3);
  REQUIRE(info);
  CHECK(info->id == chain.c3);
  CHECK(info->parents == std::vector<git::ObjectId>{chain.c2});
  auto tree = repo->commit_tree(chain.c3);
  REQUIRE(tree);
  CHECK(info->tree == *tree);
  CHECK(info->time == 1788220800);
  CHECK(info->summary == "c3");
  auto message = git::commit_message(*repo, chain.c3);
  REQUIRE(message);
  CHECK(*message == "c3\n\nbody\n");
  auto root = git::read_commit(*repo, chain.c1);
  REQUIRE(root);
  CHECK(root->parents.empty());
  auto missing = git::read_commit(*repo, *git::ObjectId::from_hex(std::string(40, '1')));
  REQUIRE_FALSE(missing);
  CHECK(missing.error().kind == ErrorKind::not_found);
}
