// `renumber`: the references found and rewritten, the plan's refusals, and
// the compare-and-swap commit.
#include "ledgergate/merge/renumber.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>

#include "ledgergate/git/tree_source.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;
using lg::test::FileMap;

namespace {

const char* k_task =
    "# Example — the faint half\n"
    "\n"
    "Project: example\n"
    "State: accepted\n"
    "Ruling: R-20260902-01\n"
    "\n"
    "## Question\n"
    "\n"
    "Does R-20260902-01 say anything here? (prose is not a reference)\n"
    "\n"
    "## Runs\n"
    "\n"
    "- 342120_[5-9]: done — gpu — submitted 2026-08-31 — wall 3:55\n"
    "    ruled: R-20260902-01\n"
    "\n"
    "## Ruling\n"
    "\n"
    "R-20260901-02 — accept\n"
    "R-20260902-01 — rerun (supersedes R-20260901-02)\n"
    "R-20260902-011 is another token\n";

const char* k_ruling =
    "# R-20260902-03 — drop it\n"
    "\n"
    "Project: example\n"
    "Task: tasks/example/07.md\n"
    "Ruling: drop\n"
    "Supersedes: R-20260902-01\n"
    "\n"
    "## Ruling\n"
    "\n"
    "Drop. R-20260902-01 was wrong.\n";

std::vector<std::string> kinds(const std::vector<merge::RulingRef>& refs) {
  std::vector<std::string> out;
  for (const auto& r : refs) out.push_back(std::to_string(r.line) + " " + r.kind);
  return out;
}

FileMap skeleton() {
  const std::string root = test::data_dir() + "/corpus/cortex-fixtures/tasks-skeleton";
  return test::read_tree(root);
}


// The `rule 08_accepted rerun --supersedes R-20260901-02` edge, filed as `id`.
FileMap rerun_08(FileMap files, const std::string& id) {
  files["rulings/2026/09/" + id + ".md"] =
      "# " + id + " — rerun example 08_accepted\n\nProject: example\nTask: tasks/example/08_accepted.md\n"
      "Runs: 342050\nRuling: rerun\nSupersedes: R-20260901-02\nReviewed-at: 2026-09-02T10:00Z\n\n## Ruling\n\n"
      "Rerun on the new anchor.\n\n## Evidence\n\n- `/mnt/c/x`\n";
  std::string& task = files.at("tasks/example/08_accepted.md");
  lg::test::replace_once(task, "State: accepted", "State: rerun");
  lg::test::replace_once(task, "Ruling: R-20260901-02", "Ruling: " + id);
  task += id + " — rerun (supersedes R-20260901-02)\n";
  return files;
}

struct Trees {
  std::unique_ptr<git::TreeSource> branch, upstream, base;
};

std::unique_ptr<git::TreeSource> folder(const std::string& dir, const FileMap& files) {
  test::write_tree(dir, files);
  auto src = git::open_directory_source(dir);
  REQUIRE(src);
  return std::move(*src);
}

Trees sources(const std::string& dir, const FileMap& branch, const FileMap& upstream, const FileMap& base) {
  Trees t;
  t.branch = folder(dir + "/branch", branch);
  t.upstream = folder(dir + "/upstream", upstream);
  t.base = folder(dir + "/base", base);
  return t;
}

}  // namespace

TEST_CASE("renumber: the references a task file holds", "[merge][renumber]") {
  const auto refs = merge::find_ruling_refs("tasks/example/07.md", k_task, "R-20260902-01");
  CHECK(kinds(refs) == std::vector<std::string>{"5 Ruling:", "14 ruled:", "19 ## Ruling"});
  CHECK(merge::find_ruling_refs("tasks/example/07.md", k_task, "R-20260902-05").empty());
  // A phase file is read the same way.
  CHECK(kinds(merge::find_ruling_refs("phases/example/07.md", k_task, "R-20260902-01")) ==
        std::vector<std::string>{"5 Ruling:", "14 ruled:", "19 ## Ruling"});
  // Not a ledger file: nothing is a reference.
  CHECK(merge::find_ruling_refs("notes/07.md", k_task, "R-20260902-01").empty());
}

TEST_CASE("renumber: the references a ruling holds, and its own title", "[merge][renumber]") {
  CHECK(kinds(merge::find_ruling_refs("rulings/2026/09/R-20260902-03.md", k_ruling, "R-20260902-01")) ==
        std::vector<std::string>{"6 Supersedes:"});
  CHECK(kinds(merge::find_ruling_refs("rulings/2026/09/R-20260902-03.md", k_ruling, "R-20260902-03")) ==
        std::vector<std::string>{"1 title"});
  // The title names the file's own id only.
  CHECK(merge::find_ruling_refs("rulings/2026/09/R-20260902-04.md", k_ruling, "R-20260902-03").empty());
}

TEST_CASE("renumber: rewriting touches only the references, byte for byte", "[merge][renumber]") {
  const std::string id = "R-20260902-01";
  const auto refs = merge::find_ruling_refs("tasks/example/07.md", k_task, id);
  const std::string out = merge::rewrite_ruling_refs(k_task, refs, id, "R-20260902-04");
  std::string want = k_task;
  lg::test::replace_once(want, "Ruling: R-20260902-01", "Ruling: R-20260902-04");
  lg::test::replace_once(want, "ruled: R-20260902-01", "ruled: R-20260902-04");
  lg::test::replace_once(want, "R-20260902-01 — rerun", "R-20260902-04 — rerun");
  CHECK(out == want);  // the prose and the longer token are kept
  std::string crlf = "# R-20260902-03 — x\r\n\r\nProject: p\r\nSupersedes: R-20260902-01\r\n";
  const auto crlf_refs = merge::find_ruling_refs("rulings/2026/09/R-20260902-03.md", crlf, id);
  REQUIRE(crlf_refs.size() == 1);
  CHECK(merge::rewrite_ruling_refs(crlf, crlf_refs, id, "R-20260902-04") ==
        "# R-20260902-03 — x\r\n\r\nProject: p\r\nSupersedes: R-20260902-04\r\n");
}

TEST_CASE("renumber: the plan moves the ruling and rewrites the branch's references", "[merge][renumber]") {
  const FileMap main_files = skeleton();
  const FileMap branch = rerun_08(main_files, "R-20260902-01");
  FileMap upstream = main_files;  // main filed its own R-20260902-01 meanwhile
  upstream["rulings/2026/09/R-20260902-01.md"] = "# R-20260902-01 — something else\n";
  test::TempDir dir;
  Trees t = sources(dir.path(), branch, upstream, main_files);
  auto plan = merge::plan_renumber(*t.branch, *t.upstream, *t.base, {"R-20260902-01", "next", "main", "b"}, {});
  REQUIRE(plan);
  INFO(plan->refusal);
  REQUIRE_FALSE(plan->refused());
  CHECK(plan->new_id == "R-20260902-02");
  CHECK(plan->new_path == "rulings/2026/09/R-20260902-02.md");
  REQUIRE(plan->edits.size() == 3);
  CHECK(plan->edits[0].path == "rulings/2026/09/R-20260902-02.md");
  CHECK(plan->edits[0].kinds == std::vector<std::string>{"title"});
  CHECK(plan->edits[0].text->rfind("# R-20260902-02 — rerun example 08_accepted\n", 0) == 0);
  CHECK(plan->edits[1].path == "tasks/example/08_accepted.md");
  CHECK(plan->edits[1].kinds == std::vector<std::string>{"Ruling:", "## Ruling"});
  CHECK(plan->edits[1].text->find("Ruling: R-20260902-02\n") != std::string::npos);
  CHECK(plan->edits[1].text->find("R-20260902-02 — rerun (supersedes R-20260901-02)\n") != std::string::npos);
  CHECK(plan->edits[2].path == "rulings/2026/09/R-20260902-01.md");
  CHECK_FALSE(plan->edits[2].text);

  // --to an id upstream already holds is refused.
  auto taken = merge::plan_renumber(*t.branch, *t.upstream, *t.base, {"R-20260902-01", "R-20260901-05", "main", "b"}, {});
  REQUIRE(taken);
  CHECK(taken->refusal == "R-20260901-05 is already taken on b");
}

TEST_CASE("renumber: refused when the id is public or the result would not check", "[merge][renumber]") {
  const FileMap main_files = skeleton();
  const FileMap branch = rerun_08(main_files, "R-20260902-01");
  test::TempDir dir;
  Trees t = sources(dir.path(), branch, main_files, main_files);
  auto pub = merge::plan_renumber(*t.branch, *t.upstream, *t.base, {"R-20260901-02", "next", "main", "b"}, {});
  REQUIRE(pub);
  CHECK_THAT(pub->refusal, Catch::StartsWith("R-20260901-02 is already public: rulings/2026/09/R-20260901-02.md"));
  CHECK(pub->edits.empty());
  // An earlier date than the ruling it supersedes: `Supersedes: … is not earlier`.
  auto worse = merge::plan_renumber(*t.branch, *t.upstream, *t.base, {"R-20260902-01", "R-20260831-01", "main", "b"}, {});
  REQUIRE(worse);
  CHECK_THAT(worse->refusal, Catch::StartsWith("the result would not check clean: it adds"));
  REQUIRE_FALSE(worse->added_findings.empty());
  CHECK_THAT(worse->added_findings[0].message, Catch::Contains("is not earlier than R-20260831-01"));
  auto missing = merge::plan_renumber(*t.branch, *t.upstream, *t.base, {"R-20260909-01", "next", "main", "b"}, {});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == "no ruling R-20260909-01 on b");
}

TEST_CASE("renumber: one commit, the ref moved by compare-and-swap", "[merge][renumber]") {
  setenv("GIT_COMMITTER_NAME", "Ledger Test", 1);
  setenv("GIT_COMMITTER_EMAIL", "test@ledgergate.invalid", 1);
  setenv("GIT_COMMITTER_DATE", "2026-09-02T00:00:00Z", 1);
  const FileMap main_files = skeleton();
  const FileMap branch_files = rerun_08(main_files, "R-20260902-01");
  test::TempDir dir;
  const git_oid main = test::commit_tree(dir.path(), main_files, "main");
  const git_oid tip = test::commit_tree(dir.path(), branch_files, "rule", &main, "refs/heads/b");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto tree_of = [&](const git_oid& c) {
    auto id = repo->commit_tree(test::id_of(c));
    REQUIRE(id);
    auto src = git::open_tree_source(*repo, *id, "t");
    REQUIRE(src);
    return std::move(*src);
  };
  auto b = tree_of(tip), m = tree_of(main), mb = tree_of(main);
  auto plan = merge::plan_renumber(*b, *m, *mb, {"R-20260902-01", "next", "main", "b"}, {});
  REQUIRE(plan);
  REQUIRE_FALSE(plan->refused());
  auto commit = merge::commit_renumber(*repo, "refs/heads/b", test::id_of(tip), *plan);
  REQUIRE(commit);
  auto now = repo->resolve_commit("b");
  REQUIRE(now);
  CHECK(*now == *commit);
  git_commit* raw = nullptr;
  const git_oid commit_oid = test::oid_of(*commit);
  REQUIRE(git_commit_lookup(&raw, repo->raw(), &commit_oid) == 0);
  test::CommitPtr c(raw);
  CHECK(git_commit_parentcount(c.get()) == 1);
  CHECK(git_oid_equal(git_commit_parent_id(c.get(), 0), &tip));
  CHECK(std::string(git_commit_message(c.get())) == "renumber R-20260902-01 \xE2\x86\x92 R-20260902-02\n");
  auto after = tree_of(commit_oid);
  auto moved = git::read_regular_file(*after, "rulings/2026/09/R-20260902-02.md");
  REQUIRE(moved);
  CHECK(moved->has_value());
  auto gone = git::read_regular_file(*after, "rulings/2026/09/R-20260902-01.md");
  REQUIRE(gone);
  CHECK_FALSE(gone->has_value());
  // The same plan against the old tip again: the ref moved, nothing is updated.
  auto stale = merge::commit_renumber(*repo, "refs/heads/b", test::id_of(tip), *plan);
  REQUIRE_FALSE(stale);
  CHECK_THAT(stale.error().message, Catch::Contains("moved while renumbering"));
  auto still = repo->resolve_commit("b");
  REQUIRE(still);
  CHECK(*still == *commit);
}
