// The `req` protocol steps as text edits: untouched lines stay byte for byte,
// refused steps are errors, and every result validates clean.
#include "ledgergate/rules/orl_protocol.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace lg::rules;

namespace {

bool clean(const std::string& before, const std::string& after) {
  for (const auto& f : validate_step(before, after, "x.yml")) {
    if (f.severity == lg::diag::Severity::error) return false;
  }
  return true;
}

OrlNewEntry gap(const std::string& id, bool blocking = false) {
  return OrlNewEntry{id, "step-a", "u", "m", "", blocking, false, "", ""};
}

}  // namespace

TEST_CASE("req: a run from an empty ledger to a surrender at the cap", "[rules][orl][req]") {
  std::string t(k_orl_empty);
  auto next = [&](lg::Result<std::string> r) {
    REQUIRE(r.has_value());
    CHECK(clean(t, *r));
    t = *r;
  };
  next(orl_append(t, gap("a", true)));
  next(orl_append(t, gap("b", true)));
  next(orl_append(t, gap("c", true)));
  next(orl_append(t, OrlNewEntry{"d", "step-b", "u", "m", "", false, true, "4 nodes", "see `tool x`"}));
  CHECK_FALSE(orl_append(t, gap("a")).has_value());  // the id exists
  next(orl_resolve(t, "a", "step-c", "done"));
  CHECK_FALSE(orl_resolve(t, "a", "step-c", "again").has_value());
  next(orl_supersede(t, OrlSupersede{"e", "step-d", "d", "x exists", "", "", ""}));
  CHECK(t.find("because: \"~~see `tool x`~~\"") != std::string::npos);
  next(orl_escalate(t, 3, 3));  // [3, 2]
  next(orl_resolve(t, "b", "repair", "wired"));
  next(orl_escalate(t, std::nullopt, std::nullopt));  // [3, 2, 1]
  // No progress: the result is non-convergent and must be refused.
  auto stuck = orl_escalate(t, std::nullopt, std::nullopt);
  REQUIRE(stuck.has_value());
  CHECK_FALSE(clean(t, *stuck));
  next(orl_note(t, "c", "no producer is discoverable"));
  next(orl_surrender(t, true, ""));
  auto s = orl_summary(t);
  REQUIRE(s.has_value());
  CHECK(s->entries == 5);
  CHECK(s->surrendered == 2);
  CHECK(s->dropped_units == 4);
  CHECK(s->converges);
}

TEST_CASE("req: edits keep untouched lines and comments", "[rules][orl][req]") {
  const std::string before =
      "# header\n"
      "entries:\n"
      "  - id: a   # first\n"
      "    status: open   # state\n"
      "    raised_by: s\n"
      "    unmet: u\n"
      "    missing: >-\n"
      "      two\n"
      "      lines\n"
      "\n"
      "  # second\n"
      "  - id: b\n"
      "    status: open\n"
      "    raised_by: s\n"
      "    unmet: u\n"
      "    missing: m\n"
      "# end\n";
  auto r = orl_resolve(before, "a", "step-z", "closed");
  REQUIRE(r.has_value());
  CHECK(*r ==
        "# header\n"
        "entries:\n"
        "  - id: a   # first\n"
        "    status: resolved\n"
        "    raised_by: s\n"
        "    unmet: u\n"
        "    missing: >-\n"
        "      two\n"
        "      lines\n"
        "    resolved_by: \"step-z\"\n"
        "    note: \"closed\"\n"
        "\n"
        "  # second\n"
        "  - id: b\n"
        "    status: open\n"
        "    raised_by: s\n"
        "    unmet: u\n"
        "    missing: m\n"
        "# end\n");
  auto a = orl_append(before, gap("c"));
  REQUIRE(a.has_value());
  CHECK(a->substr(0, before.size() - 6) == before.substr(0, before.size() - 6));
  CHECK(a->find("  - id: \"c\"\n") == before.size() - 6);
  CHECK(clean(before, *a));
  CHECK_FALSE(orl_resolve("entries:\n  - {id: a, status: open}\n", "a", "x", "y").has_value());
}
