// Criss-cross merges over a virtual base, against git's merge-ort (git
// merge-tree --write-tree, git 2.39). Each history: a root R, two commits A1
// and B1 on it, two merges of them resolved differently (X, Y) and the
// merge of X and Y, whose merge bases are A1 and B1. The merge of A1 and B1
// over R is the virtual base: the rules tested are how git resolves a
// conflict there (a content conflict keeps its markers, modify/delete keeps
// R's version, add/add keeps a two-way merge with markers).
//
// The expected tree ids were computed once with git 2.39.5 on the same
// histories (`git merge-tree --write-tree X Y`; the commits are deterministic:
// pinned signature and time) and are pinned below; the test also asks the
// installed git again. The expected virtual-base texts were read from git
// with `git -c merge.conflictStyle=diff3 merge-tree` on variants of these
// histories whose outer merge conflicts: the "||||||| merged common
// ancestors" section shows git's virtual base.
#include <catch2/catch.hpp>
#include <cstdio>
#include <memory>
#include <vector>

#include "ledgergate/git/trial_repo.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/merge/virtual_base.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

std::string hex(const git_oid& id) { return test::oid_hex(id); }
std::string hex(const git::ObjectId& id) { return id.hex(); }

void ok(int rc) { REQUIRE(rc == 0); }

// A commit of `files` (the whole tree) with the given parents; no ref moves.
git_oid commit(const std::string& dir, const test::FileMap& files, const std::vector<git_oid>& parents,
               const std::string& message) {
  git_repository* repo = nullptr;
  if (git_repository_open(&repo, dir.c_str()) < 0) {
    git_repository_init_options opts{};
    git_repository_init_options_init(&opts, GIT_REPOSITORY_INIT_OPTIONS_VERSION);
    opts.flags = GIT_REPOSITORY_INIT_MKPATH;
    opts.initial_head = "main";
    ok(git_repository_init_ext(&repo, dir.c_str(), &opts));
  }
  test::RepositoryPtr owned(repo);
  git_index* raw_index = nullptr;
  ok(git_index_new(&raw_index));
  test::IndexPtr index(raw_index);
  for (const auto& [path, content] : files) {
    git_index_entry entry{};
    entry.mode = GIT_FILEMODE_BLOB;
    entry.path = path.c_str();
    ok(git_blob_create_from_buffer(&entry.id, repo, content.data(), content.size()));
    ok(git_index_add(index.get(), &entry));
  }
  git_oid tree_id;
  ok(git_index_write_tree_to(&tree_id, index.get(), repo));
  git_tree* tree = nullptr;
  ok(git_tree_lookup(&tree, repo, &tree_id));
  test::TreePtr tree_owned(tree);
  git_signature* sig = nullptr;
  ok(git_signature_new(&sig, "Ledger Test", "test@ledgergate.invalid", 1788220800, 0));
  std::unique_ptr<git_signature, void (*)(git_signature*)> sig_owned(sig, git_signature_free);
  std::vector<test::CommitPtr> owned_parents;
  std::vector<const git_commit*> raw_parents;
  for (const git_oid& p : parents) {
    git_commit* c = nullptr;
    ok(git_commit_lookup(&c, repo, &p));
    owned_parents.emplace_back(c);
    raw_parents.push_back(c);
  }
  git_oid id;
  ok(git_commit_create(&id, repo, nullptr, sig, sig, nullptr, message.c_str(), tree, raw_parents.size(),
                       raw_parents.data()));
  return id;
}

// git's verdict: exit status and the first line (the tree id).
std::pair<int, std::string> git_merge_tree(const std::string& dir, const git_oid& ours, const git_oid& theirs) {
  const std::string cmd = "git -C '" + dir + "' merge-tree --write-tree " + hex(ours) + " " + hex(theirs) + " 2>&1";
  const test::Captured c = test::capture(cmd);
  return {c.status, c.out.substr(0, 40)};
}

struct History {
  test::FileMap root, a1, b1, x, y;
};

struct Merged {
  merge::TrialMergeReport report;
  std::string virtual_f;  // f.txt in the virtual base ("<none>" when absent)
  int git_status = -1;
  std::string git_tree;
};

Merged run(const History& h) {
  test::TempDir dir;
  const git_oid r = commit(dir.path(), h.root, {}, "R");
  const git_oid a1 = commit(dir.path(), h.a1, {r}, "A1");
  const git_oid b1 = commit(dir.path(), h.b1, {r}, "B1");
  const git_oid x = commit(dir.path(), h.x, {a1, b1}, "X");
  const git_oid y = commit(dir.path(), h.y, {b1, a1}, "Y");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  auto report = merge::trial_merge(*repo, *trial, test::id_of(x), test::id_of(y), {false, ""});
  REQUIRE(report);
  Merged out;
  out.report = *report;
  REQUIRE(out.report.merge_bases.size() == 2);
  REQUIRE(out.report.virtual_base);
  git_tree* vtree = nullptr;
  const git_oid virtual_base = test::oid_of(*out.report.virtual_base);
  REQUIRE(git_tree_lookup(&vtree, trial->repo().raw(), &virtual_base) == 0);
  test::TreePtr vtree_owned(vtree);
  const git_tree_entry* e = git_tree_entry_byname(vtree, "f.txt");
  out.virtual_f = "<none>";
  if (e) {
    git_blob* blob = nullptr;
    REQUIRE(git_blob_lookup(&blob, trial->repo().raw(), git_tree_entry_id(e)) == 0);
    out.virtual_f.assign(static_cast<const char*>(git_blob_rawcontent(blob)),
                         static_cast<std::size_t>(git_blob_rawsize(blob)));
    git_blob_free(blob);
  }
  std::tie(out.git_status, out.git_tree) = git_merge_tree(dir.path(), x, y);
  return out;
}

std::string lines(int from, int to) {
  std::string out;
  for (int i = from; i <= to; ++i) out += std::to_string(i) + "\n";
  return out;
}

// A clean merge with the tree id the installed git gives for the same history.
void check_as_git(const Merged& m) {
  CHECK(m.report.merge.conflicts.empty());
  CHECK(m.git_status == 0);
  CHECK(hex(m.report.merge.tree) == m.git_tree);
}

// That, and the tree id git 2.39 gave for the same history (pinned).
void check_clean_as_git(const Merged& m, const std::string& pinned) {
  check_as_git(m);
  CHECK(hex(m.report.merge.tree) == pinned);
}

}  // namespace

TEST_CASE("virtual base: a content conflict inside it keeps git's markers", "[merge][virtual_base]") {
  // A1 and B1 change line 1 differently: the virtual base holds the conflict
  // with 9-character markers (7 + 2 at depth 1), B1 first: git lists the
  // bases newest first (equal dates: in the order found, A1 then B1) and
  // folds them in reverse, so B1 is "Temporary merge branch 1".
  History h;
  h.root = {{"f.txt", lines(1, 12)}, {"g.txt", "g\n"}};
  h.a1 = {{"f.txt", "a\n" + lines(2, 12)}, {"g.txt", "g\n"}};
  h.b1 = {{"f.txt", "b\n" + lines(2, 12)}, {"g.txt", "g\n"}};
  h.x = {{"f.txt", "ab\n" + lines(2, 12)}, {"g.txt", "g\n"}};
  h.y = {{"f.txt", "ab\n" + lines(2, 11) + "y\n"}, {"g.txt", "g\n"}};
  const Merged m = run(h);
  CHECK(m.virtual_f == "<<<<<<<<< Temporary merge branch 1\nb\n=========\na\n>>>>>>>>> Temporary merge branch 2\n" +
                           lines(2, 12));
  check_clean_as_git(m, "09ad5e3f2da64c3b46e420a2f7ffd7f62ebb189e");
}

TEST_CASE("virtual base: modify/delete inside it keeps the merge base's version", "[merge][virtual_base]") {
  // A1 edits f.txt, B1 deletes it: git's virtual base keeps R's f.txt (a
  // merge that kept the deletion, as libgit2's recursive merge does, would
  // make the outer merge an add/add conflict). X keeps R's version, Y takes
  // A1's: over R's version that is a clean merge to A1's text.
  History h;
  h.root = {{"f.txt", lines(1, 12)}, {"g.txt", "g\n"}};
  h.a1 = {{"f.txt", "a\n" + lines(2, 12)}, {"g.txt", "g\n"}};
  h.b1 = {{"g.txt", "g\n"}};
  h.x = {{"f.txt", lines(1, 12)}, {"g.txt", "g\n"}};
  h.y = {{"f.txt", "a\n" + lines(2, 12)}, {"g.txt", "g\ny\n"}};
  const Merged m = run(h);
  CHECK(m.virtual_f == lines(1, 12));
  check_clean_as_git(m, "f921965cdede28fdd1e53b32ab4d5a2bc86df6ef");
}

TEST_CASE("virtual base: add/add inside it is a two-way merge with markers", "[merge][virtual_base]") {
  // A1 and B1 add f.txt with different last lines: the virtual base holds
  // their merge over an empty file (common lines first, then the markers).
  // Both merges resolve it to "AB"; Y also prepends a line: clean over the
  // virtual base (it would be an add/add conflict over a base without f.txt).
  History h;
  h.root = {{"g.txt", "g\n"}};
  h.a1 = {{"f.txt", "1\n2\n3\nA\n"}, {"g.txt", "g\n"}};
  h.b1 = {{"f.txt", "1\n2\n3\nB\n"}, {"g.txt", "g\n"}};
  h.x = {{"f.txt", "1\n2\n3\nAB\n"}, {"g.txt", "g\n"}};
  h.y = {{"f.txt", "0\n1\n2\n3\nAB\n"}, {"g.txt", "g\n"}};
  const Merged m = run(h);
  CHECK(m.virtual_f ==
        "1\n2\n3\n<<<<<<<<< Temporary merge branch 1\nB\n=========\nA\n>>>>>>>>> Temporary merge branch 2\n");
  check_clean_as_git(m, "8465d1d14ecb59f9b48c699d0b1b241c44672180");
}

TEST_CASE("virtual base: merge bases in git's order", "[merge][virtual_base]") {
  // Same dates everywhere: git lists the bases in the order its walk finds
  // them (A1, then B1), which `git merge-base --all X Y` shows too.
  test::TempDir dir;
  const git_oid r = commit(dir.path(), {{"f.txt", "1\n"}}, {}, "R");
  const git_oid a1 = commit(dir.path(), {{"f.txt", "a\n"}}, {r}, "A1");
  const git_oid b1 = commit(dir.path(), {{"f.txt", "b\n"}}, {r}, "B1");
  const git_oid x = commit(dir.path(), {{"f.txt", "x\n"}}, {a1, b1}, "X");
  const git_oid y = commit(dir.path(), {{"f.txt", "y\n"}}, {b1, a1}, "Y");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  auto bases = merge::merge_bases_git_order(*trial, test::id_of(x), test::id_of(y));
  REQUIRE(bases);
  REQUIRE(bases->size() == 2);
  const std::string listed = test::capture("git -C '" + dir.path() + "' merge-base --all " + hex(x) + " " + hex(y)).out;
  std::vector<std::string> git_order;
  for (std::size_t at = 0; at + 40 <= listed.size(); at += 41) git_order.push_back(listed.substr(at, 40));
  CHECK(git_order == std::vector<std::string>{hex((*bases)[0]), hex((*bases)[1])});
}

namespace {

std::string with_line(std::string text, int n, const std::string& line) {
  std::size_t at = 0;
  for (int i = 1; i < n; ++i) at = text.find('\n', at) + 1;
  return text.replace(at, text.find('\n', at) - at, line);
}

}  // namespace

TEST_CASE("virtual base: an exact rename inside it merges as git does", "[merge][virtual_base]") {
  // A1 moves f.txt to g.txt as it is, B1 edits f.txt: git pairs the two by
  // blob id (libgit2 too), so the virtual base holds g.txt with B1's edit.
  const std::string f = lines(1, 20), edited = with_line(f, 1, "b1");
  History h;
  h.root = {{"f.txt", f}, {"k", "k\n"}};
  h.a1 = {{"g.txt", f}, {"k", "k\n"}};
  h.b1 = {{"f.txt", edited}, {"k", "k\n"}};
  h.x = {{"g.txt", with_line(edited, 20, "x")}, {"k", "k\n"}};
  h.y = {{"g.txt", with_line(edited, 10, "y")}, {"k", "k\n"}};
  const Merged m = run(h);
  CHECK(m.virtual_f == "<none>");
  check_as_git(m);
}

TEST_CASE("virtual base: a similar rename inside it merges as git does", "[merge][virtual_base]") {
  // A1 moves f.txt to g.txt and edits it, B1 edits f.txt: git's similarity
  // estimate pairs them, and with no other candidate the pair is git's, so
  // B1's f.txt is merged into g.txt over R's f.txt.
  const std::string f = lines(1, 20), edited = with_line(f, 1, "b1");
  History h;
  h.root = {{"f.txt", f}, {"k", "k\n"}};
  h.a1 = {{"g.txt", with_line(f, 20, "a1")}, {"k", "k\n"}};
  h.b1 = {{"f.txt", edited}, {"k", "k\n"}};
  h.x = {{"g.txt", with_line(with_line(edited, 20, "a1"), 10, "x")}, {"k", "k\n"}};
  h.y = {{"g.txt", with_line(edited, 20, "a1")}, {"k", "y\n"}};
  const Merged m = run(h);
  CHECK(m.virtual_f == "<none>");
  check_as_git(m);
}

TEST_CASE("virtual base: a rename with several candidates inside it is refused", "[merge][virtual_base]") {
  // A1 replaces f.txt by g.txt and h.txt, each similar to it: which one git
  // pairs depends on scores the probe does not rank.
  const std::string f = lines(1, 20), edited = with_line(f, 1, "b1");
  test::TempDir dir;
  const git_oid r = commit(dir.path(), {{"f.txt", f}}, {}, "R");
  const test::FileMap a1_files = {{"g.txt", with_line(f, 20, "g")}, {"h.txt", with_line(f, 19, "h")}};
  const git_oid a1 = commit(dir.path(), a1_files, {r}, "A1");
  const git_oid b1 = commit(dir.path(), {{"f.txt", edited}}, {r}, "B1");
  const git_oid x = commit(dir.path(), a1_files, {a1, b1}, "X");
  test::FileMap y_files = a1_files;
  y_files["k"] = "k\n";
  const git_oid y = commit(dir.path(), y_files, {b1, a1}, "Y");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  auto report = merge::trial_merge(*repo, *trial, test::id_of(x), test::id_of(y), {false, ""});
  REQUIRE_FALSE(report);
  CHECK(report.error().kind == ErrorKind::invalid_input);
  CHECK_THAT(report.error().message, Catch::Contains("git would detect a rename (f.txt -> g.txt: several candidates)"));
}
