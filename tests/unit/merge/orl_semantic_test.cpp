// The open-requirements merge detectors (orl-m-*), three versions at a time.
#include "../../../src/merge/orl_semantic.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <string>

namespace {

std::set<std::string> kinds(const std::string& b, const std::string& o, const std::string& t) {
  using lg::ledger::parse_open_requirements;
  std::set<std::string> out;
  for (const auto& c : lg::merge::detect_orl_conflicts(parse_open_requirements(b), parse_open_requirements(o),
                                                       parse_open_requirements(t), "x.yml")) {
    out.insert(c.kind);
  }
  return out;
}

std::string gap(const std::string& id, const std::string& by, const std::string& status = "open",
                const std::string& extra = "") {
  return "  - id: " + id + "\n    status: " + status + "\n    raised_by: " + by + "\n    unmet: u\n    missing: m\n" +
         extra;
}

std::string budget(int esc, const std::string& hist) {
  return "topology_repair:\n  escalations: " + std::to_string(esc) + "\n  cap: 5\n  open_history: " + hist + "\n";
}

}  // namespace

TEST_CASE("orl merge: the same id appended on both sides", "[merge][orl]") {
  const std::string base = "entries:\n" + gap("a", "s");
  CHECK(kinds(base, base + gap("b", "x"), base + gap("b", "y")) == std::set<std::string>{"orl-m-id-collision"});
  CHECK(kinds(base, base + gap("b", "x"), base + gap("b", "x")) == std::set<std::string>{"orl-m-id-collision"});
  CHECK(kinds(base, base + gap("b", "x"), base + gap("c", "y")).empty());
  const auto c = lg::merge::detect_orl_conflicts(
      lg::ledger::parse_open_requirements(base), lg::ledger::parse_open_requirements(base + gap("b", "x")),
      lg::ledger::parse_open_requirements(base + gap("b", "y")), "x.yml");
  REQUIRE(c.size() == 1);
  CHECK(c[0].message.find("`b`") != std::string::npos);
  CHECK(c[0].message.find("`b-2`") != std::string::npos);
}

TEST_CASE("orl merge: divergent status and double escalation", "[merge][orl]") {
  const std::string base = "entries:\n" + gap("a", "s");
  const std::string by_x = "entries:\n" + gap("a", "s", "resolved", "    resolved_by: x\n");
  const std::string by_y = "entries:\n" + gap("a", "s", "resolved", "    resolved_by: y\n");
  const std::string gave_up = "entries:\n" + gap("a", "s", "surrendered", "    note: n\n");
  CHECK(kinds(base, by_x, by_y) == std::set<std::string>{"orl-m-divergent-status"});
  CHECK(kinds(base, by_x, gave_up) == std::set<std::string>{"orl-m-divergent-status"});
  CHECK(kinds(base, by_x, by_x).empty());
  CHECK(kinds(base, by_x, base).empty());
  const std::string b1 = budget(1, "[3, 2]") + base;
  CHECK(kinds(b1, budget(2, "[3, 2, 1]") + base, budget(2, "[3, 2, 0]") + base) ==
        std::set<std::string>{"orl-m-double-escalation"});
  CHECK(kinds(b1, budget(2, "[3, 2, 1]") + base, b1).empty());
}
