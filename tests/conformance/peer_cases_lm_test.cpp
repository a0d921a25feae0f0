// The reference classifier's tests of the tasks era (LMT, tests/test_ledger_merge.py
// @ fa82e4a5…) and of the phases era P2 (LMP2, @ dbf1926d…) from
// tests/data/spec/peer-cases.yaml. LMP2 is not a list of its own: each LMT case
// runs a second time as its P2 variant — the case's `p2_variant` where it
// has one, else the substitution spec §9.2 states (`phases/` for `tasks/`,
// `epics.md` for `checkin.yaml`). The built-in policy is chosen the way the
// CLI chooses it: from a profile (cortex-tasks → LM-T, cortex-phases@p2 →
// LM-P2) for path cases, and from the BASE tree's layout (git cases: LM-T for
// a tasks/ tree; the P2 variant pins cortex-phases@p2). `live` cases read the
// reference's own repository and are listed as not applicable.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <sstream>

#include "ledgergate/git/diff.hpp"
#include "ledgergate/merge/branch_diff.hpp"
#include "ledgergate/policy/classifier.hpp"
#include "ledgergate/report/classify.hpp"
#include "support/fixture_tree.hpp"
#include "support/peer_cases.hpp"

using lg::test::FileMap;
namespace policy = lg::policy;
namespace report = lg::report;

namespace {

struct Variant {
  std::string name;     // "LMT" or "LMP2"
  std::string profile;  // the profile that picks the built-in policy
  bool p2 = false;
};

const Variant k_t{"LMT", "cortex-tasks", false};
const Variant k_p2{"LMP2", "cortex-phases@p2", true};

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

// Spec §9.2: "P2 substitutes phases/ for tasks/ and epics.md for checkin.yaml".
std::string sub(const Variant& v, const std::string& s) {
  if (!v.p2) return s;
  return replace_all(replace_all(s, "tasks/", "phases/"), "checkin.yaml", "epics.md");
}

std::vector<std::string> strings(const Variant& v, const YAML::Node& node) {
  std::vector<std::string> out;
  for (const auto& n : node) out.push_back(sub(v, n.as<std::string>()));
  return out;
}

// The node a variant reads: P2 takes `p2_variant`'s key when it has one
// (already P2 spelling, no substitution), else the T key substituted.
std::vector<std::string> field(const Variant& v, const YAML::Node& c, const char* key) {
  if (v.p2 && c["p2_variant"] && c["p2_variant"][key]) {
    std::vector<std::string> out;
    for (const auto& n : c["p2_variant"][key]) out.push_back(n.as<std::string>());
    return out;
  }
  return c[key] ? strings(v, c[key]) : std::vector<std::string>{};
}

policy::Policy policy_of(const Variant& v) {
  const auto name = policy::policy_for_profile(v.profile);
  REQUIRE(name);
  auto p = policy::builtin_policy(*name);
  REQUIRE(p);
  return *p;
}

std::pair<std::vector<std::string>, std::vector<std::string>> split(const policy::Classification& c) {
  std::vector<std::string> ledger, blocked;
  for (const auto& p : c.paths) (p.cls == policy::PathClass::ledger ? ledger : blocked).push_back(p.path);
  return {ledger, blocked};
}

void run_is_ledger(const Variant& v, const YAML::Node& c) {
  const policy::Policy pol = policy_of(v);
  for (const std::string& p : field(v, c, "ledger")) {
    INFO(p);
    CHECK(policy::classify_path(pol, p).cls == policy::PathClass::ledger);
  }
  for (const std::string& p : field(v, c, "code")) {
    INFO(p);
    CHECK(policy::classify_path(pol, p).cls == policy::PathClass::code);
  }
}

void run_unit(const Variant& v, const YAML::Node& c) {
  const policy::Policy pol = policy_of(v);
  const auto function = c["function"].as<std::string>();
  if (function == "classify(paths)") {
    const YAML::Node src = v.p2 && c["p2_variant"] ? c["p2_variant"] : c;
    std::vector<std::string> input;
    for (const auto& n : src["input"]) input.push_back(v.p2 && c["p2_variant"] ? n.as<std::string>() : sub(v, n.as<std::string>()));
    const auto [ledger, blocked] = split(policy::classify_paths(pol, input));
    auto expect = [&](const char* k) {
      std::vector<std::string> out;
      for (const auto& n : src["expect"][k]) out.push_back(v.p2 && c["p2_variant"] ? n.as<std::string>() : sub(v, n.as<std::string>()));
      return out;
    };
    CHECK(ledger == expect("ledger"));
    CHECK(blocked == expect("blocked"));
  } else if (function == "is_append_only_violation(status, path)") {
    for (const auto& group : c["cases"]) {
      for (const std::string& path : strings(v, group["paths"])) {
        for (const auto& st : group["not_violation"]) {
          INFO(st.as<std::string>() << " " << path);
          const auto got = policy::classify_changes(pol, {{st.as<std::string>(), path, policy::FileKind::file}}, false);
          CHECK(got.paths.at(0).cls == policy::PathClass::ledger);
        }
        for (const auto& st : group["violation"]) {
          INFO(st.as<std::string>() << " " << path);
          const auto got = policy::classify_changes(pol, {{st.as<std::string>(), path, policy::FileKind::file}}, false);
          CHECK(got.paths.at(0).cls == policy::PathClass::code);
          CHECK_THAT(got.paths.at(0).reason, Catch::StartsWith("append-only dir "));
        }
      }
    }
  } else if (function == "classify_entries(entries)") {
    std::vector<policy::Change> changes;
    for (const auto& e : c["input"]) changes.push_back({e[0].as<std::string>(), sub(v, e[1].as<std::string>()), policy::FileKind::file});
    const auto [ledger, blocked] = split(policy::classify_changes(pol, changes, false));
    CHECK(ledger == strings(v, c["expect"]["ledger"]));
    CHECK(blocked == strings(v, c["expect"]["blocked"]));
  } else {
    FAIL("unknown unit function " << function);
  }
}

void run_classify(const Variant& v, const YAML::Node& c) {
  const policy::Policy pol = policy_of(v);
  for (const auto& r : c["runs"]) {
    std::vector<std::string> paths;
    if (r["argv"]) {
      paths = strings(v, r["argv"]);
    } else {
      std::istringstream in(sub(v, r["stdin"].as<std::string>()));
      for (std::string line; std::getline(in, line);) paths.push_back(line);
    }
    const auto got = policy::classify_paths(pol, paths);
    const int exit_code = !got.paths.empty() && got.code_count() == 0 ? 0 : 1;
    const std::string out = report::render_classification_cortex(got);
    INFO(out);
    CHECK(exit_code == r["expect_exit"].as<int>());
    for (const std::string& needle : strings(v, r["expect_stdout_contains"])) CHECK_THAT(out, Catch::Contains(needle));
  }
}

// LM-T-repo (peer-cases.yaml `fixtures:`): its files as the description
// spells them, checked against that description so the two cannot drift.
FileMap lm_t_repo(const YAML::Node& all, const Variant& v) {
  const auto description = all["fixtures"]["LM-T-repo"]["description"].as<std::string>();
  const FileMap files = {{"rulings/2026/09/R-20260901-01.md", "# R-20260901-01\n\nRuling: accept\n"},
                         {"tasks/p/01_a.md", "# a\n\nState: ready\n"},
                         {"checkin.yaml", "refreshed: 2026-09-04T12:00Z\n"}};
  for (const auto& [path, text] : files) {
    const std::string spelled = path + " = \"" + replace_all(text, "\n", "\\n") + "\"";
    INFO(spelled);
    CHECK_THAT(description, Catch::Contains(spelled));
  }
  CHECK_THAT(description, Catch::Contains("(LMP2: phases/p/01_a.md and epics.md = \"# Epics\\n\""));
  if (!v.p2) return files;
  return {{"rulings/2026/09/R-20260901-01.md", files.at("rulings/2026/09/R-20260901-01.md")},
          {"phases/p/01_a.md", files.at("tasks/p/01_a.md")},
          {"epics.md", "# Epics\n"}};
}

struct Repo {
  lg::test::TempDir dir;
  git_oid main{};
};

policy::Classification classify_branch(const Variant& v, const std::string& dir, const git_oid& base,
                                       const git_oid& head) {
  auto repo = lg::git::Repository::open(dir, false);
  REQUIRE(repo);
  // T: the profile comes from the BASE tree's layout (tasks/ → LM-T); the P2
  // variant pins cortex-phases@p2 (the layout alone means the newest, LM-P3).
  auto got =
      lg::merge::classify_branch(*repo, lg::test::id_of(base), lg::test::id_of(head), v.p2 ? v.profile : std::string());
  REQUIRE(got);
  CHECK(got->policy == (v.p2 ? "LM-P2" : "LM-T"));
  return *got;
}

// Applies a case's `branch_change` ops to `files` (write, git_mv; `commit` ends the list).
void apply_branch_change(const Variant& v, FileMap& files, const YAML::Node& ops) {
  for (const auto& op : ops) {
    if (op["commit"]) continue;
    if (op["git_mv"]) {
      const std::string from = sub(v, op["git_mv"][0].as<std::string>());
      const std::string to = sub(v, op["git_mv"][1].as<std::string>());
      REQUIRE(files.count(from));
      files[to] = files.at(from);
      files.erase(from);
      continue;
    }
    REQUIRE(op["op"].as<std::string>() == "write");
    files[sub(v, op["file"].as<std::string>())] = op["content"].as<std::string>();
  }
}

void run_git(const YAML::Node& all, const Variant& v, const YAML::Node& c) {
  REQUIRE(c["repo"].as<std::string>() == "LM-T-repo");
  lg::test::TempDir dir;
  const FileMap base_files = lm_t_repo(all, v);
  const git_oid main = lg::test::commit_tree(dir.path(), base_files, "base");
  FileMap branch_files = base_files;
  apply_branch_change(v, branch_files, c["branch_change"]);
  const git_oid work = lg::test::commit_tree(dir.path(), branch_files, "work", &main, "refs/heads/claude/work");
  const auto got = classify_branch(v, dir.path(), main, work);
  const auto [ledger, blocked] = split(got);
  const YAML::Node expect = c["expect"];
  if (expect["changed_entries_sorted"]) {
    auto repo = lg::git::Repository::open(dir.path(), false);
    REQUIRE(repo);
    auto from = repo->commit_tree(lg::test::id_of(main));
    auto to = repo->commit_tree(lg::test::id_of(work));
    REQUIRE((from && to));
    auto entries = lg::merge::tree_changes(*repo, *from, *to);
    REQUIRE(entries);
    std::vector<std::pair<std::string, std::string>> have, want;
    for (const auto& e : *entries) have.emplace_back(e.status, e.path);
    for (const auto& e : expect["changed_entries_sorted"]) want.emplace_back(e[0].as<std::string>(), sub(v, e[1].as<std::string>()));
    std::sort(have.begin(), have.end());
    std::sort(want.begin(), want.end());
    CHECK(have == want);
  }
  if (expect["blocked"]) CHECK(blocked == strings(v, expect["blocked"]));
  if (expect["ledger_set"]) {
    const auto want = strings(v, expect["ledger_set"]);
    CHECK(std::set<std::string>(ledger.begin(), ledger.end()) == std::set<std::string>(want.begin(), want.end()));
  }
  for (const std::string& p : strings(v, expect["blocked_contains"])) {
    CHECK(std::find(blocked.begin(), blocked.end(), p) != blocked.end());
  }
  if (c["then"]) {
    // LMT-13's second half, as its description spells it: from main, a new
    // branch claude/clean adds ruling -04, moves the task to accepted and
    // refreshes checkin.yaml.
    const auto description = c["then"]["description"].as<std::string>();
    REQUIRE_THAT(description, Catch::Contains("claude/clean") && Catch::Contains("R-20260901-04.md") &&
                                  Catch::Contains("State: accepted") && Catch::Contains("2026-09-04T13:00Z"));
    FileMap clean = base_files;
    clean["rulings/2026/09/R-20260901-04.md"] = "# R-20260901-04\n";
    clean[sub(v, "tasks/p/01_a.md")] = "# a\n\nState: accepted\n";
    clean[sub(v, "checkin.yaml")] = "refreshed: 2026-09-04T13:00Z\n";
    const git_oid tip = lg::test::commit_tree(dir.path(), clean, "clean", &main, "refs/heads/claude/clean");
    const auto then = classify_branch(v, dir.path(), main, tip);
    CHECK(then.code_count() == c["then"]["expect"]["blocked"].size());
    CHECK(then.ledger_count() == c["then"]["expect"]["ledger_count"].as<std::size_t>());
  }
}

}  // namespace

TEST_CASE("peer conformance: every LMT case and its LMP2 variant", "[conformance][peer][lm]") {
  const YAML::Node all = lg::test::load_peer_cases();
  // The reference's own repository tree (workflows, tracked files): not portable.
  const std::set<std::string> live = {"LMT-08", "LMT-17", "LMT-19", "LMT-20", "LMT-21", "LMT-22"};
  int ran_t = 0, ran_p2 = 0, not_applicable = 0;
  for (const auto& c : all["cases"]) {
    const auto id = c["id"].as<std::string>();
    if (id.rfind("LMT-", 0) != 0 && id.rfind("LMP2-", 0) != 0) continue;
    const auto kind = c["kind"].as<std::string>();
    if (kind == "live") {
      CHECK(live.count(id) == 1);
      ++not_applicable;
      continue;
    }
    CHECK(live.count(id) == 0);
    for (const Variant& v : {k_t, k_p2}) {
      DYNAMIC_SECTION(v.name << " " << id << " " << c["peer_test"].as<std::string>()) {
        if (kind == "is_ledger") {
          run_is_ledger(v, c);
        } else if (kind == "unit") {
          run_unit(v, c);
        } else if (kind == "classify") {
          run_classify(v, c);
        } else if (kind == "git") {
          run_git(all, v, c);
        } else {
          FAIL("unknown case kind " << kind);
        }
      }
      ++(v.p2 ? ran_p2 : ran_t);
    }
  }
  CHECK(ran_t == 16);
  CHECK(ran_p2 == 16);
  CHECK(not_applicable == 6);
}

TEST_CASE("peer conformance: the era notes of LMT-10 (P1 appends to rulings/ only; R has no append-only dirs)",
          "[conformance][peer][lm]") {
  const auto p1 = *policy::builtin_policy(*policy::policy_for_profile("cortex-phases@p1b"));
  CHECK(p1.name == "LM-P1");
  auto one = [](const policy::Policy& p, const char* status, const char* path) {
    return policy::classify_changes(p, {{status, path, policy::FileKind::file}}, false).paths.at(0).cls;
  };
  CHECK(one(p1, "M", "rulings/2026/09/R-20260901-01.md") == policy::PathClass::code);
  CHECK(one(p1, "M", "batches/2026-09-01-pm.md") == policy::PathClass::ledger);
  const auto r2 = policy::builtin_policy();
  CHECK(r2.append_only_dirs.empty());
  CHECK(one(r2, "M", "projects/a.md") == policy::PathClass::ledger);
}
