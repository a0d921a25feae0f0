// has_uncommitted_changes against `git status` over the same pathspecs: the
// answer read from the index's stat data, the ledger files hashed only when
// their stat data differs, untracked files through the ignore rules, in
// each way a working tree can differ from HEAD (and the ways it only seems
// to).
#include "ledgergate/git/status.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ledgergate/git/index_file.hpp"
#include "ledgergate/git/repository.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

int sh(const std::string& dir, const std::string& script) { return test::sh_pinned(dir, script); }

const std::vector<std::string> k_ledger = {"projects.yaml", "projects/", "tasks/"};

// What `git status` says of the ledger paths (a read-only status: no index refresh written).
bool git_says_dirty(const std::string& dir) {
  return !test::capture("git -C '" + dir +
                        "' --no-optional-locks status --porcelain --untracked-files=all -- projects.yaml projects/ tasks/")
              .out.empty();
}

bool ours(const std::string& dir) {
  auto repo = git::Repository::open(dir, false);
  REQUIRE(repo);
  auto dirty = git::has_uncommitted_changes(*repo, k_ledger);
  REQUIRE(dirty);
  return *dirty;
}

// A repository at `d` of projects.yaml, the ledgers projects/<name>.md
// ("# p") of `projects`, and `others`, committed, every file older than
// the index (none racily clean).
void commit_ledger(const std::string& d, const std::vector<std::string>& projects, const test::FileMap& others) {
  REQUIRE(sh(d, "git init -q . && git config core.autocrlf false") == 0);
  test::write_file(d + "/projects.yaml", "projects: {}\n");
  for (const std::string& name : projects) test::write_file(d + "/projects/" + name + ".md", "# p\n");
  std::string touched = "projects.yaml projects/*.md";
  for (const auto& [path, text] : others) {
    test::write_file(d + "/" + path, text);
    touched += " " + path;
  }
  REQUIRE(sh(d, "touch -d 2026-01-01T00:00:00 " + touched + " && git add . && git commit -q -m c0") == 0);
}

// The names p0, p1, ... of `n` ledgers.
std::vector<std::string> numbered(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("p" + std::to_string(i));
  return out;
}

// What a scan read ahead (git::UncommittedScan) of `dir`'s ledger paths found.
struct Scanned {
  git::Uncommitted answer;
  std::optional<std::string> memo;
  std::size_t files;
};
Scanned scan_ahead(const std::string& dir, git::ScanOptions options) {
  auto repo = git::Repository::open(dir, false);
  REQUIRE(repo);
  git::UncommittedScan ahead(*repo, k_ledger, std::move(options));
  auto found = git::has_uncommitted_changes(*repo, ahead);
  REQUIRE(found);
  return Scanned{*found, ahead.memo(), ahead.files()};
}

}  // namespace

TEST_CASE("status: uncommitted ledger changes agree with git status", "[git][status]") {
  test::TempDir dir;
  const std::string d = dir.path();
  REQUIRE(sh(d, "git init -q . && git config core.autocrlf false") == 0);
  test::write_file(d + "/projects.yaml", "projects: {}\n");
  test::write_file(d + "/projects/a.md", "# a\n");
  test::write_file(d + "/projects/b.md", "# b\n");
  test::write_file(d + "/tasks/t/one.md", "t\n");
  test::write_file(d + "/archive/old.md", "old\n");
  test::write_file(d + "/.gitignore", "*.swp\n");
  // Beside the ledger folder in the index's order, not below it.
  test::write_file(d + "/projects-a.md", "-\n");
  test::write_file(d + "/projectsx/a.md", "x\n");
  // The files are older than the index: none is racily clean.
  REQUIRE(sh(d, "touch -d 2026-01-01T00:00:00 projects.yaml projects/*.md tasks/t/one.md archive/old.md "
                "projects-a.md projectsx/a.md && "
                "git add . && git commit -q -m c0") == 0);

  const auto expect = [&](bool dirty) {
    CHECK(git_says_dirty(d) == dirty);
    CHECK(ours(d) == dirty);
  };
  SECTION("a clean tree, and changes outside the ledger paths") {
    expect(false);
    test::write_file(d + "/archive/old.md", "changed\n");
    test::write_file(d + "/archive/new.md", "new\n");
    test::write_file(d + "/projectsx.md", "beside, not below\n");
    expect(false);
  }
  SECTION("a ledger file touched, its content the same") {
    REQUIRE(sh(d, "touch projects/a.md tasks/t/one.md") == 0);
    expect(false);
  }
  SECTION("a ledger file changed to the same size in the instant the index was written") {
    // Racily clean: the same size, and the file's and the index's times made equal.
    REQUIRE(sh(d, "printf \"# c\\n\" > projects/a.md && touch -d 2026-01-01T00:00:00 projects/a.md && "
                  "touch -d 2026-01-01T00:00:00 .git/index") == 0);
    expect(true);
  }
  SECTION("a ledger file modified, deleted, or made executable") {
    test::write_file(d + "/projects/b.md", "# b, longer\n");
    expect(true);
    REQUIRE(sh(d, "git checkout -q projects/b.md && rm projects/a.md") == 0);
    expect(true);
    REQUIRE(sh(d, "git checkout -q projects/a.md && chmod +x tasks/t/one.md") == 0);
    expect(true);
  }
  SECTION("a ledger file rewritten in place to the same size, its times put back") {
    // The size and mtime git recorded, the content not: the change time
    // (which no one can set) tells it, to the nanosecond (git, built
    // without USE_NSEC, compares its seconds only, and may call it clean
    // within the second of the commit).
    REQUIRE(sh(d, "printf \"# c\\n\" > projects/a.md && touch -d 2026-01-01T00:00:00 projects/a.md") == 0);
    CHECK(ours(d));
  }
  SECTION("a change staged and then undone in the working tree") {
    test::write_file(d + "/projects.yaml", "projects: {a: 1}\n");
    REQUIRE(sh(d, "git add projects.yaml && git show HEAD:projects.yaml > projects.yaml") == 0);
    expect(true);
  }
  SECTION("a folder the cache-tree records as HEAD's, and one staged and then undone") {
    // A commit leaves every folder's cache-tree entry valid: the staged
    // comparison then reads no tree of HEAD.
    REQUIRE(sh(d, "git write-tree >/dev/null") == 0);
    expect(false);
    test::write_file(d + "/tasks/t/one.md", "t, staged\n");
    REQUIRE(sh(d, "git add tasks/t/one.md && git show HEAD:tasks/t/one.md > tasks/t/one.md") == 0);
    expect(true);
    REQUIRE(sh(d, "git reset -q && git write-tree >/dev/null") == 0);
    expect(false);
  }
  SECTION("a staged deletion, the file left in place") {
    REQUIRE(sh(d, "git rm -q --cached projects/a.md") == 0);
    expect(true);
  }
  SECTION("untracked files: new, deep, and ignored") {
    test::write_file(d + "/projects/zz.swp", "ignored\n");
    test::write_file(d + "/tasks/t/.x/y.swp", "ignored\n");
    expect(false);
    test::write_file(d + "/tasks/new/deep/n.md", "n\n");
    expect(true);
  }
  SECTION("no cache-tree: the staged comparison reads HEAD's folders") {
    // An index written afresh by `git add` records no tree of any folder.
    REQUIRE(sh(d, "rm .git/index && git add .") == 0);
    const auto index = git::read_index_stat(d + "/.git/index", k_ledger);
    REQUIRE(index.has_value());
    REQUIRE_FALSE(git::cached_tree_id(index->cache_tree, "projects").has_value());
    expect(false);
    test::write_file(d + "/projects/a.md", "# a, staged\n");
    REQUIRE(sh(d, "git add projects/a.md && git show HEAD:projects/a.md > projects/a.md") == 0);
    expect(true);
  }
  SECTION("no cache-tree: the folders' trees hashed from the index, nested, executable and symlinked") {
    test::write_file(d + "/tasks/t/deep/two.md", "two\n");
    test::write_file(d + "/tasks/t0.md", "beside the folder t/ in git's order\n");
    test::write_file(d + "/projects/run.sh", "#!/bin/sh\n");
    REQUIRE(sh(d, "chmod +x projects/run.sh && ln -s a.md projects/link && "
                  "touch -d 2026-01-01T00:00:00 tasks/t/deep/two.md tasks/t0.md projects/run.sh && "
                  "git add . && git commit -q -m c1 && rm .git/index && git add .") == 0);
    const auto index = git::read_index_stat(d + "/.git/index", k_ledger);
    REQUIRE(index.has_value());
    REQUIRE_FALSE(git::cached_tree_id(index->cache_tree, "tasks").has_value());
    expect(false);
    // A mode staged alone, the content the same.
    REQUIRE(sh(d, "git update-index --chmod=+x projects/b.md") == 0);
    expect(true);
    REQUIRE(sh(d, "rm .git/index && git add .") == 0);
    expect(false);
    // A staged change deep down, undone in the working tree.
    test::write_file(d + "/tasks/t/deep/two.md", "two, staged\n");
    REQUIRE(sh(d, "git add tasks && git show HEAD:tasks/t/deep/two.md > tasks/t/deep/two.md") == 0);
    expect(true);
    // A staged new file in a nested folder, and a staged deletion.
    REQUIRE(sh(d, "rm .git/index && git add . && echo n > tasks/t/deep/three.md && git add tasks/t/deep/three.md && "
                  "rm tasks/t/deep/three.md") == 0);
    expect(true);
    REQUIRE(sh(d, "rm .git/index && git add . && git rm -q --cached tasks/t0.md") == 0);
    expect(true);
  }
  SECTION("index version 4") {
    REQUIRE(sh(d, "git update-index --index-version 4 && git write-tree >/dev/null") == 0);
    expect(false);
    test::write_file(d + "/projects/b.md", "# b, longer\n");
    expect(true);
    REQUIRE(sh(d, "git checkout -q projects/b.md && touch -d 2026-01-01T00:00:00 projects/b.md && git add -u") == 0);
    expect(false);
    REQUIRE(sh(d, "rm tasks/t/one.md") == 0);
    expect(true);
  }
  SECTION("a split index is no answer, never a clean one") {
    // Neither this reader nor libgit2 reads git's split index: an error,
    // which `check` reports as a note that it could not tell.
    REQUIRE(sh(d, "git update-index --split-index") == 0);
    test::write_file(d + "/projects/b.md", "# b, longer\n");
    CHECK(git_says_dirty(d));
    auto repo = git::Repository::open(d, false);
    REQUIRE(repo);
    CHECK_FALSE(git::has_uncommitted_changes(*repo, k_ledger).has_value());
  }
  SECTION("a big index, read through a buffer many times its size") {
    // 4,000 entries before the ledger folders and after them (in the index
    // only: paths outside the ledger's are never looked at, by git status
    // or by this): every entry of the ledger paths is found among them.
    std::string script = "blob=$(echo x | git hash-object -w --stdin) && for i in $(seq 2000); do "
                         "printf \"100644 %s 0\\tarchive/big/file-%s.md\\000\" $blob $i; "
                         "printf \"100644 %s 0\\tzz/file-%s.md\\000\" $blob $i; done | git update-index -z --index-info && git commit -q -m big";
    REQUIRE(sh(d, script) == 0);
    REQUIRE(test::read_file(d + "/.git/index").size() > 4 * 64 * 1024);
    expect(false);
    test::write_file(d + "/zz/file-7.md", "changed outside\n");
    expect(false);
    test::write_file(d + "/projects/a.md", "# A\n");
    expect(true);
    REQUIRE(sh(d, "git checkout -q projects/a.md && touch -d 2026-01-01T00:00:00 projects/a.md && git add -u") == 0);
    expect(false);
    REQUIRE(sh(d, "chmod +x projects/b.md") == 0);
    expect(true);
    REQUIRE(sh(d, "chmod -x projects/b.md && rm projects.yaml") == 0);
    expect(true);
    REQUIRE(sh(d, "git checkout -q projects.yaml && touch -d 2026-01-01T00:00:00 projects.yaml && git add -u") == 0);
    test::write_file(d + "/projects/new.md", "new\n");
    expect(true);
  }
  SECTION("no HEAD yet: a staged ledger is a change") {
    REQUIRE(sh(d, "rm -rf .git && git init -q . && git add projects.yaml") == 0);
    expect(true);
  }
}

TEST_CASE("status: the same answer on one thread and on several, wherever the change lies", "[git][status]") {
  // 1,300 ledger files: the working files are looked at in chunks spread
  // over the threads, and a change in any chunk (the last one included,
  // and one that only the folder's listing shows) must be seen whatever
  // the thread count.
  test::TempDir dir;
  const std::string d = dir.path();
  std::vector<std::string> names;
  char name[32];
  for (int i = 0; i < 1300; ++i) {
    std::snprintf(name, sizeof name, "p%04d", i);
    names.emplace_back(name);
  }
  commit_ledger(d, names, {{"tasks/t/one.md", "t\n"}});
  const auto expect = [&](bool dirty) {
    CHECK(git_says_dirty(d) == dirty);
    auto repo = git::Repository::open(d, false);
    REQUIRE(repo);
    for (const unsigned threads : {1u, 2u, 4u}) {
      INFO("threads " << threads);
      auto answer = git::has_uncommitted_changes(*repo, k_ledger, threads);
      REQUIRE(answer);
      CHECK(*answer == dirty);
      // Read ahead on a thread of its own, as check does on a big index.
      git::UncommittedScan ahead(*repo, k_ledger, {.threads = threads, .threads_from = 0});
      auto answered_ahead = git::has_uncommitted_changes(*repo, ahead);
      REQUIRE(answered_ahead);
      CHECK(*answered_ahead == (dirty ? git::Uncommitted::changed : git::Uncommitted::none));
    }
  };
  // Back to the committed tree, every file older than the index.
  const auto reset = [&] {
    REQUIRE(sh(d, "git reset -q --hard && git clean -fdxq projects && chmod -x projects/*.md && "
                  "touch -d 2026-01-01T00:00:00 projects/*.md && git update-index -q --refresh") == 0);
    expect(false);
  };
  expect(false);
  // Unstaged: the last file, a middle one, a deleted one.
  test::write_file(d + "/projects/p1299.md", "# p, longer\n");
  expect(true);
  reset();
  test::write_file(d + "/projects/p0700.md", "# p, longer\n");
  expect(true);
  reset();
  REQUIRE(sh(d, "rm projects/p1298.md") == 0);
  expect(true);
  reset();
  // Every file touched, its content the same: each hashed, none changed.
  REQUIRE(sh(d, "touch projects/*.md") == 0);
  expect(false);
  test::write_file(d + "/projects/p1299.md", "# q\n");  // the same size
  expect(true);
  reset();
  // Racily clean: the last file changed in the instant the index was written.
  REQUIRE(sh(d, "printf \"# q\\n\" > projects/p1299.md && touch -d 2026-01-01T00:00:00 projects/p1299.md && "
                "touch -d 2026-01-01T00:00:00 .git/index") == 0);
  expect(true);
  reset();
  // An executable bit on the last file: libgit2's to judge.
  REQUIRE(sh(d, "chmod +x projects/p1299.md") == 0);
  expect(true);
  reset();
  // Staged, and then undone in the working tree.
  REQUIRE(sh(d, "echo staged > projects/p1299.md && git add projects/p1299.md && "
                "git show HEAD:projects/p1299.md > projects/p1299.md") == 0);
  expect(true);
  reset();
  // Untracked: after every indexed file, and ignored.
  test::write_file(d + "/projects/zz.md.swp", "ignored\n");
  test::write_file(d + "/.git/info/exclude", "*.swp\n");
  expect(false);
  test::write_file(d + "/projects/zz.md", "new\n");
  expect(true);
}

TEST_CASE("status: past its bound of ledger files, a scan does not look", "[git][status]") {
  // 40 ledger files: a bound of 40 looks at them (a change is found), a
  // bound of 39 does not (a change or none: not_looked), whatever the
  // index's version, with the cache-tree or without, on one thread or
  // read ahead.
  test::TempDir dir;
  const std::string d = dir.path();
  commit_ledger(d, numbered(38), {{"tasks/t/one.md", "t\n"}, {"archive/old.md", "old\n"}});
  const auto scan = [&](std::size_t max_files, std::uint64_t threads_from) {
    const Scanned s = scan_ahead(d, {.threads = 2, .threads_from = threads_from, .max_files = max_files});
    CHECK(s.files == 40);
    return s.answer;
  };
  const auto expect = [&](bool dirty) {
    CHECK(git_says_dirty(d) == dirty);
    for (const std::uint64_t threads_from : {std::uint64_t{0}, git::k_uncommitted_threads_from}) {
      CHECK(scan(40, threads_from) == (dirty ? git::Uncommitted::changed : git::Uncommitted::none));
      CHECK(scan(39, threads_from) == git::Uncommitted::not_looked);
    }
  };
  for (const char* version : {"2", "4"}) {
    CAPTURE(version);
    REQUIRE(sh(d, std::string("git update-index --index-version ") + version + " && git write-tree >/dev/null") == 0);
    expect(false);
    test::write_file(d + "/projects/p7.md", "# q\n");  // the same size
    expect(true);
    REQUIRE(sh(d, "git checkout -q projects/p7.md && touch -d 2026-01-01T00:00:00 projects/p7.md && "
                  "git update-index -q --refresh") == 0);
    expect(false);
    // An index written afresh: no cache-tree.
    REQUIRE(sh(d, std::string("rm .git/index && git add . && git update-index --index-version ") + version) == 0);
    const auto index = git::read_index_stat(d + "/.git/index", k_ledger);
    REQUIRE(index.has_value());
    REQUIRE_FALSE(git::cached_tree_id(index->cache_tree, "projects").has_value());
    expect(false);
    test::write_file(d + "/projects/new.md", "new\n");  // untracked: not in the count
    expect(true);
    REQUIRE(sh(d, "rm projects/new.md") == 0);
  }
}

TEST_CASE("status: a folder's tree hashed from the index is the one git writes", "[git][status]") {
  // Nested folders (one beside a file that sorts between it and its
  // entries), an executable, a symbolic link, a submodule's commit: the
  // ids git write-tree records, in versions 2 and 4, with the cache-tree
  // and without.
  test::TempDir dir;
  const std::string d = dir.path();
  REQUIRE(sh(d, "git init -q . && git config core.autocrlf false") == 0);
  test::write_file(d + "/projects/a.md", "a\n");
  test::write_file(d + "/projects/t/deep/b.md", "b\n");
  test::write_file(d + "/projects/t.md", "t.md sorts before t/ in git's order\n");
  test::write_file(d + "/projects/t0.md", "t0.md after it\n");
  test::write_file(d + "/projects/run.sh", "#!/bin/sh\n");
  test::write_file(d + "/tasks/x.md", "x\n");
  const std::string blob = test::git_blob(d, "x\n");
  REQUIRE(sh(d, "chmod +x projects/run.sh && ln -s a.md projects/link && git add . && "
                "git update-index --add --cacheinfo 160000," + blob + ",projects/sub") == 0);
  for (const char* version : {"2", "4"}) {
    CAPTURE(version);
    REQUIRE(sh(d, std::string("git update-index --index-version ") + version) == 0);
    const std::string tree = test::capture("git -C '" + d + "' write-tree").out;
    const std::string want = test::capture("git -C '" + d + "' rev-parse " + tree.substr(0, 40) + ":projects").out;
    for (const bool cache_tree : {true, false}) {
      if (!cache_tree) {
        REQUIRE(sh(d, "rm .git/index && git add . && git update-index --add --cacheinfo 160000," + blob +
                          ",projects/sub && git update-index --index-version " + version) == 0);
      }
      const auto index = git::read_index_stat(d + "/.git/index", k_ledger);
      REQUIRE(index.has_value());
      CHECK(git::cached_tree_id(index->cache_tree, "projects").has_value() == cache_tree);
      const auto got = git::index_folder_tree(*index, "projects/");
      REQUIRE(got.has_value());
      CHECK(got->hex() + "\n" == want);
      CHECK_FALSE(git::index_folder_tree(*index, "tasks/t/").has_value());
    }
  }
}

TEST_CASE("status: a scan's memo spares reading what did not change, and never changes an answer",
          "[git][status]") {
  // The memo of one scan handed to the next (as check keeps it in the
  // persistent cache): where the index holds the ledger's entries, and
  // the file count of a folder left alone for `settled`. Each answer is
  // git's, with the memo or without; a memo is used only while what it
  // describes is unchanged.
  test::TempDir dir;
  const std::string d = dir.path();
  commit_ledger(d, numbered(30), {{"archive/old.md", "old\n"}, {"zeta.md", "z\n"}});
  constexpr auto k_settled = std::chrono::milliseconds(40);
  const auto settle = [] { std::this_thread::sleep_for(std::chrono::milliseconds(60)); };
  const auto scan = [&](const std::string& memo, std::size_t max_files = 100) {
    return scan_ahead(d, {.threads = 2, .threads_from = 0, .max_files = max_files, .memo = memo, .settled = k_settled});
  };
  std::string memo;
  // Each answer with the memo so far and without one, against git's; the
  // memo kept as check keeps it (only when it changed).
  const auto expect = [&](bool dirty) {
    CHECK(git_says_dirty(d) == dirty);
    const git::Uncommitted want = dirty ? git::Uncommitted::changed : git::Uncommitted::none;
    CHECK(scan("").answer == want);
    const Scanned with = scan(memo);
    CHECK(with.answer == want);
    CHECK(with.files == 31);
    if (with.memo) memo = *with.memo;
  };
  settle();
  expect(false);
  REQUIRE_FALSE(memo.empty());
  CHECK(memo.find("\nindex ") != std::string::npos);
  CHECK(memo.find("\nfolder 1 ") != std::string::npos);  // projects/, settled
  // Nothing changed: the memo stands as it is.
  CHECK_FALSE(scan(memo).memo.has_value());

  // Untracked, then gone; a file edited in place (the folder's times stay);
  // a file staged (a new index file); a file deleted.
  test::write_file(d + "/projects/new.md", "new\n");
  expect(true);
  REQUIRE(sh(d, "rm projects/new.md") == 0);
  settle();
  expect(false);
  test::write_file(d + "/projects/p7.md", "# q\n");
  expect(true);
  REQUIRE(sh(d, "git add projects/p7.md") == 0);
  expect(true);
  REQUIRE(sh(d, "git reset -q --hard && touch -d 2026-01-01T00:00:00 projects/*.md && git update-index -q --refresh") ==
          0);
  settle();
  expect(false);
  REQUIRE(sh(d, "rm projects/p3.md") == 0);
  expect(true);
  REQUIRE(sh(d, "git checkout -q projects/p3.md && touch -d 2026-01-01T00:00:00 projects/p3.md && "
                "git update-index -q --refresh") == 0);
  settle();
  expect(false);

  // The memo's line starting `head` with its last field set to `value`.
  const auto with_last = [](std::string text, const std::string& head, const std::string& value) {
    const std::size_t at = text.find("\n" + head);
    REQUIRE(at != std::string::npos);
    const std::size_t end = text.find('\n', at + 1);
    const std::size_t last_space = text.rfind(' ', end);
    return text.replace(last_space + 1, end - last_space - 1, value);
  };
  SECTION("the memo is trusted while what it describes is unchanged") {
    // Shown by memos that lie, each stamp right: a folder count one short
    // of the folder's is kept as it is (the folder listed, not counted
    // anew), and a count of ledger files past the bound is taken without
    // reading the index.
    const std::string short_count = with_last(memo, "folder 1 ", "29");
    const Scanned listed = scan(short_count);
    CHECK(listed.answer == git::Uncommitted::none);
    CHECK_FALSE(listed.memo.has_value());
    const Scanned bounded = scan(with_last(memo, "index ", "50"), 40);
    CHECK(bounded.answer == git::Uncommitted::not_looked);
    CHECK(bounded.files == 50);
    // The true memo, the same bound: looked at.
    CHECK(scan(memo, 40).answer == git::Uncommitted::none);
  }
  SECTION("a memo that is not one, or not this scan's, is not used") {
    for (const std::string& other :
         {std::string("garbage"), memo.substr(0, memo.size() / 2), std::string("ledgergate-uncommitted-memo 1\n"),
          test::replaced(memo, "spec tasks/\n", "spec phases/\n"),
          test::replaced(memo, "ledgergate-uncommitted-memo 1", "ledgergate-uncommitted-memo 9")}) {
      const Scanned s = scan(other);
      CHECK(s.answer == git::Uncommitted::none);
      REQUIRE(s.memo);
      CHECK(*s.memo == memo);
    }
  }
  SECTION("an index span that is not where the memo says falls back to the whole index") {
    // The index's stamp right, its span moved by an entry's minimum size.
    const std::size_t at = memo.find("\nindex ");
    std::vector<std::string> fields;
    const std::size_t end = memo.find('\n', at + 1);
    std::string line = memo.substr(at + 1, end - at - 1);
    for (std::size_t p = 0; p != std::string::npos;) {
      const std::size_t q = line.find(' ', p);
      fields.push_back(line.substr(p, q == std::string::npos ? q : q - p));
      p = q == std::string::npos ? q : q + 1;
    }
    REQUIRE(fields.size() == 17);
    fields[11] = std::to_string(std::stoull(fields[11]) + 64);  // begin
    std::string moved;
    for (const std::string& f : fields) moved += (moved.empty() ? "" : " ") + f;
    const std::string spoiled = memo.substr(0, at + 1) + moved + memo.substr(end);
    test::write_file(d + "/projects/new.md", "new\n");
    const Scanned s = scan(spoiled);
    CHECK(s.answer == git::Uncommitted::changed);
    REQUIRE(s.memo);
    CHECK(s.memo->find(line) != std::string::npos);  // the whole read's span, kept anew
  }
}
