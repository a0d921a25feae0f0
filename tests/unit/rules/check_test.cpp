#include "ledgergate/rules/check.hpp"

#include <catch2/catch.hpp>

#include "ledgergate/report/format.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

// `n` ledgers (120 are enough for the check to read and parse them on
// several threads), every seventh one drifted, plus their rows.
test::FileMap many_ledgers(int n = 120) {
  test::FileMap files;
  std::string yaml;
  for (int i = 0; i < n; ++i) {
    const std::string key = "p" + std::to_string(i);
    yaml += key + ":\n  remote: none\n  local_path: /tmp/x\n  ral_root: /tmp/y\n  mirror: none\n  sync_cli: s\n"
                  "  sync_verbs: [pull]\n  ledger: L.md\n  assistant: none\n  witness_file: w\n  partition: both\n"
                  "  status: active\n";
    files["projects/" + key + ".md"] =
        "# " + key + " \u2014 a project\n\nProject: " + key + "\nIssue: " + (i % 7 == 0 ? "bad" : "none") +
        "\n\n## Now\n\nx\n\n## Runs\n\n## Log\n\n- 2026-09-01 \u2014 note \u2014 opened\n";
  }
  files["projects.yaml"] = yaml;
  return files;
}

std::string cortex_of(git::TreeSource& tree, rules::CheckCache& cache) {
  auto report = rules::check_tree(tree, {}, cache);
  REQUIRE(report);
  return report::render_cortex(report->findings);
}
std::string cortex_of(git::TreeSource& tree) {
  rules::CheckCache cache;
  return cortex_of(tree, cache);
}

}  // namespace

TEST_CASE("check: a large tree read on several threads equals the sequential read", "[rules][check]") {
  const test::FileMap files = many_ledgers();
  test::TempDir dir;
  test::write_tree(dir.path() + "/root", files);
  auto disk = git::open_directory_source(dir.path() + "/root");  // no thread readers: sequential
  REQUIRE(disk);
  const std::string sequential = cortex_of(**disk);
  const git_oid commit = test::commit_tree(dir.path() + "/repo", files, "many");
  auto repo = git::Repository::open(dir.path() + "/repo", false);
  REQUIRE(repo);
  auto tree = git::open_tree_source(*repo, *repo->commit_tree(test::id_of(commit)), "HEAD");
  REQUIRE(tree);
  REQUIRE((*tree)->thread_reader());
  CHECK(cortex_of(**tree) == sequential);
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
  const git_oid commit = test::commit_tree(dir.path() + "/repo", files, "many");
  auto repo = git::Repository::open(dir.path() + "/repo", false);
  REQUIRE(repo);
  auto tree = git::open_tree_source(*repo, *repo->commit_tree(test::id_of(commit)), "HEAD");
  REQUIRE(tree);
  rules::CheckCache cache;
  CHECK(cortex_of(**tree, cache) == sequential);
  CHECK(cache.ledgers().size() == 4096);  // the last chunk, past the cap, was not kept
  CHECK(cortex_of(**tree, cache) == sequential);  // again, partly from the cache
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
