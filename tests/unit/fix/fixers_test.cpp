// Every fixer repairs a planted finding of its rule on a skeleton ledger
// and adds none, giving back the text expected (usually the skeleton's
// own); every certain and suggested rule has such a case; and a fixer
// declines what it is not sure of.
#include "ledgergate/fix/fixers.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "ledgergate/diag/rule_table.hpp"
#include "ledgergate/fix/engine.hpp"
#include "ledgergate/rules/check.hpp"
#include "support/peer_cases.hpp"

namespace lg::test {
namespace {

struct FixCase {
  std::string_view rule;
  std::string_view skeleton;  // "R-skeleton", "T-skeleton" or "ORL-skeleton"
  std::string_view path;
  std::string_view good;      // text of the skeleton's file
  std::string_view bad;       // what replaces it
  std::string_view after = {};  // the fixed text where `good` was ("" = `good` itself)
};

constexpr std::string_view k_run_3003 =
    "- 3003 \xE2\x80\x94 open \xE2\x80\x94 gpu \xE2\x80\x94 2026-09-02 \xE2\x80\x94 joint fit on the same four seeds\n"
    "  chained after 3002 with afterok\n";

const FixCase k_cases[] = {
    {"input-bom", "R-skeleton", "projects/example.md", "# example \xE2\x80\x94 Does", "\xEF\xBB\xBF# example \xE2\x80\x94 Does"},
    {"input-line-endings", "R-skeleton", "projects/example.md", "Project: example\nIssue", "Project: example\r\nIssue"},
    {"input-control-char", "R-skeleton", "projects/example.md", "Project: example\n", "Project: ex\x1b" "ample\n"},
    {"projects-yaml-field-known", "R-skeleton", "projects.yaml", "  partition: ral\n  status: active\n",
     "  partition: ral\n  status: active\n  nte: \"first of its kind\"\n",
     "  partition: ral\n  status: active\n  note: \"first of its kind\"\n"},
    {"projects-yaml-field-is-string", "R-skeleton", "projects.yaml", "  sync_verbs: [pull]\n  ledger: NOTES.md",
     "  sync_verbs: [pull]\n  ledger: 5", "  sync_verbs: [pull]\n  ledger: \"5\""},
    {"ledger-sections-exact", "R-skeleton", "projects/single.md", "## Runs\n\n## Log", "## Log"},
    {"ledger-run-line-parses", "R-skeleton", "projects/example.md",
     "- 3003 \xE2\x80\x94 open \xE2\x80\x94 gpu \xE2\x80\x94 2026-09-02 \xE2\x80\x94 joint fit",
     "- 3003 - open \xE2\x80\x93 gpu -- 2026-09-02\xE2\x80\x94joint fit"},
    {"ledger-log-line-parses", "R-skeleton", "projects/example.md",
     "- 2026-08-28 \xE2\x80\x94 note \xE2\x80\x94 ledger opened", "- 2026-08-28 \xE2\x80\x93 note -- ledger opened"},
    {"ledger-title-present", "R-skeleton", "projects/example.md", "# example \xE2\x80\x94 Does",
     "example \xE2\x80\x94 Does"},
    {"ledger-title-names-key", "R-skeleton", "projects/example.md", "# example \xE2\x80\x94 Does", "# other - Does"},
    {"ledger-header-required", "R-skeleton", "projects/example.md", "Project: example\nIssue: example#7\n",
     "Issue: example#7\n"},
    {"ledger-project-equals-key", "R-skeleton", "projects/example.md", "Project: example", "Project: other"},
    {"ledger-run-listed-once", "R-skeleton", "projects/example.md", k_run_3003,
     "- 3003 \xE2\x80\x94 open \xE2\x80\x94 gpu \xE2\x80\x94 2026-09-02 \xE2\x80\x94 joint fit on the same four seeds\n"
     "  chained after 3002 with afterok\n"
     "- 3003 \xE2\x80\x94 open \xE2\x80\x94 gpu \xE2\x80\x94 2026-09-02 \xE2\x80\x94 joint fit on the same four seeds\n"
     "  chained after 3002 with afterok\n"},
    {"ledger-run-partition-agrees", "R-skeleton", "projects/single.md", "## Runs\n\n## Log",
     "## Runs\n\n- 4001 \xE2\x80\x94 open \xE2\x80\x94 gpu \xE2\x80\x94 2026-09-03 \xE2\x80\x94 first run\n\n## Log",
     "## Runs\n\n- 4001 \xE2\x80\x94 open \xE2\x80\x94 ral \xE2\x80\x94 2026-09-03 \xE2\x80\x94 first run\n\n## Log"},
    {"ledger-log-newest-first", "R-skeleton", "projects/example.md",
     "- 2026-09-01 \xE2\x80\x94 lesson \xE2\x80\x94 the adapt image must be capped at S/N 3 before the mesh reads it; "
     "wave 1 was not\n"
     "- 2026-08-31 \xE2\x80\x94 result \xE2\x80\x94 wave 1 recovered the parent mean but its sigma is 4x too tight\n"
     "  the widths are the finding, not the means\n",
     "- 2026-08-31 \xE2\x80\x94 result \xE2\x80\x94 wave 1 recovered the parent mean but its sigma is 4x too tight\n"
     "  the widths are the finding, not the means\n"
     "- 2026-09-01 \xE2\x80\x94 lesson \xE2\x80\x94 the adapt image must be capped at S/N 3 before the mesh reads it; "
     "wave 1 was not\n"},
    {"ledger-run-tasks-ascending", "R-skeleton", "projects/example.md", "- 3002_[0-3] \xE2\x80\x94 running",
     "- 3002_[3,1,0-2] \xE2\x80\x94 running"},
    {"ledger-non-ascii-digit", "R-skeleton", "projects/example.md",
     "- 3003 \xE2\x80\x94 open \xE2\x80\x94 gpu \xE2\x80\x94 2026-09-02",
     "- 3003 \xE2\x80\x94 open \xE2\x80\x94 gpu \xE2\x80\x94 2026-09-\xD9\xA0\xD9\xA2"},
    {"ledger-header-duplicate-key", "R-skeleton", "projects/example.md", "Issue: example#7\n",
     "Issue: example#7\nIssue: example#8\n"},
    {"pt-run-task-set-ascending", "T-skeleton", "tasks/example/05_running_array.md", "- 342091_[0-8,10]: done",
     "- 342091_[10,0-8]: done"},
    {"pt-run-line-parses", "T-skeleton", "tasks/example/05_running_array.md", "- 342102: running \xE2\x80\x94 gpu",
     "- 342102: running - gpu"},
    {"task-retired-phase-key", "T-skeleton", "tasks/example/03_ready_cleared.md", "State: ready\n",
     "Phase: 3\nState: ready\n"},
    {"pt-project-equals-directory", "T-skeleton", "tasks/example/01_scope.md", "Project: example\n",
     "Project: sample\n"},
    {"pt-non-ascii-digit", "T-skeleton", "tasks/example/03_ready_cleared.md", "Review-minutes: 4\n",
     "Review-minutes: \xD9\xA4\n"},
    {"pt-header-duplicate-key", "T-skeleton", "tasks/example/03_ready_cleared.md", "Budget: 5:00\n",
     "Budget: 5:00\nBudget: 6:00\n"},
    {"orl-kind-gap-explicit", "ORL-skeleton", "run/open-requirements.ledger.yml", "    blocking: true\n",
     "    kind: gap\n    blocking: true\n"},
};

FileMap skeleton(std::string_view name) {
  if (name == "ORL-skeleton") return read_tree(std::string(LEDGERGATE_SOURCE_DIR) + "/fixtures/ledgers/open-requirements");
  return peer_fixture(peer_cases(), std::string(name));
}

FileMap planted(const FixCase& c) {
  FileMap files = skeleton(c.skeleton);
  std::string& text = files.at(std::string(c.path));
  const std::size_t at = text.find(c.good);
  REQUIRE(at != std::string::npos);
  text.replace(at, c.good.size(), c.bad);
  return files;
}

std::set<std::string> rules_of(const std::vector<diag::Finding>& findings) {
  std::set<std::string> out;
  for (const diag::Finding& f : findings) out.insert(f.rule);
  return out;
}

fix::FixReport fixed(const FileMap& files, std::vector<std::string> rules) {
  TempDir dir;
  write_tree(dir.path() + "/root", files);
  auto tree = git::open_directory_source(dir.path() + "/root");
  REQUIRE(tree.has_value());
  fix::FixOptions options;
  options.rules = std::move(rules);
  auto report = fix::fix_tree(**tree, options);
  REQUIRE(report.has_value());
  return std::move(*report);
}

// The fix the rule's fixer offers for its finding in `files`.
std::optional<fix::Fix> offered(const FileMap& files, std::string_view rule) {
  TempDir dir;
  write_tree(dir.path() + "/root", files);
  auto tree = git::open_directory_source(dir.path() + "/root");
  REQUIRE(tree.has_value());
  rules::CheckCache cache;
  auto report = rules::check_tree(**tree, {}, cache);
  REQUIRE(report.has_value());
  fix::FixContext context(**tree);
  for (const diag::Finding& f : report->findings) {
    if (f.rule != rule) continue;
    auto fix = fix::fix_for(context, f);
    REQUIRE(fix.has_value());
    return *fix;
  }
  FAIL("no finding of " << rule);
  return std::nullopt;
}

}  // namespace

TEST_CASE("each fixer repairs its rule's planted finding and adds none", "[fix]") {
  for (const FixCase& c : k_cases) {
    INFO(c.rule);
    const FileMap bad = planted(c);
    const fix::FixReport r = fixed(bad, {std::string(c.rule)});
    CHECK(rules_of(r.before).count(std::string(c.rule)) == 1);
    CHECK(rules_of(r.after).count(std::string(c.rule)) == 0);
    CHECK(fix::new_findings(r.before, r.after).empty());
    CHECK(r.refused.empty());
    REQUIRE(r.files.size() == 1);
    CHECK(r.files[0].path == c.path);
    FileMap want = skeleton(c.skeleton);
    std::string& text = want.at(std::string(c.path));
    text.replace(text.find(c.good), c.good.size(), c.after.empty() ? c.good : c.after);
    CHECK(r.files[0].after == text);
  }
}

TEST_CASE("every certain and suggested rule has a case, and no other rule has a fixer", "[fix]") {
  std::set<std::string_view> covered;
  for (const FixCase& c : k_cases) covered.insert(c.rule);
  for (const diag::RuleInfo& r : diag::all_rules()) {
    INFO(r.id);
    const bool fixable = r.fix.kind == diag::FixKind::certain || r.fix.kind == diag::FixKind::suggested;
    CHECK(fix::has_fixer(r.id) == fixable);
    CHECK(covered.count(r.id) == (fixable ? 1u : 0u));
  }
}

TEST_CASE("every rule declares its fix kind and why", "[fix]") {
  for (const diag::RuleInfo& r : diag::all_rules()) {
    INFO(r.id);
    CHECK(r.fix.kind != diag::FixKind::undeclared);
    CHECK_FALSE(r.fix.what.empty());
  }
}

TEST_CASE("a fixer declines a finding it is not sure of", "[fix]") {
  const FileMap r = skeleton("R-skeleton");
  const auto with = [&r](std::string_view path, std::string_view good, std::string_view bad) {
    FileMap files = r;
    std::string& text = files.at(std::string(path));
    text.replace(text.find(good), good.size(), bad);
    return files;
  };
  // A log line whose kind is unknown: its dashes are not the problem.
  CHECK_FALSE(offered(with("projects/example.md", "- 2026-09-01 \xE2\x80\x94 lesson \xE2\x80\x94",
                           "- 2026-09-01 \xE2\x80\x94 verdict \xE2\x80\x94"),
                      "ledger-log-line-parses"));
  // A renamed section: which name was meant is not known.
  CHECK_FALSE(offered(with("projects/example.md", "## Runs", "## Jobs"), "ledger-sections-exact"));
  // Two different lines of one run: which one is right is not known.
  CHECK_FALSE(offered(with("projects/example.md", k_run_3003,
                           std::string(k_run_3003) + "- 3003 \xE2\x80\x94 open \xE2\x80\x94 gpu \xE2\x80\x94 2026-09-02 "
                                                     "\xE2\x80\x94 again\n"),
                      "ledger-run-listed-once"));
  // A log holding a line that is not an entry is not sorted.
  CHECK_FALSE(offered(with("projects/example.md", "- 2026-08-28 \xE2\x80\x94 note \xE2\x80\x94 ledger opened",
                           "- 2026-08-27 \xE2\x80\x94 note \xE2\x80\x94 early\nnot an entry\n"
                           "- 2026-08-28 \xE2\x80\x94 note \xE2\x80\x94 ledger opened"),
                      "ledger-log-newest-first"));
  // A title that is not `<word> <dash> <summary>`.
  CHECK_FALSE(offered(with("projects/example.md", "# example \xE2\x80\x94 Does", "# The example project does"),
                      "ledger-title-names-key"));
}

TEST_CASE("separators: the first N become em dashes, hyphens inside words and dates stay", "[fix]") {
  using fix::normalise_separators;
  CHECK(normalise_separators("- 2026-09-01 - note - a - b", 2, 2) ==
        "- 2026-09-01 \xE2\x80\x94 note \xE2\x80\x94 a - b");
  CHECK(normalise_separators("- 3002_[0-3]\xE2\x80\x94open", 2, 1) == "- 3002_[0-3] \xE2\x80\x94 open");
  CHECK(normalise_separators("gpu-ral \xE2\x80\x93 x", 0, 1) == "gpu-ral \xE2\x80\x94 x");
  CHECK_FALSE(normalise_separators("- 2026-09-01 note", 2, 1));
  CHECK_FALSE(normalise_separators("a -b", 0, 1));  // a hyphen with a space on one side only
}

}  // namespace lg::test
