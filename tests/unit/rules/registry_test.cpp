#include "ledgergate/rules/registry.hpp"

#include <catch2/catch.hpp>
#include <set>

using namespace lg;

TEST_CASE("registry: ids are unique and each names its own row", "[rules][registry]") {
  std::set<std::string_view> ids;
  for (const rules::RuleInfo& r : rules::all_rules()) {
    INFO(r.id);
    CHECK(ids.insert(r.id).second);
    CHECK(rules::find_rule(r.id) == &r);
    CHECK_FALSE(r.summary.empty());
    CHECK_FALSE(r.profile.empty());
  }
  CHECK(ids.size() == diag::table::k_rules.size());
}

TEST_CASE("registry: a RuleId is its row, and make_finding takes the row's severity", "[rules][registry]") {
  // An id without a row does not compile: RuleId's constructor is consteval.
  constexpr rules::RuleId id{"orl-id"};
  CHECK(id.id() == "orl-id");
  CHECK(&id.info() == rules::find_rule("orl-id"));
  CHECK(rules::RuleId("orl-id") == id);
  CHECK_FALSE(rules::RuleId("orl-status") == id);

  const diag::Finding unreadable = rules::make_finding("input-unreadable", "a.md", 3, "m", diag::PeerForm::none);
  CHECK(unreadable.rule == "input-unreadable");
  CHECK(unreadable.severity == diag::Severity::error);
  CHECK(unreadable.cannot_judge);
  CHECK(unreadable.location.path == "a.md");
  CHECK(unreadable.location.line == 3);
  const diag::Finding bom = rules::make_finding("input-bom", "a.md", 1, "m", diag::PeerForm::none);
  CHECK(bom.severity == diag::Severity::warning);
  CHECK_FALSE(bom.cannot_judge);
  CHECK(rules::make_finding("input-not-utf8", "a.md", 1, "m", diag::PeerForm::none).cannot_judge);
}
