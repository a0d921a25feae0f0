// The era-R `after:` keys of the peer cli cases (CR-18..CR-31): what the
// reference's tests read back from a ledger after a verb — the runs, the
// head of the log, the Now text — and from projects.yaml's rows. A key names
// the ledger of the step's project (argv[1]); a `single_` key the ledger of
// `single`; `row_KEY` the projects.yaml row KEY.
#include <catch2/catch.hpp>

#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "support/peer_cli.hpp"

namespace lg::test {
namespace {

ledger::ProjectLedger ledger_named(const FileMap& tree, const std::string& key) {
  const std::string path = "projects/" + key + ".md";
  INFO("ledger " << path);
  REQUIRE(tree.count(path) == 1);
  auto parsed = ledger::parse_project_ledger(tree.at(path));
  CHECK(parsed.problems.empty());
  return parsed;
}

// The step's own ledger (`""`), or `key`'s.
ledger::ProjectLedger ledger_for(const CliStep& step, const std::string& key) {
  if (!key.empty()) return ledger_named(step.after, key);
  REQUIRE(step.argv.size() >= 2);
  return ledger_named(step.after, step.argv[1]);
}

const ledger::LogEntry& head(const ledger::ProjectLedger& l) {
  REQUIRE_FALSE(l.log.empty());
  return l.log.front();
}

// Registers `name` reading the step's ledger and, as `single_` + name, single's.
void for_ledgers(const std::string& name,
                 const std::function<void(const YAML::Node&, const ledger::ProjectLedger&)>& test) {
  for (const std::string key : {"", "single"}) {
    register_after_check(key.empty() ? name : key + "_" + name,
                         [key, test](const YAML::Node& value, const CliStep& step, const CliCase&) {
                           test(value, ledger_for(step, key));
                         });
  }
}

void check_entry_fields(const YAML::Node& value, const ledger::LogEntry& e) {
  for (const auto& kv : value) {
    const std::string field = kv.first.as<std::string>(), want = kv.second.as<std::string>();
    INFO("log0." << field);
    if (field == "kind") {
      CHECK(e.kind == want);
    } else if (field == "text") {
      CHECK(e.text == want);
    } else if (field == "date") {
      CHECK(e.date == want);
    } else {
      FAIL("unknown log0 field " << field);
    }
  }
}

const ledger::RunLine& run_at(const ledger::ProjectLedger& l, std::size_t i) {
  REQUIRE(l.runs.size() > i);
  return l.runs[i];
}

const bool registered = [] {
  for_ledgers("runs_idents", [](const YAML::Node& v, const ledger::ProjectLedger& l) {
    std::vector<std::string> idents;
    for (const auto& r : l.runs) idents.push_back(r.ident);
    CHECK(idents == v.as<std::vector<std::string>>());
  });
  for_ledgers("last_run", [](const YAML::Node& v, const ledger::ProjectLedger& l) {
    REQUIRE_FALSE(l.runs.empty());
    const auto& r = l.runs.back();
    for (const auto& kv : v) {
      const std::string field = kv.first.as<std::string>(), want = kv.second.as<std::string>();
      INFO("last_run." << field);
      if (field == "state") {
        CHECK(r.state == want);
      } else if (field == "partition") {
        CHECK(r.partition == want);
      } else {
        FAIL("unknown last_run field " << field);
      }
    }
  });
  for_ledgers("runs0_partition", [](const YAML::Node& v, const ledger::ProjectLedger& l) {
    CHECK(run_at(l, 0).partition == v.as<std::string>());
  });
  for_ledgers("runs1_state", [](const YAML::Node& v, const ledger::ProjectLedger& l) {
    CHECK(run_at(l, 1).state == v.as<std::string>());
  });
  for_ledgers("log0", [](const YAML::Node& v, const ledger::ProjectLedger& l) { check_entry_fields(v, head(l)); });
  for_ledgers("log0_text", [](const YAML::Node& v, const ledger::ProjectLedger& l) {
    CHECK(head(l).text == v.as<std::string>());
  });
  for_ledgers("log0_text_startswith", [](const YAML::Node& v, const ledger::ProjectLedger& l) {
    CHECK_THAT(head(l).text, Catch::StartsWith(v.as<std::string>()));
  });
  for_ledgers("log0_kind", [](const YAML::Node& v, const ledger::ProjectLedger& l) {
    CHECK(head(l).kind == v.as<std::string>());
  });
  for_ledgers("log0_date", [](const YAML::Node& v, const ledger::ProjectLedger& l) {
    CHECK(head(l).date == v.as<std::string>());
  });
  for_ledgers("log_len", [](const YAML::Node& v, const ledger::ProjectLedger& l) {
    CHECK(l.log.size() == v.as<std::size_t>());
  });
  for_ledgers("now", [](const YAML::Node& v, const ledger::ProjectLedger& l) { CHECK(l.now == v.as<std::string>()); });
  for (const std::string key : {"example", "single", "sleeping", "wound_down"}) {
    register_after_check("row_" + key, [key](const YAML::Node& value, const CliStep& step, const CliCase&) {
      REQUIRE(step.after.count("projects.yaml") == 1);
      diag::CollectingSink sink;
      auto table = rules::check_projects_yaml(step.after.at("projects.yaml"), rules::ProjectsYamlEra{}, sink);
      const rules::ProjectRow* row = table.find(key);
      REQUIRE(row != nullptr);
      for (const auto& kv : value) {
        const std::string field = kv.first.as<std::string>();
        INFO("row " << key << "." << field);
        const auto got = row->get(field);
        REQUIRE(got.has_value());
        CHECK(*got == kv.second.as<std::string>());
      }
    });
  }
  return true;
}();

}  // namespace
}  // namespace lg::test
