// The open-requirements rules: the seed's own examples pass; each rule has a
// ledger that trips it, asserted as the exact set of rule ids reported.
#include "ledgergate/rules/open_requirements.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/registry.hpp"
#include "support/fixture_tree.hpp"

namespace {

using Ids = std::set<std::string>;

Ids ids_of(const std::vector<lg::diag::Finding>& findings) {
  Ids out;
  for (const auto& f : findings) out.insert(f.rule);
  return out;
}

std::vector<lg::diag::Finding> findings(const std::string& text) {
  lg::diag::CollectingSink sink;
  lg::rules::check_open_requirements(lg::ledger::parse_open_requirements(text), "open-requirements.ledger.yml", sink);
  return sink.take();
}

Ids ids(const std::string& text) { return ids_of(findings(text)); }

Ids history(const std::string& before, const std::string& after) {
  lg::diag::CollectingSink sink;
  lg::rules::check_open_requirements_history(lg::ledger::parse_open_requirements(before),
                                             lg::ledger::parse_open_requirements(after), "x.yml", sink);
  return ids_of(sink.take());
}

// The seed's per-entry example, verbatim (it writes `kind: gap` out).
const std::string k_seed_entry =
    "  - id: sccmec-evidence-missing\n"
    "    status: open                # open | resolved | surrendered\n"
    "    kind: gap                   # gap | dropped — see below; omit for gap\n"
    "    blocking: true              # true only for a computability gap; the convergence gate counts these\n"
    "    raised_by: implement-galaxy-tool-step   # Mold that appended it\n"
    "    step: classify_context       # draft step the obligation attaches to (if any)\n"
    "    unmet: \"SCCmec-region candidate output category\"\n"
    "    missing: \"no wired input carries SCCmec cassette evidence\"\n"
    "    resolved_by: null            # Mold that closed it, once closed\n"
    "    supersedes: null             # id whose justification this entry refutes, once resolved\n"
    "    note: \"\"                     # how it was closed or why surrendered\n";

// The seed's dropped entry, verbatim.
const std::string k_seed_drop =
    "  - id: annotation-planes-not-built\n"
    "    status: open\n"
    "    kind: dropped\n"
    "    raised_by: nextflow-summary-to-galaxy-data-flow\n"
    "    units: \"25 of 31 designed nodes (rnaseq_short, gnomon, annot_proc, convert)\"\n"
    "    because: \"`gxwf tool-search asn1` returns no wrapper reading seq-submit; searched 2026-08-29\"\n"
    "    unmet: \"the pipeline's actual product — an annotated genome\"\n"
    "    missing: \"the carried spine masks an assembly; it does not annotate a genome\"\n"
    "    note: \"\"\n";

// The seed's topology_repair block, verbatim.
const std::string k_seed_budget =
    "topology_repair:\n"
    "  escalations: 2           # repairs invoked this run\n"
    "  cap: 5                   # hard ceiling; at cap, still-open entries are surrendered\n"
    "  open_history: [4, 3, 2]  # open blocking-entry count after each escalation — must be strictly decreasing\n";

std::string gap(const std::string& id, const std::string& extra = "", const std::string& status = "open") {
  return "  - id: " + id + "\n    status: " + status + "\n    raised_by: step-a\n    unmet: \"u\"\n    missing: \"m\"\n" +
         extra;
}

std::string drop(const std::string& id, const std::string& because, const std::string& extra = "") {
  return "  - id: " + id + "\n    status: open\n    kind: dropped\n    raised_by: step-a\n    units: \"3 nodes\"\n" +
         "    because: " + because + "\n    unmet: \"u\"\n    missing: \"m\"\n" + extra;
}

}  // namespace

TEST_CASE("orl rules: the seed's examples pass", "[rules][orl]") {
  CHECK(ids("entries:\n" + k_seed_entry) == Ids{"orl-kind-gap-explicit"});
  CHECK(ids("entries:\n" + k_seed_drop) == Ids{});
  CHECK(ids(k_seed_budget + "entries:\n" + k_seed_entry + k_seed_drop) == Ids{"orl-kind-gap-explicit"});
  CHECK(ids(k_seed_budget + "entries:\n  - id: sccmec-evidence-missing\n    status: open\n    blocking: true\n"
                            "    raised_by: implement-galaxy-tool-step\n    unmet: \"x\"\n    missing: \"y\"\n") ==
        Ids{});
  CHECK(ids("") == Ids{});
  CHECK(ids("entries: []\n") == Ids{});
  CHECK(ids("entries:\n") == Ids{});
}

TEST_CASE("orl rules: document shape", "[rules][orl]") {
  CHECK(ids("entries:\n  - id: [a\n") == Ids{"orl-yaml"});
  CHECK(ids("just a string\n") == Ids{"orl-shape"});
  CHECK(ids("entries: 5\n") == Ids{"orl-shape"});
  CHECK(ids(gap("a")) == Ids{"orl-bare-list"});
  CHECK(ids("entries:\n" + gap("a") + "extra: 1\n") == Ids{"orl-top-keys"});
  CHECK(ids("entries: []\nentries:\n" + gap("a")) == Ids{"orl-duplicate-key"});
  CHECK(ids("entries:\n" + gap("a", "    status: open\n")) == Ids{"orl-duplicate-key"});
  const auto f = findings("entries:\n" + gap("a", "    note: x\n    note: y\n"));
  REQUIRE(f.size() == 1);
  CHECK(f[0].location.line == 8);
  CHECK(f[0].message.find("entry `a`") != std::string::npos);
}

TEST_CASE("orl rules: entries", "[rules][orl]") {
  CHECK(ids("entries:\n  - just text\n") == Ids{"orl-entry-mapping"});
  CHECK(ids("entries:\n" + gap("a", "    resolved-by: x\n")) == Ids{"orl-entry-fields"});
  CHECK(ids("entries:\n" + gap("Not_Kebab")) == Ids{"orl-id"});
  CHECK(ids("entries:\n  - status: open\n    raised_by: s\n    unmet: u\n    missing: m\n") == Ids{"orl-id"});
  CHECK(ids("entries:\n" + gap("5")) == Ids{"orl-id"});
  CHECK(ids("entries:\n" + gap("a") + gap("a")) == Ids{"orl-id-unique"});
  CHECK(ids("entries:\n" + gap("a", "", "closed")) == Ids{"orl-status"});
  CHECK(ids("entries:\n" + gap("a", "    kind: question\n")) == Ids{"orl-kind"});
  CHECK(ids("entries:\n" + gap("a", "    kind: gap\n")) == Ids{"orl-kind-gap-explicit"});
  CHECK(ids("entries:\n" + gap("a", "    blocking: \"yes\"\n")) == Ids{"orl-blocking-bool"});
  CHECK(ids("entries:\n" + drop("a", "\"see `tool --x`\"", "    blocking: true\n")) == Ids{"orl-blocking-gap-only"});
  CHECK(ids("entries:\n  - id: a\n    status: open\n    unmet: u\n    missing: m\n") == Ids{"orl-provenance"});
  CHECK(ids("entries:\n  - id: a\n    status: open\n    raised_by: s\n    unmet: \"\"\n    missing: m\n") ==
        Ids{"orl-unmet-missing"});
  CHECK(ids("entries:\n" + gap("a", "", "resolved")) == Ids{"orl-resolved-by"});
  CHECK(ids("entries:\n" + gap("a", "    resolved_by: step-b\n")) == Ids{"orl-resolved-by"});
  CHECK(ids("entries:\n" + gap("a", "    resolved_by: step-b\n    note: done\n", "resolved")) == Ids{});
  CHECK(ids("entries:\n" + gap("a", "    note: \"\"\n", "surrendered")) == Ids{"orl-surrender-note"});
  CHECK(ids("entries:\n" + gap("a", "    note: \"no producer\"\n", "surrendered")) == Ids{});
  CHECK(ids("entries:\n  - id: a\n    status: open\n    kind: dropped\n    raised_by: s\n    unmet: u\n    missing: m\n") ==
        Ids{"orl-dropped-fields"});
  CHECK(ids("entries:\n" + drop("a", "\"no wrapper exists for it\"")) == Ids{"orl-uncited-drop"});
}

TEST_CASE("orl rules: citations", "[rules][orl]") {
  using lg::rules::orl_because_cited;
  CHECK(orl_because_cited("`gxwf tool-search asn1` returns nothing"));
  CHECK(orl_because_cited("see https://example.org/x"));
  CHECK(orl_because_cited("blocked on #281"));
  CHECK(orl_because_cited("galaxyproject/tools-iuc#123"));
  CHECK(orl_because_cited("the wrapper in tools/gnomon/gnomon.xml is absent"));
  CHECK(orl_because_cited("no result, searched 2026-08-29"));
  CHECK_FALSE(orl_because_cited("each needs an authored Galaxy wrapper, e.g. for an undocumented binary"));
  CHECK_FALSE(orl_because_cited("too slow"));
  CHECK_FALSE(orl_because_cited("no wrapper handles the input/output format; 25/31 planes"));
  CHECK(orl_because_cited("see modules/local/gnomon/main.nf"));
  CHECK(orl_because_cited("see conf/base.config"));
}

TEST_CASE("orl rules: supersedes", "[rules][orl]") {
  const std::string reopened = drop("a", "\"~~no wrapper, searched 2026-08-29~~\"", "    note: \"found tool x\"\n");
  const std::string sup = gap("b", "    resolved_by: step-b\n    supersedes: a\n    note: found\n", "resolved");
  CHECK(ids("entries:\n" + reopened + sup) == Ids{});
  CHECK(ids("entries:\n" + drop("a", "\"\"", "    note: \"found tool x\"\n") + sup) == Ids{});
  CHECK(ids("entries:\n" + gap("b", "    resolved_by: s\n    supersedes: zzz\n", "resolved")) ==
        Ids{"orl-supersedes-resolves"});
  CHECK(ids("entries:\n" + gap("b", "    resolved_by: s\n    supersedes: b\n", "resolved")) ==
        Ids{"orl-supersedes-resolves"});
  CHECK(ids("entries:\n" + reopened + gap("b", "    supersedes: a\n")) == Ids{"orl-supersedes-on-resolved"});
  CHECK(ids("entries:\n" + drop("a", "\"see `x`\"", "    note: \"found tool x\"\n") + sup) ==
        Ids{"orl-superseded-reopened"});
  CHECK(ids("entries:\n" + drop("a", "\"~~see `x`~~\"") + sup) == Ids{"orl-superseded-reopened"});
}

TEST_CASE("orl rules: escalation budget", "[rules][orl]") {
  const std::string open_blocking = gap("a", "    blocking: true\n");
  CHECK(ids("topology_repair:\n  escalations: -1\n  cap: 5\n  open_history: []\nentries: []\n") ==
        Ids{"orl-budget-types"});
  CHECK(ids("topology_repair:\n  escalations: 0\n  cap: 0\n  open_history: []\nentries: []\n") ==
        Ids{"orl-budget-types"});
  CHECK(ids("topology_repair:\n  escalations: 1\n  cap: 5\n  open_history: [a]\nentries: []\n") ==
        Ids{"orl-budget-types"});
  CHECK(ids("topology_repair: 3\nentries: []\n") == Ids{"orl-budget-types"});
  CHECK(ids("topology_repair:\n  escalations: 2\n  cap: 5\n  open_history: [4]\nentries: []\n") ==
        Ids{"orl-budget-length"});
  CHECK(ids("topology_repair:\n  escalations: 2\n  cap: 5\n  open_history: [3, 2]\nentries: []\n") == Ids{});
  CHECK(ids("topology_repair:\n  escalations: 3\n  cap: 2\n  open_history: [3, 2, 1]\nentries: []\n") ==
        Ids{"orl-budget-cap"});
  CHECK(ids("topology_repair:\n  escalations: 2\n  cap: 5\n  open_history: [4, 3, 3]\nentries: []\n") ==
        Ids{"orl-non-convergent"});
  CHECK(ids("topology_repair:\n  escalations: 2\n  cap: 2\n  open_history: [3, 2, 1]\nentries:\n" + open_blocking) ==
        Ids{"orl-cap-surrender"});
  CHECK(ids("topology_repair:\n  escalations: 2\n  cap: 2\n  open_history: [3, 2, 1]\nentries:\n" +
            gap("a", "    blocking: true\n    note: cap\n", "surrendered")) == Ids{});
  CHECK(ids("topology_repair:\n  escalations: 1\n  escalations: 1\n  cap: 2\n  open_history: [1]\nentries: []\n") ==
        Ids{"orl-duplicate-key"});
}

TEST_CASE("orl rules: messages name the entry and its line", "[rules][orl]") {
  const auto f = findings("entries:\n" + gap("a") + gap("b", "", "closed"));
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule == "orl-status");
  CHECK(f[0].location.line == 8);
  CHECK(f[0].message.find("entry `b` (line 7)") != std::string::npos);
  const auto y = findings("entries:\n  - id: [a\n");
  REQUIRE(y.size() == 1);
  CHECK(y[0].location.line > 0);
}

TEST_CASE("orl history rules", "[rules][orl]") {
  const std::string a = gap("a"), b = gap("b");
  CHECK(history("entries:\n" + a, "entries:\n" + a + b) == Ids{});
  CHECK(history("", "entries:\n" + a) == Ids{});
  CHECK(history("entries:\n" + a + b, "entries:\n" + a) == Ids{"orl-h-no-delete"});
  CHECK(history("entries:\n" + a, "") == Ids{"orl-h-no-delete"});
  CHECK(history("entries:\n" + a, "entries:\n  - id: a\n    status: open\n    raised_by: step-z\n    unmet: \"u\"\n"
                                   "    missing: \"m\"\n") == Ids{"orl-h-no-reword"});
  CHECK(history("entries:\n" + a + b, "entries:\n" + b + a) == Ids{"orl-h-order"});
  CHECK(history("entries:\n" + a, "entries:\n" + b + a) == Ids{"orl-h-order"});
  CHECK(history("entries:\n" + a, "entries:\n" + gap("a", "    resolved_by: s\n", "resolved")) == Ids{});
  CHECK(history("entries:\n" + a, "entries:\n" + gap("a", "    note: n\n", "surrendered")) == Ids{});
  CHECK(history("entries:\n" + gap("a", "    note: n\n", "surrendered"), "entries:\n" + a) == Ids{"orl-h-transition"});
  CHECK(history("entries:\n" + gap("a", "    resolved_by: s\n", "resolved"), "entries:\n" + a) ==
        Ids{"orl-h-transition"});
  CHECK(history("entries:\n" + gap("a", "    resolved_by: s\n", "resolved"),
                "entries:\n" + gap("a", "    resolved_by: t\n", "resolved")) == Ids{"orl-h-transition"});
  // A supersede reopens a resolved drop and strikes its because.
  const std::string d0 = "entries:\n" + drop("d", "\"see `x`\"", "    resolved_by: s\n    note: ok\n");
  const std::string d0r = "entries:\n  - id: d\n    status: resolved\n    kind: dropped\n    raised_by: step-a\n"
                          "    units: \"3 nodes\"\n    because: \"see `x`\"\n    unmet: \"u\"\n    missing: \"m\"\n"
                          "    resolved_by: s\n    note: ok\n";
  const std::string d1 = "entries:\n" + drop("d", "\"~~see `x`~~\"", "    note: \"x exists\"\n") +
                         gap("e", "    resolved_by: t\n    supersedes: d\n    note: found\n", "resolved");
  CHECK(ids(d1) == Ids{});
  CHECK(history(d0r, d1) == Ids{});
  CHECK(history(d0, "entries:\n" + drop("d", "\"~~see `x`~~\"")) == Ids{"orl-h-no-reword"});
  // Budget.
  const std::string b2 = "topology_repair:\n  escalations: 2\n  cap: 5\n  open_history: [4, 3, 2]\nentries: []\n";
  CHECK(history("", "topology_repair:\n  escalations: 1\n  cap: 5\n  open_history: [4, 0]\nentries: []\n") == Ids{});
  CHECK(history(b2, "topology_repair:\n  escalations: 3\n  cap: 5\n  open_history: [4, 3, 2, 0]\nentries: []\n") ==
        Ids{});
  CHECK(history(b2, "topology_repair:\n  escalations: 1\n  cap: 5\n  open_history: [4, 3]\nentries: []\n") ==
        Ids{"orl-h-budget"});
  CHECK(history(b2, "topology_repair:\n  escalations: 2\n  cap: 6\n  open_history: [4, 3, 2]\nentries: []\n") ==
        Ids{"orl-h-budget"});
  CHECK(history(b2, "topology_repair:\n  escalations: 3\n  cap: 5\n  open_history: [4, 3, 1, 0]\nentries: []\n") ==
        Ids{"orl-h-budget"});
  CHECK(history(b2, "topology_repair:\n  escalations: 3\n  cap: 5\n  open_history: [4, 3, 2, 1]\nentries: []\n") ==
        Ids{"orl-h-escalation-count"});
}

// An id held twice is judged at its first entry: a later duplicate is not
// an existing entry that moved (its own rule, orl-id-unique, reports it).
TEST_CASE("orl history: a duplicate id is judged at its first entry", "[rules][orl]") {
  const std::string a = gap("a"), b = gap("b"), a2 = gap("a", "    note: again\n");
  CHECK(history("entries:\n" + a + b + a2, "entries:\n" + a + b + a2) == Ids{});
  CHECK(history("entries:\n" + a + b + a2, "entries:\n" + a + b + a2 + gap("c")) == Ids{});
  CHECK(history("entries:\n" + a + b + a2, "entries:\n" + b + a + a2) == Ids{"orl-h-order"});
}

// What the trial merge and the audit rely on to compare only the files a
// change touches: a version compared with itself has no history finding,
// whatever it holds (duplicate ids, odd entries, budgets, broken YAML).
TEST_CASE("orl history: a version compared with itself has none", "[rules][orl]") {
  const std::vector<std::string> parts = {
      gap("a"), gap("b"), gap("a", "    note: twice\n"), gap("c", "    resolved_by: s\n", "resolved"),
      gap("d", "    note: n\n", "surrendered"), drop("e", "\"see `a`\""), gap("f", "    supersedes: e\n", "resolved"),
      gap("", ""), "  - just text\n", "  - id: [g\n", gap("h", "", "closed"), gap("b", "", "resolved")};
  const std::vector<std::string> heads = {
      "", "topology_repair:\n  escalations: 2\n  cap: 5\n  open_history: [4, 3, 2]\n",
      "topology_repair:\n  escalations: -1\n  open_history: [1]\n", "topology_repair: [x\n"};
  std::uint32_t state = 12345;
  auto next = [&state](std::size_t n) {
    state = state * 1103515245u + 12345u;
    return static_cast<std::size_t>((state >> 8) % n);
  };
  for (int round = 0; round < 300; ++round) {
    std::string doc = heads[next(heads.size())] + "entries:\n";
    const std::size_t n = next(8);
    for (std::size_t i = 0; i < n; ++i) doc += parts[next(parts.size())];
    INFO(doc);
    CHECK(history(doc, doc) == Ids{});
  }
}

TEST_CASE("orl rules are registered", "[rules][orl]") {
  for (const char* id : {"orl-yaml", "orl-h-budget", "orl-cap-surrender", "orl-kind-gap-explicit"}) {
    const auto* r = lg::rules::find_rule(id);
    REQUIRE(r != nullptr);
    CHECK(r->profile == "open-requirements");
  }
  CHECK(lg::rules::find_rule("orl-kind-gap-explicit")->severity == lg::diag::Severity::info);
}

namespace {

struct Checked {
  std::string profile;
  Ids ids;
};

lg::Result<Checked> check_folder(const lg::test::FileMap& files, const std::string& glob = "") {
  lg::test::TempDir dir;
  lg::test::write_tree(dir.path(), files);
  auto tree = lg::git::open_directory_source(dir.path());
  REQUIRE(tree.has_value());
  lg::rules::CheckCache cache;
  lg::rules::CheckOptions options;
  if (!glob.empty()) options.open_requirements_glob = glob;
  LG_TRY(auto report, lg::rules::check_tree(**tree, options, cache));
  return Checked{report.profile, ids_of(report.findings)};
}

}  // namespace

TEST_CASE("orl profile: found by name alone, beside a Cortex ledger, or through the glob", "[rules][orl][check]") {
  const std::string good = "entries:\n" + gap("a");
  const std::string bad = "entries:\n" + gap("a", "", "closed");
  auto alone = check_folder({{"runs/one/open-requirements.ledger.yml", bad}, {"README.md", "x\n"}});
  REQUIRE(alone.has_value());
  CHECK(alone->profile == "open-requirements");
  CHECK(alone->ids == Ids{"orl-status"});
  auto beside = check_folder({{"projects.yaml", ""}, {"open-requirements.ledger.yml", good}});
  REQUIRE(beside.has_value());
  CHECK(beside->profile == "cortex-projects+open-requirements");
  CHECK(beside->ids == Ids{});
  auto cortex = check_folder({{"projects.yaml", ""}});
  REQUIRE(cortex.has_value());
  CHECK(cortex->profile == "cortex-projects");
  auto globbed = check_folder({{"ledgers/x.orl.yml", bad}, {"open-requirements.ledger.yml", good}}, "ledgers/*.orl.yml");
  REQUIRE(globbed.has_value());
  CHECK(globbed->ids == Ids{"orl-status"});
  CHECK_FALSE(check_folder({{"README.md", "x\n"}}).has_value());
}
