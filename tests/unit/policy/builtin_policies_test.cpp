// The built-in policies per reference version (spec §7.3), the profile →
// policy mapping, `base_policy:` in the policy file, and the choice by the
// judging tree's layout.
#include <catch2/catch.hpp>

#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/policy/classifier.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "support/fixture_tree.hpp"

using namespace lg::policy;

namespace {

bool ledger(const Policy& p, std::string_view path) { return classify_path(p, path).cls == PathClass::ledger; }
Policy named(std::string_view name) {
  auto p = builtin_policy(name);
  REQUIRE(p);
  return *p;
}
PathClass with_status(const Policy& p, const char* status, const char* path) {
  return classify_changes(p, {{status, path, FileKind::file}}, false).paths.at(0).cls;
}

}  // namespace

TEST_CASE("builtin policies: the constants of each reference version", "[policy][builtin]") {
  for (std::string_view name : builtin_policy_names()) {
    CAPTURE(name);
    const Policy p = named(name);
    CHECK(p.name == name);
    CHECK(p.excluded_names == builtin_policy().excluded_names);  // the same in every version
    CHECK_FALSE(ledger(p, "projects.yaml"));
    CHECK_FALSE(ledger(p, "README.md"));
    CHECK_FALSE(ledger(p, "scripts/cortex.py"));
  }
  const Policy p1 = named("LM-P1"), p2 = named("LM-P2"), p3 = named("LM-P3"), t = named("LM-T");
  const Policy r1 = named("LM-R1"), r2 = named("LM-R2");
  // Ledger dirs follow the layout.
  CHECK(ledger(p2, "phases/example/01_scope.md"));
  CHECK_FALSE(ledger(p2, "tasks/example/01_scope.md"));
  CHECK(ledger(t, "tasks/example/01_scope.md"));
  CHECK_FALSE(ledger(t, "phases/example/01_scope.md"));
  CHECK_FALSE(ledger(t, "projects/example.md"));
  CHECK(ledger(r2, "projects/example.md"));
  CHECK_FALSE(ledger(r2, "rulings/2026/09/R-20260901-01.md"));
  CHECK(ledger(t, "rulings/2026/09/R-20260901-01.md"));
  // Ledger files: epics.md until P3, checkin.yaml from P3 on.
  CHECK(ledger(p1, "epics.md"));
  CHECK(ledger(p2, "epics.md"));
  CHECK_FALSE(ledger(p2, "checkin.yaml"));
  CHECK(ledger(p3, "checkin.yaml"));
  CHECK(ledger(p3, "epics.md"));
  CHECK_FALSE(ledger(t, "epics.md"));
  CHECK(ledger(t, "checkin.yaml"));
  // Append-only: rulings/ in P1; rulings/ and batches/ in P2, P3, T; none in R.
  CHECK(with_status(p1, "M", "rulings/2026/09/R-20260901-01.md") == PathClass::code);
  CHECK(with_status(p1, "M", "batches/2026-09-01-pm.md") == PathClass::ledger);
  for (const Policy* p : {&p2, &p3, &t}) {
    CHECK(with_status(*p, "A", "batches/2026-09-01-pm.md") == PathClass::ledger);
    CHECK(with_status(*p, "M", "batches/2026-09-01-pm.md") == PathClass::code);
    CHECK(with_status(*p, "R100", "rulings/2026/09/R-20260901-03.md") == PathClass::code);
  }
  CHECK(with_status(t, "M", "tasks/example/08_accepted.md") == PathClass::ledger);
  // archive/ is frozen in R only; the birth exception is R2's.
  CHECK(classify_path(r1, "archive/x.md").reason == "frozen dir archive/");
  CHECK(classify_path(t, "archive/x.md").reason == "not under a ledger dir");
  CHECK_FALSE(r1.birth_exception);
  CHECK(r2.birth_exception);
  CHECK_FALSE(t.birth_exception);
  CHECK_FALSE(builtin_policy("LM-X"));
}

TEST_CASE("builtin policies: the profile picks the version", "[policy][builtin]") {
  using Row = std::pair<const char*, const char*>;
  const auto row = GENERATE(Row{"cortex-phases", "LM-P3"}, Row{"cortex-phases@p3", "LM-P3"},
                            Row{"cortex-phases@p2", "LM-P2"}, Row{"cortex-phases@p1a", "LM-P1"},
                            Row{"cortex-phases@p1b", "LM-P1"}, Row{"cortex-phases@p1c", "LM-P1"},
                            Row{"cortex-tasks", "LM-T"}, Row{"cortex-tasks@t1", "LM-T"}, Row{"cortex-tasks@t2", "LM-T"},
                            Row{"cortex-projects", "LM-R2"}, Row{"cortex-projects@r1", "LM-R1"},
                            Row{"cortex-projects+open-requirements", "LM-R2"}, Row{"open-requirements", "LM-R2"},
                            Row{"", "LM-R2"}, Row{"auto", "LM-R2"});
  CAPTURE(row.first);
  const auto got = policy_for_profile(row.first);
  REQUIRE(got);
  CHECK(*got == row.second);
}

TEST_CASE("builtin policies: an unknown sub-era is refused", "[policy][builtin]") {
  const auto bad = GENERATE("cortex-phases@p9", "cortex-tasks@p2", "cortex-projects@t1", "open-requirements@x");
  CAPTURE(bad);
  CHECK_FALSE(policy_for_profile(bad));
}

TEST_CASE("policy file: base_policy and a pinned profile choose the built-in base", "[policy][policy_file]") {
  auto t = parse_policy("base_policy: LM-T\nledger_files: [checkin.yaml, notes.md]\n");
  REQUIRE(t);
  CHECK(t->paths.name == "LM-T");
  CHECK(t->paths.ledger_dirs == std::vector<std::string>{"tasks/", "rulings/", "batches/"});
  CHECK(t->paths.ledger_files == std::vector<std::string>{"checkin.yaml", "notes.md"});  // the key overrides
  CHECK(t->paths.append_only_dirs == std::vector<std::string>{"rulings/", "batches/"});  // the base's

  auto pinned = parse_policy("profile: cortex-phases@p1a\n");
  REQUIRE(pinned);
  CHECK(pinned->paths.name == "LM-P1");

  auto bad_base = parse_policy("version: 1\nbase_policy: LM-Q\n");
  REQUIRE_FALSE(bad_base);
  CHECK(bad_base.error().message ==
        ".ledgergate.yaml:2: `base_policy` must be one of LM-P1, LM-P2, LM-P3, LM-T, LM-R1, LM-R2");
  auto bad_profile = parse_policy("profile: cortex-phases@p7\n");
  REQUIRE_FALSE(bad_profile);
  CHECK(bad_profile.error().message == ".ledgergate.yaml:1: unknown sub-era in profile `cortex-phases@p7`");
}

TEST_CASE("policy file: without a pin, the judging tree's layout chooses", "[policy][policy_file]") {
  struct Row {
    lg::test::FileMap files;
    const char* override_profile;
    const char* want;
  };
  const auto row = GENERATE(
      Row{{{"tasks/p/01_a.md", "# a\n"}}, "", "LM-T"}, Row{{{"phases/p/01_a.md", "# a\n"}}, "", "LM-P3"},
      Row{{{"phases/p/01_a.md", "# a\n"}}, "cortex-phases@p2", "LM-P2"},
      Row{{{"projects/a.md", "# a\n"}}, "", "LM-R2"}, Row{{{"notes.txt", "x\n"}}, "", "LM-R2"},
      Row{{{"tasks/p/01_a.md", "# a\n"}, {".ledgergate.yaml", "profile: cortex-phases@p1c\n"}}, "", "LM-P1"},
      Row{{{"tasks/p/01_a.md", "# a\n"}, {".ledgergate.yaml", "base_policy: LM-R2\n"}}, "", "LM-R2"},
      Row{{{"tasks/p/01_a.md", "# a\n"}, {".ledgergate.yaml", "profile: cortex-tasks\n"}}, "cortex-phases", "LM-P3"});
  lg::test::TempDir dir;
  lg::test::write_tree(dir.path(), row.files);
  auto tree = lg::git::open_directory_source(dir.path());
  REQUIRE(tree);
  auto pol = load_policy(**tree, row.override_profile);
  REQUIRE(pol);
  CHECK(pol->paths.name == row.want);
  auto bad = load_policy(**tree, "cortex-tasks@t9");
  REQUIRE_FALSE(bad);
}
