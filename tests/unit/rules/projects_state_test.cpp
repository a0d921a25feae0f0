// rules::ProjectsState built without judging a ledger (rebuild_unjudged), as
// trial-merge --scope change builds BASE's: moved to another tree by the
// plain diff (renames as a deletion and an addition), then judged at the
// paths it reports touched. Over a seeded random era-R history and pairs of
// its commits near and far apart, the findings at the touched paths equal
// check_tree's there on both trees, and every other path holds the same
// findings on both trees — the argument the change scope rests on.
#include <catch2/catch.hpp>

#include <memory>
#include <random>
#include <set>

#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_diff.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/projects_state.hpp"
#include "support/era_r_world.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;
using namespace lg::test::era_r;

namespace {

std::string line_of(const diag::Finding& f) {
  return f.rule + "|" + std::string(diag::to_string(f.severity)) + "|" + f.location.path + "|" +
         std::to_string(f.location.line) + "|" + std::to_string(f.location.column) + "|" + f.message;
}

std::vector<std::string> lines_at(const std::vector<diag::Finding>& findings, const std::set<std::string>& paths,
                                  bool inside) {
  std::vector<std::string> out;
  for (const diag::Finding& f : findings) {
    if ((paths.count(f.location.path) != 0) == inside) out.push_back(line_of(f));
  }
  return out;
}

std::vector<std::string> lines_of(const std::vector<diag::Finding>& findings) {
  std::vector<std::string> out;
  for (const diag::Finding& f : findings) out.push_back(line_of(f));
  return out;
}

}  // namespace

TEST_CASE("projects state: judged only where a change touches, it agrees with check_tree",
          "[rules][projects_state][differential]") {
  const unsigned seed = GENERATE(11u, 12u, 13u);
  std::mt19937 rng(seed);
  HistoryRepo history(rng, 60);
  const std::vector<git_oid>& ids = history.ids;
  auto& repo = history.repo;
  REQUIRE(repo.has_value());
  const rules::CheckOptions options;
  int followed = 0, touched_somewhere = 0, fallbacks = 0;
  for (const auto& pair : near_and_far(ids.size(), rng)) {
    INFO("seed " << seed << ", commits " << pair.first << " → " << pair.second);
    auto from = test::commit_tree_of(*repo, ids[pair.first], "from");
    auto to = test::commit_tree_of(*repo, ids[pair.second], "to");
    REQUIRE(from.has_value());
    REQUIRE(to.has_value());
    rules::CheckCache cache;
    rules::ProjectsState before;
    auto built = before.rebuild_unjudged(*from->source, options, cache);
    if (!built) {  // projects.yaml or projects/ in a shape the era-R pass does not read
      ++fallbacks;
      continue;
    }
    git::TreeDiffer walk(*repo);
    auto diff = walk.changes(&from->id, &to->id);
    REQUIRE(diff.has_value());
    rules::ProjectsState after = before;
    std::set<std::string> touched;
    auto moved = after.update(*to->source, *diff, cache, touched);
    REQUIRE(moved.has_value());
    if (!*moved) {
      ++fallbacks;
      continue;
    }
    ++followed;
    if (!touched.empty()) ++touched_somewhere;
    REQUIRE(before.judge(*from->source, touched, cache).has_value());
    REQUIRE(after.judge(*to->source, touched, cache).has_value());
    rules::CheckCache fresh;
    auto whole_from = rules::check_tree(*from->source, options, fresh);
    auto whole_to = rules::check_tree(*to->source, options, fresh);
    REQUIRE(whole_from.has_value());
    REQUIRE(whole_to.has_value());
    CHECK(lines_of(before.findings_in(touched)) == lines_at(whole_from->findings, touched, true));
    CHECK(lines_of(after.findings_in(touched)) == lines_at(whole_to->findings, touched, true));
    // Everywhere else the two trees hold the same findings.
    CHECK(lines_at(whole_from->findings, touched, false) == lines_at(whole_to->findings, touched, false));
  }
  // The walk was followed for most pairs, and changes reached findings.
  CHECK(followed > fallbacks);
  CHECK(touched_somewhere * 2 > followed);
}

// A copy of a state shares its ledgers with the state copied from: moving
// the copy along a history (as the audit does, parking a copy at every
// parent, and trial-merge --scope change from BASE to three trees) must
// leave every earlier state with its own tree's findings, and judging an
// earlier state must not reach its copies.
TEST_CASE("projects state: copies moved along a history keep each tree's findings",
          "[rules][projects_state][differential]") {
  const unsigned seed = GENERATE(21u, 22u);
  std::mt19937 rng(seed);
  HistoryRepo history(rng, 40);
  const std::vector<git_oid>& ids = history.ids;
  auto& repo = history.repo;
  REQUIRE(repo.has_value());
  const rules::CheckOptions options;
  rules::CheckCache cache;
  std::vector<git::ObjectId> trees;
  std::vector<std::unique_ptr<git::TreeSource>> sources;
  for (const git_oid& id : ids) {
    auto tree = repo->commit_tree(test::id_of(id));
    REQUIRE(tree.has_value());
    auto source = git::open_tree_source(*repo, *tree, "t");
    REQUIRE(source.has_value());
    trees.push_back(*tree);
    sources.push_back(std::move(*source));
  }
  // Judged whole (rebuild) or not at all (rebuild_unjudged, then judged
  // everywhere at the end): each tree's state, copied from the one before.
  for (const bool whole : {true, false}) {
    INFO("seed " << seed << (whole ? ", rebuild" : ", rebuild_unjudged"));
    std::vector<rules::ProjectsState> states;
    std::vector<std::size_t> at;
    std::set<std::string> everywhere;
    int copies = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (!states.empty()) {
        git::TreeDiffer walk(*repo);
        auto diff = walk.changes(&trees[at.back()], &trees[i]);
        REQUIRE(diff.has_value());
        rules::ProjectsState next = states.back();
        std::set<std::string> touched;
        auto moved = next.update(*sources[i], *diff, cache, touched);
        REQUIRE(moved.has_value());
        if (*moved) {
          everywhere.insert(touched.begin(), touched.end());
          states.push_back(std::move(next));
          at.push_back(i);
          ++copies;
          continue;
        }
      }
      // The first tree, or a change the state does not follow: built anew.
      rules::ProjectsState fresh;
      auto built = whole ? fresh.rebuild(*sources[i], options, cache)
                         : fresh.rebuild_unjudged(*sources[i], options, cache);
      if (!built) continue;  // projects.yaml or projects/ in a shape the era-R pass does not read
      states.push_back(std::move(fresh));
      at.push_back(i);
    }
    CHECK(copies > static_cast<int>(ids.size()) / 2);
    rules::CheckCache fresh;
    std::vector<std::vector<diag::Finding>> whole_checks;
    for (const std::size_t i : at) {
      auto check = rules::check_tree(*sources[i], options, fresh);
      REQUIRE(check.has_value());
      for (const diag::Finding& f : check->findings) {
        // rebuild_unjudged() leaves out the open-requirements files and
        // writers' temporary files: only projects.yaml and the ledgers are
        // compared then.
        const bool ledgers = f.location.path.rfind("projects", 0) == 0 && f.rule != "input-writer-temp-file";
        if (whole || ledgers) everywhere.insert(f.location.path);
      }
      whole_checks.push_back(std::move(check->findings));
    }
    if (!whole) {  // judged now, oldest first: what each judges stays its own
      for (std::size_t s = 0; s < states.size(); ++s) {
        REQUIRE(states[s].judge(*sources[at[s]], everywhere, cache).has_value());
      }
    }
    for (std::size_t s = 0; s < states.size(); ++s) {
      INFO("commit " << at[s]);
      if (whole) {
        CHECK(lines_of(states[s].findings()) == lines_of(whole_checks[s]));
      } else {
        CHECK(lines_of(states[s].findings_in(everywhere)) == lines_at(whole_checks[s], everywhere, true));
      }
    }
  }
}
