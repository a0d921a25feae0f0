#include "ledgergate/policy/policy_file.hpp"

#include <catch2/catch.hpp>

using namespace lg::policy;

TEST_CASE("policy file: an empty or absent file is the built-in policy", "[policy][policy_file]") {
  auto empty = parse_policy("");
  REQUIRE(empty);
  CHECK(empty->paths.ledger_dirs == builtin_policy().ledger_dirs);
  CHECK(empty->profile == "auto");
  CHECK(empty->severities.empty());
  CHECK(empty->merge == LedgerMerge::records);
}

TEST_CASE("policy file: `merge` picks the record-level merge or git's", "[policy][policy_file]") {
  auto git = parse_policy("merge: git\n");
  REQUIRE(git);
  CHECK(git->merge == LedgerMerge::git);
  auto records = parse_policy("merge: records\n");
  REQUIRE(records);
  CHECK(records->merge == LedgerMerge::records);
}

TEST_CASE("policy file: `board_stale_days` sets the board's stale threshold (default 14)", "[policy][policy_file]") {
  auto builtin = parse_policy("");
  REQUIRE(builtin);
  CHECK(builtin->board_stale_days == 14);
  auto set = parse_policy("board_stale_days: 30\n");
  REQUIRE(set);
  CHECK(set->board_stale_days == 30);
  auto back = parse_policy(policy_file_text(*set));
  REQUIRE(back);
  CHECK(back->board_stale_days == 30);
}

TEST_CASE("policy file: `protected` names the branches pre-push gates (default main)", "[policy][policy_file]") {
  auto none = parse_policy("");
  REQUIRE(none);
  CHECK(none->protected_branches == std::vector<std::string>{"main"});
  auto two = parse_policy("protected: [main, release/2026]\n");
  REQUIRE(two);
  CHECK(two->protected_branches == std::vector<std::string>{"main", "release/2026"});
  auto full = parse_policy("protected: [refs/heads/main]\n");
  REQUIRE_FALSE(full);
  CHECK(full.error().message == ".ledgergate.yaml:1: `protected` names branches without refs/heads/: refs/heads/main");
  CHECK_FALSE(parse_policy("protected: main\n"));
}

TEST_CASE("policy file: every key overrides its built-in value", "[policy][policy_file]") {
  auto p = parse_policy(
      "version: 1\nprofile: cortex-projects\nledger_dirs: [projects/, notes/]\nledger_files: [checkin.yaml]\n"
      "excluded_names: ['*.py']\nfrozen_dirs: [archive/, old/]\nappend_only_dirs: [notes/]\nbirth_exception: false\n"
      "severities:\n  ledger-run-overlap: error\n  R-F07: warning\n");
  REQUIRE(p);
  CHECK(p->profile == "cortex-projects");
  CHECK(p->paths.ledger_dirs == std::vector<std::string>{"projects/", "notes/"});
  CHECK(p->paths.ledger_files == std::vector<std::string>{"checkin.yaml"});
  CHECK(p->paths.excluded_names == std::vector<std::string>{"*.py"});
  CHECK(p->paths.frozen_dirs == std::vector<std::string>{"archive/", "old/"});
  CHECK(p->paths.append_only_dirs == std::vector<std::string>{"notes/"});
  CHECK_FALSE(p->paths.birth_exception);
  CHECK(p->severities.at("ledger-run-overlap") == lg::diag::Severity::error);
  CHECK(p->severities.at("ledger-run-listed-once") == lg::diag::Severity::warning);  // by spec label
}

TEST_CASE("policy file: a severity `off` turns the rule off, and the check leaves no finding of it",
          "[policy][policy_file]") {
  auto p = parse_policy("severities:\n  R-F07: off\n  ledger-run-overlap: info\n");
  REQUIRE(p);
  CHECK(p->off.count("ledger-run-listed-once") == 1);  // by spec label, kept as the rule id
  CHECK(p->severities.count("ledger-run-listed-once") == 0);
  CHECK(p->severities.at("ledger-run-overlap") == lg::diag::Severity::info);
  const lg::ledger::CheckOptions options = lg::policy::check_options(*p);
  std::vector<lg::diag::Finding> findings(3);
  findings[0].rule = "ledger-run-listed-once";
  findings[1].rule = "ledger-run-overlap";
  findings[2].rule = "ledger-has-row";
  options.apply_severities(findings);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].rule == "ledger-run-overlap");
  CHECK(findings[0].severity == lg::diag::Severity::info);
  CHECK(findings[1].severity == lg::diag::Severity::error);
  auto again = parse_policy("severities:\n  R-F07: off\n  ledger-run-listed-once: warning\n");  // the last word counts
  REQUIRE(again);
  CHECK(again->off.empty());
}

TEST_CASE("policy file: errors name the line", "[policy][policy_file]") {
  using Row = std::pair<const char*, const char*>;
  const auto row = GENERATE(
      Row{"version: 1\nledger_dir: [x/]\n", ".ledgergate.yaml:2: unknown key `ledger_dir`"},
      Row{"ledger_dirs: [projects]\n", ".ledgergate.yaml:1: `ledger_dirs` entries are directories ending in /: projects"},
      Row{"severities:\n  no-such-rule: error\n", ".ledgergate.yaml:2: unknown rule `no-such-rule` (see `ledgergate rules`)"},
      Row{"severities:\n  R-F07: fatal\n", ".ledgergate.yaml:2: severity of `R-F07` must be error, warning, info or off"},
      Row{"birth_exception: maybe\n", ".ledgergate.yaml:1: `birth_exception` must be true or false"},
      Row{"- a\n", ".ledgergate.yaml:1: the policy must be a mapping of keys"},
      Row{"version: 2\n", ".ledgergate.yaml:1: `version` must be 1"},
      Row{"merge: union\n", ".ledgergate.yaml:1: `merge` must be records or git"},
      Row{"merge: [git]\n", ".ledgergate.yaml:1: `merge` must be records or git"},
      Row{"board_stale_days: 0\n", ".ledgergate.yaml:1: `board_stale_days` must be a whole number of days, 1 or more"},
      Row{"board_stale_days: two\n", ".ledgergate.yaml:1: `board_stale_days` must be a whole number of days, 1 or more"},
      Row{"ledger_dirs: [a/\n", ".ledgergate.yaml:2: not valid YAML: end of sequence flow not found"});
  CAPTURE(row.first);
  auto p = parse_policy(row.first);
  REQUIRE_FALSE(p);
  CHECK(p.error().message == row.second);
}

TEST_CASE("policy file: the text init writes spells out the built-in policy and reads back to exactly it",
          "[policy][policy_file]") {
  for (const char* profile : {"cortex-projects", "cortex-projects@r1", "cortex-tasks", "cortex-phases@p2"}) {
    INFO(profile);
    RepoPolicy builtin;
    builtin.profile = profile;
    builtin.paths = *builtin_policy(*policy_for_profile(profile));
    const std::string text = policy_file_text(builtin);
    auto back = parse_policy(text);
    REQUIRE(back);
    CHECK(back->profile == builtin.profile);
    CHECK(back->base_policy == builtin.paths.name);
    CHECK(back->paths.name == builtin.paths.name);
    CHECK(back->paths.ledger_dirs == builtin.paths.ledger_dirs);
    CHECK(back->paths.ledger_files == builtin.paths.ledger_files);
    CHECK(back->paths.excluded_names == builtin.paths.excluded_names);
    CHECK(back->paths.frozen_dirs == builtin.paths.frozen_dirs);
    CHECK(back->paths.append_only_dirs == builtin.paths.append_only_dirs);
    CHECK(back->paths.birth_exception == builtin.paths.birth_exception);
    CHECK(back->open_requirements_glob == builtin.open_requirements_glob);
    CHECK(back->severities == builtin.severities);
    CHECK(back->off == builtin.off);
    CHECK(back->merge == builtin.merge);
    CHECK(back->gate == builtin.gate);
    CHECK(back->baseline == builtin.baseline);
    CHECK(back->protected_branches == builtin.protected_branches);
    // Every key is written, each after a comment.
    for (const char* key : {"version:", "profile:", "base_policy:", "open_requirements_glob:", "ledger_dirs:",
                            "ledger_files:", "excluded_names:", "frozen_dirs:", "append_only_dirs:",
                            "birth_exception:", "severities:", "merge:", "protected:", "gate:"}) {
      INFO(key);
      const auto at = text.find("\n" + std::string(key));
      REQUIRE(at != std::string::npos);
      const auto line_start = text.rfind('\n', at - 1);
      CHECK(text.substr(line_start + 1, 1) == "#");
    }
  }
  // Severities and rules turned off are written too, and read back.
  RepoPolicy tuned;
  tuned.severities["ledger-run-overlap"] = lg::diag::Severity::error;
  tuned.off.insert("input-line-endings");
  tuned.merge = LedgerMerge::git;
  tuned.protected_branches = {"main", "release"};
  tuned.gate = lg::diag::Gate::all;
  tuned.baseline = "ci/ledgergate-baseline.json";
  auto back = parse_policy(policy_file_text(tuned));
  REQUIRE(back);
  CHECK(back->severities == tuned.severities);
  CHECK(back->off == tuned.off);
  CHECK(back->merge == LedgerMerge::git);
  CHECK(back->protected_branches == tuned.protected_branches);
  CHECK(back->gate == tuned.gate);
  CHECK(back->baseline == tuned.baseline);
}
