#include "ledgergate/audit/audit.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

#include "ledgergate/audit/invariants.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

std::string ledger_text(const std::string& runs, const std::string& log) {
  return "# demo \u2014 A short summary\n\nProject: demo\nIssue: demo#1\n\n## Now\n\nWorking.\n\n## Runs\n\n" + runs +
         "\n## Log\n\n" + log;
}

const std::string k_log =
    "- 2026-09-02 \u2014 result \u2014 it worked\n"
    "  really\n"
    "- 2026-09-01 \u2014 run \u2014 12 submitted: four seeds\n"
    "- 2026-08-30 \u2014 note \u2014 ledger opened\n";
const std::string k_run = "- 12 \u2014 running \u2014 ral \u2014 2026-09-01 \u2014 four seeds\n";

std::vector<std::string> rules_of(const std::string& before, const std::string& after) {
  const auto found = audit::compare_ledgers(ledger::parse_project_ledger(before), ledger::parse_project_ledger(after),
                                            "projects/demo.md");
  std::vector<std::string> out;
  for (const diag::Finding& f : found) out.push_back(f.rule);
  return out;
}

}  // namespace

TEST_CASE("audit invariants: prepending entries and a run with its entries is clean", "[audit]") {
  const std::string before = ledger_text(k_run, k_log);
  CHECK(rules_of(before, before).empty());
  CHECK(rules_of(before, ledger_text(k_run, "- 2026-09-03 \u2014 note \u2014 later\n" + k_log)).empty());
  const std::string added = ledger_text(k_run + "- 13 \u2014 open \u2014 gpu \u2014 2026-09-03 \u2014 more\n",
                                        "- 2026-09-03 \u2014 run \u2014 13 submitted: more\n" + k_log);
  CHECK(rules_of(before, added).empty());
  const std::string done = ledger_text("", "- 2026-09-04 \u2014 run \u2014 12 finished \u2014 wall 1:00: four seeds\n" + k_log);
  CHECK(rules_of(before, done).empty());
}

TEST_CASE("audit invariants: edits, removals, insertions and backdated entries", "[audit]") {
  const std::string before = ledger_text(k_run, k_log);
  SECTION("an old entry reworded (a continuation line counts)") {
    std::string log = k_log;
    log.replace(log.find("really"), 6, "truly");
    const auto found = audit::compare_ledgers(ledger::parse_project_ledger(before),
                                              ledger::parse_project_ledger(ledger_text(k_run, log)), "p.md");
    REQUIRE(found.size() == 1);
    CHECK(found[0].rule == "audit-log-entry-edited");
    CHECK(found[0].location.line > 0);
    CHECK(found[0].message.find("really") != std::string::npos);
    CHECK(found[0].message.find("truly") != std::string::npos);
  }
  SECTION("an entry edited while a new one is prepended") {
    std::string log = k_log;
    log.replace(log.find("ledger opened"), 13, "ledger begun");
    CHECK(rules_of(before, ledger_text(k_run, "- 2026-09-03 \u2014 note \u2014 x\n" + log)) ==
          std::vector<std::string>{"audit-log-entry-edited"});
  }
  SECTION("an entry removed below a prepended one") {
    std::string log = k_log;
    log.erase(log.find("- 2026-09-01"), log.find("- 2026-08-30") - log.find("- 2026-09-01"));
    CHECK(rules_of(before, ledger_text(k_run, "- 2026-09-03 \u2014 note \u2014 x\n" + log)) ==
          std::vector<std::string>{"audit-log-entry-removed"});
  }
  SECTION("an entry inserted below the head") {
    std::string log = k_log;
    log.insert(log.find("- 2026-08-30"), "- 2026-09-05 \u2014 note \u2014 late\n");
    CHECK(rules_of(before, ledger_text(k_run, log)) == std::vector<std::string>{"audit-log-entry-inserted"});
  }
  SECTION("a prepended entry dated before the head") {
    CHECK(rules_of(before, ledger_text(k_run, "- 2026-08-01 \u2014 note \u2014 old news\n" + k_log)) ==
          std::vector<std::string>{"audit-log-date-backwards"});
  }
  SECTION("runs without their log entries") {
    CHECK(rules_of(before, ledger_text(k_run + "- 13 \u2014 open \u2014 gpu \u2014 2026-09-03 \u2014 more\n", k_log)) ==
          std::vector<std::string>{"audit-run-without-log"});
    CHECK(rules_of(before, ledger_text("", k_log)) == std::vector<std::string>{"audit-run-removed-without-log"});
    // A `submitted` entry does not answer a removal.
    CHECK(rules_of(before, ledger_text("", "- 2026-09-04 \u2014 run \u2014 12 submitted: again\n" + k_log)) ==
          std::vector<std::string>{"audit-run-removed-without-log"});
  }
}

TEST_CASE("audit: merges made by the ledger-merge job are recognised by their message", "[audit]") {
  CHECK(audit::made_by_ledger_merge("ledger-merge: land side"));
  CHECK(audit::made_by_ledger_merge("Merge branch 'x' into main\n\nLanded by ledgergate land: the change..."));
  CHECK(audit::made_by_ledger_merge("Merge branch 'x' into _ledger_merge"));
  CHECK_FALSE(audit::made_by_ledger_merge("Merge branch 'x' into main"));
}

TEST_CASE("audit: --since dates", "[audit]") {
  CHECK(*audit::parse_since("1970-01-02") == 86400);
  CHECK(*audit::parse_since("2026-09-02T00:08:00Z") == 1788307680);
  CHECK(*audit::parse_since("2026-09-02T00:08Z") == 1788307680);
  CHECK_FALSE(audit::parse_since("yesterday").has_value());
  CHECK_FALSE(audit::parse_since("2026-13-01").has_value());
  CHECK_FALSE(audit::parse_since("2026-09-02T00:08:00").has_value());
}

TEST_CASE("audit: drift is matched across commits by rule, path and message, not line", "[audit]") {
  test::TempDir dir;
  const std::string repo_dir = dir.path() + "/repo";
  test::FileMap files = test::read_tree(std::string(LEDGERGATE_SOURCE_DIR) + "/fixtures/ledgers/example");
  const git_oid base = test::commit_tree(repo_dir, files, "base");
  std::string& single = files["projects/single.md"];
  const auto issue = single.find("Issue: ");
  REQUIRE(issue != std::string::npos);
  single.replace(issue, single.find('\n', issue) - issue, "Issue: not-a-ref");
  const git_oid drift = test::commit_tree(repo_dir, files, "drift", &base);
  single.insert(single.find("Project:"), "\n");  // shifts the finding's line
  const git_oid shift = test::commit_tree(repo_dir, files, "shift", &drift);
  test::FileMap fixed = test::read_tree(std::string(LEDGERGATE_SOURCE_DIR) + "/fixtures/ledgers/example");
  const git_oid fix = test::commit_tree(repo_dir, fixed, "fix", &shift);

  auto repo = git::Repository::open(repo_dir, false);
  REQUIRE(repo.has_value());
  audit::AuditOptions options;
  std::size_t calls = 0;
  options.progress = [&calls](std::size_t done, std::size_t total) {
    ++calls;
    CHECK(done <= total);
  };
  auto report = audit::audit_history(*repo, options);
  REQUIRE(report.has_value());
  CHECK(calls == 4);
  REQUIRE(report->commits.size() == 4);
  CHECK(report->commits[0].id.hex() == test::oid_hex(base));
  std::vector<const audit::AuditFinding*> issue_findings;
  for (const audit::AuditFinding& f : report->findings) {
    if (f.finding.rule == "ledger-issue-grammar") issue_findings.push_back(&f);
  }
  REQUIRE(issue_findings.size() == 1);
  CHECK(issue_findings[0]->introduced_in.hex() == test::oid_hex(drift));
  REQUIRE(issue_findings[0]->fixed_in.has_value());
  CHECK(issue_findings[0]->fixed_in->hex() == test::oid_hex(fix));
  CHECK(report->failed());

  SECTION("a range starts from its base's findings") {
    options.range = test::oid_hex(drift) + ".." + test::oid_hex(shift);
    auto ranged = audit::audit_history(*repo, options);
    REQUIRE(ranged.has_value());
    REQUIRE(ranged->commits.size() == 1);
    REQUIRE_FALSE(ranged->findings.empty());
    CHECK(ranged->findings[0].before_range);
    CHECK_FALSE(ranged->findings[0].fixed_in.has_value());
  }
  SECTION("a missing object cannot be judged") {
    // The fix commit's tree is the base commit's too: the first to need it is named.
    const std::string hex = test::oid_hex(base);
    const auto tree = repo->commit_tree(test::id_of(fix));
    REQUIRE(tree.has_value());
    const std::string tree_hex = tree->hex();
    std::filesystem::remove(repo_dir + "/.git/objects/" + tree_hex.substr(0, 2) + "/" + tree_hex.substr(2));
    auto reopened = git::Repository::open(repo_dir, false);
    REQUIRE(reopened.has_value());
    auto broken = audit::audit_history(*reopened, audit::AuditOptions{});
    REQUIRE_FALSE(broken.has_value());
    CHECK(broken.error().message.find("cannot judge") != std::string::npos);
    INFO(broken.error().message);
    CHECK(broken.error().message.find(hex) != std::string::npos);
    audit::AuditOptions walk_only;  // the same error without the read-ahead
    walk_only.pipeline = false;
    auto broken_walk = audit::audit_history(*reopened, walk_only);
    REQUIRE_FALSE(broken_walk.has_value());
    CHECK(broken_walk.error().message == broken.error().message);
  }
}

namespace {


std::vector<std::string> rules_at(const audit::AuditReport& report, const git_oid& commit) {
  std::vector<std::string> out;
  for (const audit::AuditFinding& f : report.findings) {
    if (f.introduced_in.hex() == test::oid_hex(commit) && f.finding.rule.rfind("audit-", 0) == 0) out.push_back(f.finding.rule);
  }
  return out;
}

}  // namespace

namespace {

// A tasks-era history from the skeleton: a ruled task, a stray state edge,
// a ruling edited, deleted, then its id filed again.
struct TasksHistory {
  git_oid base{}, ruled{}, stray{}, edited{}, deleted{}, reused{};
};
TasksHistory tasks_history(const std::string& repo_dir) {
  const std::string fixture = test::data_dir() + "/corpus/cortex-fixtures/tasks-skeleton";
  TasksHistory h;
  test::FileMap files = test::read_tree(fixture);
  h.base = test::commit_tree(repo_dir, files, "base");

  // awaiting-ruling → accepted through `rule accept`: a new ruling and the task's Ruling:.
  const std::string task = "tasks/example/07_awaiting_ruling.md";
  const std::string ruling = "rulings/2026/09/R-20260902-01.md";
  test::replace_once(files[task], "State: awaiting-ruling\n", "State: accepted\n");
  test::replace_once(files[task], "Review-minutes: 5\n", "Ruling: R-20260902-01\nReview-minutes: 5\n");
  files[ruling] = "# R-20260902-01 — accept example 07_awaiting_ruling\n\nProject: example\nTask: " + task +
                  "\nRuns: 342110, 342120\nRuling: accept\n\n## Ruling\n\nAccept.\n\n## Evidence\n\n- x\n";
  h.ruled = test::commit_tree(repo_dir, files, "rule accept 07", &h.base);

  // planned → running by hand: no such edge.
  const std::string planned = "tasks/example/01_scope.md";
  REQUIRE(files[planned].find("State: planned\n") != std::string::npos);
  test::replace_once(files[planned], "State: planned\n", "State: running\n");
  h.stray = test::commit_tree(repo_dir, files, "jump 01 to running", &h.ruled);

  // A ruling edited, then deleted, then its id filed again.
  test::replace_once(files[ruling], "Accept.", "Accept, on reflection.");
  h.edited = test::commit_tree(repo_dir, files, "reword a ruling", &h.stray);
  const std::string kept = files[ruling];
  files.erase(ruling);
  h.deleted = test::commit_tree(repo_dir, files, "delete a ruling", &h.edited);
  files[ruling] = kept;
  h.reused = test::commit_tree(repo_dir, files, "file its id again", &h.deleted);
  return h;
}

}  // namespace

TEST_CASE("audit: a tasks-era history — rule edges, stray state changes, ruling edits and reused ids", "[audit][pt]") {
  test::TempDir dir;
  const std::string repo_dir = dir.path() + "/repo";
  const TasksHistory h = tasks_history(repo_dir);
  auto repo = git::Repository::open(repo_dir, false);
  REQUIRE(repo.has_value());

  SECTION("a cold audit") {
    auto report = audit::audit_history(*repo, audit::AuditOptions{});
    REQUIRE(report.has_value());
    REQUIRE(report->commits.size() == 6);
    CHECK(report->commits[0].profile == "cortex-tasks@t2");
    CHECK(rules_at(*report, h.base).empty());
    CHECK(rules_at(*report, h.ruled).empty());
    CHECK(rules_at(*report, h.stray) == std::vector<std::string>{"audit-state-edge"});
    CHECK(rules_at(*report, h.edited) == std::vector<std::string>{"audit-ruling-changed"});
    CHECK(rules_at(*report, h.deleted) == std::vector<std::string>{"audit-ruling-changed"});
    CHECK(rules_at(*report, h.reused) == std::vector<std::string>{"audit-ruling-id-reused"});
    CHECK(report->failed());
  }

  SECTION("--cache: an id deleted in a cached commit and filed again later is still reported") {
    audit::AuditOptions options;
    options.cache_dir = dir.path() + "/cache";
    options.range = test::oid_hex(h.deleted);  // the deletion is cached ...
    auto first = audit::audit_history(*repo, options);
    REQUIRE(first.has_value());
    CHECK(first->commits_checked == 5);
    options.range = "";  // ... and the id filed again afterwards
    auto second = audit::audit_history(*repo, options);
    REQUIRE(second.has_value());
    CHECK(second->commits_checked == 1);
    CHECK(rules_at(*second, h.deleted) == std::vector<std::string>{"audit-ruling-changed"});
    CHECK(rules_at(*second, h.reused) == std::vector<std::string>{"audit-ruling-id-reused"});
  }
}

TEST_CASE("audit: the phases → tasks migration is recognised as moves", "[audit][pt]") {
  const std::string fixture = test::data_dir() + "/corpus/cortex-fixtures/phases-skeleton";
  test::TempDir dir;
  const std::string repo_dir = dir.path() + "/repo";
  test::FileMap files = test::read_tree(fixture);
  const git_oid base = test::commit_tree(repo_dir, files, "phases");
  // Move phases/ to tasks/, dropping Phase: and adding Summary: — and, in one
  // file, also changing its state on the way.
  test::FileMap moved;
  std::string edited_path;
  for (auto& [path, text] : files) {
    if (path.rfind("phases/", 0) != 0) {
      moved[path] = text;
      continue;
    }
    std::string t = text;
    const auto phase = t.find("\nPhase: ");
    REQUIRE(phase != std::string::npos);
    t.replace(phase + 1, t.find('\n', phase + 1) - phase, "Summary: What does this task answer\n");
    if (edited_path.empty() && t.find("State: ready\n") != std::string::npos) {
      test::replace_once(t, "State: ready\n", "State: gated\n");
      edited_path = "tasks/" + path.substr(7);
    }
    moved["tasks/" + path.substr(7)] = t;
  }
  REQUIRE_FALSE(edited_path.empty());
  const git_oid migrated = test::commit_tree(repo_dir, moved, "phases → tasks", &base);

  auto repo = git::Repository::open(repo_dir, false);
  REQUIRE(repo.has_value());
  auto report = audit::audit_history(*repo, audit::AuditOptions{});
  REQUIRE(report.has_value());
  std::vector<std::string> events;
  for (const audit::AuditFinding& f : report->findings) {
    if (f.introduced_in.hex() != test::oid_hex(migrated) || f.finding.rule.rfind("audit-", 0) != 0) continue;
    events.push_back(f.finding.rule + " " + f.finding.location.path);
  }
  CHECK(events == std::vector<std::string>{"audit-migration-edited " + edited_path, "audit-migration "});
}

TEST_CASE("audit: an open-requirements file beside the ledger is not a change of layout", "[audit][pt]") {
  test::TempDir dir;
  const std::string repo_dir = dir.path() + "/repo";
  test::FileMap files = test::read_tree(std::string(LEDGERGATE_SOURCE_DIR) + "/fixtures/ledgers/example");
  files["spec/open-requirements.ledger.yml"] = "";
  const git_oid base = test::commit_tree(repo_dir, files, "base");
  files["projects.yaml"] += "\n";
  const git_oid next = test::commit_tree(repo_dir, files, "touch projects.yaml", &base);
  auto repo = git::Repository::open(repo_dir, false);
  REQUIRE(repo.has_value());
  auto report = audit::audit_history(*repo, audit::AuditOptions{});
  REQUIRE(report.has_value());
  REQUIRE(report->commits.size() == 2);
  CHECK(report->commits[1].id.hex() == test::oid_hex(next));
  CHECK(report->commits[1].profile == "cortex-projects+open-requirements");
  for (const audit::AuditFinding& f : report->findings) CHECK(f.finding.rule != "audit-migration");
}

namespace {

// A merge commit of `first` and `second` whose tree is `tree_of`'s, on refs/heads/main
// (which must point at `first`).
git_oid merge_commit(const std::string& dir, const git_oid& tree_of, const git_oid& first, const git_oid& second,
                     const std::string& message) {
  git_repository* raw = nullptr;
  REQUIRE(git_repository_open(&raw, dir.c_str()) == 0);
  test::RepositoryPtr repo(raw);
  git_commit* a = nullptr;
  git_commit* b = nullptr;
  git_commit* t = nullptr;
  REQUIRE(git_commit_lookup(&a, repo.get(), &first) == 0);
  test::CommitPtr a_owned(a);
  REQUIRE(git_commit_lookup(&b, repo.get(), &second) == 0);
  test::CommitPtr b_owned(b);
  REQUIRE(git_commit_lookup(&t, repo.get(), &tree_of) == 0);
  test::CommitPtr t_owned(t);
  git_tree* tree = nullptr;
  REQUIRE(git_commit_tree(&tree, t) == 0);
  test::TreePtr tree_owned(tree);
  git_signature* sig = nullptr;
  REQUIRE(git_signature_new(&sig, "Ledger Test", "test@ledgergate.invalid", 1788220800, 0) == 0);
  std::unique_ptr<git_signature, void (*)(git_signature*)> sig_owned(sig, git_signature_free);
  const git_commit* parents[2] = {a, b};
  git_oid id;
  REQUIRE(git_commit_create(&id, repo.get(), "refs/heads/main", sig, sig, nullptr, message.c_str(), tree, 2,
                            parents) == 0);
  return id;
}

}  // namespace

TEST_CASE("audit: audit-not-checked — a merge whose parents cannot be trial-merged is reported, not judged",
          "[audit]") {
  test::TempDir dir;
  const std::string repo_dir = dir.path() + "/repo";
  const test::FileMap fixture = test::read_tree(std::string(LEDGERGATE_SOURCE_DIR) + "/fixtures/ledgers/example");
  const git_oid base = test::commit_tree(repo_dir, fixture, "base");
  test::FileMap side_files = fixture;
  side_files["notes/side.txt"] = "side\n";
  const git_oid side = test::commit_tree(repo_dir, side_files, "side", &base, "refs/heads/side");
  test::FileMap main_files = fixture;
  main_files["notes/main.txt"] = "main\n";
  const git_oid main_tip = test::commit_tree(repo_dir, main_files, "main", &base);
  test::FileMap both = main_files;
  both["notes/side.txt"] = "side\n";
  const git_oid scratch = test::commit_tree(repo_dir, both, "the clean merge's tree", nullptr, "refs/heads/scratch");
  // Good: the parents have a merge base, the merge is judged (and is the clean merge).
  const git_oid merged = merge_commit(repo_dir, scratch, main_tip, side, "Merge branch 'side'");
  // Bad: a second root commit, merged in: no merge base, so the trial merge cannot run.
  const git_oid orphan = test::commit_tree(repo_dir, fixture, "unrelated root", nullptr, "refs/heads/other");
  const git_oid unrelated = merge_commit(repo_dir, merged, merged, orphan, "Merge branch 'other'");

  auto repo = git::Repository::open(repo_dir, false);
  REQUIRE(repo.has_value());
  auto report = audit::audit_history(*repo, audit::AuditOptions{});
  REQUIRE(report.has_value());
  CHECK(rules_at(*report, merged).empty());
  REQUIRE(rules_at(*report, unrelated) == std::vector<std::string>{"audit-not-checked"});
  for (const audit::AuditFinding& f : report->findings) {
    if (f.finding.rule != "audit-not-checked") continue;
    CHECK(f.introduced_in.hex() == test::oid_hex(unrelated));
    CHECK(f.finding.severity == diag::Severity::info);
    CHECK(f.finding.location.rev == test::oid_hex(unrelated).substr(0, 12));
    CHECK(f.finding.message == "merge not judged: no merge base between " + test::oid_hex(merged).substr(0, 12) +
                                   " and " + test::oid_hex(orphan).substr(0, 12) + " (unrelated histories)");
  }
  CHECK_FALSE(report->failed());
}
