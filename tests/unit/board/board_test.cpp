// The board model (src/board): the check-in stamp, the home link, and the
// cards read from a tree (a folder here; the CLI golden cases read commits).
#include "ledgergate/board/board.hpp"

#include <catch2/catch.hpp>

#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

const std::string k_rows =
    "example:\n  status: active\n  partition: ral\n  remote: none\n  local_path: /tmp/e\n  ral_root: /r\n"
    "  mirror: none\n  sync_cli: s\n  sync_verbs: [pull]\n  ledger: l\n  assistant: none\n  witness_file: w\n"
    "sleepy:\n  status: dormant\n  partition: ral\n  remote: none\n  local_path: /tmp/s\n  ral_root: /r\n"
    "  mirror: none\n  sync_cli: s\n  sync_verbs: [pull]\n  ledger: l\n  assistant: none\n  witness_file: w\n"
    "  note: \"resting for now\"\n"
    "done_one:\n  status: retired\n  partition: ral\n  remote: none\n  local_path: /tmp/d\n  ral_root: /r\n"
    "  mirror: none\n  sync_cli: s\n  sync_verbs: [pull]\n  ledger: l\n  assistant: none\n  witness_file: w\n";

std::string log_lines(int n) {
  std::string out;
  for (int i = n; i >= 1; --i) out += "- 2026-08-" + std::string(i < 10 ? "0" : "") + std::to_string(i) + " — note — entry " + std::to_string(i) + "\n";
  return out;
}

board::Board read(const test::FileMap& files, board::BoardOptions options = {}) {
  test::TempDir dir;
  test::write_tree(dir.path(), files);
  auto tree = git::open_directory_source(dir.path());
  REQUIRE(tree);
  auto b = board::read_board(**tree, options);
  REQUIRE(b);
  return std::move(*b);
}

}  // namespace

TEST_CASE("board: checkin.yaml is read as the R-era conductor reads it", "[board]") {
  CHECK(board::read_checkin(std::nullopt).state == board::Checkin::State::absent);
  const auto ok = board::read_checkin(std::string("refreshed: 2026-09-15T18:14Z\n"));
  CHECK(ok.state == board::Checkin::State::ok);
  CHECK(ok.stamp == "2026-09-15T18:14Z");
  CHECK(board::read_checkin(std::string("refreshed: \"2026-09-15T18:14:05Z\"\n")).stamp == "2026-09-15T18:14:05Z");
  CHECK(board::read_checkin(std::string("refreshed: 2026-09-15 18:14\n")).state == board::Checkin::State::unreadable);
  CHECK(board::read_checkin(std::string("refreshed: yesterday\n")).state == board::Checkin::State::unreadable);
  CHECK(board::read_checkin(std::string("other: 1\n")).state == board::Checkin::State::unreadable);
  CHECK(board::read_checkin(std::string("")).state == board::Checkin::State::unreadable);
}

TEST_CASE("board: the home is the first GitHub repository link, or the remote's", "[board]") {
  CHECK(board::github_home_in("see [the repo](https://github.com/PyAutoLabs/PyAutoCortex/blob/main/x.md).") ==
        "https://github.com/PyAutoLabs/PyAutoCortex");
  CHECK(board::github_home_in("clone https://github.com/o/r.git.") == "https://github.com/o/r");
  CHECK(board::github_home_in("no link here, https://gitlab.com/o/r") == std::nullopt);
  CHECK(board::github_home_in("https://github.com/ alone") == std::nullopt);
  CHECK(board::github_home_of_remote("git@github.com:Fork/Cortex.git") == "https://github.com/Fork/Cortex");
  CHECK(board::github_home_of_remote("https://github.com/Fork/Cortex") == "https://github.com/Fork/Cortex");
  CHECK(board::github_home_of_remote("ssh://git@github.com/Fork/Cortex.git/") == "https://github.com/Fork/Cortex");
  CHECK(board::github_home_of_remote("https://github.com/Fork/Cortex/tree/x") == std::nullopt);
  CHECK(board::github_home_of_remote("/srv/git/cortex.git") == std::nullopt);
}

TEST_CASE("board: one card per active row, the last five entries, the rest listed", "[board]") {
  const auto b = read({{"projects.yaml", k_rows},
                       {"projects/example.md", test::example_ledger("Now line one.\nNow line two.\n",
                                                                    "- 3002 — running — ral — 2026-09-01 — wave 2\n",
                                                                    log_lines(7))},
                       {"checkin.yaml", "refreshed: 2026-09-15T18:14Z\n"}});
  REQUIRE(b.active.size() == 1);
  const board::Card& c = b.active[0];
  CHECK(c.key == "example");
  CHECK(c.status == "active");
  CHECK(c.has_ledger);
  CHECK(c.now == "Now line one.\nNow line two.");
  REQUIRE(c.runs.size() == 1);
  CHECK(c.runs[0].line.ident == "3002");
  CHECK(c.runs[0].line.state == "running");
  REQUIRE(c.log.size() == board::k_log_window);
  CHECK(c.log_total == 7);
  CHECK(c.log.front().text == "entry 7");
  CHECK(c.log.back().text == "entry 3");
  CHECK(c.updated == "2026-08-07");
  REQUIRE(b.resting.size() == 1);
  CHECK(b.resting[0].key == "sleepy");
  CHECK(b.resting[0].summary == "resting for now");  // no ledger: the row's note
  CHECK(b.resting[0].path.empty());
  REQUIRE(b.retired.size() == 1);
  CHECK(b.retired[0].key == "done_one");
  CHECK(b.checkin.stamp == "2026-09-15T18:14Z");
  CHECK(b.verdict == diag::Verdict::pass);
  CHECK_FALSE(b.home);
}

TEST_CASE("board: the check's verdict and findings, a missing active ledger, the home from AGENTS.md", "[board]") {
  board::BoardOptions options;
  options.remote_url = "git@github.com:Remote/Fallback.git";
  auto b = read({{"projects.yaml", k_rows}, {"checkin.yaml", "refreshed: soon\n"}}, options);
  REQUIRE(b.active.size() == 1);
  CHECK_FALSE(b.active[0].has_ledger);
  CHECK(b.verdict == diag::Verdict::fail);
  REQUIRE_FALSE(b.findings.empty());
  CHECK(b.findings[0].rule == "ledger-active-has-ledger");
  CHECK(b.checkin.state == board::Checkin::State::unreadable);
  CHECK(b.home == "https://github.com/Remote/Fallback");  // no README/AGENTS link: the remote
  CHECK(b.home_source == "git remote");
  b = read({{"projects.yaml", k_rows}, {"AGENTS.md", "Home: https://github.com/Own/Repo\n"}}, options);
  CHECK(b.home == "https://github.com/Own/Repo");
  CHECK(b.home_source == "AGENTS.md");
}

TEST_CASE("board: a tree of an older era has no board", "[board]") {
  test::TempDir dir;
  test::write_tree(dir.path(), {{"tasks/example/01_scope.md", "# x\n"}});
  auto tree = git::open_directory_source(dir.path());
  REQUIRE(tree);
  auto b = board::read_board(**tree, {});
  REQUIRE_FALSE(b);
  CHECK(b.error().message.find("cortex-projects") != std::string::npos);
}

TEST_CASE("board: a commit of many projects reads as its folder does (ledgers parsed on threads)", "[board]") {
  test::FileMap files;
  std::string rows;
  for (int i = 0; i < 120; ++i) {  // 80 active: over the 64 that start threads
    const std::string key = "p" + std::to_string(i);
    const bool active = i % 3 != 0;
    rows += key + ":\n  status: " + (active ? "active" : "dormant") +
            "\n  partition: ral\n  remote: none\n  local_path: /tmp/x\n  ral_root: /r\n  mirror: none\n"
            "  sync_cli: s\n  sync_verbs: [pull]\n  ledger: l\n  assistant: none\n  witness_file: w\n";
    if (i % 10 == 9) continue;  // some rows have no ledger
    std::string ledger = test::example_ledger("Now of " + key + ".\n", "", log_lines(1 + i % 8));
    test::replace_once(ledger, "example", key);
    test::replace_once(ledger, "Project: example", "Project: " + key);
    test::replace_once(ledger, "A question", "Question " + key);
    files["projects/" + key + ".md"] = ledger;
  }
  files["projects.yaml"] = rows;
  test::TempDir dir;
  test::PinnedCommitter pinned;
  const git_oid commit = test::commit_tree(dir.path() + "/repo", files, "many");
  auto repo = git::Repository::open(dir.path() + "/repo", false);
  REQUIRE(repo);
  auto tree = git::open_tree_source(*repo, *repo->commit_tree(test::id_of(commit)), "HEAD");
  REQUIRE(tree);
  auto from_commit = board::read_board(**tree, {});
  REQUIRE(from_commit);
  const board::Board from_folder = read(files);
  REQUIRE(from_commit->active.size() == 80);
  REQUIRE(from_folder.active.size() == 80);
  for (std::size_t i = 0; i < 80; ++i) {
    const board::Card& a = from_commit->active[i];
    const board::Card& b = from_folder.active[i];
    CHECK(a.key == b.key);
    CHECK(a.summary == b.summary);
    CHECK(a.now == b.now);
    CHECK(a.has_ledger == b.has_ledger);
    CHECK(a.log_total == b.log_total);
    CHECK(a.updated == b.updated);
  }
  CHECK(from_commit->active[0].key == "p1");
  CHECK(from_commit->active[0].now == "Now of p1.");
  CHECK(from_commit->active[0].summary == "Question p1");
  CHECK(from_commit->active[12].key == "p19");
  CHECK_FALSE(from_commit->active[12].has_ledger);
  REQUIRE(from_commit->resting.size() == 40);
  CHECK(from_commit->resting[1].summary == "Question p3");  // a dormant row's title, from the check's parse
  CHECK(from_commit->resting[3].key == "p9");
  CHECK(from_commit->resting[3].path.empty());
}

TEST_CASE("board: runs open or running past the threshold are stale, aged against the tree's newest date", "[board]") {
  const test::FileMap files{
      {"projects.yaml", k_rows},
      {"projects/example.md",
       test::example_ledger("Now.\n",
                            "- 3001 — open — ral — 2026-08-01 — old and open\n"
                            "- 3002 — running — ral — 2026-08-18 — exactly fourteen days\n"
                            "- 3003 — running — ral — 2026-08-17 — fifteen days\n",
                            "- 2026-08-20 — note — newest entry\n")},
      {"checkin.yaml", "refreshed: 2026-09-01T09:00Z\n"}};
  const auto b = read(files);
  CHECK(b.as_of == "2026-09-01");  // the check-in is newer than the newest log entry
  CHECK(b.stale_days == board::k_default_stale_days);
  const std::vector<board::Run>& runs = b.active.at(0).runs;
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].age_days == 31);
  CHECK(runs[0].stale);
  CHECK(runs[1].age_days == 14);
  CHECK_FALSE(runs[1].stale);  // more than the threshold, not equal to it
  CHECK(runs[2].stale);
  // The policy's threshold.
  board::BoardOptions options;
  options.stale_days = 40;
  CHECK_FALSE(read(files, options).active.at(0).runs[0].stale);
  // Without the check-in the newest log entry dates the board.
  test::FileMap no_checkin = files;
  no_checkin.erase("checkin.yaml");
  const auto c = read(no_checkin);
  CHECK(c.as_of == "2026-08-20");
  CHECK(c.active.at(0).runs[0].age_days == 19);
}
