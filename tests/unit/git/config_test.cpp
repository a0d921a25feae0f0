// An empty configuration section's header taken out as `git config
// --remove-section` would: only when no variable is under any of its
// headers, only the header lines, under git's config.lock protocol.
#include "ledgergate/git/config.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "support/fixture_tree.hpp"

using namespace lg;
namespace fs = std::filesystem;

namespace {

std::optional<std::string> without(std::string_view text) {
  return git::without_empty_section(text, "merge", "ledgergate");
}

}  // namespace

TEST_CASE("config: an empty section's header lines go, every other byte stays", "[git][config]") {
  CHECK(without("[core]\n\tbare = false\n[merge \"ledgergate\"]\n") == "[core]\n\tbare = false\n");
  CHECK(without("[merge \"ledgergate\"]\n[core]\n\tbare = false\n") == "[core]\n\tbare = false\n");
  CHECK(without("[core]\n\tbare = false\n[merge \"ledgergate\"]") == "[core]\n\tbare = false\n");
  // Blank and comment lines under it are not variables: they stay.
  CHECK(without("[a]\n\tx = 1\n  [merge \"ledgergate\"] # note\n\n; c\n[b]\n") == "[a]\n\tx = 1\n\n; c\n[b]\n");
  // Section names fold case, a quoted subsection does not; the older dotted form folds it.
  CHECK(without("[MERGE \"ledgergate\"]\n") == "");
  CHECK(without("[merge.LedgerGate]\n") == "");
  CHECK(without("[merge \"ledger\\gate\"]\n") == "");  // a backslash escapes the next character
  CHECK_FALSE(without("[merge \"LedgerGate\"]\n"));
  CHECK_FALSE(without("[merge]\n[ledgergate]\n"));
  // Every header of a section split in two goes, when neither half holds a variable.
  CHECK(without("[merge \"ledgergate\"]\n[a]\n\tx = 1\n[merge \"ledgergate\"]\n") == "[a]\n\tx = 1\n");
}

TEST_CASE("config: a section with a variable, or none at all, is left alone", "[git][config]") {
  CHECK_FALSE(without(""));
  CHECK_FALSE(without("[core]\n\tbare = false\n"));
  CHECK_FALSE(without("[merge \"ledgergate\"]\n\trecursive = binary\n"));
  CHECK_FALSE(without("[merge \"ledgergate\"] recursive = binary\n"));
  CHECK_FALSE(without("[merge \"ledgergate\"]\n[a]\n[merge \"ledgergate\"]\n\tx = 1\n"));
  // A value continued past its line: the `[` line is part of the value, no header.
  CHECK_FALSE(without("[a]\n\tx = one \\\n[merge \"ledgergate\"]\n"));
  CHECK(without("[a]\n\tx = one \\\\\n[merge \"ledgergate\"]\n") == "[a]\n\tx = one \\\\\n");
}

TEST_CASE("config: the repository's file edited under config.lock, its mode kept", "[git][config]") {
  test::TempDir dir;
  test::commit_tree(dir.path(), {{"a.txt", "a\n"}}, "c1");
  const std::string path = dir.path() + "/.git/config";
  const std::string before = test::read_file(path);
  test::write_file(path, before + "[merge \"ledgergate\"]\n");
  REQUIRE(::chmod(path.c_str(), 0640) == 0);
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  test::write_file(path + ".lock", "");
  auto held = git::remove_empty_section(*repo, "merge", "ledgergate");
  REQUIRE_FALSE(held);
  CHECK_THAT(held.error().message, Catch::Contains("config.lock exists"));
  CHECK(test::read_file(path) == before + "[merge \"ledgergate\"]\n");
  CHECK(fs::exists(path + ".lock"));  // another writer's lock is not ours to take away
  fs::remove(path + ".lock");
  auto removed = git::remove_empty_section(*repo, "merge", "ledgergate");
  REQUIRE(removed);
  CHECK(*removed);
  CHECK(test::read_file(path) == before);
  CHECK((fs::status(path).permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write |
                                                               fs::perms::group_read));
  CHECK_FALSE(fs::exists(path + ".lock"));
  auto again = git::remove_empty_section(*repo, "merge", "ledgergate");
  REQUIRE(again);
  CHECK_FALSE(*again);
  CHECK_FALSE(fs::exists(path + ".lock"));
}
