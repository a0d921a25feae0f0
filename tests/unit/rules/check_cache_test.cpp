// The check's parse cache as a unit: memos that keep the first parse at a
// key, and a budget only the cache applies.
#include "ledgergate/rules/check_cache.hpp"

#include <catch2/catch.hpp>

#include "ledgergate/ledger/project_ledger.hpp"

using namespace lg;

namespace {

// A blob id made of one repeated hex digit.
git::ObjectId id(char digit) { return *git::ObjectId::from_hex(std::string(git::ObjectId::k_hex_size, digit)); }
// The blob id whose last hex digits spell `n`.
git::ObjectId id(std::size_t n) {
  std::string hex = std::to_string(n);
  return *git::ObjectId::from_hex(std::string(git::ObjectId::k_hex_size - hex.size(), '0') + hex);
}

// Keeps `n` distinct empty ledgers in `cache`.
void keep_ledgers(rules::CheckCache& cache, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) cache.ledgers().keep(id(i), std::make_shared<const ledger::ProjectLedger>());
}

rules::QualifiedId glob_key(const char* glob) { return rules::QualifiedId{id('a'), glob}; }

std::shared_ptr<const std::vector<std::string>> paths(std::string p) {
  return std::make_shared<const std::vector<std::string>>(std::vector<std::string>{std::move(p)});
}

}  // namespace

TEST_CASE("check cache: a memo keeps the first parse at a key until it is forgotten", "[rules][check_cache]") {
  rules::CheckCache cache;
  CHECK(cache.glob_walks().find(glob_key("g")) == nullptr);
  cache.glob_walks().keep(glob_key("g"), paths("a"));
  cache.glob_walks().keep(glob_key("g"), paths("b"));
  REQUIRE(cache.glob_walks().find(glob_key("g")) != nullptr);
  CHECK(cache.glob_walks().find(glob_key("g"))->front() == "a");
  // An empty list is a match of nothing, not a miss.
  cache.glob_walks().keep(glob_key("none"), std::make_shared<const std::vector<std::string>>());
  REQUIRE(cache.glob_walks().find(glob_key("none")) != nullptr);
  CHECK(cache.glob_walks().find(glob_key("none"))->empty());
  CHECK(cache.glob_walks().size() == 2);
  CHECK(cache.glob_walks().find(glob_key("g2")) == nullptr);
  // Forgotten (a chunk's parses once it is checked), then kept again.
  const auto first = std::make_shared<const ledger::ProjectLedger>();
  cache.ledgers().keep(id('1'), first);
  cache.ledgers().keep(id('1'), std::make_shared<const ledger::ProjectLedger>());
  CHECK(cache.ledgers().find(id('1')) == first);
  CHECK(cache.ledgers().contains(id('1')));
  cache.ledgers().forget(id('1'));
  CHECK_FALSE(cache.ledgers().contains(id('1')));
  CHECK(cache.ledgers().size() == 0);
  const auto again = std::make_shared<const ledger::ProjectLedger>();
  cache.ledgers().keep(id('1'), again);
  CHECK(cache.ledgers().find(id('1')) == again);
}

TEST_CASE("check cache: trim empties each kind held past its budget and keeps the others", "[rules][check_cache]") {
  rules::CheckCache::Budget budget;
  budget.ledgers = 2;
  budget.glob_walks = 1;
  rules::CheckCache cache(budget);
  for (char digit : {'1', '2'}) cache.ledgers().keep(id(digit), std::make_shared<const ledger::ProjectLedger>());
  cache.glob_walks().keep(glob_key("g1"), paths("a"));
  cache.glob_walks().keep(glob_key("g2"), paths("b"));
  cache.trim();
  CHECK(cache.ledgers().size() == 2);  // at its budget: kept
  CHECK(cache.glob_walks().size() == 0);
  cache.ledgers().keep(id('3'), std::make_shared<const ledger::ProjectLedger>());
  cache.trim();
  CHECK(cache.ledgers().size() == 0);
}

TEST_CASE("check cache: the default budget keeps everything but ledgers past 4,096; a history's trims",
          "[rules][check_cache]") {
  rules::CheckCache unbounded;
  for (int i = 0; i < 20; ++i) unbounded.projects_yaml().keep(rules::QualifiedId{id('a'), std::to_string(i)}, nullptr);
  unbounded.trim();
  CHECK(unbounded.projects_yaml().size() == 20);
  keep_ledgers(unbounded, 4096);
  unbounded.trim();
  CHECK(unbounded.ledgers().size() == 4096);  // at the default cap: kept
  keep_ledgers(unbounded, 4097);
  unbounded.trim();
  CHECK(unbounded.ledgers().size() == 0);  // past it: emptied
  rules::CheckCache history(rules::CheckCache::history_budget());
  for (int i = 0; i < 20; ++i) history.projects_yaml().keep(rules::QualifiedId{id('a'), std::to_string(i)}, nullptr);
  history.trim();
  CHECK(history.projects_yaml().size() == 0);
  keep_ledgers(history, 3);
  history.trim();
  CHECK(history.ledgers().size() == 3);  // within the history's ledger budget
  history.drop_ledgers();
  CHECK(history.ledgers().size() == 0);
}

TEST_CASE("check cache: a kind whose budget is 0 keeps nothing, even before a trim", "[rules][check_cache]") {
  rules::CheckCache one(rules::CheckCache::one_check_budget());
  rules::CheckCache every;
  for (rules::CheckCache* cache : {&one, &every}) {
    const rules::QualifiedId key{id('a'), "**/x.yml"};
    cache->glob_walks().keep(key, std::make_shared<const std::vector<std::string>>(1, "x.yml"));
    cache->ledger_findings().keep("projects/a.md", id('b'), std::make_shared<const std::vector<diag::Finding>>());
    cache->ledgers().keep(id('c'), std::make_shared<const ledger::ProjectLedger>());
    const bool keeps = cache == &every;
    CHECK((cache->glob_walks().find(key) != nullptr) == keeps);
    CHECK(cache->ledger_findings().size() == (keeps ? 1u : 0u));
    CHECK(cache->ledger_findings().judged(id('b')) == keeps);
    CHECK(cache->ledgers().find(id('c')) != nullptr);  // its budget is not 0
  }
}
