#include "ledgergate/rules/check.hpp"

#include <catch2/catch.hpp>

#include <memory>

#include "ledgergate/report/format.hpp"
#include "support/fixture_tree.hpp"
#include "support/many_ledgers.hpp"

using namespace lg;

namespace {

using test::many_ledgers;

std::string cortex_of(git::TreeSource& tree, rules::CheckCache& cache) {
  auto report = rules::check_tree(tree, {}, cache);
  REQUIRE(report);
  return report::render_cortex(report->findings);
}
std::string cortex_of(git::TreeSource& tree) {
  rules::CheckCache cache;
  return cortex_of(tree, cache);
}

// `files` committed in a new repository at `dir`, and that commit's tree
// read from it (the repository is kept: the source reads through it).
struct Committed {
  std::unique_ptr<git::Repository> repo;
  std::unique_ptr<git::TreeSource> tree;
};

Committed committed(const std::string& dir, const test::FileMap& files) {
  const git_oid commit = test::commit_tree(dir, files, "many");
  auto repo = git::Repository::open(dir, false);
  REQUIRE(repo);
  Committed out{std::make_unique<git::Repository>(std::move(*repo)), nullptr};
  auto tree = git::open_tree_source(*out.repo, *out.repo->commit_tree(test::id_of(commit)), "HEAD");
  REQUIRE(tree);
  out.tree = std::move(*tree);
  return out;
}

}  // namespace

TEST_CASE("check: a large tree read on several threads equals the sequential read", "[rules][check]") {
  const test::FileMap files = many_ledgers();
  test::TempDir dir;
  test::write_tree(dir.path() + "/root", files);
  auto disk = git::open_directory_source(dir.path() + "/root");  // no thread readers: sequential
  REQUIRE(disk);
  const std::string sequential = cortex_of(**disk);
  const Committed c = committed(dir.path() + "/repo", files);
  git::TreeSource& tree = *c.tree;
  REQUIRE(tree.thread_reader());
  CHECK(cortex_of(tree) == sequential);
  CHECK(sequential.find("projects/p7.md: `Issue:` must be Repo#N, an issue URL or none, not 'bad'") !=
        std::string::npos);
  CHECK(std::count(sequential.begin(), sequential.end(), '\n') == 1 + 18);  // DRIFT + p0, p7, ..., p119
}

TEST_CASE("check: a tree of more ledgers than the parse cache keeps is checked in chunks, in order", "[rules][check]") {
  // 4,500 ledgers: five chunks of 1,024, the cache's 4,096 parses exceeded.
  const test::FileMap files = many_ledgers(4500);
  test::TempDir dir;
  test::write_tree(dir.path() + "/root", files);
  auto disk = git::open_directory_source(dir.path() + "/root");
  REQUIRE(disk);
  const std::string sequential = cortex_of(**disk);
  CHECK(std::count(sequential.begin(), sequential.end(), '\n') == 1 + 643);  // p0, p7, ..., p4494
  const Committed c = committed(dir.path() + "/repo", files);
  git::TreeSource& tree = *c.tree;
  rules::CheckCache cache;
  CHECK(cortex_of(tree, cache) == sequential);
  CHECK(cache.ledgers().size() == 4096);  // the last chunk, past the cap, was not kept
  CHECK(cortex_of(tree, cache) == sequential);  // again, partly from the cache
}

TEST_CASE("check: trees sharing projects.yaml validate it once per cache", "[rules][check]") {
  // A trial merge checks BASE after the merged tree: the same projects.yaml
  // blob is the same table and findings, not a second parse.
  test::FileMap files = many_ledgers(8);
  test::TempDir dir;
  const git_oid first = test::commit_tree(dir.path() + "/repo", files, "first");
  files["projects/p1.md"] += "- 2026-09-02 \u2014 note \u2014 again\n";
  const git_oid second = test::commit_tree(dir.path() + "/repo", files, "second", &first);
  auto repo = git::Repository::open(dir.path() + "/repo", false);
  REQUIRE(repo);
  auto a = git::open_tree_source(*repo, *repo->commit_tree(test::id_of(first)), "A");
  auto b = git::open_tree_source(*repo, *repo->commit_tree(test::id_of(second)), "B");
  REQUIRE(a);
  REQUIRE(b);
  rules::CheckCache cache;
  const std::string on_a = cortex_of(**a, cache);
  CHECK(cache.projects_yaml().size() == 1);
  const std::string on_b = cortex_of(**b, cache);
  CHECK(cache.projects_yaml().size() == 1);
  CHECK(on_a == cortex_of(**a));
  CHECK(on_b == cortex_of(**b));
}

TEST_CASE("check: the findings and their order do not depend on the thread count", "[rules][check][threads]") {
  // 1,100 ledgers: two chunks, the second read on the workers while the
  // first is checked; every seventh drifted, plus findings before the
  // ledgers (a bad name, a file check does not read) and after them (an
  // active row without a ledger).
  test::FileMap files = many_ledgers(1100);
  files["projects/Bad-Name.md"] = "x\n";
  files["projects/notes.txt"] = "x\n";
  files.erase("projects/p1098.md");
  test::TempDir dir;
  const Committed c = committed(dir.path() + "/repo", files);
  git::TreeSource& tree = *c.tree;
  REQUIRE(tree.thread_reader());
  auto findings_on = [&](unsigned threads) {
    const test::CheckThreads set(threads);
    rules::CheckCache cache;
    auto report = rules::check_tree(tree, {}, cache);
    REQUIRE(report);
    return test::whole_findings(report->findings);
  };
  const std::string alone = findings_on(1);
  CHECK(std::count(alone.begin(), alone.end(), '\n') == 2 + 158 + 1);  // the two names, p0, p7 ... p1099, p1098's row
  CHECK(alone.find("ledger-active-has-ledger|") != std::string::npos);
  CHECK(alone.find("projects/p1099.md") != std::string::npos);
  for (const unsigned threads : {2u, 3u, 4u, 0u}) {
    INFO("threads: " << threads);
    CHECK(findings_on(threads) == alone);
  }
}
