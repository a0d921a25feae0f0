// The open-requirements model: the seed's own examples read into entries and
// a budget, with values, lines and duplicate keys kept; the glob matcher.
#include "ledgergate/ledger/open_requirements.hpp"

#include <catch2/catch.hpp>
#include <string>

using lg::ledger::OpenRequirements;
using lg::ledger::orl_glob_match;
using lg::ledger::parse_open_requirements;

TEST_CASE("orl model: the seed's topology_repair block and per-entry example", "[ledger][orl]") {
  const std::string text =
      "topology_repair:\n"
      "  escalations: 2           # repairs invoked this run\n"
      "  cap: 5\n"
      "  open_history: [4, 3, 2]\n"
      "entries:\n"
      "  - id: sccmec-evidence-missing\n"
      "    status: open                # open | resolved | surrendered\n"
      "    blocking: true\n"
      "    raised_by: implement-galaxy-tool-step\n"
      "    step: classify_context\n"
      "    unmet: \"SCCmec-region candidate output category\"\n"
      "    missing: \"no wired input carries SCCmec cassette evidence\"\n"
      "    resolved_by: null\n"
      "    supersedes: null\n"
      "    note: \"\"\n";
  const OpenRequirements doc = parse_open_requirements(text);
  REQUIRE_FALSE(doc.yaml_error);
  CHECK(doc.form == OpenRequirements::Form::mapping);
  REQUIRE(doc.budget);
  CHECK(doc.budget->escalations->as_int() == 2);
  CHECK(doc.budget->cap->as_int() == 5);
  REQUIRE(doc.budget->open_history->items.size() == 3);
  CHECK(doc.budget->open_history->items[2].as_int() == 2);
  REQUIRE(doc.entries.size() == 1);
  const auto& e = doc.entries[0];
  CHECK(e.id() == "sccmec-evidence-missing");
  CHECK(e.line == 6);
  CHECK(e.status() == "open");
  CHECK(e.kind() == "gap");
  CHECK(e.blocking());
  CHECK(e.get("step")->line == 10);
  CHECK(e.get("resolved_by")->is_null());
  CHECK(doc.open_blocking() == 1);
  CHECK(doc.find("sccmec-evidence-missing") == &doc.entries[0]);
}

TEST_CASE("orl model: empty, bare list, duplicate keys, YAML errors", "[ledger][orl]") {
  CHECK(parse_open_requirements("").form == OpenRequirements::Form::empty);
  CHECK(parse_open_requirements("# nothing yet\n").form == OpenRequirements::Form::empty);
  CHECK(parse_open_requirements("- id: a\n").form == OpenRequirements::Form::bare_list);
  CHECK(parse_open_requirements("just text\n").form == OpenRequirements::Form::other);
  const auto dup = parse_open_requirements("entries:\n  - id: a\n    id: b\n");
  REQUIRE(dup.entries.size() == 1);
  REQUIRE(dup.entries[0].keys.size() == 2);
  CHECK(dup.entries[0].keys[1].line == 3);
  CHECK(dup.entries[0].id() == "b");  // the loader's view: the last one
  const auto bad = parse_open_requirements("entries:\n  - id: [a\n");
  REQUIRE(bad.yaml_error);
  CHECK(bad.yaml_error->line > 0);
}

TEST_CASE("orl model: struck because", "[ledger][orl]") {
  const auto doc = parse_open_requirements(
      "entries:\n"
      "  - {id: a, because: \"~~no wrapper~~\"}\n"
      "  - {id: b, because: \"\"}\n"
      "  - {id: c, because: \"no wrapper\"}\n"
      "  - {id: d}\n");
  CHECK(doc.entries[0].because_struck());
  CHECK(doc.entries[1].because_struck());
  CHECK_FALSE(doc.entries[2].because_struck());
  CHECK(doc.entries[3].because_struck());
}

TEST_CASE("orl glob", "[ledger][orl]") {
  const std::string_view g = lg::ledger::k_orl_default_glob;
  CHECK(orl_glob_match(g, "open-requirements.ledger.yml"));
  CHECK(orl_glob_match(g, "runs/a/open-requirements.ledger.yml"));
  CHECK_FALSE(orl_glob_match(g, "runs/a/open-requirements.ledger.yaml"));
  CHECK(orl_glob_match("ledgers/*.yml", "ledgers/x.yml"));
  CHECK_FALSE(orl_glob_match("ledgers/*.yml", "ledgers/a/x.yml"));
  CHECK(orl_glob_match("*.orl.yml", "deep/dir/x.orl.yml"));
}
