// The cross-version open-requirements rules over a diff: comparing only the
// files a diff names (what the audit does with each commit's diff) finds
// exactly what walking both trees finds, over random histories of edits,
// moves, copies, deletions and duplicate ids.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/rules/check.hpp"
#include "support/fixture_tree.hpp"

namespace {

using lg::test::FileMap;

std::string entry(const std::string& id, const std::string& status, const std::string& extra = "") {
  return "  - id: " + id + "\n    status: " + status + "\n    raised_by: step-a\n    unmet: \"u\"\n    missing: \"m\"\n" +
         (status == "resolved" ? "    resolved_by: s\n" : "") + extra;
}

// An open-requirements file of a few entries drawn from a small set of ids
// (so duplicates and reorders occur), sometimes with a budget.
std::string random_ledger(std::mt19937& rng) {
  static const std::vector<std::string> ids = {"a", "b", "c", "d"};
  static const std::vector<std::string> statuses = {"open", "resolved", "surrendered"};
  std::string out;
  if (rng() % 4 == 0) out += "topology_repair:\n  escalations: " + std::to_string(rng() % 3) + "\n  cap: 5\n  open_history: []\n";
  out += "entries:\n";
  const std::size_t n = rng() % 4;
  for (std::size_t i = 0; i < n; ++i) out += entry(ids[rng() % ids.size()], statuses[rng() % statuses.size()]);
  return out;
}

const std::vector<std::string> k_paths = {
    "open-requirements.ledger.yml", "runs/one/open-requirements.ledger.yml", "runs/two/open-requirements.ledger.yml",
    "runs/two/deep/open-requirements.ledger.yml", "other/open-requirements.ledger.yml"};

// One step of a history: files edited, added, deleted, moved and copied.
FileMap mutate(FileMap files, std::mt19937& rng) {
  const std::size_t steps = 1 + rng() % 3;
  for (std::size_t i = 0; i < steps; ++i) {
    const std::string& path = k_paths[rng() % k_paths.size()];
    const std::string& other = k_paths[rng() % k_paths.size()];
    switch (rng() % 5) {
      case 0: files[path] = random_ledger(rng); break;
      case 1: files.erase(path); break;
      case 2:
        if (files.count(path) && path != other) {
          files[other] = files[path];
          files.erase(path);
        }
        break;
      case 3:
        if (files.count(path)) files[other] = files[path];
        break;
      default: files["runs/notes-" + std::to_string(rng() % 3) + ".md"] = std::to_string(rng()); break;
    }
  }
  return files;
}

std::vector<std::string> rendered(const std::vector<lg::diag::Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) {
    out.push_back(f.rule + " " + f.location.path + ":" + std::to_string(f.location.line) + " " + f.message);
  }
  return out;
}

}  // namespace

TEST_CASE("orl history over a diff: the same findings as walking both trees", "[rules][orl]") {
  lg::test::PinnedCommitter pinned;
  lg::test::TempDir dir;
  std::mt19937 rng(20261206);
  FileMap files = {{"README.md", "x\n"}};
  git_oid parent = lg::test::commit_tree(dir.path(), files, "start");
  auto repo = lg::git::Repository::open(dir.path(), false);
  REQUIRE(repo.has_value());
  lg::rules::CheckOptions options;
  std::size_t compared = 0;
  for (int round = 0; round < 120; ++round) {
    const FileMap next = mutate(files, rng);
    const git_oid commit = lg::test::commit_tree(dir.path(), next, "step", &parent);
    auto before_tree = repo->commit_tree(lg::test::id_of(parent));
    auto after_tree = repo->commit_tree(lg::test::id_of(commit));
    REQUIRE(before_tree.has_value());
    REQUIRE(after_tree.has_value());
    auto before = lg::git::open_tree_source(*repo, *before_tree, "BEFORE");
    auto after = lg::git::open_tree_source(*repo, *after_tree, "AFTER");
    REQUIRE(before.has_value());
    REQUIRE(after.has_value());
    auto walked = lg::rules::check_open_requirements_between(**before, **after, options);
    REQUIRE(walked.has_value());
    auto plain = lg::git::diff_trees(*repo, &*before_tree, &*after_tree);
    auto renamed = lg::git::diff_trees_with_renames(*repo, &*before_tree, &*after_tree);
    REQUIRE(plain.has_value());
    REQUIRE(renamed.has_value());
    auto over_plain = lg::rules::check_open_requirements_between(**before, **after, options, nullptr, &*plain);
    auto over_renamed = lg::rules::check_open_requirements_between(**before, **after, options, nullptr, &*renamed);
    REQUIRE(over_plain.has_value());
    REQUIRE(over_renamed.has_value());
    INFO("round " << round);
    CHECK(rendered(*over_plain) == rendered(*walked));
    CHECK(rendered(*over_renamed) == rendered(*walked));
    compared += walked->empty() ? 0 : 1;
    files = next;
    parent = commit;
  }
  CHECK(compared >= 20);  // the histories do break the rules, often
}
