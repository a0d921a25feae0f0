// The index file reader against real git: what git writes (versions 2, 3
// and 4, every mode, long and odd paths, extended flags, the TREE and REUC
// extensions, unmerged stages) reads as `git ls-files --stage` lists it;
// what it declines (split and sparse indexes, risky paths, damage) is left
// to libgit2 through open_index_source.
#include "ledgergate/git/index_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

int sh(const std::string& dir, const std::string& script) { return test::sh_pinned(dir, script); }

struct Row {
  std::string mode, id, path;
  bool operator==(const Row&) const = default;
};

// `git ls-files --stage -z`'s stage-0 rows ("mode id stage\tpath\0").
std::vector<Row> git_listing(const std::string& dir) {
  const std::string out = test::capture("git -C '" + dir + "' ls-files --stage -z").out;
  std::vector<Row> rows;
  std::size_t at = 0;
  while (at < out.size()) {
    const std::size_t end = out.find('\0', at);
    const std::string rec = out.substr(at, end - at);
    at = end + 1;
    const std::size_t tab = rec.find('\t');
    if (rec.substr(tab - 1, 1) != "0") continue;
    rows.push_back(Row{rec.substr(0, 6), rec.substr(7, 40), rec.substr(tab + 1)});
  }
  return rows;
}

std::vector<Row> rows_of(const git::IndexListing& listing) {
  std::vector<Row> rows;
  for (const auto& item : listing.items) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%06o", item.mode);
    rows.push_back(Row{mode, item.id.hex(), std::string(listing.path(item))});
  }
  return rows;
}

// Feeds `git update-index -z --index-info` (records "mode id stage\tpath\0").
// One record of `git update-index -z --index-info`: a path's mode, blob
// and stage.
std::string index_record(const std::string& id, const std::string& path, int stage = 0,
                         const std::string& mode = "100644") {
  return mode + " " + id + " " + std::to_string(stage) + "\t" + path + '\0';
}

void index_info(const std::string& dir, const std::string& records) {
  test::write_file(dir + "/.info", records);
  REQUIRE(sh(dir, "git update-index -z --index-info < .info && rm .info") == 0);
}

// A repository whose index holds every mode, nested, long and odd paths.
void fill(const std::string& dir) {
  REQUIRE(sh(dir, "git init -q . && git config core.autocrlf false") == 0);
  const std::string a = test::git_blob(dir, "a\n");
  const std::string b = test::git_blob(dir, "b\n");
  std::string info;
  const auto add = [&](const std::string& mode, const std::string& id, const std::string& path) {
    info += index_record(id, path, 0, mode);
  };
  add("100644", a, "projects.yaml");
  add("100644", a, ".github/workflows/check.yml");  // read: only ".git" itself is refused
  add("100644", a, "x/.gitmodules");
  add("100644", a, "projects/a.md");
  add("100755", b, "projects/a-b/x.md");
  add("120000", b, "projects/link.md");
  add("160000", a, "vendor/sub");
  add("100644", b, "odd/sp ace\ttab\nnewline");
  add("100644", b, "odd/\xff\xfe bytes");
  add("100644", b, "odd/caf\xc3\xa9.md");
  add("100644", a, std::string(0xffe, 'l'));
  add("100644", a, "long/" + std::string(0xfff - 5, 'm'));
  add("100644", a, "long/" + std::string(5000, 'n'));
  for (int i = 0; i < 40; ++i) add("100644", a, "projects/p" + std::to_string(i) + ".md");
  index_info(dir, info);
}

}  // namespace

namespace {

// Whether every path of `listing` is followed by a NUL (IndexListing::paths:
// a name is handed to the system where it lies).
bool nul_ended(const git::IndexListing& listing) {
  for (const git::IndexListing::Item& item : listing.items) {
    const std::string_view path = listing.path(item);
    if (path.data()[path.size()] != '\0') return false;
  }
  return !listing.items.empty();
}

}  // namespace

TEST_CASE("index file: versions 2, 3 and 4 read as git lists them", "[git][index]") {
  test::TempDir dir;
  fill(dir.path());
  REQUIRE(sh(dir.path(), "git write-tree") == 0);  // a TREE extension
  for (const char* version : {"2", "3", "4"}) {
    CAPTURE(version);
    REQUIRE(sh(dir.path(), std::string("git update-index --index-version ") + version) == 0);
    if (std::string(version) == "3") {
      // Version 3 is written only with extended flags.
      REQUIRE(sh(dir.path(), "git update-index --skip-worktree projects/a.md") == 0);
      test::write_file(dir.path() + "/new.md", "n\n");
      REQUIRE(sh(dir.path(), "git add -N new.md") == 0);
    }
    const std::string bytes = test::read_file(dir.path() + "/.git/index");
    REQUIRE(bytes.substr(0, 4) == "DIRC");
    CHECK(static_cast<unsigned char>(bytes[7]) == static_cast<unsigned char>(version[0] - '0'));
    auto listing = git::parse_index_file(bytes);
    REQUIRE(listing.has_value());
    CHECK_FALSE(listing->unmerged);
    const auto expected = git_listing(dir.path());
    CHECK(expected.size() >= 51);
    CHECK(rows_of(*listing) == expected);
    CHECK(nul_ended(*listing));
    CHECK(listing->file == nullptr);
    // Parsed where the bytes lie (as read_index_file does): versions 2 and 3
    // point into them, version 4's paths are rebuilt; the same rows.
    int error = 0;
    auto kept = lg::util::FileBytes::read(dir.path() + "/.git/index", error);
    REQUIRE(kept);
    REQUIRE(kept->bytes() == bytes);
    auto in_place = git::parse_index_file(kept);
    REQUIRE(in_place.has_value());
    CHECK(rows_of(*in_place) == expected);
    CHECK(nul_ended(*in_place));
    CHECK((in_place->file != nullptr) == (std::string(version) != "4"));
    CHECK(in_place->paths.empty() == (std::string(version) != "4"));
    kept.reset();  // the listing holds the bytes it points into
    CHECK(rows_of(*in_place) == expected);
    auto read = git::read_index_file(dir.path() + "/.git/index");
    REQUIRE(read.has_value());
    CHECK(rows_of(*read) == expected);
  }
}

TEST_CASE("index file: an empty index and one after a resolved conflict (REUC)", "[git][index]") {
  test::TempDir dir;
  REQUIRE(sh(dir.path(), "git init -q . && git commit -q --allow-empty -m c0 && git read-tree --empty") == 0);
  auto empty = git::read_index_file(dir.path() + "/.git/index");
  REQUIRE(empty.has_value());
  CHECK(empty->items.empty());

  REQUIRE(sh(dir.path(),
             "echo a > f && git add f && git commit -q -m base && git checkout -q -b side && echo b > f && "
             "git commit -qam side && git checkout -q - && echo c > f && git commit -qam main && "
             "(git merge -q side || true)") == 0);
  auto conflicted = git::read_index_file(dir.path() + "/.git/index");
  REQUIRE(conflicted.has_value());
  CHECK(conflicted->unmerged);
  REQUIRE(sh(dir.path(), "echo d > f && git add f && git update-index --index-version 4") == 0);
  const std::string bytes = test::read_file(dir.path() + "/.git/index");
  CHECK(bytes.find("REUC") != std::string::npos);
  auto resolved = git::parse_index_file(bytes);
  REQUIRE(resolved.has_value());
  CHECK_FALSE(resolved->unmerged);
  CHECK(rows_of(*resolved) == git_listing(dir.path()));
}

TEST_CASE("index file: split and sparse indexes, risky paths and other versions are declined", "[git][index]") {
  test::TempDir dir;
  fill(dir.path());
  const std::string plain = test::read_file(dir.path() + "/.git/index");
  REQUIRE(git::parse_index_file(plain).has_value());

  SECTION("split index") {
    REQUIRE(sh(dir.path(), "git update-index --split-index") == 0);
    const std::string split = test::read_file(dir.path() + "/.git/index");
    CHECK(split.find("link") != std::string::npos);
    CHECK_FALSE(git::parse_index_file(split).has_value());
  }
  SECTION("sparse index") {
    test::TempDir work;
    REQUIRE(sh(work.path(),
               "git init -q . && mkdir -p in out/deep && echo 1 > in/a && echo 2 > out/b && echo 3 > out/deep/c && "
               "git add . && git commit -q -m c && git sparse-checkout init --cone --sparse-index && "
               "git sparse-checkout set in") == 0);
    const std::string sparse = test::read_file(work.path() + "/.git/index");
    CHECK(sparse.find("sdir") != std::string::npos);
    CHECK_FALSE(git::parse_index_file(sparse).has_value());
  }
  SECTION("paths libgit2 would refuse") {
    // git refuses to write most of these: each is written as a harmless path
    // of the same length, then patched in the file's bytes.
    const std::pair<std::string, std::string> cases[] = {
        {"xgit/config", ".git/config"}, {"a/xx/b", "a/../b"}, {"a/x/b", "a/./b"}, {"x/xGIT/y", "x/.GIT/y"},
        {"x/xgit./y", "x/.git./y"}, {"axb", "a\\b"}, {"ax/b", "a//b"}, {"xa/b", "/a/b"}};
    for (const auto& [harmless, risky] : cases) {
      CAPTURE(risky);
      test::TempDir one;
      REQUIRE(sh(one.path(), "git init -q .") == 0);
      index_info(one.path(), index_record(test::git_blob(one.path(), "x"), harmless));
      std::string bytes = test::read_file(one.path() + "/.git/index");
      REQUIRE(git::parse_index_file(bytes).has_value());
      const std::size_t at = bytes.find(harmless);
      REQUIRE(at != std::string::npos);
      bytes.replace(at, harmless.size(), risky);
      CHECK_FALSE(git::parse_index_file(bytes).has_value());
    }
  }
  SECTION("another version, another signature, a count the file cannot hold") {
    std::string v5 = plain;
    v5[7] = 5;
    CHECK_FALSE(git::parse_index_file(v5).has_value());
    std::string sig = plain;
    sig[0] = 'X';
    CHECK_FALSE(git::parse_index_file(sig).has_value());
    std::string count = plain;
    count[8] = '\x7f';
    CHECK_FALSE(git::parse_index_file(count).has_value());
  }
}

TEST_CASE("index file: every truncation and every flipped byte is declined or read whole", "[git][index]") {
  test::TempDir dir;
  fill(dir.path());
  REQUIRE(sh(dir.path(), "git write-tree") == 0);
  for (const char* version : {"2", "4"}) {
    CAPTURE(version);
    REQUIRE(sh(dir.path(), std::string("git update-index --index-version ") + version) == 0);
    const std::string bytes = test::read_file(dir.path() + "/.git/index");
    const auto whole = git::parse_index_file(bytes);
    REQUIRE(whole.has_value());
    const auto expected = rows_of(*whole);
    int read_whole = 0;
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      const auto cut = git::parse_index_file(std::string_view(bytes).substr(0, n));
      // Cutting the extensions may leave 20 bytes that pass for the
      // checksum: the entries then read are all of them.
      if (cut) {
        CHECK(rows_of(*cut) == expected);
        ++read_whole;
      }
    }
    CHECK(read_whole <= 2);
    int declined = 0;
    for (std::size_t at = 0; at < bytes.size(); ++at) {
      std::string flipped = bytes;
      flipped[at] = static_cast<char>(flipped[at] ^ 0x5a);
      const auto read = git::parse_index_file(flipped);
      if (!read) {
        ++declined;
        continue;
      }
      // Whatever reads is a listing: sorted, each path once.
      for (std::size_t i = 1; i < read->items.size(); ++i) {
        REQUIRE(read->path(read->items[i - 1]) < read->path(read->items[i]));
      }
    }
    CHECK(declined > 0);
  }
}

TEST_CASE("index source: GIT_INDEX_FILE is the index a hook reads; a declined index goes to libgit2",
          "[git][index][tree_source]") {
  test::TempDir dir;
  fill(dir.path());
  REQUIRE(sh(dir.path(), "git write-tree && cp .git/index .git/other-index") == 0);
  index_info(dir.path(), index_record(test::git_blob(dir.path(), "z"), "only-in-main.md"));

  // Every file's path (an index whose cache-tree is valid is read as that tree: listed by walking it).
  const auto listed = [](git::TreeSource& src) {
    std::vector<std::string> paths;
    if (src.for_each_file([&](std::string_view p, git::EntryKind) { paths.emplace_back(p); })) return paths;
    auto root = src.list("");
    REQUIRE(root);
    REQUIRE(root->has_value());
    for (const git::Entry& e : **root) {
      if (e.kind != git::EntryKind::directory) {
        paths.push_back(e.name);
        continue;
      }
      auto below = git::list_recursive(src, e.name);
      REQUIRE(below);
      for (const auto& [path, entry] : *below) {
        if (entry.kind != git::EntryKind::directory) paths.push_back(path);
      }
    }
    return paths;
  };
  {
    auto repo = git::Repository::open(dir.path(), false);
    REQUIRE(repo);
    auto src = git::open_index_source(*repo);
    REQUIRE(src);
    CHECK(listed(**src).size() == git_listing(dir.path()).size());
    auto entry = (*src)->stat("only-in-main.md");
    REQUIRE(entry);
    CHECK(entry->has_value());
    auto projects = (*src)->list("projects");
    REQUIRE(projects);
    REQUIRE(projects->has_value());
    CHECK((*projects)->size() == 43);  // a-b/, a.md, link.md, p0..p39
    CHECK((**projects)[0].name == "a-b");
    CHECK((**projects)[0].kind == git::EntryKind::directory);
  }
  {
    const std::string other = dir.path() + "/.git/other-index";
    ::setenv("GIT_DIR", (dir.path() + "/.git").c_str(), 1);
    ::setenv("GIT_INDEX_FILE", other.c_str(), 1);
    auto repo = git::Repository::open_from_environment();
    ::unsetenv("GIT_DIR");
    REQUIRE(repo);
    CHECK(std::getenv("GIT_INDEX_FILE") != nullptr);  // restored after the open
    ::unsetenv("GIT_INDEX_FILE");
    CHECK(repo->index_file() == other);
    auto src = git::open_index_source(*repo);
    REQUIRE(src);
    auto entry = (*src)->stat("only-in-main.md");
    REQUIRE(entry);
    CHECK_FALSE(entry->has_value());
    CHECK(listed(**src).size() == git_listing(dir.path()).size() - 1);
  }
  {
    // A split index is declined and left to libgit2 1.5, which cannot read
    // it: its error stands (exit 2), never a listing of part of the index.
    REQUIRE(sh(dir.path(), "git update-index --split-index") == 0);
    auto repo = git::Repository::open(dir.path(), false);
    REQUIRE(repo);
    auto src = git::open_index_source(*repo);
    REQUIRE_FALSE(src);
    CHECK_THAT(src.error().message, Catch::Contains("link"));
  }
}

TEST_CASE("index file: read_index_stat keeps the named paths with the stat data git recorded", "[git][index]") {
  test::TempDir dir;
  REQUIRE(sh(dir.path(), "git init -q .") == 0);
  test::write_file(dir.path() + "/projects.yaml", "p\n");
  test::write_file(dir.path() + "/projects/a.md", "a\n");
  test::write_file(dir.path() + "/projects/deep/b.md", "bb\n");
  test::write_file(dir.path() + "/projectsx.md", "x\n");
  test::write_file(dir.path() + "/archive/c.md", "c\n");
  REQUIRE(sh(dir.path(), "git add . && git update-index --skip-worktree projects/deep/b.md") == 0);
  const std::vector<std::string> only = {"projects.yaml", "projects/"};
  const auto listing = git::read_index_stat(dir.path() + "/.git/index", only);
  REQUIRE(listing.has_value());
  REQUIRE(listing->stats.size() == listing->items.size());
  std::vector<std::string> paths;
  for (const auto& item : listing->items) paths.emplace_back(listing->path(item));
  CHECK(paths == std::vector<std::string>{"projects.yaml", "projects/a.md", "projects/deep/b.md"});
  // Each entry's stat data as `git ls-files --debug` prints it.
  for (std::size_t i = 0; i < paths.size(); ++i) {
    CAPTURE(paths[i]);
    const git::IndexStat& s = listing->stats[i];
    const std::string expected = test::capture("git -C '" + dir.path() + "' ls-files --debug -- '" + paths[i] + "'").out;
    const std::string got = paths[i] + "\n  ctime: " + std::to_string(s.ctime_s) + ":" + std::to_string(s.ctime_ns) +
                            "\n  mtime: " + std::to_string(s.mtime_s) + ":" + std::to_string(s.mtime_ns) +
                            "\n  dev: " + std::to_string(s.dev) + "\tino: " + std::to_string(s.ino) +
                            "\n  uid: " + std::to_string(s.uid) + "\tgid: " + std::to_string(s.gid) +
                            "\n  size: " + std::to_string(s.size);
    CHECK(expected.substr(0, got.size()) == got);
    CHECK(s.flagged == (paths[i] == "projects/deep/b.md"));
  }
  CHECK(git::path_in(only, "projects/x/y.md"));
  CHECK_FALSE(git::path_in(only, "projectsx.md"));
  CHECK_FALSE(git::path_in(only, "projects"));
}

TEST_CASE("index file: read_index_stat of a big index keeps exactly the named entries, in versions 2, 3 and 4",
          "[git][index]") {
  // An index of some 300 KB, read through a 64 KiB buffer: entries of every
  // length straddle its refills; beside the named paths, others with their
  // first byte (projectsx/, p.md), long paths, and extended flags.
  test::TempDir dir;
  const std::string d = dir.path();
  REQUIRE(sh(d, "git init -q .") == 0);
  const std::string a = test::git_blob(d, "a\n");
  std::string info;
  const auto add = [&](const std::string& path) { info += index_record(a, path); };
  for (int i = 0; i < 1500; ++i) {
    const std::string n = std::to_string(i);
    add("archive/" + n + "/" + std::string(static_cast<std::size_t>(i % 97), 'x') + ".md");
    add("projects/" + std::string(static_cast<std::size_t>(i % 53), 'p') + n + ".md");
    if (i % 7 == 0) add("projectsx/" + n + ".md");
    if (i % 11 == 0) add("zeta/" + n + "/" + std::string(static_cast<std::size_t>(i % 400), 'z'));
  }
  add("p.md");
  add("projects.yaml");
  add("projects.yamlx");
  add("archive/long/" + std::string(5000, 'l'));        // a path over git's 12-bit length
  add("projects/long/" + std::string(0xfff + 20, 'm'));  // named, and over it too
  index_info(d, info);
  REQUIRE(sh(d, "git write-tree >/dev/null") == 0);
  const std::vector<std::string> only = {"projects.yaml", "projects/", "tasks/"};
  for (const char* version : {"2", "3", "4"}) {
    CAPTURE(version);
    REQUIRE(sh(d, std::string("git update-index --index-version ") + version) == 0);
    if (std::string(version) == "3") {
      // Extended flags on entries named and not.
      REQUIRE(sh(d, "git update-index --skip-worktree archive/3/xxx.md projectsx/7.md 'projects/ppp3.md' && "
                    "git write-tree >/dev/null") == 0);
    }
    const std::string bytes = test::read_file(d + "/.git/index");
    REQUIRE(bytes.size() > 4 * 64 * 1024);
    CHECK(static_cast<unsigned char>(bytes[7]) == static_cast<unsigned char>(version[0] - '0'));
    std::vector<Row> expected;
    for (const Row& row : git_listing(d)) {
      if (git::path_in(only, row.path)) expected.push_back(row);
    }
    REQUIRE(expected.size() == 1502);
    const auto listing = git::read_index_stat(d + "/.git/index", only);
    REQUIRE(listing.has_value());
    CHECK(rows_of(*listing) == expected);
    CHECK(nul_ended(*listing));
    CHECK(listing->stats.size() == expected.size());
    CHECK_FALSE(listing->cache_tree.empty());
    CHECK(git::cached_tree_id(listing->cache_tree, "projects").has_value());
    for (std::size_t i = 0; i < listing->items.size(); ++i) {
      CHECK(listing->stats[i].flagged ==
            (std::string(version) != "2" && listing->path(listing->items[i]) == "projects/ppp3.md"));
    }
    // Read again from the span of what it kept (versions 2 and 3): the same
    // entries, stat data and cache-tree, the archive/ entries before it
    // and the projectsx/ and zeta/ ones after it unread.
    git::IndexSpan span;
    struct stat opened {};
    const auto spanned = git::read_index_stat(d + "/.git/index", only, span, opened);
    REQUIRE(spanned);
    CHECK(rows_of(*spanned) == expected);
    if (std::string(version) == "4") {
      CHECK(span.version == 0);
    } else {
      CHECK(span.version == static_cast<std::uint32_t>(version[0] - '0'));
      CHECK(span.count == git_listing(d).size());
      CHECK(span.begin > 300 * 1000 / 3);
      CHECK(span.end < span.extensions);
      CHECK(span.last - span.first >= expected.size());
      const auto same = [&opened](const struct stat& st) {
        return st.st_ino == opened.st_ino && st.st_size == opened.st_size;
      };
      const auto again = git::read_index_stat_span(d + "/.git/index", only, span, same);
      REQUIRE(again);
      CHECK(rows_of(*again) == expected);
      CHECK(again->cache_tree == listing->cache_tree);
      REQUIRE(again->stats.size() == listing->stats.size());
      for (std::size_t i = 0; i < again->stats.size(); ++i) {
        const git::IndexStat& x = again->stats[i];
        const git::IndexStat& y = listing->stats[i];
        CHECK(std::tie(x.ctime_s, x.ctime_ns, x.mtime_s, x.mtime_ns, x.dev, x.ino, x.size, x.flagged) ==
              std::tie(y.ctime_s, y.ctime_ns, y.mtime_s, y.mtime_ns, y.dev, y.ino, y.size, y.flagged));
      }
      // Declined, for the whole read to answer: a file `same` does not
      // accept, a span a byte or an entry off, another checksum.
      CHECK_FALSE(git::read_index_stat_span(d + "/.git/index", only, span, [](const struct stat&) { return false; }));
      git::IndexSpan off = span;
      off.begin += 8;
      CHECK_FALSE(git::read_index_stat_span(d + "/.git/index", only, off, same));
      off = span;
      off.last -= 1;
      CHECK_FALSE(git::read_index_stat_span(d + "/.git/index", only, off, same));
      off = span;
      off.checksum = git::ObjectId{};
      CHECK_FALSE(git::read_index_stat_span(d + "/.git/index", only, off, same));
      off = span;
      off.count += 1;
      CHECK_FALSE(git::read_index_stat_span(d + "/.git/index", only, off, same));
    }
    // Cut anywhere, the file is declined, or read whole (20 bytes of a cut
    // extension passing for the checksum).
    for (std::size_t n = 0; n < bytes.size(); n += 4093) {
      test::write_file(d + "/cut", bytes.substr(0, n));
      const auto cut = git::read_index_stat(d + "/cut", only);
      if (cut) CHECK(rows_of(*cut) == expected);
    }
  }
}

TEST_CASE("index file: cached_tree_id reads the tree ids git's cache-tree records", "[git][index]") {
  test::TempDir dir;
  REQUIRE(sh(dir.path(), "git init -q .") == 0);
  test::write_file(dir.path() + "/projects/a.md", "a\n");
  test::write_file(dir.path() + "/projects/deep/b.md", "b\n");
  test::write_file(dir.path() + "/tasks/t.md", "t\n");
  test::write_file(dir.path() + "/top.md", "top\n");
  // Folders before projects/ in the cache-tree (shorter names first), each
  // stepped over with every folder below it.
  for (const char* f : {"archive/x/y/z.md", "archive/x/w.md", "archive/x/y2/v/u.md", "archive/q/r.md", "ab/c.md",
                        "zz/a/b/c/d.md"}) {
    test::write_file(dir.path() + "/" + f, f);
  }
  REQUIRE(sh(dir.path(), "git add . && git commit -q -m c0") == 0);
  const std::vector<std::string> only = {"projects/"};
  const auto rev = [&](const std::string& spec) {
    return test::capture("git -C '" + dir.path() + "' rev-parse " + spec).out.substr(0, 40);
  };
  auto listing = git::read_index_stat(dir.path() + "/.git/index", only);
  REQUIRE(listing.has_value());
  REQUIRE_FALSE(listing->cache_tree.empty());
  const auto id = [&](std::string_view d) {
    const auto found = git::cached_tree_id(listing->cache_tree, d);
    return found ? found->hex() : std::string("none");
  };
  CHECK(id("") == rev("HEAD^{tree}"));
  CHECK(id("projects") == rev("HEAD:projects"));
  CHECK(id("projects/deep") == rev("HEAD:projects/deep"));
  CHECK(id("tasks") == rev("HEAD:tasks"));
  CHECK(id("nothing") == "none");
  CHECK(id("projects/nothing") == "none");
  for (const char* f : {"archive", "archive/x", "archive/x/y", "archive/x/y2", "archive/x/y2/v", "archive/q", "ab", "zz",
                        "zz/a/b/c"}) {
    CAPTURE(f);
    CHECK(id(f) == rev(std::string("HEAD:") + f));
  }
  CHECK(id("archive/x/nothing") == "none");
  // Staging below a folder invalidates its entry and its parents', not its siblings'.
  test::write_file(dir.path() + "/projects/deep/b.md", "changed\n");
  REQUIRE(sh(dir.path(), "git add projects/deep/b.md") == 0);
  listing = git::read_index_stat(dir.path() + "/.git/index", only);
  REQUIRE(listing.has_value());
  CHECK(id("") == "none");
  CHECK(id("projects") == "none");
  CHECK(id("projects/deep") == "none");
  CHECK(id("tasks") == rev("HEAD:tasks"));
  // Malformed bytes are no answer.
  CHECK_FALSE(git::cached_tree_id("", "").has_value());
  CHECK_FALSE(git::cached_tree_id(std::string("\0-1 x\n", 6), "").has_value());
  CHECK_FALSE(git::cached_tree_id(std::string("\0" "1 0\n", 5), "").has_value());  // no id after a valid count
}

TEST_CASE("index file: read_index_tree reads the cache-tree's root, in versions 2, 3 and 4", "[git][index]") {
  test::TempDir dir;
  const std::string d = dir.path();
  fill(d);
  const std::string index = d + "/.git/index";
  // No cache-tree yet (entries fed one by one), then git's.
  auto scan = git::read_index_tree(index);
  REQUIRE(scan);
  CHECK_FALSE(scan->root.has_value());
  CHECK_FALSE(scan->unmerged);
  const std::string tree = test::capture("git -C '" + d + "' write-tree").out.substr(0, 40);
  REQUIRE(sh(d, "git update-index --skip-worktree projects/a.md") == 0);  // extended flags: version 3
  for (const char* version : {"2", "3", "4", "3"}) {
    CAPTURE(version);
    if (std::string(version) == "2") {
      REQUIRE(sh(d, "git update-index --no-skip-worktree projects/a.md") == 0);
    } else {
      REQUIRE(sh(d, "git update-index --skip-worktree projects/a.md") == 0);
    }
    REQUIRE(sh(d, std::string("git update-index --index-version ") + version + " && git write-tree") == 0);
    scan = git::read_index_tree(index);
    REQUIRE(scan);
    REQUIRE(scan->root.has_value());
    CHECK(scan->root->hex() == tree);
    CHECK_FALSE(scan->unmerged);
  }
  // Staging invalidates the root; an unmerged entry is seen however far down.
  index_info(d, index_record(test::git_blob(d, "y"), "zz/last.md"));
  scan = git::read_index_tree(index);
  REQUIRE(scan);
  CHECK_FALSE(scan->root.has_value());
  const std::string blob = test::git_blob(d, "u");
  index_info(d, index_record(blob, "zz/last.md", 2) + index_record(blob, "zz/last.md", 3));
  scan = git::read_index_tree(index);
  REQUIRE(scan);
  CHECK(scan->unmerged);
}

TEST_CASE("index file: read_index_tree declines what it cannot read whole", "[git][index]") {
  test::TempDir dir;
  const std::string d = dir.path();
  fill(d);
  REQUIRE(sh(d, "git write-tree >/dev/null && git update-index --index-version 2") == 0);
  const std::string index = d + "/.git/index";
  const std::string bytes = test::read_file(index);
  const auto whole = git::read_index_tree(index);
  REQUIRE(whole);
  REQUIRE(whole->root.has_value());
  // Every truncation: declined, or read as an index whose extensions end
  // early (no root, or the same root).
  const std::string cut = d + "/cut-index";
  test::write_file(cut, bytes);
  for (std::size_t size = bytes.size(); size-- > 0;) {
    REQUIRE(::truncate(cut.c_str(), static_cast<off_t>(size)) == 0);
    const auto scan = git::read_index_tree(cut);
    if (scan && scan->root) {
      CAPTURE(size);
      CHECK(scan->root == whole->root);
    }
  }
  CHECK_FALSE(git::read_index_tree(d + "/no-such-index"));
  // A split index ("link") is declined.
  REQUIRE(sh(d, "git update-index --split-index") == 0);
  CHECK_FALSE(git::read_index_tree(index));
}

TEST_CASE("index file: read_index_tree finds a big index's cache-tree from its end, in versions 2, 3 and 4",
          "[git][index]") {
  // Some 10,000 folders: an index over 4 MiB, read from its end, whose
  // cache-tree (some 300 KB) starts before the first 256 KiB window. Paths
  // and a folder named "TREE", and extensions after it (the untracked
  // cache, the end-of-entries marker), do not mislead it; a staged path
  // (the root invalid) and unmerged entries are read from the entries.
  test::TempDir dir;
  const std::string d = dir.path();
  REQUIRE(sh(d, "git init -q . && git config core.autocrlf false") == 0);
  const std::string a = test::git_blob(d, "a\n");
  std::string info;
  const auto add = [&](const std::string& path) { info += index_record(a, path); };
  for (int i = 0; i < 10000; ++i) add("d/" + std::to_string(i) + "/TREE" + std::string(static_cast<std::size_t>(360 + i % 61), 't'));
  add("TREE/TREE");
  add("zz/TREE");
  index_info(d, info);
  const std::string index = d + "/.git/index";
  const std::string tree = test::capture("git -C '" + d + "' write-tree").out.substr(0, 40);
  for (const char* version : {"2", "3", "4"}) {
    CAPTURE(version);
    REQUIRE(sh(d, std::string("git update-index --index-version ") + version + " && git write-tree >/dev/null") == 0);
    if (std::string(version) == "3") REQUIRE(sh(d, "git update-index --skip-worktree zz/TREE") == 0);
    if (std::string(version) != "2") REQUIRE(sh(d, "git write-tree >/dev/null") == 0);
    const std::string bytes = test::read_file(index);
    REQUIRE(bytes.size() > (std::size_t{4} << 20));
    // The extension's header, before its root entry (10,002 entries).
    const std::size_t root_at = bytes.rfind(std::string(1, '\0') + "10002 ");
    REQUIRE(root_at != std::string::npos);
    REQUIRE(bytes.substr(root_at - 8, 4) == "TREE");
    REQUIRE(bytes.size() - root_at > (std::size_t{256} << 10));
    auto scan = git::read_index_tree(index);
    REQUIRE(scan);
    REQUIRE(scan->root.has_value());
    CHECK(scan->root->hex() == tree);
    CHECK_FALSE(scan->unmerged);
    // Cut short, the file is declined or read as one with the same root.
    for (std::size_t n = bytes.size(); n > bytes.size() - 4096; n -= 97) {
      test::write_file(d + "/cut", bytes.substr(0, n));
      const auto cut = git::read_index_tree(d + "/cut");
      if (cut && cut->root) CHECK(cut->root == scan->root);
    }
  }
  // The entries are not read: bytes spoiled in their midst, which a read
  // of them declines, leave the root found at the end (git, which checks
  // the file's checksum, would refuse the file before any hook ran).
  {
    std::string bytes = test::read_file(index);
    bytes.replace(bytes.size() / 3, 1000, std::string(1000, '\x01'));  // over two entries: no mode is git's
    test::write_file(d + "/spoiled", bytes);
    CHECK_FALSE(git::read_index_stat(d + "/spoiled", std::vector<std::string>{"d/"}));
    const auto spoiled = git::read_index_tree(d + "/spoiled");
    REQUIRE(spoiled);
    REQUIRE(spoiled->root.has_value());
    CHECK(spoiled->root->hex() == tree);
  }
  // Extensions after the cache-tree.
  REQUIRE(sh(d, "git update-index --untracked-cache && git -c index.recordEndOfIndexEntries=true status >/dev/null && "
                "git -c index.recordEndOfIndexEntries=true update-index --index-version 2") == 0);
  {
    const std::string bytes = test::read_file(index);
    REQUIRE(bytes.find("UNTR") != std::string::npos);
    REQUIRE(bytes.find("EOIE") != std::string::npos);
    const auto scan = git::read_index_tree(index);
    REQUIRE(scan);
    REQUIRE(scan->root.has_value());
    CHECK(scan->root->hex() == tree);
  }
  // Staging invalidates the root; unmerged entries are seen.
  index_info(d, index_record(test::git_blob(d, "y"), "zz/last.md"));
  auto scan = git::read_index_tree(index);
  REQUIRE(scan);
  CHECK_FALSE(scan->root.has_value());
  CHECK_FALSE(scan->unmerged);
  const std::string blob = test::git_blob(d, "u");
  index_info(d, index_record(blob, "zz/last.md", 2) + index_record(blob, "zz/last.md", 3));
  scan = git::read_index_tree(index);
  REQUIRE(scan);
  CHECK_FALSE(scan->root.has_value());
  CHECK(scan->unmerged);
  // A split index ("link", written before the cache-tree, whose root
  // counts the shared index's entries too, not the header's) is declined.
  REQUIRE(sh(d, "git rm -q --cached zz/last.md && git write-tree >/dev/null && git update-index --split-index && "
                "git write-tree >/dev/null") == 0);
  REQUIRE(test::read_file(index).find("link") != std::string::npos);
  CHECK_FALSE(git::read_index_tree(index));
}

TEST_CASE("index source: a valid cache-tree root is read as that tree; without its object, every entry", "[git][index][tree_source]") {
  test::TempDir dir;
  const std::string d = dir.path();
  test::write_file(d + "/projects/a.md", "a\n");
  test::write_file(d + "/projects/b.md", "b\n");
  test::write_file(d + "/top.md", "top\n");
  REQUIRE(sh(d, "git init -q . && git add . && git commit -q -m c0") == 0);
  test::write_file(d + "/projects/c.md", "c\n");
  REQUIRE(sh(d, "git add projects/c.md && git rm -q --cached top.md") == 0);
  const auto children = [](git::TreeSource& src, std::string_view dir_name) {
    std::vector<std::string> names;
    auto listed = src.list(dir_name);
    REQUIRE(listed);
    REQUIRE(listed->has_value());
    for (const git::Entry& e : **listed) names.push_back(e.name);
    return names;
  };
  auto repo = git::Repository::open(d, false);
  REQUIRE(repo);
  // Invalid root: every entry read (no id for the root).
  auto src = git::open_index_source(*repo);
  REQUIRE(src);
  CHECK_FALSE((*src)->root_entry().content_id.has_value());
  CHECK(children(**src, "") == std::vector<std::string>{"projects"});
  CHECK(children(**src, "projects") == std::vector<std::string>{"a.md", "b.md", "c.md"});
  // `git write-tree` validates it: the tree it names is read.
  const std::string tree = test::capture("git -C '" + d + "' write-tree").out.substr(0, 40);
  src = git::open_index_source(*repo);
  REQUIRE(src);
  REQUIRE((*src)->root_entry().content_id.has_value());
  CHECK((*src)->root_entry().content_id->hex() == tree);
  CHECK((*src)->rev() == ":index");
  CHECK(children(**src, "") == std::vector<std::string>{"projects"});
  CHECK(children(**src, "projects") == std::vector<std::string>{"a.md", "b.md", "c.md"});
  // The root's tree gone from the object database: every entry again, the same listing.
  REQUIRE(sh(d, "rm .git/objects/" + tree.substr(0, 2) + "/" + tree.substr(2)) == 0);
  auto repo2 = git::Repository::open(d, false);
  REQUIRE(repo2);
  src = git::open_index_source(*repo2);
  REQUIRE(src);
  CHECK_FALSE((*src)->root_entry().content_id.has_value());
  CHECK(children(**src, "projects") == std::vector<std::string>{"a.md", "b.md", "c.md"});
}

// A big index is read where it lies, and its pages go back behind each
// pass over it: the parse, and the index source's walk of every path. What
// is then looked up is read again from the page cache, the same bytes.
TEST_CASE("index file: the passes over a big mapped index give its pages back behind them", "[git][index]") {
  test::TempDir dir;
  const std::string d = dir.path();
  REQUIRE(sh(d, "git init -q .") == 0);
  const std::string a = test::git_blob(d, "a\n");
  std::string info;
  for (int i = 0; i < 12000; ++i) {
    info += index_record(a, "archive/" + std::to_string(i) + "/" + std::string(static_cast<std::size_t>(100 + i % 60), 'x') + ".md");
  }
  for (int i = 0; i < 50; ++i) info += index_record(a, "projects/p" + std::to_string(i) + ".md");
  index_info(d, info);  // no `git write-tree`: the root's cache-tree entry stays invalid
  const std::string path = d + "/.git/index";
  const std::size_t size = test::read_file(path).size();
  REQUIRE(size > 8 * util::PagesBehind::k_step);
  const std::vector<Row> expected = git_listing(d);
  {
    const auto listing = git::read_index_file(path);
    REQUIRE(listing.has_value());
    REQUIRE(listing->file);
    REQUIRE(listing->file->mapped());
    CHECK(test::resident_kb(path) == 0);
    CHECK(rows_of(*listing) == expected);  // every path read again
    CHECK(nul_ended(*listing));
  }
  auto repo = git::Repository::open(d, false);
  REQUIRE(repo);
  auto src = git::open_index_source(*repo);
  REQUIRE(src);
  REQUIRE_FALSE((*src)->root_entry().content_id.has_value());
  std::vector<std::string> seen;
  (*src)->for_each_file([&seen](std::string_view p, git::EntryKind) { seen.emplace_back(p); });
  CHECK(test::resident_kb(path) == 0);
  std::vector<std::string> want;
  for (const Row& row : expected) want.push_back(row.path);
  CHECK(seen == want);
  auto projects = (*src)->list("projects");
  REQUIRE(projects);
  REQUIRE(projects->has_value());
  CHECK((*projects)->size() == 50);
}
