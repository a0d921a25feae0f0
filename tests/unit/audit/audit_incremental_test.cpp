// The differential test of the incremental audit: a seeded random history
// of edits of every kind the era-R check follows (ledgers edited, added,
// removed and renamed; projects.yaml rows flipped and broken; file names,
// folders and stray files under projects/; archive/; open-requirements
// files; writers' temporary files; the policy; an era change) is audited incrementally, with every
// commit's incremental result compared against check_tree's (verify), and
// the whole report compared with the audit that checks every commit in full.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <set>

#include "ledgergate/audit/audit.hpp"
#include "support/era_r_world.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;
using namespace lg::test::era_r;

namespace {

std::string describe(const audit::AuditReport& r) {
  std::string out;
  for (const audit::AuditCommit& c : r.commits) out += c.id.hex() + " " + c.profile + (c.merge ? " merge" : "") + "\n";
  for (const audit::AuditFinding& a : r.findings) {
    const diag::Finding& f = a.finding;
    out += f.rule + "|" + std::string(diag::to_string(f.severity)) + "|" + f.location.rev + "|" + f.location.path +
           "|" + std::to_string(f.location.line) + "|" + std::to_string(f.location.column) + "|" + f.message + "|" +
           a.introduced_in.hex() + "|" + (a.fixed_in ? a.fixed_in->hex() : "-") + "|" + (a.before_range ? "before" : "") + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("audit: the incremental walk equals a full check at every commit", "[audit][differential]") {
  const unsigned seed = GENERATE(1u, 2u, 3u);
  std::mt19937 rng(seed);
  test::TempDir dir;
  const std::string repo_dir = dir.path() + "/repo";
  World w = first_world();
  w.files["archive/README.md"] = "# frozen\n";
  git_oid tip = test::commit_tree(repo_dir, w.files, "base");
  std::vector<git_oid> ids{tip};
  for (int step = 1; step <= 120; ++step) {
    mutate_some(w, rng, step);
    if (step == 50 || step == 53) {  // an era marker appears, then goes (tasks/ beside projects/)
      if (w.files.count("tasks/README.md") != 0) {
        w.files.erase("tasks/README.md");
      } else {
        w.files["tasks/README.md"] = "# tasks\n";
      }
    }
    if (step % 17 == 0 && !w.files.empty()) {  // a ruling moved into archive/, sometimes edited on the way
      for (const auto& [path, text] : test::FileMap(w.files)) {
        if (path.rfind("rulings/", 0) != 0) continue;
        w.files["archive/" + path] = step % 2 == 0 ? text : text + "edited\n";
        w.files.erase(path);
        break;
      }
    }
    tip = test::commit_tree(repo_dir, w.files, "step " + std::to_string(step), &tip);
    ids.push_back(tip);
  }
  auto repo = git::Repository::open(repo_dir, false);
  REQUIRE(repo.has_value());

  for (const std::string range : {std::string(), test::oid_hex(ids[40]) + ".." + test::oid_hex(ids.back())}) {
    INFO("seed " << seed << ", range '" << range << "'");
    audit::AuditOptions verified;
    verified.range = range;
    verified.verify = true;
    auto incremental = audit::audit_history(*repo, verified);
    if (!incremental) FAIL(incremental.error().message);
    REQUIRE(incremental.has_value());  // verify: an incremental check that differs from check_tree is an error
    audit::AuditOptions full;
    full.range = range;
    full.incremental = false;
    auto reference = audit::audit_history(*repo, full);
    REQUIRE(reference.has_value());
    CHECK(describe(*incremental) == describe(*reference));
    CHECK_FALSE(incremental->findings.empty());
    // The walk was incremental for most commits, and the reference was not.
    CHECK(incremental->full_checks * 2 < incremental->commits_checked);
    CHECK(reference->full_checks >= reference->commits_checked);
  }
}

TEST_CASE("audit --cache: a re-audit checks only the new commits and reports the same", "[audit][cache]") {
  std::mt19937 rng(7);
  test::TempDir dir;
  const std::string repo_dir = dir.path() + "/repo";
  const std::string cache_dir = dir.path() + "/cache";
  World w;
  for (const std::string key : {"alpha", "beta"}) {
    w.rows[key] = Row{};
    w.files["projects/" + key + ".md"] = ledger_for(key);
  }
  w.write_yaml();
  git_oid tip = test::commit_tree(repo_dir, w.files, "base");
  std::vector<git_oid> ids{tip};
  const auto grow = [&](int from, int to) {
    for (int step = from; step <= to; ++step) {
      mutate(w, rng, step);
      tip = test::commit_tree(repo_dir, w.files, "step " + std::to_string(step), &tip);
      ids.push_back(tip);
    }
  };
  grow(1, 30);
  const auto audit = [&](const std::string& cache) {
    auto repo = git::Repository::open(repo_dir, false);
    REQUIRE(repo.has_value());
    audit::AuditOptions options;
    options.cache_dir = cache;
    auto report = audit::audit_history(*repo, options);
    REQUIRE(report.has_value());
    CHECK(report->cache_warning.empty());
    return std::move(*report);
  };
  const audit::AuditReport cold = audit(cache_dir);
  CHECK(cold.commits_checked == 31);
  CHECK(describe(cold) == describe(audit("")));

  const audit::AuditReport warm = audit(cache_dir);
  CHECK(warm.commits_checked == 0);
  CHECK(describe(warm) == describe(cold));

  grow(31, 40);
  const audit::AuditReport more = audit(cache_dir);
  CHECK(more.commits_checked == 10);
  CHECK(describe(more) == describe(audit("")));

  SECTION("a corrupt or foreign entry is checked again, never trusted") {
    std::vector<std::filesystem::path> entries;
    const std::string victim = test::oid_hex(ids[20]);
    const std::string other = test::oid_hex(ids[21]);
    std::filesystem::path victim_file, other_file;
    for (const auto& e : std::filesystem::recursive_directory_iterator(cache_dir)) {
      if (!e.is_regular_file()) continue;
      const std::string bytes = test::read_file(e.path().string());  // an entry holds its key: the commit id
      if (bytes.find(victim) != std::string::npos) victim_file = e.path();
      if (bytes.find(other) != std::string::npos) other_file = e.path();
    }
    REQUIRE_FALSE(victim_file.empty());
    REQUIRE_FALSE(other_file.empty());
    std::string bytes = test::read_file(victim_file.string());
    SECTION("a flipped byte") { bytes[bytes.size() / 2] ^= 1; }
    SECTION("truncated") { bytes.resize(bytes.size() / 2); }
    SECTION("another commit's entry") { bytes = test::read_file(other_file.string()); }
    test::write_file(victim_file.string(), bytes);
    const audit::AuditReport again = audit(cache_dir);
    CHECK(again.commits_checked == 1);
    CHECK(describe(again) == describe(more));
    CHECK(audit(cache_dir).commits_checked == 0);  // rewritten
  }
}

TEST_CASE("audit: the read-ahead pipeline reports what the walk without it reports", "[audit][pipeline]") {
  const unsigned seed = GENERATE(4u, 5u);
  std::mt19937 rng(seed);
  test::TempDir dir;
  const std::string repo_dir = dir.path() + "/repo";
  World w;
  for (const std::string key : {"alpha", "beta", "gamma", "epsilon"}) {
    w.rows[key] = Row{};
    w.files["projects/" + key + ".md"] = ledger_for(key);
  }
  w.write_yaml();
  git_oid tip = test::commit_tree(repo_dir, w.files, "base");
  std::vector<git_oid> ids{tip};
  // More commits than the read-ahead holds, so the producer waits for the walk.
  for (int step = 1; step <= 150; ++step) {
    mutate_some(w, rng, step);
    tip = test::commit_tree(repo_dir, w.files, "step " + std::to_string(step), &tip);
    ids.push_back(tip);
  }
  auto repo = git::Repository::open(repo_dir, false);
  REQUIRE(repo.has_value());
  for (const std::string range : {std::string(), test::oid_hex(ids[70]) + ".." + test::oid_hex(ids.back()),
                                  test::oid_hex(ids[148])}) {
    INFO("seed " << seed << ", range '" << range << "'");
    audit::AuditOptions on;
    on.range = range;
    on.pipeline = true;
    audit::AuditOptions off = on;
    off.pipeline = false;
    auto with = audit::audit_history(*repo, on);
    auto without = audit::audit_history(*repo, off);
    REQUIRE(with.has_value());
    REQUIRE(without.has_value());
    CHECK(describe(*with) == describe(*without));
    CHECK(with->commits_checked == without->commits_checked);
    CHECK(with->full_checks == without->full_checks);
    CHECK_FALSE(with->findings.empty());
  }
}

namespace {

// `theirs`' changes since `base` laid over `ours`: the tree of a clean merge
// of two lines that changed different files.
test::FileMap merged(const test::FileMap& ours, const test::FileMap& theirs, const test::FileMap& base) {
  test::FileMap out = ours;
  for (const auto& [path, text] : theirs) {
    auto was = base.find(path);
    if (was == base.end() || was->second != text) out[path] = text;
  }
  for (const auto& [path, text] : base) {
    if (theirs.count(path) == 0) out.erase(path);
  }
  return out;
}

void break_issue(World& w, const std::string& key) {
  replace_first(w.files["projects/" + key + ".md"], "Issue: none", "Issue: not-a-ref");
}

void log_entry(World& w, const std::string& key, const std::string& what) {
  replace_first(w.files["projects/" + key + ".md"], "## Log\n\n", "## Log\n\n- 2026-09-03 \u2014 note \u2014 " + what + "\n");
}

// The three audits a differential test compares, of every parent: every
// commit checked in full (the reference), the incremental walk, and the walk
// verified at every commit against its tree's full check (an error when
// they differ).
struct ThreeAudits {
  audit::AuditReport reference, walked, verified;
};

ThreeAudits audit_three_ways(const std::string& repo_dir) {
  auto repo = git::Repository::open(repo_dir, false);
  REQUIRE(repo.has_value());
  const auto run = [&](const audit::AuditOptions& options) {
    auto report = audit::audit_history(*repo, options);
    INFO((report ? std::string() : report.error().message));
    REQUIRE(report.has_value());
    return std::move(*report);
  };
  audit::AuditOptions full;
  full.incremental = false;
  audit::AuditOptions verified;
  verified.verify = true;
  return {run(full), run(audit::AuditOptions{}), run(verified)};
}

}  // namespace

// Every line of this history leaves findings the others do not have (an
// invalid Issue line in its own ledger, a row flipped), so a commit checked
// from any state but its first parent's (the other parent's, the fork's
// other child's, the commit judged just before) differs from check_tree.
TEST_CASE("audit: every parent walked, each commit continues its first parent's state", "[audit][differential]") {
  test::TempDir dir;
  const std::string repo_dir = dir.path() + "/repo";
  World w;
  for (const std::string key : {"alpha", "beta", "gamma", "delta", "eps"}) {
    w.rows[key] = Row{};
    w.files["projects/" + key + ".md"] = ledger_for(key);
  }
  w.write_yaml();
  git_oid tip = test::commit_tree(repo_dir, w.files, "base");
  const auto on = [&](World& line, git_oid& at, const std::string& ref, const std::string& message) {
    at = test::commit_tree(repo_dir, line.files, message, &at, ref);
  };
  log_entry(w, "alpha", "a1");
  on(w, tip, "refs/heads/main", "a1");
  break_issue(w, "beta");
  on(w, tip, "refs/heads/main", "fork");
  // Three children of the fork: main goes on, side and third start there.
  const World fork = w;
  const git_oid fork_id = tip;
  World side = fork, third = fork;
  git_oid side_tip = fork_id, third_tip = fork_id;
  break_issue(w, "gamma");
  on(w, tip, "refs/heads/main", "m1");
  log_entry(w, "alpha", "m2");
  on(w, tip, "refs/heads/main", "m2");
  break_issue(side, "delta");
  side.rows["eps"].status = "retired";
  side.write_yaml();
  on(side, side_tip, "refs/heads/side", "s1");
  log_entry(side, "beta", "s2");
  on(side, side_tip, "refs/heads/side", "s2");
  break_issue(third, "alpha");
  on(third, third_tip, "refs/heads/third", "t1");
  // Merges: side into main, then third.
  World m = w;
  m.files = merged(w.files, side.files, fork.files);
  tip = test::commit_tree(repo_dir, m.files, "Merge branch 'side'", &tip, "refs/heads/main", &side_tip);
  m.files = merged(m.files, third.files, fork.files);
  tip = test::commit_tree(repo_dir, m.files, "Merge branch 'third'", &tip, "refs/heads/main", &third_tip);
  // A line that merges main back in before main takes it (its first parent
  // is the line's own commit), and a finding fixed on one line only.
  World back = m;
  git_oid back_tip = tip;
  replace_first(back.files["projects/gamma.md"], "Issue: not-a-ref", "Issue: none");
  on(back, back_tip, "refs/heads/back", "k1");
  const World at_merge = m;
  log_entry(m, "eps", "n1");
  on(m, tip, "refs/heads/main", "n1");
  World back_merged = back;
  back_merged.files = merged(back.files, m.files, at_merge.files);
  back_tip = test::commit_tree(repo_dir, back_merged.files, "Merge branch 'main' into back", &back_tip,
                               "refs/heads/back", &tip);
  log_entry(m, "delta", "n2");
  on(m, tip, "refs/heads/main", "n2");
  World last = m;
  last.files = merged(m.files, back_merged.files, at_merge.files);
  last.files["projects/eps.md"] = m.files["projects/eps.md"];
  tip = test::commit_tree(repo_dir, last.files, "Merge branch 'back'", &tip, "refs/heads/main", &back_tip);

  const ThreeAudits audits = audit_three_ways(repo_dir);
  REQUIRE(audits.reference.commits.size() == 15);
  CHECK(audits.reference.full_checks == 15);
  for (const audit::AuditReport* report : {&audits.walked, &audits.verified}) {
    CHECK(describe(*report) == describe(audits.reference));
    // Only the root is checked in full: no line is started again from a tree.
    CHECK(report->full_checks == 1);
    CHECK(report->commits_checked == 15);
  }
  std::set<std::string> rules;
  for (const audit::AuditFinding& f : audits.reference.findings) rules.insert(f.finding.rule);
  CHECK(rules.count("ledger-issue-grammar") == 1);
}

// More lines open at once than the check keeps states for: the oldest is
// dropped, and its children are checked in full, with the same report.
TEST_CASE("audit: a history wider than the parked states reports what the full check does", "[audit][differential]") {
  test::TempDir dir;
  const std::string repo_dir = dir.path() + "/repo";
  World w;
  const std::vector<std::string> keys = {"k00", "k01", "k02", "k03", "k04", "k05", "k06",
                                         "k07", "k08", "k09", "k10", "k11", "main"};
  for (const std::string& key : keys) {
    w.rows[key] = Row{};
    w.files["projects/" + key + ".md"] = ledger_for(key);
  }
  w.write_yaml();
  git_oid tip = test::commit_tree(repo_dir, w.files, "base");
  // Twelve branches, each forked from the next main commit, merged at the end.
  std::vector<std::pair<test::FileMap, git_oid>> branches;
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    World line = w;
    git_oid at = tip;
    break_issue(line, keys[i]);
    at = test::commit_tree(repo_dir, line.files, "branch " + keys[i], &at, "refs/heads/" + keys[i]);
    log_entry(line, keys[i], "second");
    at = test::commit_tree(repo_dir, line.files, "branch " + keys[i] + " again", &at, "refs/heads/" + keys[i]);
    branches.emplace_back(w.files, at);
    log_entry(w, "main", "step " + std::to_string(i));
    tip = test::commit_tree(repo_dir, w.files, "main " + std::to_string(i), &tip);
  }
  for (std::size_t i = 0; i < branches.size(); ++i) {
    break_issue(w, keys[i]);  // the branch's change: its own ledger only
    log_entry(w, keys[i], "second");
    tip = test::commit_tree(repo_dir, w.files, "Merge branch '" + keys[i] + "'", &tip, "refs/heads/main",
                            &branches[i].second);
  }
  const ThreeAudits audits = audit_three_ways(repo_dir);
  CHECK(describe(audits.verified) == describe(audits.reference));
  CHECK(describe(audits.walked) == describe(audits.reference));
  CHECK(audits.walked.commits_checked == 1 + 12 * 4);
  // Some lines were started again from their tree (the cap was reached),
  // not every one.
  CHECK(audits.walked.full_checks > 1);
  CHECK(audits.walked.full_checks < 12);
}
