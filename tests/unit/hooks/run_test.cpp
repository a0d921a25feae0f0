#include "ledgergate/hooks/run.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "ledgergate/git/index_file.hpp"
#include "ledgergate/hooks/install.hpp"
#include "ledgergate/report/commands.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

const std::string k_zero(40, '0');

test::FileMap example_ledger() {
  return test::read_tree(std::string(LEDGERGATE_SOURCE_DIR) + "/fixtures/ledgers/example");
}

test::FileMap with_drift(test::FileMap files) {
  std::string& text = files.at("projects/example.md");
  text.replace(text.find("Issue: example#7"), 16, "Issue: nonsense");
  return files;
}

git_oid oid(const std::string& hex) {
  git_oid id;
  REQUIRE(git_oid_fromstr(&id, hex.c_str()) == 0);
  return id;
}

// Sets the repository's index to `tree`'s entries and writes it.
void stage_tree(const git::Repository& repo, const git_oid& commit) {
  auto tree_id = repo.commit_tree(test::id_of(commit));
  REQUIRE(tree_id);
  git_tree* tree = nullptr;
  const git_oid tree_oid = test::oid_of(*tree_id);
  REQUIRE(git_tree_lookup(&tree, repo.raw(), &tree_oid) == 0);
  git_index* index = nullptr;
  REQUIRE(git_repository_index(&index, repo.raw()) == 0);
  CHECK(git_index_read_tree(index, tree) == 0);
  CHECK(git_index_write(index) == 0);
  git_index_free(index);
  git_tree_free(tree);
}

// The notes are values; report/ words them.
bool has_note(const hooks::Judgement& j, std::string_view text) {
  return report::render_judgement("hook", j).find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("hooks: pre-push, pre-receive and update inputs are parsed strictly", "[hooks]") {
  const std::string a(40, 'a'), b(40, 'b');
  auto pushed = hooks::parse_pre_push("refs/heads/x " + a + " refs/heads/x " + k_zero + "\n(delete) " + k_zero +
                                      " refs/heads/y " + b + "\n\n");
  REQUIRE(pushed);
  REQUIRE(pushed->size() == 2);
  CHECK((*pushed)[0].local_ref == "refs/heads/x");
  CHECK((*pushed)[0].local.hex() == a);
  CHECK((*pushed)[1].remote_ref == "refs/heads/y");
  CHECK((*pushed)[1].remote.hex() == b);
  CHECK_FALSE(hooks::parse_pre_push("refs/heads/x " + a + " refs/heads/x\n"));
  CHECK_FALSE(hooks::parse_pre_push("refs/heads/x abc refs/heads/x " + a + "\n"));
  auto received = hooks::parse_pre_receive(a + " " + b + " refs/heads/main\n");
  REQUIRE(received);
  REQUIRE(received->size() == 1);
  CHECK((*received)[0].ref == "refs/heads/main");
  CHECK((*received)[0].new_id.hex() == b);
  CHECK_FALSE(hooks::parse_pre_receive(a + " refs/heads/main\n"));
  auto update = hooks::parse_update_args("refs/heads/main", k_zero, a);
  REQUIRE(update);
  CHECK(update->old_id.hex() == k_zero);
  CHECK_FALSE(hooks::parse_update_args("refs/heads/main", "zz", a));
}

TEST_CASE("hooks: pre-commit judges the index, not HEAD", "[hooks]") {
  test::TempDir dir;
  const git_oid clean = test::commit_tree(dir.path(), example_ledger(), "clean");
  const git_oid drift = test::commit_tree(dir.path(), with_drift(example_ledger()), "drift", nullptr, "refs/heads/drift");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  stage_tree(*repo, clean);
  auto pass = hooks::judge_index(*repo);
  REQUIRE(pass);
  CHECK(pass->verdict == hooks::Verdict::pass);
  stage_tree(*repo, drift);  // HEAD (main) stays clean
  auto fail = hooks::judge_index(*repo);
  REQUIRE(fail);
  CHECK(fail->verdict == hooks::Verdict::fail);
  REQUIRE_FALSE(fail->findings.empty());
  CHECK(fail->findings[0].rule == "ledger-issue-grammar");
  CHECK(fail->findings[0].location.rev == ":index");
}

// `git commit` brings the index's cache-tree up to date before the hook
// runs, and the hook then reads the tree it names; a `git add` leaves it
// invalid up to the root, and the hook reads every entry. Both give one
// judgement, for each kind of staged change.
TEST_CASE("hooks: pre-commit judges alike whether git's cache-tree names the staged tree or not", "[hooks]") {
  test::TempDir dir;
  const std::string d = dir.path();
  for (const auto& [path, text] : example_ledger()) test::write_file(d + "/" + path, text);
  REQUIRE(test::sh_pinned(d, "git init -q . && git add . && git commit -q -m base") == 0);
  auto repo = git::Repository::open(d, false);
  REQUIRE(repo);
  const auto root = [&] {
    const auto scan = git::read_index_tree(d + "/.git/index");
    REQUIRE(scan);
    CHECK_FALSE(scan->unmerged);
    return scan->root;
  };
  const auto judged = [&] {
    auto j = hooks::judge_index(*repo);
    REQUIRE(j);
    return std::make_pair(j->verdict, report::render_judgement("hook", *j));
  };
  struct Case {
    std::string name, stage;
    hooks::Verdict verdict;
    bool tree_after_write = true;  // `git write-tree` validates the root again
  };
  const std::vector<Case> cases = {
      {"a staged edit adding an error",
       "sed -i \"s/Issue: example#7/Issue: nonsense/\" projects/example.md && git add projects/example.md",
       hooks::Verdict::fail},
      {"a staged log line",
       "sed -i \"s/^## Log\\$/## Log\\n\\n- 2026-09-03 — note — staged/\" projects/single.md && git add -A",
       hooks::Verdict::pass},
      {"a staged deletion", "git rm -q projects/single.md", hooks::Verdict::fail},  // projects.yaml still lists it
      {"a staged rename", "git mv projects/single.md projects/renamed.md", hooks::Verdict::fail},
      {"an intent-to-add ledger", "printf \"# new\\n\" > projects/new.md && git add -N projects/new.md",
       hooks::Verdict::fail, false},  // an empty ledger; git keeps the root invalid
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    REQUIRE(test::sh_pinned(d, "git reset -q --hard && git clean -fdq && " + c.stage) == 0);
    CHECK_FALSE(root().has_value());  // staging invalidated it
    const auto every_entry = judged();
    REQUIRE(test::sh_pinned(d, "git write-tree >/dev/null") == 0);
    CHECK(root().has_value() == c.tree_after_write);
    const auto from_tree = judged();
    CHECK(from_tree.second == every_entry.second);
    CHECK(from_tree.first == every_entry.first);
    CHECK(from_tree.first == c.verdict);
  }
  // An unmerged path: no verdict either way.
  REQUIRE(test::sh_pinned(d, "git reset -q --hard && blob=$(git rev-parse HEAD:projects/single.md) && "
                             "printf \"100644 %s 1\\tprojects/single.md\\n100644 %s 2\\tprojects/single.md\\n\" "
                             "$blob $blob | git update-index --index-info") == 0);
  const auto scan = git::read_index_tree(d + "/.git/index");
  REQUIRE(scan);
  CHECK(scan->unmerged);
  auto unmerged = hooks::judge_index(*repo);
  REQUIRE_FALSE(unmerged);
  CHECK_THAT(unmerged.error().message, Catch::Contains("unmerged"));
}

TEST_CASE("hooks: the server guards main's check and its frozen paths", "[hooks]") {
  test::TempDir dir;
  test::FileMap files = example_ledger();
  files["archive/old.md"] = "frozen\n";
  const git_oid base = test::commit_tree(dir.path(), files, "base");
  test::FileMap ledger_edit = files;
  ledger_edit["notes.md"] = "a note\n";
  const git_oid good = test::commit_tree(dir.path(), ledger_edit, "good", &base, "refs/heads/good");
  test::FileMap archive_edit = files;
  archive_edit["archive/old.md"] = "rewritten\n";
  const git_oid frozen = test::commit_tree(dir.path(), archive_edit, "frozen", &base, "refs/heads/frozen");
  const git_oid drift = test::commit_tree(dir.path(), with_drift(files), "drift", &base, "refs/heads/drift");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto judge = [&](const std::string& ref, const git_oid& old_id, const git_oid& new_id) {
    auto j = hooks::judge_receive(*repo, hooks::RefUpdate{test::id_of(old_id), test::id_of(new_id), ref});
    REQUIRE(j);
    return *j;
  };
  const git_oid zero = oid(k_zero);
  CHECK(judge("refs/heads/main", base, good).verdict == hooks::Verdict::pass);
  CHECK(judge("refs/heads/main", zero, base).verdict == hooks::Verdict::pass);  // main is born
  const hooks::Judgement f = judge("refs/heads/main", base, frozen);
  CHECK(f.verdict == hooks::Verdict::fail);
  CHECK(has_note(f, "frozen path changed: archive/old.md (M)"));
  const hooks::Judgement d = judge("refs/heads/main", base, drift);
  CHECK(d.verdict == hooks::Verdict::fail);
  REQUIRE_FALSE(d.findings.empty());
  CHECK(d.findings[0].rule == "ledger-issue-grammar");
  CHECK(judge("refs/heads/topic", base, drift).verdict == hooks::Verdict::pass);  // only main is guarded
  CHECK(judge("refs/heads/main", base, zero).verdict == hooks::Verdict::pass);   // a deletion
}

TEST_CASE("hooks: pre-push passes deletions, contained refs and refs with no target", "[hooks]") {
  test::TempDir dir;
  const git_oid base = test::commit_tree(dir.path(), example_ledger(), "base");
  test::FileMap later = example_ledger();
  later["notes.md"] = "a note\n";
  const git_oid next = test::commit_tree(dir.path(), later, "next", &base, "refs/heads/next");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  const git_oid zero = oid(k_zero);
  auto judge = [&](const git_oid& local, const git_oid& remote) {
    auto j = hooks::judge_push(*repo, *trial, "origin",
                               {"refs/heads/x", test::id_of(local), "refs/heads/main", test::id_of(remote)});
    REQUIRE(j);
    return *j;
  };
  const hooks::Judgement untracked = judge(next, zero);
  CHECK(untracked.verdict == hooks::Verdict::pass);
  CHECK(has_note(untracked, "no refs/remotes/origin/main"));
  git_reference* ref = nullptr;
  REQUIRE(git_reference_create(&ref, repo->raw(), "refs/remotes/origin/main", &next, 0, nullptr) == 0);
  git_reference_free(ref);
  const hooks::Judgement contained = judge(base, zero);
  CHECK(contained.verdict == hooks::Verdict::pass);
  CHECK(has_note(contained, "already in refs/remotes/origin/main"));
  CHECK(judge(zero, base).verdict == hooks::Verdict::pass);
}

TEST_CASE("hooks: pre-push gates only the protected branches; elsewhere it checks the pushed tree", "[hooks]") {
  test::TempDir dir;
  const git_oid base = test::commit_tree(dir.path(), example_ledger(), "base");
  test::FileMap code_files = example_ledger();
  code_files["build.sh"] = "echo build\n";
  const git_oid code = test::commit_tree(dir.path(), code_files, "code", &base, "refs/heads/code");
  const git_oid drift = test::commit_tree(dir.path(), with_drift(example_ledger()), "drift", &base, "refs/heads/drift");
  test::FileMap guarded = example_ledger();
  guarded[".ledgergate.yaml"] = "protected: [release]\n";
  const git_oid release_base = test::commit_tree(dir.path(), guarded, "policy", &base, "refs/heads/policy");
  test::FileMap guarded_code = guarded;
  guarded_code["build.sh"] = "echo build\n";
  const git_oid release_code =
      test::commit_tree(dir.path(), guarded_code, "code on release", &release_base, "refs/heads/release-code");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  auto set_ref = [&](const char* name, const git_oid& target) {
    git_reference* ref = nullptr;
    REQUIRE(git_reference_create(&ref, repo->raw(), name, &target, 1, nullptr) == 0);
    git_reference_free(ref);
  };
  set_ref("refs/remotes/origin/main", base);
  const git_oid zero = oid(k_zero);
  auto judge = [&](const git_oid& local, const std::string& remote_ref) {
    auto j = hooks::judge_push(*repo, *trial, "origin",
                               {"refs/heads/x", test::id_of(local), remote_ref, test::id_of(zero)});
    REQUIRE(j);
    return *j;
  };
  // The default: main only. Code pushed to a feature branch goes; to main it is refused.
  const hooks::Judgement feature = judge(code, "refs/heads/feature");
  CHECK(feature.verdict == hooks::Verdict::pass);
  CHECK(has_note(feature, "refs/heads/feature is not a protected branch (protected: main)"));
  const hooks::Judgement to_main = judge(code, "refs/heads/main");
  CHECK(to_main.verdict == hooks::Verdict::fail);
  CHECK(has_note(to_main, "merged into refs/remotes/origin/main"));
  CHECK(judge(code, "refs/tags/v1").verdict == hooks::Verdict::pass);
  // Off the protected branches the pushed tree must still pass check.
  const hooks::Judgement drifted = judge(drift, "refs/heads/feature");
  CHECK(drifted.verdict == hooks::Verdict::fail);
  CHECK(has_note(drifted, "the pushed tree fails check"));
  REQUIRE_FALSE(drifted.findings.empty());
  CHECK(drifted.findings[0].rule == "ledger-issue-grammar");
  // `protected:` is read from the remote's main: here it names release, not main.
  set_ref("refs/remotes/origin/main", release_base);
  set_ref("refs/remotes/origin/release", release_base);
  CHECK(judge(release_code, "refs/heads/main").verdict == hooks::Verdict::pass);
  const hooks::Judgement release = judge(release_code, "refs/heads/release");
  CHECK(release.verdict == hooks::Verdict::fail);
  CHECK(has_note(release, "merged into refs/remotes/origin/release"));
}

TEST_CASE("hooks: the original hook runs with the arguments and input git gave", "[hooks]") {
  test::TempDir tmp;
  const std::string dir = tmp.path() + "/";
  auto none = hooks::run_original(dir, "pre-push", {}, nullptr);
  REQUIRE(none);
  CHECK(*none == -1);
  const std::string orig = hooks::original_path(dir, "pre-push");
  test::write_file(orig, "#!/bin/sh\nread line\n[ \"$1 $2 $line\" = \"origin url hello\" ] || exit 5\nexit 0\n");
  ::chmod(orig.c_str(), 0755);
  const std::string hello = "hello\n";
  auto ok = hooks::run_original(dir, "pre-push", {"origin", "url"}, &hello);
  REQUIRE(ok);
  CHECK(*ok == 0);
  const std::string other = "other\n";
  auto refused = hooks::run_original(dir, "pre-push", {"origin", "url"}, &other);
  REQUIRE(refused);
  CHECK(*refused == 5);
  ::chmod(orig.c_str(), 0644);  // git does not run a hook that is not executable
  auto skipped = hooks::run_original(dir, "pre-push", {}, &hello);
  REQUIRE(skipped);
  CHECK(*skipped == -1);
}

TEST_CASE("hooks: pre-commit fails on the findings the staged tree introduces, not on HEAD's", "[hooks][gate]") {
  test::TempDir dir;
  const test::FileMap old = with_drift(example_ledger());  // HEAD already holds one error
  const git_oid head = test::commit_tree(dir.path(), old, "an old error");
  test::FileMap logged = old;
  std::string& ledger = logged.at("projects/single.md");
  ledger.replace(ledger.find("## Log\n\n"), 8, "## Log\n\n- 2026-09-03 — note — a correct entry\n");
  const git_oid correct = test::commit_tree(dir.path(), logged, "a log entry", &head, "refs/heads/logged");
  test::FileMap broken = old;
  broken.at("projects/single.md").replace(broken.at("projects/single.md").find("Issue: none"), 11, "Issue: nonsense");
  const git_oid added = test::commit_tree(dir.path(), broken, "a new error", &head, "refs/heads/broken");
  const git_oid fixed = test::commit_tree(dir.path(), example_ledger(), "the fix", &head, "refs/heads/fixed");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);

  stage_tree(*repo, correct);
  auto pass = hooks::judge_index(*repo);
  REQUIRE(pass);
  CHECK(pass->verdict == hooks::Verdict::pass);
  REQUIRE(pass->findings.size() == 1);
  CHECK(pass->findings[0].state == diag::FindingState::pre_existing);
  CHECK(has_note(*pass, "1 pre-existing error(s) on HEAD (not introduced by this change; --gate all to fail on them)"));
  CHECK_FALSE(has_note(*pass, "ledger-issue-grammar"));  // counted, not listed
  hooks::JudgeOptions all;
  all.gate = diag::Gate::all;
  auto whole = hooks::judge_index(*repo, all);
  REQUIRE(whole);
  CHECK(whole->verdict == hooks::Verdict::fail);

  stage_tree(*repo, added);
  auto fail = hooks::judge_index(*repo);
  REQUIRE(fail);
  CHECK(fail->verdict == hooks::Verdict::fail);
  std::size_t introduced = 0;
  for (const diag::Finding& f : fail->findings) {
    if (f.state == diag::FindingState::introduced) {
      ++introduced;
      CHECK(f.location.path == "projects/single.md");
    }
  }
  CHECK(introduced >= 1);
  CHECK_FALSE(has_note(*fail, "projects/example.md:"));  // the old error is not listed

  stage_tree(*repo, fixed);
  auto fixes = hooks::judge_index(*repo);
  REQUIRE(fixes);
  CHECK(fixes->verdict == hooks::Verdict::pass);
  CHECK(fixes->findings.empty());

  // A policy file of HEAD's says `gate: all`: the staged tree cannot loosen it.
  test::FileMap strict = old;
  strict[".ledgergate.yaml"] = "gate: all\n";
  const git_oid strict_head = test::commit_tree(dir.path(), strict, "gate: all", &head);
  test::FileMap loosened = logged;
  loosened[".ledgergate.yaml"] = "gate: new\n";
  const git_oid loose = test::commit_tree(dir.path(), loosened, "loosen", &strict_head, "refs/heads/loose");
  stage_tree(*repo, loose);
  auto strict_verdict = hooks::judge_index(*repo);
  REQUIRE(strict_verdict);
  CHECK(strict_verdict->verdict == hooks::Verdict::fail);
}

TEST_CASE("hooks: pre-push to a URL reads `protected:` from the remote's tip, never from the pushed commit",
          "[hooks][gate]") {
  test::TempDir dir;
  const git_oid base = test::commit_tree(dir.path(), example_ledger(), "base");
  test::FileMap unguarded = example_ledger();
  unguarded[".ledgergate.yaml"] = "protected: []\n";
  unguarded["build.sh"] = "echo build\n";
  // The branch's own policy file says nothing is protected, and it adds code.
  const git_oid sneak = test::commit_tree(dir.path(), unguarded, "unprotect, add code", &base, "refs/heads/sneak");
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  auto trial = git::TrialRepo::open(*repo);
  REQUIRE(trial);
  const std::string url = "file:///srv/ledger.git";  // no remote name: no refs/remotes/<remote>/main
  // git names the remote main's old tip (base): its policy judges, and main is protected.
  auto gated = hooks::judge_push(*repo, *trial, url, {"refs/heads/sneak", test::id_of(sneak), "refs/heads/main", test::id_of(base)});
  REQUIRE(gated);
  CHECK(gated->verdict == hooks::Verdict::fail);
  CHECK(has_note(*gated, "policy: .ledgergate.yaml of " + url + " refs/heads/main (" + test::id_of(base).short_hex() + ")"));
  CHECK(has_note(*gated, "need a human"));
  // The remote's tip is not here (a new remote ref) and the push carries the local main (an
  // ancestor of the pushed commit, so part of the change): the built-in policy, main protected.
  auto carried = hooks::judge_push(*repo, *trial, url, {"refs/heads/sneak", test::id_of(sneak), "refs/heads/main", git::ObjectId()});
  REQUIRE(carried);
  CHECK(has_note(*carried, "policy: the built-in one"));
  CHECK_FALSE(has_note(*carried, "is not a protected branch"));
  // The local main moved on after the branch left it: the push does not carry it, so its policy judges.
  const git::ObjectId moved_on = test::id_of(test::commit_tree(dir.path(), example_ledger(), "main moves on", &base));
  auto local = hooks::judge_push(*repo, *trial, url, {"refs/heads/sneak", test::id_of(sneak), "refs/heads/main", git::ObjectId()});
  REQUIRE(local);
  CHECK(has_note(*local, "policy: .ledgergate.yaml of the local refs/heads/main (" + moved_on.short_hex() + ")"));
  CHECK_FALSE(has_note(*local, "is not a protected branch"));
  // Pushing main itself, which carries the policy change: the built-in policy.
  git_reference* ref = nullptr;
  REQUIRE(git_reference_create(&ref, repo->raw(), "refs/heads/main", &sneak, 1, nullptr) == 0);
  git_reference_free(ref);
  auto own = hooks::judge_push(*repo, *trial, url, {"refs/heads/main", test::id_of(sneak), "refs/heads/main", git::ObjectId()});
  REQUIRE(own);
  CHECK(has_note(*own, "policy: the built-in one"));
  CHECK_FALSE(has_note(*own, "is not a protected branch"));
  CHECK(has_note(*own, "checked against the empty tree"));
}
