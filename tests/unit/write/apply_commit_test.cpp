// apply_as_commit: an edit committed from objects, the branch moved by
// compare-and-swap, a lost race re-run on the new tip.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <thread>

#include "ledgergate/git/commit.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/write/apply.hpp"
#include "unit/write/ledger_fixture.hpp"

using namespace lg;

namespace {

// A bare repository at `dir` whose main holds the clean tree.
git::ObjectId bare_with_clean_tree(const std::string& dir) {
  git_repository* raw = nullptr;
  REQUIRE(git_repository_init(&raw, dir.c_str(), 1) == 0);
  const test::RepositoryPtr owned(raw);
  return test::id_of(test::commit_tree(dir, test::clean_tree(), "base"));
}

std::string ledger_at(const git::Repository& repo, const git::ObjectId& commit) {
  auto tree = repo.commit_tree(commit);
  REQUIRE(tree);
  auto item = git::tree_entry_at(repo, *tree, test::k_ledger_path);
  REQUIRE(item);
  REQUIRE(*item);
  return git::read_blob(repo, (*item)->id).value();
}

git::ObjectId tip(const git::Repository& repo) { return git::ref_target(repo, "refs/heads/main").value(); }

}  // namespace

TEST_CASE("apply_as_commit commits an edit to a bare repository's branch", "[write][commit]") {
  test::TempDir dir;
  const git::ObjectId base = bare_with_clean_tree(dir.path());
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  REQUIRE(repo->is_bare());
  const test::PinnedCommitter pinned;
  auto applied = write::apply_as_commit(*repo, "main", test::log_note("2026-09-03", "pulled"), "", {});
  REQUIRE(applied);
  REQUIRE(applied->commit);
  CHECK(applied->attempts == 1);
  CHECK(applied->written == std::vector<std::string>{test::k_ledger_path});
  CHECK(tip(*repo) == *applied->commit);
  auto info = git::read_commit(*repo, *applied->commit);
  REQUIRE(info);
  CHECK(info->parents == std::vector<git::ObjectId>{base});
  CHECK(git::commit_message(*repo, *applied->commit).value() == "projects/single.md: logged\n");
  CHECK(ledger_at(*repo, *applied->commit).find("- 2026-09-03 — note — pulled\n") != std::string::npos);
  // The other file is the same blob.
  CHECK(git::tree_entry_at(*repo, info->tree, "projects.yaml").value()->id ==
        git::tree_entry_at(*repo, repo->commit_tree(base).value(), "projects.yaml").value()->id);

  auto second = write::apply_as_commit(*repo, "refs/heads/main", test::log_note("2026-09-04", "next"), "ledger: next", {});
  REQUIRE(second);
  CHECK(git::commit_message(*repo, *second->commit).value() == "ledger: next\n");
  CHECK(git::read_commit(*repo, *second->commit).value().parents == std::vector<git::ObjectId>{*applied->commit});
}

TEST_CASE("apply_as_commit makes no commit for a refusal, a refused edit or an empty change", "[write][commit]") {
  test::TempDir dir;
  const git::ObjectId base = bare_with_clean_tree(dir.path());
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  const test::PinnedCommitter pinned;
  auto refused = write::apply_as_commit(*repo, "main", test::log_note("2026-08-01", "late"), "", {});
  REQUIRE(refused);
  CHECK(std::holds_alternative<write::Refusal>(refused->outcome));
  CHECK_FALSE(refused->commit);
  const write::Editor idle = [](git::TreeSource&) -> Result<write::Outcome> {
    return write::Outcome(write::Change{{}, "already running"});
  };
  auto idled = write::apply_as_commit(*repo, "main", idle, "", {});
  REQUIRE(idled);
  CHECK_FALSE(idled->commit);
  CHECK(tip(*repo) == base);
}

TEST_CASE("apply_as_commit: a missing branch is an error", "[write][commit]") {
  test::TempDir dir;
  bare_with_clean_tree(dir.path());
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto applied = write::apply_as_commit(*repo, "nope", test::log_note("2026-09-03", "x"), "", {});
  REQUIRE_FALSE(applied);
  CHECK(applied.error().kind == ErrorKind::usage);
}

TEST_CASE("apply_as_commit to a branch checked out nowhere touches neither a working tree nor an index", "[write][commit]") {
  test::TempDir dir;
  const git_oid base_oid = test::commit_tree(dir.path(), test::clean_tree(), "base");
  const git::ObjectId base = test::id_of(base_oid);
  test::commit_tree(dir.path(), test::clean_tree(), "side", nullptr, "refs/heads/side");
  test::write_tree(dir.path(), test::clean_tree());
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  const test::PinnedCommitter pinned;
  auto applied = write::apply_as_commit(*repo, "side", test::log_note("2026-09-03", "pulled"), "", {});
  REQUIRE(applied);
  REQUIRE(applied->commit);
  CHECK(tip(*repo) == base);
  CHECK(test::read_file(dir.path() + "/" + test::k_ledger_path) == test::k_ledger);
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/.git/index"));
}

namespace {

// A clone-like working tree at `dir`: the clean tree committed on main by
// git, checked out, the index git's own.
void checked_out_repo(const std::string& dir) {
  test::write_tree(dir, test::clean_tree());
  const std::string git = "git -C " + dir + " -c user.name=T -c user.email=t@x.invalid ";
  REQUIRE(test::run_quiet("git init -q -b main " + dir) == 0);
  REQUIRE(test::run_quiet(git + "add -A") == 0);
  REQUIRE(test::run_quiet(git + "commit -q -m base") == 0);
}

std::string status(const std::string& dir) { return test::capture("git -C " + dir + " status --porcelain").out; }

}  // namespace

TEST_CASE("apply_as_commit on the checked-out branch brings its index and file up to date", "[write][commit][checkout]") {
  test::TempDir dir;
  checked_out_repo(dir.path());
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  const test::PinnedCommitter pinned;
  auto applied = write::apply_as_commit(*repo, "main", test::log_note("2026-09-03", "from a job"), "", {});
  REQUIRE(applied);
  REQUIRE(applied->commit);
  CHECK(tip(*repo) == *applied->commit);
  CHECK(status(dir.path()).empty());
  CHECK(test::read_file(dir.path() + "/" + test::k_ledger_path) == ledger_at(*repo, *applied->commit));
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/.git/index.lock"));
  CHECK(std::filesystem::is_empty(dir.path() + "/.git/ledgergate/write"));
}

TEST_CASE("apply_as_commit on the checked-out branch refuses a path with uncommitted changes", "[write][commit][checkout]") {
  test::TempDir dir;
  checked_out_repo(dir.path());
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  const test::PinnedCommitter pinned;
  const git::ObjectId base = tip(*repo);
  const std::string path = dir.path() + "/" + test::k_ledger_path;
  SECTION("in the file") {
    test::write_file(path, test::k_ledger + "my edit\n");
    auto applied = write::apply_as_commit(*repo, "main", test::log_note("2026-09-03", "x"), "", {});
    REQUIRE(applied);
    const auto* refusal = std::get_if<write::Refusal>(&applied->outcome);
    REQUIRE(refusal);
    CHECK_THAT(refusal->message, Catch::StartsWith("projects/single.md has uncommitted changes in the working tree "));
    CHECK(test::read_file(path) == test::k_ledger + "my edit\n");
    CHECK(status(dir.path()) == " M projects/single.md\n");
  }
  SECTION("staged") {
    test::write_file(path, test::k_ledger + "my edit\n");
    REQUIRE(test::run_quiet("git -C " + dir.path() + " add projects/single.md") == 0);
    auto applied = write::apply_as_commit(*repo, "main", test::log_note("2026-09-03", "x"), "", {});
    REQUIRE(applied);
    const auto* refusal = std::get_if<write::Refusal>(&applied->outcome);
    REQUIRE(refusal);
    CHECK_THAT(refusal->message, Catch::StartsWith("projects/single.md has staged changes in the working tree "));
    CHECK(status(dir.path()) == "M  projects/single.md\n");
  }
  CHECK(tip(*repo) == base);
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/.git/index.lock"));
  CHECK(std::filesystem::is_empty(dir.path() + "/.git/ledgergate/write"));
}

TEST_CASE("apply_as_commit: a lost compare-and-swap re-runs the editor on the new tip", "[write][commit]") {
  test::TempDir dir;
  bare_with_clean_tree(dir.path());
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  const test::PinnedCommitter pinned;
  // The first run of the editor lets another writer land before it answers.
  int runs = 0;
  const write::Editor racing = [&](git::TreeSource& tree) -> Result<write::Outcome> {
    if (++runs == 1) {
      auto other = git::Repository::open(dir.path(), false);
      REQUIRE(other);
      REQUIRE(write::apply_as_commit(*other, "main", test::log_note("2026-09-03", "other"), "", {}));
    }
    return test::log_note("2026-09-03", "mine")(tree);
  };
  auto applied = write::apply_as_commit(*repo, "main", racing, "", {});
  REQUIRE(applied);
  CHECK(applied->attempts == 2);
  CHECK(runs == 2);
  const std::string ledger = ledger_at(*repo, tip(*repo));
  CHECK(ledger.find("— note — mine\n- 2026-09-03 — note — other\n") != std::string::npos);

  // Every attempt lost: an error, the branch where the last winner left it.
  write::ApplyOptions once;
  once.max_attempts = 1;
  runs = 0;
  auto lost = write::apply_as_commit(*repo, "main", racing, "", once);
  REQUIRE_FALSE(lost);
  CHECK_THAT(lost.error().message, Catch::Contains("lost the race 1 times"));
}

TEST_CASE("apply_as_commit: two writers racing on one bare repository both land, nothing lost", "[write][commit]") {
  test::TempDir dir;
  bare_with_clean_tree(dir.path());
  const test::PinnedCommitter pinned;
  constexpr int k_each = 10;
  std::atomic<int> failures{0};
  const auto writer = [&](const std::string& who) {
    auto repo = git::Repository::open(dir.path(), false);  // one handle per thread
    if (!repo) {
      ++failures;
      return;
    }
    write::ApplyOptions options;
    options.max_attempts = 50;
    for (int i = 0; i < k_each; ++i) {
      auto applied = write::apply_as_commit(*repo, "main", test::log_note("2026-09-03", who + std::to_string(i)), "", options);
      if (!applied || !applied->commit) ++failures;
    }
  };
  std::thread a(writer, "a"), b(writer, "b");
  a.join();
  b.join();
  CHECK(failures == 0);
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  const std::string ledger = ledger_at(*repo, tip(*repo));
  for (const std::string who : {"a", "b"}) {
    for (int i = 0; i < k_each; ++i) {
      INFO(who << i);
      CHECK(ledger.find("— note — " + who + std::to_string(i) + "\n") != std::string::npos);
    }
  }
  // A line of first parents: one commit per edit over the base.
  int commits = 0;
  for (std::optional<git::ObjectId> at = tip(*repo); at;) {
    const auto info = git::read_commit(*repo, *at).value();
    ++commits;
    at = info.parents.empty() ? std::nullopt : std::optional<git::ObjectId>(info.parents.front());
  }
  CHECK(commits == 2 * k_each + 1);
}

TEST_CASE("apply_as_commit on the checked-out branch: a lost race is edited again, the tree kept in step", "[write][commit][checkout]") {
  test::TempDir dir;
  checked_out_repo(dir.path());
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  const test::PinnedCommitter pinned;
  // The first run of the editor lets another writer land (and update the
  // checkout) before it answers: the branch moved under this edit.
  int runs = 0;
  const write::Editor racing = [&](git::TreeSource& tree) -> Result<write::Outcome> {
    if (++runs == 1) {
      auto other = git::Repository::open(dir.path(), false);
      REQUIRE(other);
      REQUIRE(write::apply_as_commit(*other, "main", test::log_note("2026-09-03", "other"), "", {}));
    }
    return test::log_note("2026-09-03", "mine")(tree);
  };
  auto applied = write::apply_as_commit(*repo, "main", racing, "", {});
  REQUIRE(applied);
  REQUIRE(applied->commit);
  CHECK(applied->attempts == 2);
  CHECK(status(dir.path()).empty());
  const std::string ledger = test::read_file(dir.path() + "/" + test::k_ledger_path);
  CHECK(ledger == ledger_at(*repo, tip(*repo)));
  CHECK(ledger.find("— note — mine\n- 2026-09-03 — note — other\n") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/.git/index.lock"));
}
