// A tree too large for libgit2's object cache (over 2 MiB) is read once per
// repository handle, not once per path looked up below it: the reads are
// counted as opens of the tree's loose file (inotify), so the test needs no
// clock.
#include <sys/inotify.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

// Counts the opens of one file from now on.
class OpenCounter {
 public:
  explicit OpenCounter(const std::string& path) : m_fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    REQUIRE(m_fd >= 0);
    // Opens and closes alternate in the queue, so no two opens are merged
    // into one event.
    REQUIRE(::inotify_add_watch(m_fd, path.c_str(), IN_OPEN | IN_CLOSE_NOWRITE) >= 0);
  }
  ~OpenCounter() { ::close(m_fd); }
  OpenCounter(const OpenCounter&) = delete;
  OpenCounter& operator=(const OpenCounter&) = delete;

  // The opens since the last call.
  int opens() {
    alignas(inotify_event) char buf[4096];
    int n = 0;
    for (;;) {
      const ssize_t got = ::read(m_fd, buf, sizeof buf);
      if (got <= 0) return n;
      for (ssize_t at = 0; at < got;) {
        const auto* e = reinterpret_cast<const inotify_event*>(buf + at);
        if (e->mask & IN_OPEN) ++n;
        at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
      }
    }
  }

 private:
  int m_fd;
};

std::string loose_path(const std::string& dir, const git::ObjectId& id) {
  const std::string hex = id.hex();
  return dir + "/.git/objects/" + hex.substr(0, 2) + "/" + hex.substr(2);
}

// vendor/ with 20,000 files of 106-byte names: a 2.7 MB tree, over
// libgit2's cache limit for trees, in both commits; `changed` of them differ.
struct LargeTree {
  test::TempDir dir;
  git::ObjectId base, head;  // the root trees
  std::vector<std::string> changed_paths;

  explicit LargeTree(int changed) {
    test::FileMap files;
    for (int i = 0; i < 20000; ++i) {
      char name[16];
      std::snprintf(name, sizeof name, "%05d", i);
      files["vendor/" + std::string(100, 'n') + name + ".c"] = "x\n";
    }
    const git_oid c1 = test::commit_tree(dir.path(), files, "base");
    for (auto it = files.begin(); changed > 0; ++it, --changed) {
      it->second = "changed\n";
      changed_paths.push_back(it->first);
    }
    const git_oid c2 = test::commit_tree(dir.path(), files, "head", &c1);
    auto repo = git::Repository::open(dir.path(), false);
    REQUIRE(repo);
    base = *repo->commit_tree(test::id_of(c1));
    head = *repo->commit_tree(test::id_of(c2));
  }

  // The loose file of `root`'s vendor/ tree.
  std::string vendor_file(const git::Repository& repo, const git::ObjectId& root) const {
    auto items = git::read_tree(repo, root);
    REQUIRE(items);
    REQUIRE(items->size() == 1);
    return loose_path(dir.path(), (*items)[0].id);
  }
};

}  // namespace

TEST_CASE("tree memo: a diff below a tree over libgit2's cache limit reads the tree once", "[git][tree_memo]") {
  LargeTree t(64);
  auto repo = git::Repository::open(t.dir.path(), false);
  REQUIRE(repo);
  OpenCounter base_reads(t.vendor_file(*repo, t.base));
  OpenCounter head_reads(t.vendor_file(*repo, t.head));
  base_reads.opens();
  head_reads.opens();

  // Without a possible rename the tree walk answers: each side read once.
  auto walked = git::diff_trees(*repo, &t.base, &t.head);
  REQUIRE(walked);
  CHECK(walked->size() == 64);
  CHECK(base_reads.opens() <= 1);
  CHECK(head_reads.opens() <= 1);

  // libgit2's diff reads each side once, the check of each delta's path
  // once more through the memo (not once per delta).
  auto diff = git::diff_trees_with_renames(*repo, &t.base, &t.head);
  REQUIRE(diff);
  CHECK(diff->size() == 64);
  CHECK(base_reads.opens() <= 2);
  CHECK(head_reads.opens() <= 2);
  for (std::size_t i = 0; i < diff->size() && i < walked->size(); ++i) {
    CHECK((*walked)[i].status == (*diff)[i].status);
    CHECK((*walked)[i].path == (*diff)[i].path);
    CHECK((*walked)[i].new_id == (*diff)[i].new_id);
  }

  // The same handle's later look-ups below the tree read nothing again.
  for (const std::string& path : t.changed_paths) {
    auto entry = git::tree_entry_at(*repo, t.head, path);
    REQUIRE(entry);
    REQUIRE(entry->has_value());
    CHECK((*entry)->mode == git::FileMode::blob);
  }
  CHECK(head_reads.opens() == 0);
}

TEST_CASE("tree memo: a tree source's look-ups below a large tree read it once", "[git][tree_memo]") {
  LargeTree t(64);
  auto repo = git::Repository::open(t.dir.path(), false);
  REQUIRE(repo);
  OpenCounter head_reads(t.vendor_file(*repo, t.head));
  head_reads.opens();

  auto source = git::open_tree_source(*repo, t.head, "HEAD");
  REQUIRE(source);
  for (const std::string& path : t.changed_paths) {
    auto entry = (*source)->stat(path);
    REQUIRE(entry);
    REQUIRE(entry->has_value());
    CHECK((*entry)->kind == git::EntryKind::file);
    auto bytes = git::read_regular_file(**source, path);
    REQUIRE(bytes);
    CHECK(bytes->value_or("") == "changed\n");
  }
  auto absent = (*source)->stat("vendor/no-such-file");
  REQUIRE(absent);
  CHECK_FALSE(absent->has_value());
  auto under_a_file = (*source)->stat(t.changed_paths.front() + "/below");
  REQUIRE(under_a_file);
  CHECK_FALSE(under_a_file->has_value());
  CHECK(head_reads.opens() == 1);

  // A second source on the same handle (a trial merge's other sides) reads nothing again.
  auto again = git::open_tree_source(*repo, t.head, "merged");
  REQUIRE(again);
  auto listed = (*again)->list("vendor");
  REQUIRE(listed);
  REQUIRE(listed->has_value());
  CHECK((*listed)->size() == 20000);
  CHECK(head_reads.opens() == 0);
}
