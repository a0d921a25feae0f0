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
  // An id without a row does not compile under gcc: RuleId's constructor is consteval there.
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

namespace {

// The emit sites' shape (rules/file_emitter.hpp's Emitter::peer): a RuleId
// converted from a literal next to a message built from temporaries.
void emit(diag::CollectingSink& sink, rules::RuleId rule, int line, std::string message) {
  sink.report(rules::make_finding(rule, "projects/e.md", line, std::move(message), diag::PeerForm::path_message));
}

}  // namespace

TEST_CASE("registry: a RuleId literal beside temporary strings leaves them intact", "[rules][registry]") {
  // clang 14 misplaced the cleanups of such a call while RuleId's constructor
  // was consteval there: the temporaries' destruction freed a stack address
  // (the check_tree fuzz findings; clang unit tests crashed).
  diag::CollectingSink sink;
  const std::string raw = "r";
  for (int line = 1; line <= 3; ++line) {
    const std::string n = "line " + std::to_string(line) + ": ";
    switch (line) {
      case 1: emit(sink, "ledger-run-continuation-orphan", line, n + "continuation line without a run line"); break;
      case 2: emit(sink, "ledger-run-line-parses", line, n + "run line does not parse: " + raw); break;
      default: emit(sink, "ledger-log-line-parses", line, n + "log line does not parse: " + raw + raw); break;
    }
  }
  const auto& fs = sink.findings();
  REQUIRE(fs.size() == 3);
  CHECK(fs[0].message == "line 1: continuation line without a run line");
  CHECK(fs[1].rule == "ledger-run-line-parses");
  CHECK(fs[1].message == "line 2: run line does not parse: r");
  CHECK(fs[2].message == "line 3: log line does not parse: rr");
}
