#include "ledgergate/rules/cortex_eras.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <functional>

#include "ledgergate/report/format.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/registry.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;
using test::FileMap;

namespace {

// A tree held in memory: files from a map, a few paths overridden to another
// entry kind (symlink, submodule); directories implied by the paths.
class MapTree final : public git::TreeSource {
 public:
  explicit MapTree(FileMap files, std::map<std::string, git::EntryKind> kinds = {})
      : m_files(std::move(files)), m_kinds(std::move(kinds)) {}
  const std::string& rev() const override { return m_rev; }
  Result<std::optional<std::vector<git::Entry>>> list(std::string_view dir) override {
    const std::string prefix = dir.empty() ? "" : std::string(dir) + "/";
    std::map<std::string, git::Entry> children;
    bool found = dir.empty();
    for (const auto& [path, text] : m_files) {
      if (path.rfind(prefix, 0) != 0) continue;
      found = true;
      const std::string rest = path.substr(prefix.size());
      const auto slash = rest.find('/');
      const std::string name = rest.substr(0, slash);
      if (slash != std::string::npos) {
        children[name] = git::Entry{name, git::EntryKind::directory, std::nullopt};
      } else {
        children[name] = entry_of(path, name);
      }
    }
    if (!found) return std::optional<std::vector<git::Entry>>();
    std::vector<git::Entry> out;
    for (auto& [name, e] : children) out.push_back(e);
    return std::optional(out);
  }
  Result<std::optional<git::Entry>> stat(std::string_view path) override {
    const std::string p(path);
    if (m_files.count(p)) return std::optional(entry_of(p, p.substr(p.rfind('/') + 1)));
    for (const auto& [file, text] : m_files) {
      if (file.rfind(p + "/", 0) == 0) return std::optional(git::Entry{p, git::EntryKind::directory, std::nullopt});
    }
    return std::optional<git::Entry>();
  }
  Result<std::string> read(std::string_view path, const git::Entry&) override { return m_files.at(std::string(path)); }

 private:
  git::Entry entry_of(const std::string& path, const std::string& name) const {
    auto kind = m_kinds.find(path);
    // A content id per distinct text, so the cache is exercised.
    char hex[git::ObjectId::k_hex_size + 1];
    std::snprintf(hex, sizeof hex, "%040zx", std::hash<std::string>{}(m_files.at(path)));
    return git::Entry{name, kind == m_kinds.end() ? git::EntryKind::file : kind->second, git::ObjectId::from_hex(hex)};
  }
  FileMap m_files;
  std::map<std::string, git::EntryKind> m_kinds;
  std::string m_rev;
};

FileMap fixture(const std::string& name) {
  return test::read_tree(test::data_dir() + "/corpus/cortex-fixtures/" + name);
}

void replace(FileMap& files, const std::string& path, const std::string& old, const std::string& repl) {
  lg::test::replace_once(files.at(path), old, repl);
}

struct Outcome {
  std::string profile;
  std::vector<diag::Finding> findings;
  std::string cortex;
  bool has(const std::string& rule, const std::string& needle = "") const {
    return std::any_of(findings.begin(), findings.end(), [&](const diag::Finding& f) {
      return f.rule == rule && diag::peer_text(f).find(needle) != std::string::npos;
    });
  }
  std::size_t errors() const {
    return static_cast<std::size_t>(std::count_if(findings.begin(), findings.end(), [](const diag::Finding& f) {
      return f.severity == diag::Severity::error;
    }));
  }
};

Outcome check(FileMap files, const std::string& profile = "auto", std::map<std::string, git::EntryKind> kinds = {}) {
  MapTree tree(std::move(files), std::move(kinds));
  rules::CheckCache cache;
  rules::CheckOptions options;
  options.profile = profile;
  auto report = rules::check_tree(tree, options, cache);
  REQUIRE(report);
  return {report->profile, report->findings, report::render_cortex(report->findings)};
}

struct Mutation {
  const char* fixture;  // tasks-skeleton | phases-skeleton
  const char* profile;
  const char* file;
  const char* old;
  const char* repl;
  const char* rule;
  const char* needle;  // a substring of the finding's reference text
};

const char* const T = "tasks-skeleton";
const char* const P = "phases-skeleton";
const char* const T05 = "tasks/example/05_running_array.md";
const char* const P05 = "phases/example/05_running_array.md";
const char* const R02 = "rulings/2026/09/R-20260901-02.md";
const char* const R03 = "rulings/2026/09/R-20260901-03.md";

// One bad case per reference rule (the fixture itself is the good case of each).
const Mutation k_bad[] = {
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "# Example", "#Example", "pt-title-present", "line 1 is not"},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "State: planned\n", "", "pt-required-header-key", "missing header key State:"},
    {P, "cortex-phases@p3", "phases/example/01_scope.md", "Phase: 1\n", "", "pt-required-header-key", "missing header key Phase:"},
    {T, "cortex-tasks@t1", "tasks/example/01_scope.md", "Epic:", "Phase: 1\nEpic:", "task-retired-phase-key", "Phase: is a retired header"},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Epic:", "Colour: red\nEpic:", "pt-known-header-key", "unknown header key Colour:"},
    {P, "cortex-phases@p2", "phases/example/01_scope.md", "Epic:", "Summary: x\nEpic:", "pt-known-header-key", "unknown header key Summary:"},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Summary: Which", "Summary: a b c d e f g h i j Which", "task-summary-word-cap", "Summary: 20 words"},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "## Question", "## Questions", "pt-required-section", "missing section ## Question"},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Project: example", "Project: other", "pt-project-equals-directory", "is not the directory name example"},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Project: example", "Project: other", "pt-project-is-row", "Project: other is not a projects.yaml key"},
    {P, "cortex-phases@p3", "phases/example/01_scope.md", "Phase: 1\n", "Phase: one\n", "phase-number-integer", "Phase: 'one' is not an integer"},
    {P, "cortex-phases@p3", "phases/example/02_gated_on_dev.md", "Phase: 2\n", "Phase: 1\n", "phase-number-unique", "duplicate Phase: 1 (also phases/example/01_scope.md)"},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "State: planned", "State: queued", "pt-state-legal", "State: 'queued' is not a task state"},
    {P, "cortex-phases@p3", "phases/example/01_scope.md", "State: planned", "State: queued", "pt-state-legal", "State: 'queued' is not a phase state"},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Gates:\n", "Gates: o/r#1\n", "pt-gates-ref-grammar", "Gates: unrecognised ref 'o/r#1'"},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Filed: 2026-08-25", "Filed: 25/08/2026", "pt-date-format", "Filed: '25/08/2026' is not YYYY-MM-DD"},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Budget: 4:00", "Budget: 4h", "pt-budget-format", "Budget: '4h' is not H+:MM"},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Review-minutes: 3", "Review-minutes: 3.5", "pt-review-minutes-integer", "Review-minutes: '3.5' is not an integer"},
    {P, "cortex-phases@p1c", "phases/example/01_scope.md", "Epic:", "Lane: gpu\nEpic:", "phase-lane-value", "Lane: 'gpu' is not local-dev"},
    {T, "cortex-tasks@t2", "tasks/example/02_gated_on_dev.md", "Gates: PyAutoArray#431, https://github.com/PyAutoLabs/PyAutoFit/pull/1436", "Gates: o/r#1", "pt-gated-needs-gates", "State: gated with an empty Gates:"},
    {P, "cortex-phases@p1c", "phases/example/03_ready_cleared.md", "State: ready", "State: ready", "phase-gates-clearance", "State: ready with Gates: needs Gates-cleared: or Gate-override:"},
    {T, "cortex-tasks@t2", "tasks/example/04_submitted_override.md", "Witness: both bands converge to the same source centre within 0.02 arcsec\n", "", "pt-witness-required", "State: submitted needs a Witness:"},
    {T, "cortex-tasks@t2", "tasks/example/09_rerun.md", "Ruling: R-20260901-04\n", "", "pt-ruled-state-needs-ruling", "State: rerun needs a Ruling:"},
    {T, "cortex-tasks@t2", "tasks/example/09_rerun.md", "Ruling: R-20260901-04\n", "Ruling: R-1\n", "pt-ruling-id-grammar", "Ruling: 'R-1' is not a ruling id"},
    {T, "cortex-tasks@t2", "tasks/example/09_rerun.md", "Ruling: R-20260901-04\n", "Ruling: R-20260901-09\n", "pt-ruling-resolves", "Ruling: R-20260901-09 does not resolve"},
    {T, "cortex-tasks@t2", "tasks/example/08_accepted.md", "Ruling: R-20260901-02", "Ruling: R-20260901-01", "pt-ruling-chain-head", "is not a chain head (superseded by R-20260901-02)"},
    {P, "cortex-phases@p3", "phases/example/09_rerun.md", "Ruling: R-20260901-04", "Ruling: R-20260901-05", "pt-ruling-names-target", "names phases/example/10_dropped.md, not this phase"},
    {T, "cortex-tasks@t2", "tasks/example/08_accepted.md", "State: accepted", "State: rerun", "pt-head-verb-fits-state", "verb 'accept' does not fit State: rerun"},
    {T, "cortex-tasks@t2", "tasks/example/02_gated_on_dev.md", "- `/mnt/c/Users/Jammy/Science/example/output/task_02/`", "- (the output path, once there is one)", "pt-where-to-look", "a task past planned"},
    {P, "cortex-phases@p3", "phases/example/02_gated_on_dev.md", "- `/mnt/c/Users/Jammy/Science/example/output/phase_02/`", "-", "pt-where-to-look", "a phase past planned"},
    {T, "cortex-tasks@t2", T05, "State: running", "State: pulled", "pt-partial-pull-needs-ltf", ""},  // replaced below
    {T, "cortex-tasks@t2", T05, "- 342091_9: failed", "- 342091_[9-10]: failed", "pt-run-sets-disjoint", "run 342091_[0-8,10] overlaps 342091_[9-10] on stem 342091"},
    {T, "cortex-tasks@t2", T05, "Runs: 342091, 342102", "Runs: 342091, 342102, x1", "pt-runs-header-stem", "Runs: 'x1' is not a job stem"},
    {T, "cortex-tasks@t2", T05, "Runs: 342091, 342102", "Runs: 342091, 342091", "pt-runs-header-equals-body", "Runs: header {342091, 342091} != body stems {342091, 342102}"},
    {T, "cortex-tasks@t2", "tasks/example/06_pulled.md", "    pulled_to:", "    where:", "pt-pulled-needs-pulled-to", "State: pulled needs at least one done | legacy run with pulled_to:"},
    {T, "cortex-tasks@t2", "tasks/example/09_rerun.md", "    where:", "    pulled_to:", "pt-legacy-needs-where", "run 341900 is legacy without where:"},
    {T, "cortex-tasks@t2", T05, "    after: 342091_9", "    after: 342102", "pt-after-resumes-resolve", "run 342102 after: 342102 names no other run of this task"},
    {T, "cortex-tasks@t2", "tasks/example/09_rerun.md", "    ruled: R-20260901-04", "    ruled: R-20260901-99", "pt-ruled-continuation-resolves", "run 341900 ruled: R-20260901-99 does not resolve"},
    {T, "cortex-tasks@t2", T05, "- 342091_9: failed", "- 342091_[9,9]: failed", "pt-run-task-set-ascending", "line 31: task set not ascending: 342091_[9,9]"},
    {T, "cortex-tasks@t2", T05, "    after: 342091_9", "      after: 342091_9", "pt-run-line-parses", "line 33: run line does not parse: after: 342091_9"},
    {T, "cortex-tasks@t2", T05, "- 342091_[0-8,10]", "    where: x\n- 342091_[0-8,10]", "pt-run-continuation-orphan", "line 29: continuation line without a run line"},
    {T, "cortex-tasks@t2", R02, "# R-20260901-02 \xE2\x80\x94", "# R-20260901-02 -", "pt-ruling-title", "title must be `# R-20260901-02`"},
    {T, "cortex-tasks@t2", R02, "Project: example\n", "", "pt-ruling-required-key", "missing header key Project:"},
    {T, "cortex-tasks@t2", R02, "Batch:", "Phase: tasks/example/08_accepted.md\nBatch:", "task-ruling-retired-phase-key", "R-20260901-02.md: Phase: is a retired header"},
    {P, "cortex-phases@p1b", R02, "Batch:", "Migrated-from: x\nBatch:", "pt-ruling-known-key", "unknown header key Migrated-from:"},
    {T, "cortex-tasks@t2", R02, "## Evidence", "## Evidences", "pt-ruling-required-section", "missing section ## Evidence"},
    {T, "cortex-tasks@t2", R02, "Ruling: accept", "Ruling: keep", "pt-ruling-verb", "Ruling: 'keep' is not a ruling verb"},
    {T, "cortex-tasks@t2", R02, "Task: tasks/example/08_accepted.md", "Task: tasks/example/99.md", "pt-ruling-target-resolves", "Task: tasks/example/99.md does not resolve to a task file"},
    {P, "cortex-phases@p3", R02, "Project: example", "Project: other", "pt-ruling-target-project", "Phase: phases/example/08_accepted.md is not a phase of Project: other"},
    {T, "cortex-tasks@t2", R02, "Runs: 342050", "Runs: 342050, 1, 1", "pt-ruling-runs-subset", "Runs: {1} not in the task's runs"},
    {T, "cortex-tasks@t2", R02, "Supersedes: R-20260901-01", "Supersedes: R-20260901-02", "pt-supersedes-not-self", "Supersedes: itself"},
    {T, "cortex-tasks@t2", R02, "Supersedes: R-20260901-01", "Supersedes: R-20250101-01", "pt-supersedes-resolves", "Supersedes: R-20250101-01 does not resolve"},
    {T, "cortex-tasks@t2", R02, "Supersedes: R-20260901-01", "Supersedes: R-20260901-03", "pt-supersedes-earlier", "Supersedes: R-20260901-03 is not earlier than R-20260901-02"},
    {T, "cortex-tasks@t2", R02, "Supersedes: R-20260901-01", "Supersedes: R-20260901-03", "pt-supersedes-same-target", "names a different project/task"},
    {T, "cortex-tasks@t2", R03, "Batch:", "Supersedes: R-20260901-01\nBatch:", "pt-single-successor", "R-20260901-01.md: has 2 successors (R-20260901-02, R-20260901-03)"},
    {T, "cortex-tasks@t2", R02, "Batch: 2026-09-01-pm", "Batch: 2026-09-02-am", "pt-batch-resolves", "Batch: 2026-09-02-am names no batches/2026-09-02-am.md"},
    {T, "cortex-tasks@t2", R02, "Review-minutes-actual: 6", "Review-minutes-actual: six", "pt-review-minutes-actual-integer", "Review-minutes-actual: not an integer"},
    {T, "cortex-tasks@t2", R02, "Follow-ups: PyAutoLens#901", "Follow-ups: PyAutoLens#901, #2", "pt-follow-up-ref-grammar", "Follow-ups: unrecognised ref '#2'"},
};

// Gap warnings (§10): each one alone, never in the reference output.
const Mutation k_gaps[] = {
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Filed: 2026-08-25", "Filed: 2026-\u0660\u0668-25", "pt-non-ascii-digit", ""},
    {P, "cortex-phases@p3", "phases/example/02_gated_on_dev.md", "Phase: 2\n", "Phase: 01\n", "phase-number-equal-value", ""},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Filed: 2026-08-25", "Filed: 2026-02-30", "pt-date-real", ""},
    {T, "cortex-tasks@t2", R02, "Reviewed-at: 2026-09-01T17:20Z", "Reviewed-at: yesterday", "pt-reviewed-at-shape", ""},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Budget: 4:00", "Budget: 4:75", "pt-minutes-under-60", ""},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Epic:", "epic: x\nEpic:", "pt-header-line-dropped", ""},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "Epic:", "Budget: 5:00\nEpic:", "pt-header-duplicate-key", ""},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "(none)", "```\n## Runs\n```", "pt-heading-in-fence", ""},
    {T, "cortex-tasks@t2", "tasks/example/01_scope.md", "(none)", "## Runs\n", "pt-duplicate-section", ""},
    {T, "cortex-tasks@t2", T05, "State: running", "State: ready", "pt-ltf-head-early-state", ""},
};

}  // namespace

TEST_CASE("cortex eras: the fixture trees check clean with their profile", "[rules][cortex_eras]") {
  const Outcome t = check(fixture("tasks-skeleton"));
  CHECK(t.profile == "cortex-tasks@t2");
  CHECK(t.cortex == "cortex check: OK\n");
  CHECK(t.findings.empty());
  const Outcome p = check(fixture("phases-skeleton"));
  CHECK(p.profile == "cortex-phases@p3");
  CHECK(p.cortex == "cortex check: OK\n");
  CHECK(p.findings.empty());
  CHECK(check(fixture("phases-skeleton"), "cortex-phases@p2").findings.empty());
}

TEST_CASE("cortex eras: each reference rule fires with the reference text", "[rules][cortex_eras]") {
  for (const Mutation& m : k_bad) {
    FileMap files = fixture(m.fixture);
    replace(files, m.file, m.old, m.repl);
    std::string needle = m.needle;
    if (std::string(m.rule) == "pt-partial-pull-needs-ltf") {
      replace(files, m.file, "Ruling: R-20260901-03\n", "");
      needle = "State: pulled with a live run needs a leave-to-finish ruling head (--partial)";
    }
    INFO(m.rule << " " << m.profile << " " << m.file);
    const Outcome o = check(files, m.profile);
    CHECK(o.has(m.rule, needle));
    CHECK(o.cortex.rfind("cortex check: DRIFT\n", 0) == 0);
    CHECK(rules::find_rule(m.rule) != nullptr);
  }
}

TEST_CASE("cortex eras: gap warnings are reported, but stay out of the reference output", "[rules][cortex_eras]") {
  for (const Mutation& m : k_gaps) {
    FileMap files = fixture(m.fixture);
    replace(files, m.file, m.old, m.repl);
    INFO(m.rule << " " << m.file);
    const Outcome o = check(files, m.profile);
    CHECK(o.has(m.rule));
    CHECK(o.errors() == 0);
    CHECK(o.cortex == "cortex check: OK\n");
  }
}

TEST_CASE("cortex eras: G-10 notes successors counted through invalid edges", "[rules][cortex_eras]") {
  FileMap files = fixture("tasks-skeleton");
  // R-01 (task 08) supersedes R-03 (task 05): not earlier, another task; R-03 is then "not a chain head".
  replace(files, "rulings/2026/09/R-20260901-01.md", "Ruling: accept\n", "Ruling: accept\nSupersedes: R-20260901-03\n");
  const Outcome o = check(files);
  CHECK(o.has("pt-ruling-chain-head", "tasks/example/05_running_array.md: Ruling: R-20260901-03 is not a chain head"));
  CHECK(o.has("pt-chain-invalid-edge"));
  const auto warning = std::find_if(o.findings.begin(), o.findings.end(),
                                    [](const diag::Finding& f) { return f.rule == "pt-chain-invalid-edge"; });
  CHECK(warning->location.path == "tasks/example/05_running_array.md");
  CHECK(check(fixture("tasks-skeleton")).findings.empty());  // a valid chain (R-02 supersedes R-01) is not noted
}

TEST_CASE("cortex eras: sub-era differences are data", "[rules][cortex_eras]") {
  SECTION("Lane: and the gates clearance rule are P1 only") {
    FileMap files = fixture("phases-skeleton");
    replace(files, "phases/example/01_scope.md", "Epic:", "Lane: local-dev\nEpic:");
    CHECK(check(files, "cortex-phases@p3").has("pt-known-header-key", "unknown header key Lane:"));
    const Outcome p1 = check(files, "cortex-phases@p1a");
    CHECK_FALSE(p1.has("pt-known-header-key", "Lane"));
    CHECK(p1.has("phase-gates-clearance", "03_ready_cleared.md"));
    CHECK_FALSE(check(files, "cortex-phases@p2").has("phase-gates-clearance"));
  }
  SECTION("Gates-cleared: dates are checked in P1 only") {
    FileMap files = fixture("phases-skeleton");
    replace(files, "phases/example/03_ready_cleared.md", "Budget:", "Gates-cleared: soon\nBudget:");
    CHECK(check(files, "cortex-phases@p1c").has("pt-date-format", "Gates-cleared: 'soon' is not YYYY-MM-DD"));
    CHECK_FALSE(check(files, "cortex-phases@p3").has("pt-date-format"));
  }
  SECTION("Migrated-from: from P1c on") {
    FileMap files = fixture("phases-skeleton");
    replace(files, "phases/example/01_scope.md", "Epic:", "Migrated-from: x\nEpic:");
    CHECK(check(files, "cortex-phases@p1b").has("pt-known-header-key", "Migrated-from"));
    CHECK_FALSE(check(files, "cortex-phases@p1c").has("pt-known-header-key"));
  }
  SECTION("## Where to look is checked from P3 on") {
    FileMap files = fixture("phases-skeleton");
    replace(files, "phases/example/07_awaiting_ruling.md", "- `/mnt/c/Users/Jammy/Science/example/output/phase_07/`",
            "- (the output path, once there is one)");
    CHECK(check(files, "cortex-phases@p3").has("pt-where-to-look"));
    CHECK_FALSE(check(files, "cortex-phases@p2").has("pt-where-to-look"));
  }
  SECTION("projects.yaml statuses per era, with the era's wording") {
    FileMap files = fixture("phases-skeleton");
    replace(files, "projects.yaml", "status: active", "status: retired");
    CHECK(check(files, "cortex-phases@p2")
              .has("projects-yaml-status-enum", "example.status must be active | dormant | planned, not retired"));
    CHECK_FALSE(check(files, "cortex-phases@p3").has("projects-yaml-status-enum"));
  }
  SECTION("assistant is a T2 field") {
    FileMap files = fixture("tasks-skeleton");
    CHECK(check(files, "cortex-tasks@t1").has("projects-yaml-field-known", "unknown field `assistant` on example"));
    replace(files, "projects.yaml", "  assistant: none\n", "");
    CHECK(check(files, "cortex-tasks@t1").findings.empty());
    CHECK(check(files, "cortex-tasks@t2").has("projects-yaml-required-fields", "example is missing assistant"));
  }
}

TEST_CASE("cortex eras: the profile is detected from the layout and can be pinned to a sub-era",
          "[rules][cortex_eras]") {
  MapTree tasks(fixture("tasks-skeleton"));
  CHECK(*ledger::detect_layout(tasks) == ledger::Layout::cortex_tasks);
  MapTree phases(fixture("phases-skeleton"));
  CHECK(*ledger::detect_layout(phases) == ledger::Layout::cortex_phases);
  FileMap both = fixture("tasks-skeleton");
  both["projects/example.md"] = "# example \u2014 x\n";
  MapTree newest(both);
  CHECK(*ledger::detect_layout(newest) == ledger::Layout::cortex_projects);  // projects/ wins over tasks/
  CHECK(check(fixture("tasks-skeleton"), "cortex-tasks@t1").profile == "cortex-tasks@t1");
  CHECK(check(fixture("phases-skeleton"), "cortex-phases@p1a").profile == "cortex-phases@p1a");
  CHECK(check(fixture("phases-skeleton"), "cortex-phases").profile == "cortex-phases@p3");
  rules::CheckCache cache;
  for (const char* bad : {"cortex-tasks@p3", "cortex-phases@t2", "cortex-phases@", "open-requirements@x"}) {
    rules::CheckOptions options;
    options.profile = bad;
    auto r = rules::check_tree(tasks, options, cache);
    INFO(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().kind == ErrorKind::usage);
  }
  // Every P/T sub-era the profile module names has its era in the engine.
  for (const ledger::Layout layout : {ledger::Layout::cortex_phases, ledger::Layout::cortex_tasks}) {
    for (const std::string_view sub : ledger::sub_eras(layout)) {
      INFO(sub);
      REQUIRE(rules::find_pt_era(layout, sub) != nullptr);
      CHECK(rules::find_pt_era(layout, sub)->name == sub);
    }
  }
}

TEST_CASE("cortex eras: files are ordered as Python Paths and odd entries are input findings", "[rules][cortex_eras]") {
  CHECK(rules::path_less("a/x", "a-b/x"));
  CHECK_FALSE(rules::path_less("a-b/x", "a/x"));
  CHECK(rules::path_less("rulings/2026/09/x", "rulings/2026/stray.md"));
  FileMap files = fixture("tasks-skeleton");
  files["tasks/a-b/x.md"] = "# x\n";
  files["tasks/a/b/x.md"] = "# x\n";
  files["tasks/link.md"] = "x";
  files["tasks/example/11_bom.md"] = "\xEF\xBB\xBF" + files.at("tasks/example/01_scope.md");
  const Outcome o = check(files, "auto", {{"tasks/link.md", git::EntryKind::symlink}});
  std::vector<std::string> order;
  for (const auto& f : o.findings) {
    if (f.rule == "pt-path-grammar") order.push_back(f.location.path);
  }
  CHECK(o.has("input-not-a-file"));
  CHECK(o.has("input-bom"));
  CHECK(o.has("pt-title-present", "tasks/example/11_bom.md: line 1 is not"));
  CHECK(o.has("pt-path-grammar", "tasks/link.md: not a task path"));
  // Component-wise: tasks/a/b/x.md before tasks/a-b/x.md (as strings, '-' < '/' would put it after).
  CHECK(order == std::vector<std::string>{"tasks/a/b/x.md", "tasks/a-b/x.md", "tasks/link.md"});
}

TEST_CASE("cortex eras: `rules --profile` data lists each era's rules with its label", "[rules][cortex_eras]") {
  const rules::RuleInfo* r = rules::find_rule("T-F22");
  REQUIRE(r);
  CHECK(r->id == "pt-where-to-look");
  CHECK(rules::find_rule("P-F24") == r);
  CHECK(rules::label_in(*r, "cortex-tasks") == "T-F22");
  CHECK(rules::label_in(*r, "cortex-phases") == "P-F24");
  CHECK(rules::in_profile(*r, "cortex-tasks"));
  CHECK_FALSE(rules::in_profile(*r, "cortex-projects"));
  CHECK(rules::in_profile(*rules::find_rule("Y-14"), "cortex-phases"));
  CHECK(rules::find_rule("phase-batch-member-parses") == rules::find_rule("P-B02"));
  CHECK(rules::find_rule("projects-yaml-p1-outside-subset") == rules::find_rule("Y1-09"));
}

TEST_CASE("cortex eras: the input rules apply to phase, task and ruling files", "[rules][cortex_eras]") {
  FileMap files = fixture("tasks-skeleton");
  std::string& crlf = files.at("tasks/example/01_scope.md");
  for (auto at = crlf.find('\n'); at != std::string::npos; at = crlf.find('\n', at + 2)) crlf.insert(at, "\r");
  files["rulings/2026/09/R-20260901-05.md"] += "\xFF\n";
  files["tasks/example/dir.md/inner.txt"] = "x";
  const Outcome o = check(files, "cortex-tasks", {{"tasks/example/12_sub.md", git::EntryKind::submodule}});
  CHECK(o.has("input-line-endings"));
  CHECK(o.has("input-not-utf8"));
  CHECK(o.has("input-not-a-file"));
  CHECK_FALSE(o.has("pt-title-present"));  // CRLF reads as LF (universal newlines)
  const auto bad = std::find_if(o.findings.begin(), o.findings.end(),
                                [](const diag::Finding& f) { return f.rule == "input-not-utf8"; });
  CHECK(bad->location.path == "rulings/2026/09/R-20260901-05.md");
  CHECK(bad->cannot_judge);
  const auto dir = std::find_if(o.findings.begin(), o.findings.end(),
                                [](const diag::Finding& f) { return f.rule == "input-not-a-file"; });
  CHECK(dir->location.path == "tasks/example/dir.md");
}

TEST_CASE("cortex eras: a file is parsed once per blob however many trees hold it", "[rules][cortex_eras]") {
  FileMap files = fixture("tasks-skeleton");
  rules::CheckCache cache;
  rules::CheckOptions options;
  MapTree first(files);
  REQUIRE(rules::check_tree(first, options, cache));
  CHECK(cache.pt_files().size() == 15);  // 10 tasks + 5 rulings
  replace(files, "tasks/example/01_scope.md", "State: planned", "State: queued");
  MapTree second(files);
  auto report = rules::check_tree(second, options, cache);
  REQUIRE(report);
  CHECK(cache.pt_files().size() == 16);  // only the changed file is parsed again
  REQUIRE(report->findings.size() == 1);
  CHECK(report->findings[0].rule == "pt-state-legal");
}

TEST_CASE("cortex eras: ruling paths, their month directory and unique ids", "[rules][cortex_eras]") {
  FileMap files = fixture("phases-skeleton");
  files["rulings/2026/08/R-20260901-04.md"] = files.at("rulings/2026/09/R-20260901-04.md");
  files["rulings/2026/9/R-20260901-06.md"] = "# R-20260901-06\n";
  files["rulings/AGENTS.md"] = "# how rulings work\n";  // exempt
  const Outcome o = check(files, "cortex-phases@p2");
  std::vector<std::string> lines;
  for (const auto& f : o.findings) lines.push_back(diag::peer_text(f) + " [" + f.rule + "]");
  CHECK(lines == std::vector<std::string>{
                     "rulings/2026/08/R-20260901-04.md: filed under 2026/08 but the id is dated 2026-09 [pt-ruling-dir-date]",
                     "rulings/2026/9/R-20260901-06.md: not a ruling path (rulings/<YYYY>/<MM>/R-<YYYYMMDD>-<nn>.md) "
                     "[pt-ruling-path]",
                     "rulings/2026/09/R-20260901-04.md: duplicate ruling id R-20260901-04 (also "
                     "rulings/2026/08/R-20260901-04.md) [pt-ruling-id-unique]"});
  CHECK(check(fixture("phases-skeleton"), "cortex-phases@p2").findings.empty());
}
