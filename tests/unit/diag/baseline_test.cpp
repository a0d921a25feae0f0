#include "ledgergate/diag/baseline.hpp"
#include "ledgergate/diag/verdict.hpp"

#include <catch2/catch.hpp>

using namespace lg;

namespace {
diag::Finding finding(std::string rule, std::string path, int line, std::string message) {
  diag::Finding f;
  f.rule = std::move(rule);
  f.location = {"HEAD", std::move(path), line, 0};
  f.message = std::move(message);
  return f;
}
}  // namespace

TEST_CASE("baseline: a fingerprint does not move with the line, but with the rule, path and words",
          "[diag][baseline]") {
  const auto a = finding("ledger-run-listed-once", "projects/x.md", 12, "run 3 is listed twice (line 12 and line 40)");
  auto moved = a;
  moved.location.line = 15;
  moved.message = "run 3 is listed twice (line 15 and line 43)";
  CHECK(diag::fingerprint(a) == diag::fingerprint(moved));
  CHECK(diag::normalised_message("see projects/x.md:12, lines 3-5") == "see projects/x.md:#, lines #");
  auto other_run = a;
  other_run.message = "run 4 is listed twice (line 12 and line 40)";
  CHECK(diag::fingerprint(a) != diag::fingerprint(other_run));
  auto other_path = a;
  other_path.location.path = "projects/y.md";
  CHECK(diag::fingerprint(a) != diag::fingerprint(other_path));
  auto other_rule = a;
  other_rule.rule = "ledger-has-row";
  CHECK(diag::fingerprint(a) != diag::fingerprint(other_rule));
  CHECK(diag::fingerprint(a).size() == 16);
}

TEST_CASE("baseline: the file round-trips and suppresses each recorded finding once", "[diag][baseline]") {
  const std::vector<diag::Finding> today = {
      finding("ledger-has-row", "projects/a\tb.md", 0, "no row in projects.yaml"),
      finding("ledger-run-listed-once", "projects/x.md", 3, "run 1 listed twice"),
      finding("ledger-run-listed-once", "projects/x.md", 9, "run 1 listed twice"),
  };
  const std::string text = diag::Baseline::of(today).render();
  CHECK(text.rfind("ledgergate-baseline 1\n", 0) == 0);
  CHECK(text.find("projects/a\\tb.md") != std::string::npos);  // a tab in a path is escaped
  auto parsed = diag::Baseline::parse(text);
  REQUIRE(parsed);
  CHECK(parsed->size() == 3);
  CHECK(parsed->render() == text);

  std::vector<diag::Finding> later = today;
  later.push_back(finding("ledger-run-listed-once", "projects/x.md", 20, "run 1 listed twice"));  // a third copy: new
  later.push_back(finding("ledger-has-row", "projects/new.md", 0, "no row in projects.yaml"));    // new
  later[1].location.line = 30;  // lines inserted above: still the same finding
  const std::vector<diag::Finding> suppressed = parsed->suppress(later);
  CHECK(suppressed.size() == 3);
  REQUIRE(later.size() == 2);
  CHECK(later[0].location.line == 20);
  CHECK(later[1].location.path == "projects/new.md");
}

TEST_CASE("baseline: a file that is not a baseline is refused with its line", "[diag][baseline]") {
  CHECK(diag::Baseline::parse("").error().message.find("empty") != std::string::npos);
  CHECK(diag::Baseline::parse("{\"findings\": []}\n").error().message.rfind("line 1:", 0) == 0);
  CHECK(diag::Baseline::parse("ledgergate-baseline 1\nnot a row\n").error().message.rfind("line 2:", 0) == 0);
  CHECK(diag::Baseline::parse("ledgergate-baseline 1\n# a comment\n\n"));
}

TEST_CASE("attribute: a finding the reference has is pre-existing, matched once, and a removed one is fixed",
          "[diag][baseline][gate]") {
  const auto old_a = finding("ledger-retired-has-no-runs", "projects/a.md", 13, "a retired project still lists runs");
  const auto old_b = finding("ledger-retired-has-no-runs", "projects/b.md", 13, "a retired project still lists runs");
  const auto twice = finding("ledger-run-listed-once", "projects/x.md", 3, "run 1 listed twice");
  SECTION("the same findings, lines moved: all pre-existing, nothing fixed") {
    auto moved = old_a;
    moved.location.line = 20;
    std::vector<diag::Finding> now = {moved, old_b};
    CHECK(diag::attribute(now, {old_a, old_b}).empty());
    CHECK(now[0].state == diag::FindingState::pre_existing);
    CHECK(now[1].state == diag::FindingState::pre_existing);
  }
  SECTION("a second copy of an old finding is new (a multiset)") {
    std::vector<diag::Finding> now = {twice, twice};
    CHECK(diag::attribute(now, {twice}).empty());
    CHECK(now[0].state == diag::FindingState::pre_existing);
    CHECK(now[1].state == diag::FindingState::introduced);
  }
  SECTION("a finding the change removes is fixed, reported as the reference had it") {
    std::vector<diag::Finding> now = {old_b, twice};
    const auto fixed = diag::attribute(now, {old_a, old_b});
    REQUIRE(fixed.size() == 1);
    CHECK(fixed[0].location.path == "projects/a.md");
    CHECK(now[0].state == diag::FindingState::pre_existing);
    CHECK(now[1].state == diag::FindingState::introduced);
  }
  SECTION("a moved file keeps its findings, its old path in the message too") {
    auto before = finding("orl-id-unique", "old/open-requirements.ledger.yml", 4,
                          "id R-1 is listed twice in old/open-requirements.ledger.yml");
    auto after = finding("orl-id-unique", "new/open-requirements.ledger.yml", 9,
                         "id R-1 is listed twice in new/open-requirements.ledger.yml");
    std::vector<diag::Finding> now = {after};
    CHECK(diag::attribute(now, {before}).size() == 1);  // without the move: new, and the old one fixed
    CHECK(now[0].state == diag::FindingState::introduced);
    CHECK(diag::attribute(now, {before}, {{"old/open-requirements.ledger.yml", "new/open-requirements.ledger.yml"}})
              .empty());
    CHECK(now[0].state == diag::FindingState::pre_existing);
  }
}

TEST_CASE("gate: new fails on introduced errors only, all on every error", "[diag][gate]") {
  auto old_error = finding("ledger-retired-has-no-runs", "projects/a.md", 13, "a retired project still lists runs");
  old_error.state = diag::FindingState::pre_existing;
  auto new_warning = finding("input-line-endings", "projects/a.md", 0, "CRLF");
  new_warning.severity = diag::Severity::warning;
  new_warning.state = diag::FindingState::introduced;
  auto unjudged = old_error;
  unjudged.state = diag::FindingState::unjudged;
  CHECK_FALSE(diag::any_blocking({old_error, new_warning}, diag::Gate::introduced));
  CHECK(diag::any_blocking({old_error, new_warning}, diag::Gate::all));
  CHECK(diag::any_blocking({unjudged}, diag::Gate::introduced));  // no reference: it counts
  CHECK(diag::parse_gate("new") == diag::Gate::introduced);
  CHECK(diag::parse_gate("all") == diag::Gate::all);
  CHECK_FALSE(diag::parse_gate("none"));
}
