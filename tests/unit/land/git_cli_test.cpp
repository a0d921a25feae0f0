#include "ledgergate/land/git_cli.hpp"

#include <catch2/catch.hpp>

#include "ledgergate/land/process.hpp"

using namespace lg;

TEST_CASE("git_cli: a push that went through", "[land][git_cli]") {
  const auto o = land::classify_push(0, "To /tmp/r.git\n \t1234:refs/heads/main\tabc..def\nDone\n", "");
  CHECK(o.kind == land::PushKind::pushed);
  CHECK(o.detail == "abc..def");
  CHECK(land::classify_push(0, "To r\n-\t:refs/heads/x\t[deleted]\nDone\n", "").kind == land::PushKind::pushed);
}

TEST_CASE("git_cli: a lease that failed, or a ref that moved under the lock, is a lost race", "[land][git_cli]") {
  auto o = land::classify_push(1, "To r\n!\t1234:refs/heads/main\t[rejected] (stale info)\nDone\n",
                               "error: failed to push some refs to 'r'\n");
  CHECK(o.kind == land::PushKind::lost_race);
  CHECK(o.detail == "[rejected] (stale info)");
  CHECK(land::classify_push(1, "!\tx:refs/heads/main\t[remote rejected] (failed to update ref)\n", "").kind ==
        land::PushKind::lost_race);
  CHECK(land::classify_push(1, "", "error: cannot lock ref 'refs/heads/main': is at 1 but expected 2\n").kind ==
        land::PushKind::lost_race);
}

TEST_CASE("git_cli: a hook or a permission refusal is not retried", "[land][git_cli]") {
  const auto o = land::classify_push(1, "To r\n!\tx:refs/heads/main\t[remote rejected] (pre-receive hook declined)\n",
                                     "remote: main is frozen   \nerror: failed to push some refs to 'r'\n");
  CHECK(o.kind == land::PushKind::refused);
  CHECK(o.detail == "[remote rejected] (pre-receive hook declined): remote: main is frozen; "
                    "error: failed to push some refs to 'r'");
  CHECK(land::classify_push(128, "", "fatal: Authentication failed\n").kind == land::PushKind::refused);
  CHECK(land::classify_push(128, "", "fatal: Authentication failed\n").detail == "fatal: Authentication failed");
}

TEST_CASE("git_cli: commands are argument vectors with the git dir first", "[land][git_cli]") {
  const land::GitCli cli("/r/.git", "origin");
  CHECK(cli.command({"fetch", "x y"}) == std::vector<std::string>{"git", "--git-dir=/r/.git", "fetch", "x y"});
}

TEST_CASE("process: arguments reach the program verbatim, no shell", "[land][process]") {
  auto r = land::run_process({"printf", "%s|%s", "a;b $HOME", "`c`"});
  REQUIRE(r);
  CHECK(r->exit_code == 0);
  CHECK(r->out == "a;b $HOME|`c`");
  CHECK(r->err.empty());
}

TEST_CASE("process: exit status, stderr and environment overrides", "[land][process]") {
  auto r = land::run_process({"sh", "-c", "echo \"$LG_TEST_VALUE\" >&2; exit 3"}, {{"LG_TEST_VALUE", "set"}});
  REQUIRE(r);
  CHECK(r->exit_code == 3);
  CHECK(r->err == "set\n");
  auto big = land::run_process({"sh", "-c", "head -c 200000 /dev/zero; head -c 100000 /dev/zero >&2"});
  REQUIRE(big);
  CHECK(big->out.size() == 200000);
  CHECK(big->err.size() == 100000);
  CHECK_FALSE(land::run_process({"ledgergate-no-such-program"}));
}
