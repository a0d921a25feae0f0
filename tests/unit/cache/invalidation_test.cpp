// The persistent cache's one rule (cache/cache.hpp, docs/cache.md): for
// every kind of entry, a change of the rule table, of ledgergate's version
// or of an input makes the entry kept before a miss. The facts pack and the
// projects memo are one entry per cache: their inputs are the keys of the
// records inside them, checked here as the check reads them back.
#include "ledgergate/cache/cache.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "../../../src/rules/check_store.hpp"
#include "ledgergate/diag/rule_table.hpp"
#include "support/fixture_tree.hpp"

namespace cache = lg::cache;
namespace rules = lg::rules;
namespace git = lg::git;

namespace {

// The entry of `kind` for `inputs`, kept by a cache stamped `stamp`, then
// looked up by a cache stamped `with` for `lookup`: whether it is a hit.
bool kept_and_found(const std::string& dir, cache::Kind kind, const cache::Stamp& stamp,
                    const std::vector<std::string>& inputs, const cache::Stamp& with,
                    const std::vector<std::string>& lookup) {
  const auto list = [](const std::vector<std::string>& v) {
    // key_of takes an initializer list; the kinds take at most four inputs.
    static const std::string none;
    const auto at = [&v](std::size_t i) -> const std::string& { return i < v.size() ? v[i] : none; };
    return std::vector<std::string_view>{at(0), at(1), at(2), at(3)};
  };
  const auto in = list(inputs);
  const auto out = list(lookup);
  const std::string payload = "payload of " + std::string(cache::spec(kind).layout);
  const cache::Cache writer(cache::Store(dir), stamp);
  const cache::Cache reader(cache::Store(dir), with);
  const auto call = [&](const cache::Cache& c, const std::vector<std::string_view>& v, bool put) {
    switch (cache::spec(kind).inputs) {
      case 0:
        return put ? c.put(kind, {}, payload) : c.get(kind, {}).payload == std::optional<std::string_view>(payload);
      case 2:
        return put ? c.put(kind, {v[0], v[1]}, payload)
                   : c.get(kind, {v[0], v[1]}).payload == std::optional<std::string_view>(payload);
      case 4:
        return put ? c.put(kind, {v[0], v[1], v[2], v[3]}, payload)
                   : c.get(kind, {v[0], v[1], v[2], v[3]}).payload == std::optional<std::string_view>(payload);
    }
    FAIL("a kind with " << cache::spec(kind).inputs << " inputs: add it here");
    return false;
  };
  REQUIRE(call(writer, in, true));
  return call(reader, out, false);
}

git::ObjectId blob(char c) { return *git::ObjectId::from_hex(std::string(40, c)); }

}  // namespace

TEST_CASE("cache: a change of rule table, version or input makes every kind's entry a miss", "[cache][invalidation]") {
  cache::enable();
  // The rule table's fingerprint follows every rule's id, severity and profiles.
  const auto table = lg::diag::all_rules();
  REQUIRE(table.size() > 1);
  std::vector<lg::diag::RuleInfo> changed(table.begin(), table.end());
  const std::string now = cache::rules_fingerprint(table);
  CHECK(cache::Stamp::current().rules == now);
  changed[0].severity = changed[0].severity == lg::diag::Severity::error ? lg::diag::Severity::warning
                                                                         : lg::diag::Severity::error;
  CHECK(cache::rules_fingerprint(changed) != now);
  changed.assign(table.begin(), table.end());
  changed[1].profile = "cortex-tasks cortex-phases cortex-projects";
  CHECK(cache::rules_fingerprint(changed) != now);
  changed.pop_back();
  CHECK(cache::rules_fingerprint(changed) != now);

  const cache::Stamp stamp{"1.2.3", now};
  const cache::Stamp other_rules{"1.2.3", cache::rules_fingerprint(changed)};
  const cache::Stamp other_version{"1.2.4", now};
  for (const cache::Kind kind : cache::k_all_kinds) {
    const cache::KindSpec& spec = cache::spec(kind);
    INFO("kind " << spec.folder << " (" << spec.layout << ")");
    lg::test::TempDir dir;
    std::vector<std::string> inputs;
    for (std::size_t i = 0; i < spec.inputs; ++i) inputs.push_back("input " + std::to_string(i));
    CHECK(kept_and_found(dir.path() + "/same", kind, stamp, inputs, stamp, inputs));
    CHECK_FALSE(kept_and_found(dir.path() + "/rules", kind, stamp, inputs, other_rules, inputs));
    CHECK_FALSE(kept_and_found(dir.path() + "/version", kind, stamp, inputs, other_version, inputs));
    for (std::size_t i = 0; i < spec.inputs; ++i) {
      std::vector<std::string> other = inputs;
      other[i] += "'";
      CHECK_FALSE(kept_and_found(dir.path() + "/input" + std::to_string(i), kind, stamp, inputs, stamp, other));
    }
  }
  // No two kinds share a key for the same inputs (their layouts differ).
  std::vector<std::string> keys;
  for (const cache::Kind kind : cache::k_all_kinds) keys.push_back(std::string(cache::spec(kind).layout));
  std::sort(keys.begin(), keys.end());
  CHECK(std::adjacent_find(keys.begin(), keys.end()) == keys.end());
}

TEST_CASE("cache: the facts pack's and the projects memo's records are keyed by their inputs", "[cache][invalidation]") {
  // The facts pack: a ledger's record by its path, blob and row inputs.
  const git::EntryView ledger{"k1.md", blob('1'), git::EntryKind::file, true};
  std::string key;
  rules::ledger_fact_key(key, ledger, std::string("row\0\0", 5));
  rules::FactsPack pack;
  pack.keep(key, {});
  pack.keep_yaml(blob('9').hex(), rules::YamlFacts::build({}, {}));
  pack.keep(rules::orl_fact_key(blob('2'), "a/open-requirements.ledger.yml"), {});
  pack.keep_glob(rules::glob_fact_key(blob('3'), "**/open-requirements.ledger.yml"),
                 std::make_shared<const std::vector<std::string>>());
  rules::FactsPack back;
  REQUIRE(back.load(pack.encode_whole()));
  CHECK(back.find(key) != nullptr);
  const git::EntryView moved{"k2.md", blob('1'), git::EntryKind::file, true};
  const git::EntryView edited{"k1.md", blob('4'), git::EntryKind::file, true};
  for (const auto& [entry, inputs] : std::vector<std::pair<git::EntryView, std::string>>{
           {moved, std::string("row\0\0", 5)},                       // another path
           {edited, std::string("row\0\0", 5)},                      // another blob
           {ledger, std::string("row\0vactive\0", 12)},              // another row
       }) {
    rules::ledger_fact_key(key, entry, inputs);
    CHECK(back.find(key) == nullptr);
  }
  CHECK(back.find_yaml(blob('9').hex()) != nullptr);
  CHECK(back.find_yaml(blob('8').hex()) == nullptr);
  CHECK(back.find(rules::orl_fact_key(blob('2'), "a/open-requirements.ledger.yml")) != nullptr);
  CHECK(back.find(rules::orl_fact_key(blob('5'), "a/open-requirements.ledger.yml")) == nullptr);
  CHECK(back.find(rules::orl_fact_key(blob('2'), "b/open-requirements.ledger.yml")) == nullptr);
  CHECK(back.find_glob(rules::glob_fact_key(blob('3'), "**/open-requirements.ledger.yml")) != nullptr);
  CHECK(back.find_glob(rules::glob_fact_key(blob('6'), "**/open-requirements.ledger.yml")) == nullptr);
  CHECK(back.find_glob(rules::glob_fact_key(blob('3'), "**/other.yml")) == nullptr);

  // The projects memo: built against one projects.yaml blob, a record per
  // ledger by its name, kind and blob.
  rules::MemoWriter writer(blob('9').hex(), {});
  writer.add("k1.md", git::EntryKind::file, blob('1').raw(), "", {});
  const std::string memo = writer.finish({});
  rules::MemoReader reader(memo);
  REQUIRE(reader.ok());
  CHECK(reader.yaml_id() == blob('9').hex());
  CHECK(reader.yaml_id() != blob('8').hex());  // another projects.yaml: the pass declines the memo
  rules::MemoRecord record;
  REQUIRE(reader.next(record));
  CHECK(record.matches(ledger));
  CHECK_FALSE(record.matches(moved));
  CHECK_FALSE(record.matches(edited));
  CHECK_FALSE(record.matches(git::EntryView{"k1.md", blob('1'), git::EntryKind::executable, true}));
}
