// The lg::git writers: the commit writer, the compare-and-swap ref update,
// trees built and updated in a trial repository's memory, the file merge.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <thread>

#include "ledgergate/git/commit.hpp"
#include "ledgergate/git/config.hpp"
#include "ledgergate/git/merge.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/git/trial_repo.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

using test::PinnedCommitter;

TEST_CASE("commit writer: tree, parents, message and the committer from the environment", "[git][write]") {
  test::TempDir dir;
  const git::ObjectId a = test::id_of(test::commit_tree(dir.path(), {{"f", "1"}}, "a"));
  const git::ObjectId b = test::id_of(test::commit_tree(dir.path(), {{"f", "2"}}, "b", nullptr, "refs/heads/b"));
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto tree = repo->commit_tree(b);
  REQUIRE(tree);
  const PinnedCommitter pinned;
  auto written = git::write_commit(*repo, *tree, {a, b}, "Merge b\n\nbody\n");
  REQUIRE(written);
  auto info = git::read_commit(*repo, *written);
  REQUIRE(info);
  CHECK(info->tree == *tree);
  CHECK(info->parents == std::vector<git::ObjectId>{a, b});
  // The signature, read back as a libgit2 client would.
  git_repository* raw_repo = nullptr;
  REQUIRE(git_repository_open(&raw_repo, dir.path().c_str()) == 0);
  const test::RepositoryPtr client(raw_repo);
  const git_oid written_oid = test::oid_of(*written);
  git_commit* raw_commit = nullptr;
  REQUIRE(git_commit_lookup(&raw_commit, client.get(), &written_oid) == 0);
  const test::CommitPtr commit(raw_commit);
  CHECK(std::string(git_commit_committer(commit.get())->name) == "Pinned");
  CHECK(std::string(git_commit_author(commit.get())->name) == "Pinned");
  CHECK(info->time == 1790000000);
  CHECK(info->summary == "Merge b");
  auto message = git::commit_message(*repo, *written);
  REQUIRE(message);
  CHECK(*message == "Merge b\n\nbody\n");
  // No ref moved.
  CHECK(git::ref_target(*repo, "refs/heads/main") == a);
  auto descends = git::is_descendant_of(*repo, *written, b);
  REQUIRE(descends);
  CHECK(*descends);
  auto peeled = git::peel_to_commit(*repo, *written);
  REQUIRE(peeled);
  CHECK(*peeled == *written);
}

TEST_CASE("ref update: moves only from the expected tip", "[git][write]") {
  test::TempDir dir;
  const git_oid first = test::commit_tree(dir.path(), {{"f", "1"}}, "one", nullptr, "refs/heads/topic");
  const git::ObjectId one = test::id_of(first);
  const git::ObjectId two = test::id_of(test::commit_tree(dir.path(), {{"f", "2"}}, "two", &first, "refs/heads/topic"));
  const git::ObjectId three =
      test::id_of(test::commit_tree(dir.path(), {{"f", "3"}}, "three", nullptr, "refs/heads/x"));
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  // topic is at `two`: an update that expects `one` is refused and writes nothing.
  auto stale = git::update_ref_if(*repo, "refs/heads/topic", three, one, "ledgergate: test");
  REQUIRE(stale);
  CHECK_FALSE(*stale);
  CHECK(git::ref_target(*repo, "refs/heads/topic") == two);
  auto moved = git::update_ref_if(*repo, "refs/heads/topic", three, two, "ledgergate: test");
  REQUIRE(moved);
  CHECK(*moved);
  CHECK(git::ref_target(*repo, "refs/heads/topic") == three);
  CHECK_FALSE(git::ref_target(*repo, "refs/heads/none"));
  auto branch = git::find_local_branch(*repo, "topic");
  REQUIRE(branch);
  CHECK(branch->ref_name == "refs/heads/topic");
  CHECK(branch->tip == three);
  CHECK_FALSE(git::find_local_branch(*repo, "none"));
  CHECK(git::is_valid_ref_name("refs/heads/ok"));
  CHECK_FALSE(git::is_valid_ref_name("refs/heads/not ok"));
  CHECK(git::is_valid_remote_name("origin"));
  CHECK_FALSE(git::is_valid_remote_name("bad name"));
  // A lock that stays (a writer that died) is a lost race, after the wait.
  const std::string lock = dir.path() + "/.git/refs/heads/topic.lock";
  test::write_file(lock, "");
  auto locked = git::update_ref_if(*repo, "refs/heads/topic", two, three, "ledgergate: test");
  REQUIRE(locked);
  CHECK_FALSE(*locked);
  CHECK(git::ref_target(*repo, "refs/heads/topic") == three);
  // One released meanwhile (a writer that finished, here 20 ms into the
  // one-second wait) is waited out: the update lands.
  std::thread holder([&lock] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::filesystem::remove(lock);
  });
  auto waited = git::update_ref_if(*repo, "refs/heads/topic", two, three, "ledgergate: test");
  holder.join();
  REQUIRE(waited);
  CHECK(*waited);
  CHECK(git::ref_target(*repo, "refs/heads/topic") == two);
}

namespace {

// `files` committed in a new repository, a trial repository over it, the
// commit's tree and a blob "new\n" written into the trial's memory.
struct TrialTree {
  test::TempDir dir;
  std::optional<git::Repository> repo;
  std::optional<git::TrialRepo> trial;
  git::ObjectId base;
  git::ObjectId blob;

  explicit TrialTree(const test::FileMap& files) {
    const git::ObjectId c = test::id_of(test::commit_tree(dir.path(), files, "c"));
    auto opened = git::Repository::open(dir.path(), false);
    REQUIRE(opened);
    repo.emplace(std::move(*opened));
    auto t = git::TrialRepo::open(*repo);
    REQUIRE(t);
    trial.emplace(std::move(*t));
    auto tree = repo->commit_tree(c);
    REQUIRE(tree);
    base = *tree;
    auto written = trial->write_blob("new\n");
    REQUIRE(written);
    blob = *written;
  }
};

}  // namespace

TEST_CASE("trees: built, updated and read back in the trial repository's memory", "[git][write]") {
  TrialTree t({{"d/a", "a"}, {"b", "b"}});
  auto& repo = t.repo;
  auto& trial = t.trial;
  const git::ObjectId* base = &t.base;
  const git::ObjectId* blob = &t.blob;
  auto updated = git::update_tree(trial->repo(), *base, {{"d/n", *blob, git::FileMode::executable}, {"b", {}, {}}});
  REQUIRE(updated);
  auto entry = git::tree_entry_at(trial->repo(), *updated, "d/n");
  REQUIRE(entry);
  REQUIRE(entry->has_value());
  CHECK((*entry)->mode == git::FileMode::executable);
  auto text = git::read_blob(trial->repo(), (*entry)->id);
  REQUIRE(text);
  CHECK(*text == "new\n");
  auto gone = git::tree_entry_at(trial->repo(), *updated, "b");
  REQUIRE(gone);
  CHECK_FALSE(gone->has_value());
  auto in_memory = git::has_object(*repo, *blob);
  REQUIRE(in_memory);
  CHECK_FALSE(*in_memory);  // the user's repository never saw it

  auto builder = git::TreeBuilder::open(trial->repo(), &*base);
  REQUIRE(builder);
  REQUIRE(builder->remove("d"));
  REQUIRE(builder->insert("z", *blob, git::FileMode::blob));
  auto built = builder->write();
  REQUIRE(built);
  auto items = git::read_tree(trial->repo(), *built);
  REQUIRE(items);
  REQUIRE(items->size() == 2);
  CHECK((*items)[0].name == "b");
  CHECK((*items)[1].name == "z");
  CHECK((*items)[1].id == *blob);
}

TEST_CASE("trees: the builder places its changes in git's tree order, as libgit2's builder does", "[git][write]") {
  // "a" a file beside "a-c" and "a.b": made a directory, it sorts as "a/",
  // after both; "ab" a directory.
  TrialTree t({{"a", "a"}, {"a.b", "ab"}, {"a-c/x", "x"}, {"ab/y", "y"}, {"b/z", "z"}, {"m", "m"}});
  auto& repo = t.repo;
  auto& trial = t.trial;
  const git::ObjectId* base = &t.base;
  const git::ObjectId* blob = &t.blob;
  auto sub = git::tree_entry_at(*repo, *base, "ab");
  REQUIRE(sub);
  REQUIRE(sub->has_value());
  const git::ObjectId dir_id = (*sub)->id;

  auto builder = git::TreeBuilder::open(trial->repo(), &*base);
  REQUIRE(builder);
  REQUIRE(builder->insert("a", dir_id, git::FileMode::tree));
  REQUIRE(builder->insert("a0", *blob, git::FileMode::executable));
  REQUIRE(builder->remove("b"));
  REQUIRE(builder->insert("m", *blob, git::FileMode::blob));
  REQUIRE(builder->insert("0", *blob, git::FileMode::blob));
  REQUIRE(builder->insert("z", *blob, git::FileMode::link));
  auto built = builder->write();
  REQUIRE(built);

  // The same changes through libgit2's own builder, in the trial's memory.
  git_odb* odb = nullptr;
  REQUIRE(git_repository_odb(&odb, trial->repo().raw()) == 0);
  git_tree* tree = nullptr;
  const git_oid base_oid = test::oid_of(*base);
  REQUIRE(git_tree_lookup(&tree, trial->repo().raw(), &base_oid) == 0);
  git_treebuilder* ref = nullptr;
  REQUIRE(git_treebuilder_new(&ref, trial->repo().raw(), tree) == 0);
  const git_oid dir_oid = test::oid_of(dir_id), blob_oid = test::oid_of(*blob);
  REQUIRE(git_treebuilder_insert(nullptr, ref, "a", &dir_oid, GIT_FILEMODE_TREE) == 0);
  REQUIRE(git_treebuilder_insert(nullptr, ref, "a0", &blob_oid, GIT_FILEMODE_BLOB_EXECUTABLE) == 0);
  REQUIRE(git_treebuilder_remove(ref, "b") == 0);
  REQUIRE(git_treebuilder_insert(nullptr, ref, "m", &blob_oid, GIT_FILEMODE_BLOB) == 0);
  REQUIRE(git_treebuilder_insert(nullptr, ref, "0", &blob_oid, GIT_FILEMODE_BLOB) == 0);
  REQUIRE(git_treebuilder_insert(nullptr, ref, "z", &blob_oid, GIT_FILEMODE_LINK) == 0);
  git_oid expected;
  REQUIRE(git_treebuilder_write(&expected, ref) == 0);
  git_treebuilder_free(ref);
  git_tree_free(tree);
  git_odb_free(odb);
  CHECK(*built == test::id_of(expected));

  auto items = git::read_tree(trial->repo(), *built);
  REQUIRE(items);
  std::vector<std::string> names;
  for (const git::TreeItemView& item : *items) names.emplace_back(item.name);
  CHECK(names == std::vector<std::string>{"0", "a-c", "a.b", "a", "a0", "ab", "m", "z"});

  // Nothing to write from nothing but the empty tree; names git fsck
  // rejects and the removal of an absent name are errors.
  auto empty = git::TreeBuilder::open(trial->repo(), nullptr);
  REQUIRE(empty);
  auto empty_id = empty->write();
  REQUIRE(empty_id);
  CHECK(*empty_id == git::k_empty_tree_id);
  auto more = git::TreeBuilder::open(trial->repo(), &*base);
  REQUIRE(more);
  CHECK_FALSE(more->remove("absent"));
  for (const char* bad : {"", ".", "..", ".git", "x/y"}) {
    INFO(bad);
    CHECK_FALSE(more->insert(bad, *blob, git::FileMode::blob));
  }
}

TEST_CASE("trial repository: releasing read memory keeps what the kept tree reaches", "[git][write]") {
  test::TempDir dir;
  const git::ObjectId c = test::id_of(test::commit_tree(dir.path(), {{"d/a", "a"}, {"e/b", "b"}}, "c"));
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  REQUIRE(repo->own_object_database());
  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  auto base = repo->commit_tree(c);
  REQUIRE(base);
  auto kept_blob = trial->write_blob("kept\n");
  auto other_blob = trial->write_blob("not reached\n");
  REQUIRE(kept_blob);
  REQUIRE(other_blob);
  auto kept = git::update_tree(trial->repo(), *base, {{"d/n", *kept_blob, git::FileMode::blob}});
  REQUIRE(kept);
  ssize_t cached = 0, allowed = 0;
  git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, ssize_t{4} << 20);  // Libgit2Session's
  auto released = trial->release_read_memory(*repo, *kept);
  REQUIRE(released);
  CHECK(*released);
  // libgit2's object cache is cut to 2 MiB for the check that follows.
  git_libgit2_opts(GIT_OPT_GET_CACHED_MEMORY, &cached, &allowed);
  CHECK(allowed == ssize_t{2} << 20);
  // The kept tree and what it reaches are read as before: the written
  // subtree and blob from memory, the unchanged subtree from disk.
  auto text = git::read_blob(trial->repo(), (*git::tree_entry_at(trial->repo(), *kept, "d/n"))->id);
  REQUIRE(text);
  CHECK(*text == "kept\n");
  auto unchanged = git::read_blob(trial->repo(), (*git::tree_entry_at(trial->repo(), *kept, "e/b"))->id);
  REQUIRE(unchanged);
  CHECK(*unchanged == "b");
  // A written object the kept tree does not reach is gone; the user's
  // handle reads its history as before and never held the written objects.
  CHECK_FALSE(git::read_blob(trial->repo(), *other_blob));
  auto again = repo->commit_tree(c);
  REQUIRE(again);
  CHECK(*again == *base);
  auto on_disk = git::has_object(*repo, *kept_blob);
  REQUIRE(on_disk);
  CHECK_FALSE(*on_disk);
  // Writing goes on to memory only.
  auto later = trial->write_blob("later\n");
  REQUIRE(later);
  auto later_text = git::read_blob(trial->repo(), *later);
  REQUIRE(later_text);
  CHECK(*later_text == "later\n");
  auto later_on_disk = git::has_object(*repo, *later);
  REQUIRE(later_on_disk);
  CHECK_FALSE(*later_on_disk);
  CHECK(test::capture("git -C '" + dir.path() + "' cat-file -e " + later->hex() + " 2>/dev/null").status != 0);
  // A smaller budget (an audit's none) is never raised.
  git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, ssize_t{0});
  REQUIRE(trial->release_read_memory(*repo, *kept));
  git_libgit2_opts(GIT_OPT_GET_CACHED_MEMORY, &cached, &allowed);
  CHECK(allowed == 0);
  git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, ssize_t{4} << 20);
  auto after_audit = git::read_blob(trial->repo(), (*git::tree_entry_at(trial->repo(), *kept, "d/n"))->id);
  REQUIRE(after_audit);
  CHECK(*after_audit == "kept\n");

  SECTION("an object database the environment named is left alone") {
    ::setenv("GIT_DIR", (dir.path() + "/.git").c_str(), 1);
    ::setenv("GIT_OBJECT_DIRECTORY", (dir.path() + "/.git/objects").c_str(), 1);
    auto hooked = git::Repository::open_from_environment();
    ::unsetenv("GIT_OBJECT_DIRECTORY");
    ::unsetenv("GIT_DIR");
    REQUIRE(hooked);
    CHECK_FALSE(hooked->own_object_database());
    auto hooked_trial = git::TrialRepo::open(*hooked);
    REQUIRE(hooked_trial);
    auto blob = hooked_trial->write_blob("x\n");
    REQUIRE(blob);
    auto none = hooked_trial->release_read_memory(*hooked, *blob);
    REQUIRE(none);
    CHECK_FALSE(*none);
    auto x = git::read_blob(hooked_trial->repo(), *blob);
    REQUIRE(x);
    CHECK(*x == "x\n");
  }
}

TEST_CASE("file merge: clean merges, and conflicts with their labels and marker size", "[git][merge]") {
  const std::string base = "1\n2\n3\n4\n5\n", ours = "0\n2\n3\n4\n5\n", theirs = "1\n2\n3\n4\n6\n";
  auto clean = git::merge_file("f", {base, 0100644}, {ours, 0100644}, {theirs, 0100644});
  REQUIRE(clean);
  CHECK(clean->clean);
  CHECK(clean->text == "0\n2\n3\n4\n6\n");
  git::MergeFileOptions labels;
  labels.our_label = "one";
  labels.their_label = "two";
  labels.marker_size = 9;
  auto conflict = git::merge_file("f", {"a\n", 0100644}, {"b\n", 0100644}, {"c\n", 0100644}, &labels);
  REQUIRE(conflict);
  CHECK_FALSE(conflict->clean);
  CHECK(conflict->text == "<<<<<<<<< one\nb\n=========\nc\n>>>>>>>>> two\n");
}

TEST_CASE("config: an unset key is nullopt", "[git][config]") {
  test::TempDir dir;
  test::commit_tree(dir.path(), {{"f", "1"}}, "c");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto config = git::Config::snapshot(*repo);
  REQUIRE(config);
  auto unset = config->get_string("ledgergate.never-set");
  REQUIRE(unset);
  CHECK_FALSE(unset->has_value());
}
