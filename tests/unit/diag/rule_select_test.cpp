#include "ledgergate/diag/rule_select.hpp"

#include <catch2/catch.hpp>

using namespace lg;

namespace {
diag::Finding finding(std::string rule, bool cannot_judge = false) {
  diag::Finding f;
  f.rule = std::move(rule);
  f.location = {"HEAD", "projects/x.md", 3, 0};
  f.cannot_judge = cannot_judge;
  return f;
}
std::vector<std::string> rules_of(const std::vector<diag::Finding>& findings) {
  std::vector<std::string> out;
  for (const diag::Finding& f : findings) out.push_back(f.rule);
  return out;
}
}  // namespace

TEST_CASE("rule selection: a word names a rule by its id or a family prefix", "[diag][rule_select]") {
  CHECK(diag::names_rule("ledger-run-overlap", "ledger-run-overlap"));
  CHECK(diag::names_rule("ledger", "ledger-run-overlap"));
  CHECK(diag::names_rule("ledger-run", "ledger-run-overlap"));
  CHECK(diag::names_rule("ledger-", "ledger-run-overlap"));
  CHECK(diag::names_rule("ledger-*", "ledger-run-overlap"));
  CHECK_FALSE(diag::names_rule("ledger-ru", "ledger-run-overlap"));  // prefixes end at a dash
  CHECK_FALSE(diag::names_rule("led", "ledger-run-overlap"));
  CHECK_FALSE(diag::names_rule("", "ledger-run-overlap"));
  CHECK_FALSE(diag::names_rule("projects-yaml", "projects-yaml2-x"));
}

TEST_CASE("rule selection: --select keeps, --ignore drops, unreadable input always stays", "[diag][rule_select]") {
  const std::vector<diag::Finding> findings{finding("ledger-run-overlap"), finding("projects-yaml-status-enum"),
                                            finding("input-unreadable", true), finding("ledger-issue-grammar")};
  auto select = diag::RuleSelection::make({"ledger"}, {"ledger-issue-grammar"});
  REQUIRE(select);
  CHECK(rules_of(select->apply(findings)) == std::vector<std::string>{"ledger-run-overlap", "input-unreadable"});
  auto ignore = diag::RuleSelection::make({}, {"ledger", "input"});
  REQUIRE(ignore);
  CHECK(rules_of(ignore->apply(findings)) == std::vector<std::string>{"projects-yaml-status-enum", "input-unreadable"});
  auto none = diag::RuleSelection::make({}, {});
  REQUIRE(none);
  CHECK(none->empty());
  CHECK(none->apply(findings).size() == findings.size());
}

TEST_CASE("rule selection: a word naming no rule is a usage error with the nearest name", "[diag][rule_select]") {
  auto typo = diag::RuleSelection::make({"ledgr"}, {});
  REQUIRE_FALSE(typo);
  CHECK(typo.error().kind == ErrorKind::usage);
  CHECK(typo.error().message == "--select ledgr: no rule id or family of rules (did you mean 'ledger'?)");
  auto far = diag::RuleSelection::make({}, {"zzzzzzzz"});
  REQUIRE_FALSE(far);
  CHECK(far.error().message == "--ignore zzzzzzzz: no rule id or family of rules");
}
