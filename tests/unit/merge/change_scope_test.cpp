// merge::judge_tree_change, what `land --scope change` judges a branch tip
// with: over a seeded random era-R history and pairs of its commits near and
// far apart, the change's findings are the whole check's (with the same
// state, new or unchanged), its new findings all of the whole check's new
// ones, and its fixed findings the whole check's; a change it does not
// follow gives nullopt, never a partial answer.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/merge/change_scope.hpp"
#include "ledgergate/rules/change.hpp"
#include "ledgergate/rules/check.hpp"
#include "support/era_r_world.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;
using namespace lg::test::era_r;

namespace {

std::string line_of(const diag::Finding& f) {
  return f.rule + "|" + std::string(diag::to_string(f.severity)) + "|" + f.location.path + "|" +
         std::to_string(f.location.line) + "|" + f.message + "|" + std::to_string(static_cast<int>(f.state));
}

std::vector<std::string> sorted_lines(const std::vector<diag::Finding>& findings, bool introduced_only) {
  std::vector<std::string> out;
  for (const diag::Finding& f : findings) {
    if (!introduced_only || f.state == diag::FindingState::introduced) out.push_back(line_of(f));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("change scope: a change judged alone gives the whole check's new and fixed findings",
          "[merge][change_scope][differential]") {
  const unsigned seed = GENERATE(21u, 22u);
  std::mt19937 rng(seed);
  HistoryRepo history(rng, 40);
  const std::vector<git_oid>& ids = history.ids;
  auto& repo = history.repo;
  REQUIRE(repo.has_value());
  const rules::CheckOptions options;
  int judged = 0, fallbacks = 0, with_new = 0, with_fixed = 0;
  for (const auto& pair : near_and_far(ids.size(), rng)) {
    INFO("seed " << seed << ", commits " << pair.first << " → " << pair.second);
    auto from = test::commit_tree_of(*repo, ids[pair.first], "from");
    auto to = test::commit_tree_of(*repo, ids[pair.second], "to");
    REQUIRE(from.has_value());
    REQUIRE(to.has_value());
    rules::CheckCache cache;
    auto change = merge::judge_tree_change(*repo, *from->source, from->id, *to->source, to->id, options, cache);
    if (!change.has_value() || !*change) {  // not followed (or a shape the era-R pass does not read): judged whole
      ++fallbacks;
      continue;
    }
    ++judged;
    rules::CheckCache fresh;
    auto whole = rules::check_tree(*to->source, options, fresh);
    REQUIRE(whole.has_value());
    auto fixed = rules::attribute_check(*from->source, *to->source, whole->findings, options, fresh);
    REQUIRE(fixed.has_value());
    const std::vector<std::string> whole_lines = sorted_lines(whole->findings, false);
    for (const std::string& line : sorted_lines((*change)->findings, false)) {
      CHECK(std::binary_search(whole_lines.begin(), whole_lines.end(), line));
    }
    CHECK(sorted_lines((*change)->findings, true) == sorted_lines(whole->findings, true));
    CHECK(sorted_lines((*change)->fixed, false) == sorted_lines(*fixed, false));
    with_new += !sorted_lines(whole->findings, true).empty();
    with_fixed += !fixed->empty();
  }
  // Most pairs were judged alone, and some brought and fixed findings.
  CHECK(judged > fallbacks);
  CHECK(with_new > 0);
  CHECK(with_fixed > 0);
}
