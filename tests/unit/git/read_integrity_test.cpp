// Reads that decide a verdict fail closed: an object whose bytes do not hash
// to its id, a tree entry name git fsck rejects; and the trial repository
// never touches the user's object files, not even their mtimes.
#include <git2.h>
#include <sys/stat.h>
#include <zlib.h>
#include <utime.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <tuple>
#include <filesystem>

#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/tree_diff.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/git/trial_repo.hpp"
#include "support/fixture_tree.hpp"
#include "../../../src/git/tree_memo.hpp"

using namespace lg;

namespace {

std::string loose_path(const std::string& dir, const git::ObjectId& id) {
  const std::string hex = id.hex();
  return dir + "/.git/objects/" + hex.substr(0, 2) + "/" + hex.substr(2);
}

// Replaces the loose object `id`'s file by a copy of `other`'s: a valid
// stream holding another object.
void substitute_loose(const std::string& dir, const git::ObjectId& id, const git::ObjectId& other) {
  const std::string path = loose_path(dir, id);
  std::filesystem::permissions(path, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  std::filesystem::copy_file(loose_path(dir, other), path, std::filesystem::copy_options::overwrite_existing);
}

// A tree object with the given raw entries written straight into the odb
// (libgit2's tree builder refuses these names).
git::ObjectId write_raw_tree(const std::string& dir, const std::string& bytes) {
  test::RepositoryPtr repo;
  git_repository* raw = nullptr;
  REQUIRE(git_repository_open(&raw, dir.c_str()) == 0);
  repo.reset(raw);
  git_odb* odb = nullptr;
  REQUIRE(git_repository_odb(&odb, repo.get()) == 0);
  git_oid id;
  const int rc = git_odb_write(&id, odb, bytes.data(), bytes.size(), GIT_OBJECT_TREE);
  git_odb_free(odb);
  REQUIRE(rc == 0);
  return test::id_of(id);
}

std::string raw_entry(const std::string& mode, const std::string& name, const git::ObjectId& id) {
  return mode + " " + name + std::string(1, '\0') + std::string(reinterpret_cast<const char*>(id.bytes()), 20);
}

// A repository at `dir` of one commit of `files`, its root tree and that
// tree's entries.
struct Committed {
  git::Repository repo;
  git::ObjectId root;
  git::TreeItems items;
};
Committed committed(const std::string& dir, const test::FileMap& files) {
  const git_oid c = test::commit_tree(dir, files, "c");
  auto repo = git::Repository::open(dir, false);
  REQUIRE(repo);
  auto root = repo->commit_tree(test::id_of(c));
  REQUIRE(root);
  auto items = git::read_tree(*repo, *root);
  REQUIRE(items);
  return {std::move(*repo), *root, std::move(*items)};
}

// committed() of `files`, which are "f" and files in the folder "d"; with
// the ids of "d" and "f".
struct FolderAndFile {
  git::Repository repo;
  git::ObjectId folder, file;
};
FolderAndFile folder_and_file(const std::string& dir, const test::FileMap& files) {
  Committed c = committed(dir, files);
  REQUIRE(c.items.size() == 2);
  const git::ObjectId folder = c.items[0].id, file = c.items[1].id;  // "d" sorts first
  return {std::move(c.repo), folder, file};
}

}  // namespace

TEST_CASE("read integrity: a substituted loose blob is an error naming it, not its bytes", "[git][integrity]") {
  test::TempDir dir;
  const git_oid c = test::commit_tree(dir.path(), {{"projects/a.md", "the committed text\n"}, {"b", "other\n"}}, "c");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto tree_id = repo->commit_tree(test::id_of(c));
  REQUIRE(tree_id);
  auto src = git::open_tree_source(*repo, *tree_id, "HEAD");
  REQUIRE(src);
  auto entry = (*src)->stat("projects/a.md");
  REQUIRE(entry);
  REQUIRE(entry->has_value());
  const git::ObjectId blob = *(*entry)->content_id;

  auto other = (*src)->stat("b");
  REQUIRE(other);
  REQUIRE(other->has_value());
  substitute_loose(dir.path(), blob, *(*other)->content_id);
  // A fresh handle: nothing cached from the first read.
  auto again = git::Repository::open(dir.path(), false);
  REQUIRE(again);
  auto fresh = git::open_tree_source(*again, *tree_id, "HEAD");
  REQUIRE(fresh);
  auto bytes = (*fresh)->read("projects/a.md", **entry);
  REQUIRE_FALSE(bytes);
  CHECK_THAT(bytes.error().message, Catch::Contains(blob.hex()));
  auto direct = git::read_blob(*again, blob);
  REQUIRE_FALSE(direct);
}

TEST_CASE("read integrity: a substituted loose blob in an alternate is an error naming it", "[git][integrity]") {
  // The guard inflates only the repository's own loose files: one an
  // alternate holds is read by libgit2 and hashed after.
  test::TempDir dir;
  const git_oid c = test::commit_tree(dir.path() + "/shared", {{"a.md", "the committed text\n"}, {"b", "other\n"}}, "c");
  auto shared = git::Repository::open(dir.path() + "/shared", false);
  REQUIRE(shared);
  auto items = git::read_tree(*shared, *shared->commit_tree(test::id_of(c)));
  REQUIRE(items);
  const git::ObjectId a = (*items)[0].id, b = (*items)[1].id;
  test::commit_tree(dir.path() + "/borrower", {{"own", "own\n"}}, "own");
  {
    std::ofstream alternates(dir.path() + "/borrower/.git/objects/info/alternates");
    alternates << dir.path() << "/shared/.git/objects\n";
  }
  auto borrower = git::Repository::open(dir.path() + "/borrower", false);
  REQUIRE(borrower);
  auto good = git::read_blob(*borrower, a);
  REQUIRE(good);
  CHECK(*good == "the committed text\n");

  substitute_loose(dir.path() + "/shared", a, b);
  auto fresh = git::Repository::open(dir.path() + "/borrower", false);
  REQUIRE(fresh);
  auto bad = git::read_blob(*fresh, a);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message, Catch::Contains(a.hex()) && Catch::Contains("hash mismatch"));
}

TEST_CASE("read integrity: tree entries git fsck rejects make the tree unreadable", "[git][integrity]") {
  test::TempDir dir;
  Committed c = committed(dir.path(), {{"projects/a.md", "a\n"}});
  REQUIRE(c.items.size() == 1);
  const git::ObjectId projects = c.items[0].id;

  const auto name = GENERATE(as<std::string>{}, "..", ".", ".git", ".Git", "", "a/b");
  CAPTURE(name);
  // Sorted as git would: the bad name first when it sorts before "projects".
  std::string bytes = raw_entry("40000", "projects", projects);
  const std::string bad = raw_entry("100644", name, projects);
  bytes = (name < "projects") ? bad + bytes : bytes + bad;
  const git::ObjectId tree = write_raw_tree(dir.path(), bytes);

  auto src = git::open_tree_source(c.repo, tree, "bad");
  REQUIRE_FALSE(src);
  if (!name.empty()) {  // libgit2's own tree parser refuses an empty name first
    CHECK_THAT(src.error().message, Catch::Contains("malformed entry") && Catch::Contains(tree.hex()));
    CHECK(src.error().kind == ErrorKind::invalid_input);
  }

  // The audit's raw tree walk refuses it too.
  git::TreeDiffer differ(c.repo);
  auto changes = differ.changes(&c.root, &tree);
  REQUIRE_FALSE(changes);
  CHECK_THAT(changes.error().message, Catch::Contains("malformed entry"));

  // A well-formed name beside it is fine (the test's own control).
  const git::ObjectId ok = write_raw_tree(dir.path(), raw_entry("100644", "notes.md", projects) +
                                                          raw_entry("40000", "projects", projects));
  CHECK(git::open_tree_source(c.repo, ok, "ok"));
}

TEST_CASE("trial repository: writing an object the user has touches none of their files", "[git][integrity]") {
  test::TempDir dir;
  const git_oid c = test::commit_tree(dir.path(), {{"a.md", "existing\n"}}, "c");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto tree = repo->commit_tree(test::id_of(c));
  REQUIRE(tree);
  auto items = git::read_tree(*repo, *tree);
  REQUIRE(items);
  const git::ObjectId blob = (*items)[0].id;
  const std::string path = loose_path(dir.path(), blob);
  const std::string tree_path = loose_path(dir.path(), *tree);
  // Old mtimes, so a touch cannot hide within the clock's resolution.
  struct utimbuf old{1577836800, 1577836800};
  REQUIRE(::utime(path.c_str(), &old) == 0);
  REQUIRE(::utime(tree_path.c_str(), &old) == 0);

  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  auto written = trial->write_blob("existing\n");  // the same bytes: the same id
  REQUIRE(written);
  CHECK(*written == blob);
  auto builder = git::TreeBuilder::open(trial->repo(), &*tree);
  REQUIRE(builder);
  auto rebuilt = builder->write();  // the same tree again
  REQUIRE(rebuilt);
  CHECK(*rebuilt == *tree);
  auto fresh = trial->write_blob("new in memory\n");
  REQUIRE(fresh);

  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK(st.st_mtime == old.modtime);
  REQUIRE(::stat(tree_path.c_str(), &st) == 0);
  CHECK(st.st_mtime == old.modtime);
  auto on_disk = git::has_object(*repo, *fresh);
  REQUIRE(on_disk);
  CHECK_FALSE(*on_disk);
}

namespace {

// Writes a loose object file for `id` holding "<type> <stated>\0" and then
// `body`, deflated: its bytes need not hash to `id`, nor its stated size
// match the body.
void write_loose(const std::string& dir, const git::ObjectId& id, const std::string& type, std::size_t stated,
                 const std::string& body) {
  const std::string path = loose_path(dir, id);
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  const std::string head = type + " " + std::to_string(stated) + std::string(1, '\0');
  z_stream zs{};
  REQUIRE(deflateInit(&zs, Z_BEST_SPEED) == Z_OK);
  std::string out;
  char buf[65536];
  const auto feed = [&](const std::string& in, int flush) {
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    do {
      zs.next_out = reinterpret_cast<Bytef*>(buf);
      zs.avail_out = sizeof buf;
      deflate(&zs, flush);
      out.append(buf, sizeof buf - zs.avail_out);
    } while (zs.avail_out == 0);
  };
  feed(head, Z_NO_FLUSH);
  feed(body, Z_FINISH);
  deflateEnd(&zs);
  test::write_file(path, out);
}

git::Repository open_repository(const std::string& dir) {
  auto repo = git::Repository::open(dir, false);
  REQUIRE(repo);
  return std::move(*repo);
}

// A source on a small committed tree, for reading entries by id.
struct Reader {
  test::TempDir dir;
  git_oid commit = test::commit_tree(dir.path(), {{"a.md", "a\n"}}, "c");
  git::Repository repo = open_repository(dir.path());
  std::unique_ptr<git::TreeSource> source = open_source();

  std::unique_ptr<git::TreeSource> open_source() {
    auto tree = repo.commit_tree(test::id_of(commit));
    REQUIRE(tree);
    auto src = git::open_tree_source(repo, *tree, "HEAD");
    REQUIRE(src);
    return std::move(*src);
  }
  Result<std::string> read(const git::ObjectId& id) {
    return source->read("x.md", git::Entry{"x.md", git::EntryKind::file, id});
  }
};

}  // namespace

TEST_CASE("read integrity: a loose blob stating more than the limit is refused at its header", "[git][integrity]") {
  Reader r;
  // 64 MiB of zeros under an id they do not hash to: a guard that inflated
  // the body before looking at the stated size would find the hash wrong
  // first; refusing it for its size means only the header was read.
  const git::ObjectId bomb = *git::ObjectId::from_hex("b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0");
  write_loose(r.dir.path(), bomb, "blob", std::size_t{64} << 20, std::string(std::size_t{64} << 20, '\0'));
  auto bytes = r.read(bomb);
  REQUIRE_FALSE(bytes);
  CHECK(bytes.error().kind == ErrorKind::invalid_input);
  CHECK_THAT(bytes.error().message, Catch::Contains("67108864 bytes is over the 16777216-byte limit"));
}

TEST_CASE("read integrity: a loose object whose stream holds more or less than it states is refused",
          "[git][integrity]") {
  Reader r;
  const git::ObjectId more = *git::ObjectId::from_hex("a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1");
  const git::ObjectId less = *git::ObjectId::from_hex("a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2");
  write_loose(r.dir.path(), more, "blob", 10, std::string(100000, 'm'));
  write_loose(r.dir.path(), less, "blob", 200, std::string(100, 'l'));
  auto holds_more = r.read(more);
  REQUIRE_FALSE(holds_more);
  CHECK_THAT(holds_more.error().message, Catch::Contains("declares 10 bytes, the file holds more"));
  auto holds_less = r.read(less);
  REQUIRE_FALSE(holds_less);
  CHECK_THAT(holds_less.error().message, Catch::Contains("declares 200 bytes, the file holds 100"));
  // A whole read (not through the header first) is refused the same way.
  CHECK_FALSE(git::read_blob(r.repo, more));
  CHECK_FALSE(git::read_blob(r.repo, less));
}

TEST_CASE("read integrity: confirm_objects names a missing or damaged object", "[git][integrity]") {
  test::TempDir dir;
  const git_oid c = test::commit_tree(dir.path(), {{"a.md", "the committed text\n"}, {"b", "other\n"}}, "c");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto tree = repo->commit_tree(test::id_of(c));
  REQUIRE(tree);
  auto items = git::read_tree(*repo, *tree);
  REQUIRE(items);
  const git::ObjectId a = (*items)[0].id, b = (*items)[1].id;
  const git::ObjectId present[] = {*tree, a, b};
  CHECK(git::confirm_objects(*repo, present));

  const git::ObjectId absent = *git::ObjectId::from_hex("0123456789012345678901234567890123456789");
  const git::ObjectId with_absent[] = {a, absent};
  auto missing = git::confirm_objects(*repo, with_absent);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().kind == ErrorKind::not_found);
  CHECK_THAT(missing.error().message, Catch::Contains(absent.hex()) && Catch::Contains("missing"));

  // Many ids are confirmed in id order, yet a failure names the first
  // missing one in the caller's order, as one by one.
  const git::ObjectId absent_low = *git::ObjectId::from_hex("0000000000000000000000000000000000000001");
  std::vector<git::ObjectId> many;
  for (int i = 0; i < 100; ++i) many.insert(many.end(), {b, *tree, a});
  CHECK(git::confirm_objects(*repo, many));
  many.insert(many.begin() + 150, absent);
  many.push_back(absent_low);  // first in id order, last in the caller's
  auto first_missing = git::confirm_objects(*repo, many);
  REQUIRE_FALSE(first_missing);
  CHECK_THAT(first_missing.error().message, Catch::Contains(absent.hex()));

  // a.md's file now holds b's stream: present, but not a's bytes.
  substitute_loose(dir.path(), a, b);
  auto fresh = git::Repository::open(dir.path(), false);
  REQUIRE(fresh);
  const git::ObjectId damaged[] = {a};
  auto bad = git::confirm_objects(*fresh, damaged);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message, Catch::Contains(a.hex()) && Catch::Contains("hash mismatch"));
}

TEST_CASE("trial repository: what it writes is read back from memory, not from a damaged copy on disk",
          "[git][integrity]") {
  test::TempDir dir;
  const git_oid c = test::commit_tree(dir.path(), {{"a.md", "existing\n"}}, "c");
  const git_oid other = test::commit_tree(dir.path(), {{"b.md", "other\n"}}, "d", &c);
  auto tree = open_repository(dir.path()).commit_tree(test::id_of(c));
  REQUIRE(tree);
  auto other_tree = open_repository(dir.path()).commit_tree(test::id_of(other));
  REQUIRE(other_tree);
  // The tree's loose file now holds another tree: read from disk, it is refused.
  substitute_loose(dir.path(), *tree, *other_tree);
  git::Repository repo = open_repository(dir.path());
  CHECK_FALSE(git::read_tree(repo, *tree));

  auto trial = git::TrialRepo::open(repo);
  REQUIRE(trial);
  auto written_blob = trial->write_blob("existing\n");
  REQUIRE(written_blob);
  auto builder = git::TreeBuilder::open(trial->repo(), nullptr);
  REQUIRE(builder);
  REQUIRE(builder->insert("a.md", *written_blob, git::FileMode::blob));
  auto written = builder->write();  // the same id as the damaged loose tree
  REQUIRE(written);
  CHECK(*written == *tree);
  // The merge reads what it wrote from memory, whatever lies on disk.
  auto items = git::read_tree(trial->repo(), *written);
  REQUIRE(items);
  REQUIRE(items->size() == 1);
  CHECK((*items)[0].name == "a.md");
  CHECK((*items)[0].id == *written_blob);
  // The user's object database is as it was: its copy is still refused.
  CHECK_FALSE(git::read_tree(open_repository(dir.path()), *tree));
}

// The glob walk reads each tree's raw bytes (GitTreeSource::for_each_child):
// it must give what libgit2's parsed tree lists, and a tree libgit2 or the
// name check refuses must fail as every read of it by id does.
TEST_CASE("tree source: a tree walked from its raw bytes lists what the parsed tree lists, and fails alike",
          "[git][tree_source][integrity]") {
  test::TempDir dir;
  const git_oid c = test::commit_tree(dir.path(),
                                      {{"projects/a.md", "a\n"},
                                       {"projects/b-c/x.md", "x"},
                                       {"projects/b.md", "b"},
                                       {"spec/open-requirements.ledger.yml", "[]"},
                                       {"README.md", "r"}},
                                      "c");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto root = repo->commit_tree(test::id_of(c));
  REQUIRE(root);
  auto src = git::open_tree_source(*repo, *root, "c");
  REQUIRE(src);
  using Child = std::tuple<std::string, git::EntryKind, std::string>;
  const auto walked = [&](git::TreeSource& s, const std::string& path, const git::Entry& e) {
    std::vector<Child> out;
    auto r = s.for_each_child(path, e, [&](std::string_view name, git::EntryKind kind,
                                           const std::optional<git::ObjectId>& id) {
      out.emplace_back(std::string(name), kind, id ? id->hex() : std::string());
    });
    REQUIRE(r);
    CHECK(*r);
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto listed = [&](git::TreeSource& s, const std::string& path) {
    std::vector<Child> out;
    auto r = s.list(path);
    REQUIRE(r);
    REQUIRE(r->has_value());
    for (const git::Entry& e : **r) out.emplace_back(e.name, e.kind, e.content_id ? e.content_id->hex() : "");
    std::sort(out.begin(), out.end());
    return out;
  };
  CHECK(walked(**src, "", (*src)->root_entry()) == listed(**src, ""));
  CHECK(walked(**src, "", (*src)->root_entry()).size() == 3);
  for (const std::string path : {"projects", "projects/b-c", "spec"}) {
    auto e = (*src)->stat(path);
    REQUIRE(e);
    REQUIRE(e->has_value());
    CHECK(walked(**src, path, **e) == listed(**src, path));
  }
  auto file = (*src)->stat("README.md");
  REQUIRE(file);
  auto not_dir = (*src)->for_each_child("README.md", **file, [](std::string_view, git::EntryKind,
                                                                const std::optional<git::ObjectId>&) {});
  REQUIRE(not_dir);
  CHECK_FALSE(*not_dir);

  // A subtree the reads by id refuse: a name git fsck rejects, a mode over
  // 16 bits, a truncated id. The walk fails with the error a read by id gives.
  auto projects = (*src)->stat("projects");
  REQUIRE(projects);
  const git::ObjectId some = *(*projects)->content_id;
  const std::string bad_bytes = GENERATE_COPY(raw_entry("100644", ".git", some), raw_entry("1000000", "m.md", some),
                                              raw_entry("100644", "t.md", some).substr(0, 20));
  const git::ObjectId bad = write_raw_tree(dir.path(), bad_bytes);
  const git::ObjectId outer = write_raw_tree(dir.path(), raw_entry("40000", "sub", bad));
  auto outer_src = git::open_tree_source(*repo, outer, "outer");
  REQUIRE(outer_src);
  const git::Entry sub{"sub", git::EntryKind::directory, bad};
  auto by_walk = (*outer_src)->for_each_child("sub", sub, [](std::string_view, git::EntryKind,
                                                            const std::optional<git::ObjectId>&) {
    FAIL("no child of a refused tree is reported");
  });
  REQUIRE_FALSE(by_walk);
  auto by_id = (*outer_src)->list("sub");
  REQUIRE_FALSE(by_id);
  CHECK(by_walk.error().message == by_id.error().message);
}

// Trees read raw (RawTree: the merge's listings, path look-ups, the glob
// walk) give exactly what libgit2's parser gives; a tree RawTree does not
// take (a mode git does not write, entries out of git's order, a file and a
// directory of one name) is left to libgit2, so reads agree on it too.
TEST_CASE("raw trees: read, looked up and listed as libgit2 reads them", "[git][tree_memo][integrity]") {
  test::TempDir dir;
  const git_oid c = test::commit_tree(dir.path(), {{"f", "f"}, {"d/x", "x"}}, "c");
  test::RepositoryPtr lib;
  {
    git_repository* raw = nullptr;
    REQUIRE(git_repository_open(&raw, dir.path().c_str()) == 0);
    lib.reset(raw);
  }
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto root = repo->commit_tree(test::id_of(c));
  REQUIRE(root);
  auto listed_root = git::read_tree(*repo, *root);
  REQUIRE(listed_root);
  const git::ObjectId blob = (*listed_root)[1].id, tree = (*listed_root)[0].id;  // "d" sorts first
  const auto e = [](const std::string& mode, const std::string& name, const git::ObjectId& id) {
    return raw_entry(mode, name, id);
  };
  struct Case {
    std::string bytes;
    bool taken;  // RawTree takes it
  };
  const std::vector<Case> cases = {
      {e("100644", "a", blob) + e("100644", "a-b", blob) + e("40000", "a.c", tree) + e("100755", "ab-x", blob) +
           e("100644", "ab.c", blob) + e("40000", "ab", tree) + e("120000", "l", blob) + e("160000", "m", blob),
       true},  // "ab/" after "ab-x" and "ab.c"
      {e("40000", "ab", tree) + e("100755", "ab-x", blob), false},  // byte order, not git's
      {e("100644", "a-b", blob) + e("40000", "a", tree) + e("100644", "a0", blob), true},  // "a/" after "a-b"
      {e("100664", "g", blob), false},                                                 // a mode git does not write
      {e("040000", "z", tree), false},                                                 // a zero-padded mode
      {e("100644", "b", blob) + e("100644", "a", blob), false},                        // out of order
      {e("100644", "a", blob) + e("100644", "a-b", blob) + e("40000", "a", tree), false},  // a file and a folder "a"
      {e("100644", "a", blob) + e("100644", "a", blob), false},                        // one name twice
      // The longest name libgit2 reads (its entries hold 16-bit lengths; so do RawTree's items).
      {e("100644", "a", blob) + e("100644", std::string(65535, 'n'), blob) + e("40000", "o", tree), true},
  };
  for (const Case& k : cases) {
    const git::ObjectId id = write_raw_tree(dir.path(), k.bytes);
    INFO(id.hex());
    CHECK((git::read_raw_tree(repo->raw(), id) != nullptr) == k.taken);
    // Listed: libgit2's entries, in its order, with its normalised modes.
    git_tree* parsed = nullptr;
    const git_oid oid = test::oid_of(id);
    REQUIRE(git_tree_lookup(&parsed, lib.get(), &oid) == 0);
    const test::TreePtr owned(parsed);
    auto items = git::read_tree(*repo, id);
    REQUIRE(items);
    REQUIRE(items->size() == git_tree_entrycount(parsed));
    for (std::size_t i = 0; i < items->size(); ++i) {
      const git_tree_entry* te = git_tree_entry_byindex(parsed, i);
      CHECK((*items)[i].name == git_tree_entry_name(te));
      CHECK(static_cast<unsigned>((*items)[i].mode) == static_cast<unsigned>(git_tree_entry_filemode(te)));
      CHECK((*items)[i].id == test::id_of(*git_tree_entry_id(te)));
    }
    // Looked up below an outer tree, as libgit2 looks each name up.
    const git::ObjectId outer = write_raw_tree(dir.path(), raw_entry("40000", "sub", id));
    for (const std::string name : {"a", "a-b", "a.c", "ab", "ab-x", "ab.c", "l", "m", "g", "z", "b", "a0", "zz", "a/x"}) {
      INFO(name);
      git_tree* outer_tree = nullptr;
      const git_oid outer_oid = test::oid_of(outer);
      REQUIRE(git_tree_lookup(&outer_tree, lib.get(), &outer_oid) == 0);
      const test::TreePtr outer_owned(outer_tree);
      git_tree_entry* expected = nullptr;
      const bool found = git_tree_entry_bypath(&expected, outer_tree, ("sub/" + name).c_str()) == 0;
      git_error_clear();
      auto got = git::tree_entry_at(*repo, outer, "sub/" + name);
      REQUIRE(got);
      CHECK(got->has_value() == found);
      if (found && got->has_value()) {
        CHECK(static_cast<unsigned>((*got)->mode) == static_cast<unsigned>(git_tree_entry_filemode(expected)));
        CHECK((*got)->id == test::id_of(*git_tree_entry_id(expected)));
      }
      git_tree_entry_free(expected);
    }
  }
}

// A folder entry whose mode is spelled otherwise than git writes it (zero
// padded, or with permission bits: git fsck only warns) is a folder to git
// and to libgit2: the raw tree walk lists the files in it, as libgit2's
// diff does, not one file of that name.
TEST_CASE("tree diff: a folder of a non-canonical mode is walked as a folder", "[git][tree_diff][integrity]") {
  test::TempDir dir;
  auto [repo, folder, file] = folder_and_file(dir.path(), {{"d/x.md", "x"}, {"d/y.md", "y"}, {"f", "f"}});
  const std::string just_f = raw_entry("100644", "f", file);
  const auto lines = [](const std::vector<git::DiffEntry>& diff) {
    std::vector<std::string> out;
    for (const git::DiffEntry& e : diff) out.push_back(e.status + " " + e.path);
    return out;
  };
  for (const std::string mode : {"040000", "40755", "40000"}) {
    INFO(mode);
    const git::ObjectId before = write_raw_tree(dir.path(), just_f);
    const git::ObjectId after = write_raw_tree(dir.path(), raw_entry(mode, "d", folder) + just_f);
    for (const auto& [from, to, expected] :
         {std::tuple{before, after, std::vector<std::string>{"A d/x.md", "A d/y.md"}},
          std::tuple{after, before, std::vector<std::string>{"D d/x.md", "D d/y.md"}}}) {
      git::TreeDiffer walk(repo);
      auto walked = walk.changes(&from, &to);
      REQUIRE(walked);
      CHECK(lines(*walked) == expected);
      auto by_libgit2 = git::diff_trees_with_renames(repo, &from, &to);
      REQUIRE(by_libgit2);
      CHECK(lines(*by_libgit2) == expected);
    }
    // The same folder under another spelling of its mode: nothing changed.
    const git::ObjectId canonical = write_raw_tree(dir.path(), raw_entry("40000", "d", folder) + just_f);
    git::TreeDiffer walk(repo);
    auto same = walk.changes(&canonical, &after);
    REQUIRE(same);
    CHECK(same->empty());
  }
}

// Modes spelled otherwise than git writes them are read as git reads them
// (canon_mode), wherever a tree is read: its listing, a path's look-up, a
// tree source's entries and a diff's kinds. libgit2 would take "120755" as
// an executable file and "100645" as executable; git checks out a link and
// a file that is not.
TEST_CASE("tree modes: a mode of another spelling is read as git reads it", "[git][tree_memo][integrity]") {
  test::TempDir dir;
  auto [repo, folder, blob] = folder_and_file(dir.path(), {{"d/x.md", "x"}, {"f", "f"}});
  using git::FileMode;
  using git::EntryKind;
  struct Case {
    std::string mode, name;
    FileMode read;
    EntryKind kind;
  };
  const std::vector<Case> cases = {
      {"100664", "a", FileMode::blob, EntryKind::file},     {"100744", "b", FileMode::executable, EntryKind::executable},
      {"100645", "c", FileMode::blob, EntryKind::file},     {"40755", "d", FileMode::tree, EntryKind::directory},
      {"120755", "l", FileMode::link, EntryKind::symlink},  {"170000", "s", FileMode::commit, EntryKind::submodule},
      {"100644", "z", FileMode::blob, EntryKind::file},
  };
  std::string bytes;
  for (const Case& k : cases) bytes += raw_entry(k.mode, k.name, k.mode == "40755" ? folder : blob);
  const git::ObjectId tree = write_raw_tree(dir.path(), bytes);
  const git::ObjectId outer = write_raw_tree(dir.path(), raw_entry("40000", "sub", tree));
  auto items = git::read_tree(repo, tree);
  REQUIRE(items);
  REQUIRE(items->size() == cases.size());
  auto src = git::open_tree_source(repo, outer, "odd");
  REQUIRE(src);
  auto entries = (*src)->list("sub");
  REQUIRE(entries);
  REQUIRE(entries->has_value());
  REQUIRE((*entries)->size() == cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& k = cases[i];
    INFO(k.mode);
    CHECK((*items)[i].mode == k.read);
    CHECK((**entries)[i].kind == k.kind);
    auto at = git::tree_entry_at(repo, outer, "sub/" + k.name);
    REQUIRE(at);
    REQUIRE(at->has_value());
    CHECK((*at)->mode == k.read);
  }
  // Below the folder of mode 40755, as below any folder.
  auto inside = git::tree_entry_at(repo, outer, "sub/d/x.md");
  REQUIRE(inside);
  CHECK(inside->has_value());
  // A diff from the empty tree: the folder's file, and each entry's kind.
  auto diff = git::diff_trees(repo, nullptr, &tree);
  REQUIRE(diff);
  std::vector<std::string> paths;
  for (const git::DiffEntry& e : *diff) paths.push_back(e.path + (e.new_kind == EntryKind::symlink ? "@" : ""));
  CHECK(paths == std::vector<std::string>{"a", "b", "c", "d/x.md", "l@", "s", "z"});
}
