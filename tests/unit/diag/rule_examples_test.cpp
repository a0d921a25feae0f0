// The examples `explain` prints are true: each one, applied to its profile's
// skeleton ledger, gives a tree where the good text has no finding of the
// rule and the bad text has one; and every catalogue row has an example.
#include "ledgergate/diag/rule_examples.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>

#include "ledgergate/audit/audit.hpp"
#include "ledgergate/diag/rule_table.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/rules/registry.hpp"
#include "support/peer_cases.hpp"

namespace lg::test {
namespace {

FileMap skeleton_files(std::string_view name) {
  if (name == "P-skeleton") return read_tree(shared_dir() + "/corpus/cortex-fixtures/phases-skeleton");
  if (name == "P1-skeleton") return p1_skeleton(peer_cases());
  if (name == "ORL-skeleton") {
    return read_tree(std::string(LEDGERGATE_SOURCE_DIR) + "/fixtures/ledgers/open-requirements");
  }
  return peer_fixture(peer_cases(), std::string(name));
}

// The rule ids `check` reports on `files` (a plain folder, as `--root` reads it).
// The P1 skeleton holds P1-only keys (Lane:, Gates-cleared:), so it is checked
// as cortex-phases@p1c, as the peer cases check it; the others auto-detect.
// With `symlink` set, that path of the folder is a symlink to `target` instead.
std::set<std::string> rules_reported(const FileMap& files, std::string_view skeleton, std::string_view symlink = {},
                                     std::string_view target = {}) {
  TempDir dir;
  write_tree(dir.path() + "/root", files);
  if (!symlink.empty()) {
    std::filesystem::create_symlink(std::string(target), dir.path() + "/root/" + std::string(symlink));
  }
  auto tree = git::open_directory_source(dir.path() + "/root");
  REQUIRE(tree.has_value());
  rules::CheckCache cache;
  rules::CheckOptions options;
  if (skeleton == "P1-skeleton") options.profile = "cortex-phases@p1c";
  auto report = rules::check_tree(**tree, options, cache);
  REQUIRE(report.has_value());
  std::set<std::string> out;
  for (const diag::Finding& f : report->findings) out.insert(f.rule);
  return out;
}

bool history_rule(std::string_view id) { return id.starts_with("orl-h-") || id.starts_with("audit-"); }

// The rule ids reported from `before` to `after`: the cross-version rules of
// `check --against` (orl-h-*) on two folders, or `audit` of a two-commit history.
std::set<std::string> rules_between(const FileMap& before, const FileMap& after, std::string_view id) {
  TempDir dir;
  std::set<std::string> out;
  if (id.starts_with("orl-h-")) {
    write_tree(dir.path() + "/before", before);
    write_tree(dir.path() + "/after", after);
    auto a = git::open_directory_source(dir.path() + "/before");
    auto b = git::open_directory_source(dir.path() + "/after");
    REQUIRE((a.has_value() && b.has_value()));
    auto findings = rules::check_open_requirements_between(**a, **b, {});
    REQUIRE(findings.has_value());
    for (const diag::Finding& f : *findings) out.insert(f.rule);
    return out;
  }
  const git_oid first = commit_tree(dir.path() + "/repo", before, "before");
  commit_tree(dir.path() + "/repo", after, "after", &first);
  auto repo = git::Repository::open(dir.path() + "/repo", false);
  REQUIRE(repo.has_value());
  auto report = audit::audit_history(*repo, {});
  REQUIRE(report.has_value());
  for (const audit::AuditFinding& f : report->findings) out.insert(f.finding.rule);
  return out;
}

}  // namespace

TEST_CASE("each rule example: the good text passes the rule, the bad text breaks it", "[diag][examples]") {
  std::set<std::string_view> seen;
  for (const diag::RuleExample& e : diag::all_rule_examples()) {
    INFO("example of " << e.id << " (" << e.skeleton << ", " << e.path << ")");
    CHECK(seen.insert(e.id).second);  // one example per rule
    REQUIRE(rules::find_rule(e.id) != nullptr);
    CHECK_FALSE(e.fix.empty());
    if (e.kind == diag::ExampleKind::described) {  // prose; listed in the next test case
      CHECK_FALSE(e.good.empty());
      CHECK_FALSE(e.bad.empty());
      continue;
    }
    FileMap good = skeleton_files(e.skeleton);
    REQUIRE_FALSE(good.empty());
    FileMap bad = good;
    if (e.kind == diag::ExampleKind::symlink) {
      REQUIRE(bad.erase(std::string(e.path)) == 1);
      CHECK(rules_reported(good, e.skeleton).count(std::string(e.id)) == 0);
      CHECK(rules_reported(bad, e.skeleton, e.path, e.bad).count(std::string(e.id)) == 1);
      continue;
    }
    if (e.kind == diag::ExampleKind::remove_file) {
      REQUIRE(bad.erase(std::string(e.path)) == 1);
    } else if (e.good.empty()) {
      CHECK(good.count(std::string(e.path)) == 0);
      bad[std::string(e.path)] = std::string(e.bad);
    } else {
      REQUIRE(good.count(std::string(e.path)) == 1);
      replace_once(bad.at(std::string(e.path)), std::string(e.good), std::string(e.bad));
    }
    if (history_rule(e.id)) {  // before (the skeleton, holding `good`) → after (with `bad`)
      CHECK(rules_between(good, good, e.id).count(std::string(e.id)) == 0);
      CHECK(rules_between(good, bad, e.id).count(std::string(e.id)) == 1);
      continue;
    }
    CHECK(rules_reported(good, e.skeleton).count(std::string(e.id)) == 0);
    CHECK(rules_reported(bad, e.skeleton).count(std::string(e.id)) == 1);
  }
}

TEST_CASE("every catalogue rule has an example", "[diag][examples]") {
  std::string missing;
  for (const diag::RuleInfo& r : rules::all_rules()) {
    if (!diag::find_rule_example(r.id)) missing += std::string(r.id) + " ";
  }
  INFO("rules without an example: " << missing);
  CHECK(missing.empty());
}

// The rules whose example is prose, not verified against a tree: exactly these.
// Moving a rule out of this list means giving it a verified example.
TEST_CASE("the described (unverified) examples are exactly the listed rules", "[diag][examples]") {
  const std::set<std::string> expected = {
      "input-unreadable",       "audit-archive-changed",
      "audit-archive-move-edited", "audit-ruling-id-reused", "audit-migration",
      "audit-migration-edited", "audit-merge-manual-resolution", "audit-ledger-merge-unclean",
      "audit-not-checked", "merge-conflict", "merge-semantic-conflict"};
  std::set<std::string> described;
  for (const diag::RuleExample& e : diag::all_rule_examples()) {
    if (e.kind == diag::ExampleKind::described) described.insert(std::string(e.id));
  }
  CHECK(described == expected);
}

}  // namespace lg::test
