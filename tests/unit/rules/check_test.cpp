#include "ledgergate/rules/check.hpp"

#include <catch2/catch.hpp>

#include <memory>

#include "ledgergate/cache/store.hpp"
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

// Two commits in a new repository at `dir` (`second` on `first`) and
// their trees.
struct TwoTrees {
  std::unique_ptr<git::Repository> repo;
  std::unique_ptr<git::TreeSource> a, b;
};

TwoTrees committed_twice(const std::string& dir, const test::FileMap& first, const test::FileMap& second) {
  const git_oid one = test::commit_tree(dir, first, "first");
  const git_oid two = test::commit_tree(dir, second, "second", &one);
  auto repo = git::Repository::open(dir, false);
  REQUIRE(repo);
  TwoTrees out{std::make_unique<git::Repository>(std::move(*repo)), nullptr, nullptr};
  auto a = git::open_tree_source(*out.repo, *out.repo->commit_tree(test::id_of(one)), "A");
  auto b = git::open_tree_source(*out.repo, *out.repo->commit_tree(test::id_of(two)), "B");
  REQUIRE(a);
  REQUIRE(b);
  out.a = std::move(*a);
  out.b = std::move(*b);
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

TEST_CASE("check: a tree of many ledgers is checked in chunks, in order, and holds no parse after", "[rules][check]") {
  // 4,500 ledgers: five chunks of 1,024, more than the cache's 4,096 parses.
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
  CHECK(cache.ledgers().size() == 0);  // each chunk's parses went once it was checked
  CHECK(cortex_of(tree, cache) == sequential);  // again, from what the parses gave
}

TEST_CASE("check: trees sharing projects.yaml validate it once per cache", "[rules][check]") {
  // A trial merge checks BASE after the merged tree: the same projects.yaml
  // blob is the same table and findings, not a second parse.
  const test::FileMap files = many_ledgers(8);
  test::FileMap changed = files;
  changed["projects/p1.md"] += "- 2026-09-02 \u2014 note \u2014 again\n";
  test::TempDir dir;
  const TwoTrees t = committed_twice(dir.path() + "/repo", files, changed);
  rules::CheckCache cache;
  const std::string on_a = cortex_of(*t.a, cache);
  CHECK(cache.projects_yaml().size() == 1);
  const std::string on_b = cortex_of(*t.b, cache);
  CHECK(cache.projects_yaml().size() == 1);
  CHECK(on_a == cortex_of(*t.a));
  CHECK(on_b == cortex_of(*t.b));
}

TEST_CASE("check: rows kept as inputs alone; a table of every field kept before answers the check",
          "[rules][check]") {
  // A trial merge's cache keeps the checked rows' inputs alone
  // (judging_budget); the classification and the merge detectors read
  // every field first (projects_table), and that table serves the check of
  // the same blob: one parse, the same findings.
  test::FileMap files = many_ledgers(8);
  files["projects.yaml"] += "p9:\n  status: active\n";  // a row without a ledger, and no title: findings
  test::TempDir dir;
  const Committed c = committed(dir.path() + "/repo", files);
  cache::disable();  // the rows parsed, not read from the persistent cache's memo
  const std::string full = cortex_of(*c.tree);
  REQUIRE(full.find("projects.yaml") != std::string::npos);
  {
    rules::CheckCache cache(rules::CheckCache::judging_budget());
    CHECK(cortex_of(*c.tree, cache) == full);
    CHECK(cache.projects_yaml().size() == 1);
    // Rows of inputs never answer a reader of every field: it parses again.
    auto table = rules::projects_table(*c.tree, cache);
    REQUIRE(table);
    REQUIRE(*table);
    CHECK(cache.projects_yaml().size() == 2);
    const rules::ProjectRow* row = (*table)->find("p1");
    REQUIRE(row);
    CHECK(row->get("remote") == std::optional<std::string_view>("none"));
  }
  {
    rules::CheckCache cache(rules::CheckCache::judging_budget());
    REQUIRE(rules::projects_table(*c.tree, cache));
    CHECK(cache.projects_yaml().size() == 1);
    CHECK(cortex_of(*c.tree, cache) == full);
    CHECK(cache.projects_yaml().size() == 1);  // answered by the table of every field
  }
  cache::enable();
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

TEST_CASE("check: without the persistent cache, a ledger is judged once per path, blob and row", "[rules][check]") {
  // A trial merge checks the merged tree, BASE and the branch tip: a ledger
  // they share is judged once. p1's ledger has an empty `## Now`, a
  // finding only while its row is active: the same blob under another row
  // is judged again.
  test::FileMap files = many_ledgers(8);
  files["projects/p1.md"] =
      "# p1 \u2014 a project\n\nProject: p1\nIssue: none\n\n## Now\n\n## Runs\n\n## Log\n\n"
      "- 2026-09-01 \u2014 note \u2014 opened\n";
  test::FileMap retired = files;
  std::string& yaml = retired["projects.yaml"];
  const std::size_t p1_status = yaml.find("status: active", yaml.find("p1:\n"));
  REQUIRE(p1_status != std::string::npos);
  yaml.replace(p1_status, 14, "status: retired");
  test::TempDir dir;
  const TwoTrees t = committed_twice(dir.path() + "/repo", retired, files);
  cache::disable();
  rules::CheckCache cache;
  const std::string on_a = cortex_of(*t.a, cache);
  CHECK(cache.ledger_findings().size() == 8);
  // The memo keeps what the parses gave: they went with their chunk.
  CHECK(cache.ledgers().size() == 0);
  CHECK(on_a.find("projects/p1.md") == std::string::npos);
  CHECK(cortex_of(*t.a, cache) == on_a);
  CHECK(cache.ledger_findings().size() == 8);  // every ledger answered from the memo
  const std::string on_b = cortex_of(*t.b, cache);
  CHECK(cache.ledger_findings().size() == 9);  // p1 alone judged again: its row changed
  CHECK(on_b == cortex_of(*t.b));
  CHECK(on_b.find("projects/p1.md: `## Now` is empty on an active project") != std::string::npos);
  cache::enable();
}
