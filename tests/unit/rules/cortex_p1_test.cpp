// Era P1: the restricted-subset projects.yaml reader (spec §5.2: Y1-01..Y1-09,
// Y-01, Y-11..Y-17 in the P1 wording) and the batch records and reviews
// (spec §2.5, §2.6.5: P-B01..P-B08, P-V01..P-V10), with the P1a / P1b / P1c
// differences, the emission order and the P1 peer cases (CP1-01..05, 10..12)
// asserted through the two functions directly. The P1 fixture is derived as
// peer-cases.yaml describes it (fixtures.P-skeleton).
#include "ledgergate/rules/cortex_p1.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/rules/registry.hpp"
#include "support/fixture_tree.hpp"
#include "support/peer_cases.hpp"

using lg::diag::CollectingSink;
using lg::diag::Finding;
using lg::diag::PeerForm;
using lg::rules::P1BatchFile;
using lg::rules::P1Phase;
using lg::rules::P1Sub;
using lg::rules::ProjectsTable;
using lg::test::FileMap;
using lg::test::peer_case;
using lg::test::peer_cases;

namespace {

using Lines = std::vector<std::string>;

const std::string k_em = "\xE2\x80\x94";  // —

std::string p1_projects_yaml() { return peer_cases()["fixtures"]["P-skeleton"]["p1_projects_yaml"].as<std::string>(); }


// ---------------------------------------------------------------------------
// projects.yaml

struct YamlRun {
  ProjectsTable table;
  std::vector<Finding> findings;
  Lines peer;  // the reference's lines, in order
};

YamlRun run_yaml(const std::optional<std::string>& text, P1Sub sub = P1Sub::b) {
  CollectingSink sink;
  YamlRun r;
  r.table = lg::rules::check_projects_yaml_p1(text ? std::optional<std::string_view>(*text) : std::nullopt, sub, sink);
  r.findings = sink.take();
  for (const Finding& f : r.findings) {
    CHECK(f.peer != PeerForm::none);
    r.peer.push_back(lg::diag::peer_text(f));
  }
  return r;
}

// A minimal valid row under `key`, with `extra` lines appended.
std::string row(const std::string& key, const std::string& extra = "") {
  return key +
         ":\n  remote: none\n  local_path: /l\n  ral_root: /r\n  mirror: none\n  sync_cli: s\n  sync_verbs: [pull]\n"
         "  ledger: l\n  witness_file: w\n  partition: gpu\n  status: active\n" +
         extra;
}

// key → field → value, as the table keeps them.
using Rows = std::map<std::string, std::map<std::string, std::string>>;
Rows rows_of(const ProjectsTable& t) {
  Rows out;
  for (const auto& r : t.rows) {
    for (const auto& [name, value] : r.fields) out[r.key][std::string(name)] = std::string(value);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Batches

// The P1 tree's batch-relevant files: the members-form record and the
// T-skeleton review, plus the phases derived from the T-skeleton's tasks.
FileMap p1_batch_files() {
  FileMap files;
  files["batches/2026-09-01-pm.md"] = peer_cases()["fixtures"]["P-skeleton"]["p1_batch_record"].as<std::string>();
  const FileMap t = lg::test::peer_fixture(peer_cases(), "T-skeleton");
  files["batches/reviews/2026-09-01-pm.md"] = t.at("batches/reviews/2026-09-01-pm.md");
  return files;
}

// phases/example/<stem>.md for each T-skeleton task, with its ## Runs stems.
std::map<std::string, P1Phase, std::less<>> p1_phases() {
  std::map<std::string, P1Phase, std::less<>> phases;
  const std::regex run_line("^- (\\d+)");
  for (const auto& [path, text] : lg::test::peer_fixture(peer_cases(), "T-skeleton")) {
    if (path.rfind("tasks/example/", 0) != 0) continue;
    P1Phase p;
    p.stem = path.substr(14, path.size() - 14 - 3);
    std::istringstream in(text);
    std::string line;
    bool runs = false;
    while (std::getline(in, line)) {
      if (line.rfind("## ", 0) == 0) runs = line == "## Runs";
      std::smatch m;
      if (runs && std::regex_search(line, m, run_line) &&
          std::find(p.body_stems.begin(), p.body_stems.end(), m[1].str()) == p.body_stems.end()) {
        p.body_stems.push_back(m[1].str());
      }
    }
    phases["phases/example/" + p.stem + ".md"] = p;
  }
  REQUIRE(phases.size() == 10);
  return phases;
}

struct BatchRun {
  std::vector<Finding> findings;
  Lines peer;
};

BatchRun run_batches(const FileMap& files, P1Sub sub = P1Sub::b,
                     const std::map<std::string, P1Phase, std::less<>>& phases = p1_phases()) {
  std::vector<P1BatchFile> records;
  std::vector<P1BatchFile> reviews;
  // Deliberately reverse order: the function sorts.
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    const std::string& path = it->first;
    const bool md = path.size() > 3 && path.compare(path.size() - 3, 3, ".md") == 0;
    if (!md) continue;
    const std::string rest = path.rfind("batches/reviews/", 0) == 0 ? path.substr(16)
                             : path.rfind("batches/", 0) == 0       ? path.substr(8)
                                                                    : std::string("/");
    if (rest.find('/') != std::string::npos || rest == "AGENTS.md") continue;
    (path.rfind("batches/reviews/", 0) == 0 ? reviews : records).push_back(P1BatchFile{path, it->second});
  }
  auto exists = [&](std::string_view p) { return files.count(std::string(p)) > 0 || phases.count(p) > 0; };
  CollectingSink sink;
  lg::rules::check_p1_batches(records, reviews, phases, exists, sub, sink);
  BatchRun r;
  r.findings = sink.take();
  for (const Finding& f : r.findings) {
    CHECK(f.peer == PeerForm::path_message);
    r.peer.push_back(lg::diag::peer_text(f));
  }
  return r;
}

FileMap with_case_setup(const std::string& id) {
  FileMap files = p1_batch_files();
  for (const auto& op : peer_case(id)["setup"]) lg::test::apply_peer_op(files, op);
  return files;
}

void check_contains(const Lines& peer, const YAML::Node& needles) {
  std::string joined;
  for (const std::string& l : peer) joined += l + "\n";
  for (const auto& n : needles) {
    INFO(n.as<std::string>());
    CHECK(joined.find(n.as<std::string>()) != std::string::npos);
  }
}

const std::string R = "batches/2026-09-01-pm.md";
const std::string V = "batches/reviews/2026-09-01-pm.md";

}  // namespace

// ===========================================================================
// projects.yaml — restricted subset (§5.2)

TEST_CASE("P1 projects.yaml: CP1-01 a comment-only file parses to an empty map", "[p1]") {
  const YamlRun r = run_yaml(peer_case("CP1-01")["input"].as<std::string>());
  CHECK(r.findings.empty());
  CHECK(r.table.present);
  CHECK(r.table.rows.empty());
}

TEST_CASE("P1 projects.yaml: CP1-02 the fixture is clean and reads as the PyYAML era reads it", "[p1]") {
  const std::string text = p1_projects_yaml();
  for (P1Sub sub : {P1Sub::a, P1Sub::b, P1Sub::c}) {
    const YamlRun r = run_yaml(text, sub);
    CHECK(r.findings.empty());
    REQUIRE(r.table.rows.size() == 1);
    const auto& row = r.table.rows[0];
    CHECK(row.key == "example");
    CHECK(row.line == 4);
    CHECK(*row.get("mirror") == "/mnt/c/Users/Jammy/Science/example/mirror");
    CHECK(*row.get("sync_verbs") == "pull, submit, jobs, tail");
    CHECK(r.table.find("example") == &row);
    // The PyYAML-era reader (P2 wording, no assistant) keeps the same row.
    CollectingSink sink;
    lg::rules::ProjectsYamlEra p2;
    p2.assistant_known = false;
    p2.statuses = {"active", "dormant", "planned"};
    const ProjectsTable yaml = lg::rules::check_projects_yaml(text, p2, sink);
    CHECK(sink.findings().empty());
    CHECK(rows_of(r.table) == rows_of(yaml));
  }
}

TEST_CASE("P1 projects.yaml: CP1-03 quoted scalars and comments read right", "[p1]") {
  const YAML::Node c = peer_case("CP1-03");
  const std::string text = c["input"].as<std::string>();
  const YamlRun r = run_yaml(text);
  CHECK(r.findings.empty());
  REQUIRE(r.table.find("p"));
  const auto& p = *r.table.find("p");
  CHECK(*p.get("local_path") == c["expect"]["rows.p.local_path"].as<std::string>());
  CHECK(*p.get("sync_cli") == c["expect"]["rows.p.sync_cli"].as<std::string>());
  CHECK(*p.get("sync_verbs") == "pull");
  CHECK(*p.get("witness_file") == "**/*.json");
  CollectingSink sink;
  lg::rules::ProjectsYamlEra p2;
  p2.assistant_known = false;
  const ProjectsTable yaml = lg::rules::check_projects_yaml(text, p2, sink);
  CHECK(sink.findings().empty());
  CHECK(rows_of(r.table) == rows_of(yaml));
}

TEST_CASE("P1 projects.yaml: CP1-04 an unknown field is reported with its line", "[p1]") {
  const YAML::Node c = peer_case("CP1-04");
  FileMap files{{"projects.yaml", p1_projects_yaml()}};
  for (const auto& op : c["setup"]) lg::test::apply_peer_op(files, op);
  for (P1Sub sub : {P1Sub::a, P1Sub::b, P1Sub::c}) {
    const YamlRun r = run_yaml(files["projects.yaml"], sub);
    check_contains(r.peer, c["findings_contain"]);
    CHECK(r.peer == Lines{"projects.yaml:15: unknown field `colour` on example"});
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].location.line == 15);
    CHECK(r.findings[0].peer == PeerForm::path_line_message);
    CHECK(r.findings[0].message == "unknown field `colour` on example");
    // The row is kept without the unknown field.
    CHECK(r.table.find("example")->get("colour") == std::nullopt);
  }
}

TEST_CASE("P1 projects.yaml: CP1-05 a block list is outside the subset", "[p1]") {
  const YAML::Node c = peer_case("CP1-05");
  FileMap files{{"projects.yaml", p1_projects_yaml()}};
  for (const auto& op : c["setup"]) lg::test::apply_peer_op(files, op);
  const YamlRun r = run_yaml(files["projects.yaml"]);
  check_contains(r.peer, c["findings_contain"]);
  CHECK(r.peer == c["derived_findings"].as<Lines>());
  REQUIRE(r.findings.size() == 3);
  CHECK(r.findings[0].rule == "projects-yaml-p1-sync-verbs-flow");
  CHECK(r.findings[1].rule == "projects-yaml-p1-outside-subset");
  CHECK(r.findings[2].rule == "projects-yaml-required-fields");
  CHECK(r.findings[2].location.line == 4);
  CHECK(r.table.find("example")->get("sync_verbs") == std::nullopt);
}

TEST_CASE("P1 projects.yaml: Y-01 a missing file", "[p1]") {
  const YamlRun r = run_yaml(std::nullopt);
  CHECK(r.peer == Lines{"projects.yaml: missing"});
  CHECK_FALSE(r.table.present);
  CHECK(r.findings[0].rule == "projects-yaml-present");
}

TEST_CASE("P1 projects.yaml: Y1-01 a repeated row key restarts the row empty", "[p1]") {
  const std::string text = row("a", "  colour: x\n") + row("b") + "a:\n  remote: none\n";
  const YamlRun r = run_yaml(text);
  CHECK(r.peer == Lines{
                      "projects.yaml:12: unknown field `colour` on a",
                      "projects.yaml:24: duplicate project key a",
                      "projects.yaml: a is missing local_path, ral_root, mirror, sync_cli, sync_verbs, ledger, "
                      "witness_file, partition, status",
                  });
  CHECK(r.findings[1].rule == "projects-yaml-p1-duplicate-row");
  CHECK(r.findings[1].location.line == 24);
  REQUIRE(r.table.rows.size() == 2);
  CHECK(r.table.rows[0].key == "a");  // first position kept
  CHECK(r.table.rows[0].line == 24);
  CHECK(r.table.rows[0].fields.size() == 1);
  CHECK(r.table.rows[1].key == "b");
  // Good: two distinct keys.
  CHECK(run_yaml(row("a") + row("b")).findings.empty());
}

TEST_CASE("P1 projects.yaml: Y1-02 unknown fields; note from P1b, assistant never", "[p1]") {
  const std::string text = row("a", "  note: \"a note\"\n  assistant: none\n");
  CHECK(run_yaml(text, P1Sub::a).peer ==
        Lines{"projects.yaml:12: unknown field `note` on a", "projects.yaml:13: unknown field `assistant` on a"});
  for (P1Sub sub : {P1Sub::b, P1Sub::c}) {
    const YamlRun r = run_yaml(text, sub);
    CHECK(r.peer == Lines{"projects.yaml:13: unknown field `assistant` on a"});
    CHECK(r.findings[0].rule == "projects-yaml-p1-field-known");
    CHECK(*r.table.find("a")->get("note") == "a note");
  }
  // A note is optional but never empty.
  CHECK(run_yaml(row("a", "  note: \"\"\n")).peer == Lines{"projects.yaml: a.note is empty"});
}

TEST_CASE("P1 projects.yaml: Y1-03 a repeated field keeps the first", "[p1]") {
  const YamlRun r = run_yaml(row("a", "  ledger: other\n"));
  CHECK(r.peer == Lines{"projects.yaml:12: duplicate field `ledger` on a"});
  CHECK(r.findings[0].rule == "projects-yaml-p1-field-unique");
  CHECK(*r.table.find("a")->get("ledger") == "l");
}

TEST_CASE("P1 projects.yaml: Y1-04 sync_verbs must be a flow list", "[p1]") {
  const std::string base = row("a");
  for (const std::string& bad :
       {std::string("pull"), std::string("\"[pull]\""), std::string("[pull"), std::string("pull]")}) {
    INFO(bad);
    const YamlRun r = run_yaml(lg::test::replaced(base, "  sync_verbs: [pull]\n", "  sync_verbs: " + bad + "\n"));
    CHECK(r.peer ==
          Lines{"projects.yaml:7: sync_verbs must be a flow list `[a, b]`", "projects.yaml: a is missing sync_verbs"});
    CHECK(r.findings[0].rule == "projects-yaml-p1-sync-verbs-flow");
  }
  // An empty flow list is a list: no finding, and never "empty".
  const YamlRun ok = run_yaml(lg::test::replaced(base, "[pull]", "[]"));
  CHECK(ok.findings.empty());
  CHECK(*ok.table.find("a")->get("sync_verbs") == "");
}

TEST_CASE("P1 projects.yaml: Y1-05 sync_verbs items are bare words", "[p1]") {
  const std::string base = row("a");
  const YamlRun r = run_yaml(lg::test::replaced(base, "[pull]", "[pull, Not A Verb, 'x', jobs,]"));
  CHECK(r.peer == Lines{"projects.yaml:7: sync_verbs holds a non-bare word: ['Not A Verb', \"'x'\"]"});
  CHECK(r.findings[0].rule == "projects-yaml-p1-sync-verbs-bare");
  CHECK(*r.table.find("a")->get("sync_verbs") == "pull, jobs");
  // A non-blank body with no items.
  CHECK(run_yaml(lg::test::replaced(base, "[pull]", "[ , ]")).peer ==
        Lines{"projects.yaml:7: sync_verbs holds a non-bare word: []"});
  CHECK(run_yaml(lg::test::replaced(base, "[pull]", "[pull, submit-2, a_b]")).findings.empty());
}

TEST_CASE("P1 projects.yaml: Y1-06 a field without a value is kept empty", "[p1]") {
  const YamlRun r = run_yaml(lg::test::replaced(row("a"), "  ledger: l\n", "  ledger:\n"));
  CHECK(r.peer == Lines{"projects.yaml:8: `ledger` has no value", "projects.yaml: a.ledger is empty"});
  CHECK(r.findings[0].rule == "projects-yaml-p1-field-has-value");
  CHECK(r.findings[1].rule == "projects-yaml-field-not-empty");
  CHECK(r.findings[1].location.line == 8);
  CHECK(*r.table.find("a")->get("ledger") == "");
  // A trailing comment after the colon is no value either.
  CHECK(run_yaml(lg::test::replaced(row("a"), "  ledger: l\n", "  ledger:   # later\n")).peer ==
        Lines{"projects.yaml:8: `ledger` has no value", "projects.yaml: a.ledger is empty"});
}

TEST_CASE("P1 projects.yaml: Y1-07 quotes must be balanced and not nested", "[p1]") {
  for (const std::string& bad :
       {std::string("\"abc"), std::string("\"a\"b\""), std::string("\""), std::string("\"a\" b")}) {
    INFO(bad);
    const YamlRun r = run_yaml(lg::test::replaced(row("a"), "  ledger: l\n", "  ledger: " + bad + "\n"));
    CHECK(r.peer == Lines{"projects.yaml:8: unterminated or nested quotes: " + bad});
    CHECK(r.findings[0].rule == "projects-yaml-p1-quotes");
    CHECK(*r.table.find("a")->get("ledger") == bad);  // kept as written
  }
  const YamlRun ok = run_yaml(lg::test::replaced(row("a"), "  ledger: l\n", "  ledger: \"it's: #1\"  # c\n"));
  CHECK(ok.findings.empty());
  CHECK(*ok.table.find("a")->get("ledger") == "it's: #1");
  // A quoted empty string is empty.
  CHECK(run_yaml(lg::test::replaced(row("a"), "  ledger: l\n", "  ledger: \"\"\n")).peer ==
        Lines{"projects.yaml: a.ledger is empty"});
}

TEST_CASE("P1 projects.yaml: Y1-08 a scalar with # or : or an indicator needs quoting", "[p1]") {
  for (const std::string& bad :
       {std::string("hpc:sync"), std::string("a#b"), std::string("[x"), std::string("{x"), std::string("'x'"),
        std::string("&x"), std::string("*x"), std::string("!x"), std::string("|x"), std::string(">x")}) {
    INFO(bad);
    const YamlRun r = run_yaml(lg::test::replaced(row("a"), "  sync_cli: s\n", "  sync_cli: " + bad + "\n"));
    CHECK(r.peer == Lines{"projects.yaml:6: scalar needs quoting (contains `#`, `:` or a YAML indicator): " + bad});
    CHECK(r.findings[0].rule == "projects-yaml-p1-scalar-quoting");
    CHECK(*r.table.find("a")->get("sync_cli") == bad);  // still stored
  }
  for (const std::string& good : {std::string("-x"), std::string("x]"), std::string("a b"), std::string("x'")}) {
    INFO(good);
    CHECK(run_yaml(lg::test::replaced(row("a"), "  sync_cli: s\n", "  sync_cli: " + good + "\n")).findings.empty());
  }
}

TEST_CASE("P1 projects.yaml: Y1-09 lines outside the subset", "[p1]") {
  const std::string text = "  remote: none\n"                                  // 1: a field before any key
                           + row("a")                                          // 2..12
                           + "\tledger: x\n"                                   // 13: tab indentation
                           + "   ledger: x\n"                                  // 14: three spaces
                           + "  Ledger: x\n"                                   // 15: not [a-z_]
                           + "  ledger:x\n"                                    // 16: no space after the colon
                           + "b: c\n"                                          // 17: a key with a value
                           + "  # indented comment\n" + "    - pull   # c\n";  // 19
  const std::string prefix =
      "outside the subset (a key is `^[a-z][a-z0-9_]*:$` at column 0, a field is two-space indented): ";
  const YamlRun r = run_yaml(text);
  CHECK(r.peer == Lines{
                      "projects.yaml:1: " + prefix + "remote: none",
                      "projects.yaml:13: " + prefix + "ledger: x",
                      "projects.yaml:14: " + prefix + "ledger: x",
                      "projects.yaml:15: " + prefix + "Ledger: x",
                      "projects.yaml:16: " + prefix + "ledger:x",
                      "projects.yaml:17: " + prefix + "b: c",
                      "projects.yaml:19: " + prefix + "- pull",
                  });
  for (const Finding& f : r.findings) CHECK(f.rule == "projects-yaml-p1-outside-subset");
  CHECK(r.findings[0].location.line == 1);
  // CRLF line ends and blank lines are inside the subset.
  std::string crlf = row("a");
  for (std::size_t at = crlf.find('\n'); at != std::string::npos; at = crlf.find('\n', at + 2))
    crlf.replace(at, 1, "\r\n");
  CHECK(run_yaml("\n\n" + crlf).findings.empty());
}

TEST_CASE("P1 projects.yaml: the finish-row rules in the P1 wording", "[p1]") {
  std::string text = row("a");
  text = lg::test::replaced(text, "  remote: none\n", "  remote: a/b/c\n");
  text = lg::test::replaced(text, "  local_path: /l\n", "  local_path: l\n");
  text = lg::test::replaced(text, "  ral_root: /r\n", "  ral_root: r\n");
  text = lg::test::replaced(text, "  mirror: none\n", "  mirror: m\n");
  text = lg::test::replaced(text, "  partition: gpu\n", "  partition: cpu\n");
  text = lg::test::replaced(text, "  status: active\n", "  status: planned\n");
  const Lines tail = {
      "projects.yaml: a.partition must be gpu | ral | both, not cpu",
      "",  // status, per sub-epoch
      "projects.yaml: a.remote must be owner/repo or none",
      "projects.yaml: a.local_path must be an absolute path",
      "projects.yaml: a.ral_root must be an absolute path",
      "projects.yaml: a.mirror must be an absolute path or none",
  };
  Lines p1a = tail;
  p1a[1] = "projects.yaml: a.status must be active | dormant, not planned";
  CHECK(run_yaml(text, P1Sub::a).peer == p1a);
  Lines p1b = tail;
  p1b.erase(p1b.begin() + 1);  // planned is a P1b status
  CHECK(run_yaml(text, P1Sub::b).peer == p1b);
  CHECK(run_yaml(text, P1Sub::c).peer == p1b);
  CHECK(run_yaml(lg::test::replaced(text, "status: planned", "status: retired"), P1Sub::c).peer[1] ==
        "projects.yaml: a.status must be active | dormant | planned, not retired");
  // Good: every shape right.
  CHECK(run_yaml(lg::test::replaced(row("a"), "remote: none", "remote: PyAutoLabs/x.y-z"), P1Sub::a).findings.empty());
}

TEST_CASE("P1 projects.yaml: findings come in line order, each row finished at the next key", "[p1]") {
  const std::string text = "a:\n  remote: none\n  colour: red\n" + row("b", "  ledger:\n") + "c:\n";
  const YamlRun r = run_yaml(text);
  CHECK(r.peer == Lines{
                      "projects.yaml:3: unknown field `colour` on a",
                      "projects.yaml: a is missing local_path, ral_root, mirror, sync_cli, sync_verbs, ledger, "
                      "witness_file, partition, status",
                      "projects.yaml:15: duplicate field `ledger` on b",
                      "projects.yaml: c is missing remote, local_path, ral_root, mirror, sync_cli, sync_verbs, "
                      "ledger, witness_file, partition, status",
                  });
  CHECK(r.findings[1].location.line == 1);
  CHECK(r.findings[3].location.line == 16);
  REQUIRE(r.table.rows.size() == 3);
  CHECK(r.table.rows[2].key == "c");
}

// The restricted reader against real PyYAML, when python3 with PyYAML is
// installed (CP1-02 / CP1-03: a clean restricted parse equals safe_load).
TEST_CASE("P1 projects.yaml: clean documents read as PyYAML's safe_load reads them", "[p1][pyyaml]") {
  if (std::system("python3 -c 'import yaml' >/dev/null 2>&1") != 0) {
    WARN("python3 with PyYAML is not installed: differential test skipped");
    return;
  }
  const std::vector<std::string> inputs = {
      p1_projects_yaml(),
      peer_case("CP1-03")["input"].as<std::string>(),
      row("a") + "\n# comment\n" + row("b_2", "  note: \"x # y: z\"   # c\n"),
      lg::test::replaced(row("a"), "[pull]", "[ pull ,submit,  jobs ]   # verbs"),
      lg::test::replaced(row("a"), "  ledger: l\n", "  ledger: \"**/*.md\"\n  note: a plain note, with a comma\n"),
  };
  lg::test::TempDir dir;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    INFO(inputs[i]);
    const YamlRun r = run_yaml(inputs[i]);
    REQUIRE(r.findings.empty());
    const std::string in = dir.path() + "/in" + std::to_string(i) + ".yaml";
    lg::test::write_file(in, inputs[i]);
    const std::string cmd =
        "python3 -c \"import sys, yaml\n"
        "d = yaml.safe_load(open(sys.argv[1], encoding='utf-8')) or {}\n"
        "for k, row in d.items():\n"
        "    for f, v in row.items():\n"
        "        v = ', '.join(v) if isinstance(v, list) else str(v)\n"
        "        sys.stdout.write(k + '\\t' + f + '\\t' + v + '\\n')\n\" " +
        in;
    const lg::test::Captured py_out = lg::test::capture(cmd);
    REQUIRE(py_out.status == 0);
    const std::string& out = py_out.out;
    Rows py;
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
      const auto t1 = line.find('\t');
      const auto t2 = line.find('\t', t1 + 1);
      py[line.substr(0, t1)][line.substr(t1 + 1, t2 - t1 - 1)] = line.substr(t2 + 1);
    }
    CHECK(rows_of(r.table) == py);
  }
}

// ===========================================================================
// Batch records and reviews (§2.5, §2.6.5)

TEST_CASE("P1 batches: the P1 fixture's record and review are clean in every sub-epoch", "[p1]") {
  for (P1Sub sub : {P1Sub::a, P1Sub::b, P1Sub::c}) CHECK(run_batches(p1_batch_files(), sub).peer.empty());
}

TEST_CASE("P1 batches: CP1-10 member lines", "[p1]") {
  const YAML::Node c = peer_case("CP1-10");
  const BatchRun r = run_batches(with_case_setup("CP1-10"));
  check_contains(r.peer, c["findings_contain"]);
  CHECK(r.peer == Lines{
                      R + ": member slug '06_pull' != phase stem '06_pulled'",
                      R + ": member 06_pull: runs {1} not in the phase's runs",
                      R + ": member 06_pull: review-minutes 'five' is not an integer",
                      R + ": member 06_pull: state 'parked' is not a phase state",
                      R + ": line 12: member line does not parse: - 09_rerun: phases/example/09_rerun.md " + k_em +
                          " 341900 " + k_em + " 5",
                      R + ": member 10_dropped: phases/example/10_drop.md does not exist",
                      // The renamed and the unparsable member are no members of the record.
                      V + ": section '09_rerun' names no member of batches/2026-09-01-pm.md",
                      V + ": section '06_pulled' names no member of batches/2026-09-01-pm.md",
                  });
  const std::vector<std::string> rules = {"phase-batch-member-slug",     "phase-batch-member-runs",
                                          "phase-batch-member-minutes",  "phase-batch-member-state",
                                          "phase-batch-member-parses",   "phase-batch-member-path",
                                          "phase-review-section-member", "phase-review-section-member"};
  REQUIRE(r.findings.size() == rules.size());
  for (std::size_t i = 0; i < rules.size(); ++i) CHECK(r.findings[i].rule == rules[i]);
  CHECK(r.findings[0].location.line == 9);
  CHECK(r.findings[4].location.line == 12);
  CHECK(r.findings[5].location.line == 13);
}

TEST_CASE("P1 batches: CP1-11 review grammar", "[p1]") {
  const YAML::Node c = peer_case("CP1-11");
  for (P1Sub sub : {P1Sub::a, P1Sub::c}) {
    const BatchRun r = run_batches(with_case_setup("CP1-11"), sub);
    check_contains(r.peer, c["findings_contain"]);
    // V07..V10 of a section come when the next heading is reached: they
    // interleave with V04..V06 in file order.
    CHECK(r.peer == Lines{
                        V + ": 10_dropped: health 'BROKEN' not in HEALTHY | SUSPECT | FAILED | RUNNING",
                        V + ": 09_rerun: decision 'tweak' is not a ruling verb or (none)",
                        V + ": 08_accepted: ruled 'maybe' is not yes | no",
                        V + ": 06_pulled: ruled: yes needs a verb, not (none)",
                        V + ": section '05_running' names no member of batches/2026-09-01-pm.md",
                    });
    REQUIRE(r.findings.size() == 5);
    CHECK(r.findings[0].rule == "phase-review-health");
    CHECK(r.findings[1].rule == "phase-review-decision-verb");
    CHECK(r.findings[2].rule == "phase-review-ruled-yes-no");
    CHECK(r.findings[3].rule == "phase-review-ruled-needs-verb");
    CHECK(r.findings[4].rule == "phase-review-section-member");
    CHECK(r.findings[0].location.line == 7);
  }
}

TEST_CASE("P1 batches: CP1-12 a renamed review has the wrong title and no record", "[p1]") {
  const YAML::Node c = peer_case("CP1-12");
  for (P1Sub sub : {P1Sub::a, P1Sub::b, P1Sub::c}) {
    const BatchRun r = run_batches(with_case_setup("CP1-12"), sub);
    check_contains(r.peer, c["findings_contain"]);
    const std::string am = "batches/reviews/2026-09-01-am.md";
    CHECK(r.peer == Lines{
                        R + ": review: batches/reviews/2026-09-01-pm.md does not exist",
                        am + ": title must be `# Batch review 2026-09-01-am`",
                        am + ": no batch record batches/2026-09-01-am.md",
                    });
    CHECK(r.findings[0].rule == "phase-batch-review-resolves");
    CHECK(r.findings[0].location.line == 21);
    CHECK(r.findings[1].rule == "phase-review-title");
    CHECK(r.findings[2].rule == "phase-review-has-record");
  }
}

TEST_CASE("P1 batches: P-B01 a record's file stem is a slot name", "[p1]") {
  FileMap files = p1_batch_files();
  files["batches/pm.md"] = "# Batch pm\n";
  files["batches/2026-9-01-am.md"] = "# Batch\n";
  files["batches/2026-09-01-.md"] = "# Batch\n";
  files["batches/\xD9\xA2\xD9\xA0\xD9\xA2\xD9\xA6-09-01-x_Y-2.md"] = "# Batch\n";  // Arabic-Indic digits are \d
  const BatchRun r = run_batches(files);
  CHECK(r.peer == Lines{
                      "batches/2026-09-01-.md: not a slot name (<YYYY-MM-DD>-<slot>.md)",
                      "batches/2026-9-01-am.md: not a slot name (<YYYY-MM-DD>-<slot>.md)",
                      "batches/pm.md: not a slot name (<YYYY-MM-DD>-<slot>.md)",
                  });
  CHECK(r.findings[0].rule == "phase-batch-slot-name");
}

TEST_CASE("P1 batches: P-B02 member lines parse after dash normalisation", "[p1]") {
  FileMap files = p1_batch_files();
  std::string& rec = files[R];
  // " -- " reads as " — " on a member line.
  rec = lg::test::replaced(rec, "  - 06_pulled: phases/example/06_pulled.md — 342120 — 5 — pulled",
                           "  - 06_pulled: phases/example/06_pulled.md -- 342120 -- 5 -- pulled");
  CHECK(run_batches(files).peer.empty());
  rec = lg::test::replaced(rec, "  - 07_awaiting_ruling: phases/example/07_awaiting_ruling.md",
                           "  - 07_awaiting_ruling:phases/example/07_awaiting_ruling.md");
  rec = lg::test::replaced(rec, "  - 08_accepted: phases/example/08_accepted.md — 342050 — 6 — awaiting-ruling",
                           "  - 08_accepted: phases/example/08_accepted.md — 342050 — 6 — awaiting-ruling  ");
  const BatchRun r = run_batches(files);
  CHECK(r.peer == Lines{
                      R +
                          ": line 10: member line does not parse: - 07_awaiting_ruling:phases/example/"
                          "07_awaiting_ruling.md " +
                          k_em + " 342110, 342120 " + k_em + " 5 " + k_em + " awaiting-ruling",
                      R + ": line 11: member line does not parse: - 08_accepted: phases/example/08_accepted.md " +
                          k_em + " 342050 " + k_em + " 6 " + k_em + " awaiting-ruling",
                      // Unparsed lines name no member.
                      V + ": section '08_accepted' names no member of batches/2026-09-01-pm.md",
                      V + ": section '07_awaiting_ruling' names no member of batches/2026-09-01-pm.md",
                  });
  CHECK(r.findings[0].rule == "phase-batch-member-parses");
  CHECK(r.findings[0].location.line == 10);
}

TEST_CASE("P1 batches: the member list opens at - members: and closes at an unindented line", "[p1]") {
  FileMap files;
  files[R] =
      "# Batch\n"
      "  - 99_x: not a member (the list is not open)\n"
      "- members:\n"
      "  - 06_pulled: phases/example/06_pulled.md — 342120 — 5 — pulled\n"
      "\n"
      "    a four-space line keeps the list open\n"
      "  - 06_bad\n"
      "- lane: local-dev\n"
      "  - 07_late: after the list closed\n";
  const BatchRun r = run_batches(files);
  CHECK(r.peer == Lines{R + ": line 7: member line does not parse: - 06_bad"});
}

TEST_CASE("P1 batches: P-B03..P-B07 member facts", "[p1]") {
  FileMap files = p1_batch_files();
  std::string& rec = files[R];
  rec = lg::test::replaced(rec, "  - 05_running_array: phases/example/05_running_array.md — 342091, 342102 — 8 — running",
                           "  - 05_running_array: phases/example/05_running_array.md — none — \xD9\xA8 — running");
  rec = lg::test::replaced(rec, "— 342110, 342120 — 5 — awaiting-ruling", "— 342120, 9, 10, 342110, 9 — 5 — awaiting-ruling");
  rec = lg::test::replaced(rec, "  - 08_accepted: phases/example/08_accepted.md — 342050 — 6 — awaiting-ruling",
                           "  - 08_accepted: phases/example/09_rerun.md — 342050 — 6x — Accepted");
  rec = lg::test::replaced(rec, "  - 10_dropped: phases/example/10_dropped.md — 341950, 341960 — 4 — awaiting-ruling",
                           "  - 10_dropped: phases/example/missing.md — 1 — x — y");
  const BatchRun r = run_batches(files);
  CHECK(r.peer == Lines{
                      R + ": member 07_awaiting_ruling: runs {10, 9} not in the phase's runs",
                      R + ": member slug '08_accepted' != phase stem '09_rerun'",
                      R + ": member 08_accepted: runs {342050} not in the phase's runs",
                      R + ": member 08_accepted: review-minutes '6x' is not an integer",
                      R + ": member 08_accepted: state 'Accepted' is not a phase state",
                      R + ": member 10_dropped: phases/example/missing.md does not exist",
                      R + ": member 10_dropped: review-minutes 'x' is not an integer",
                      R + ": member 10_dropped: state 'y' is not a phase state",
                  });
  CHECK(r.findings[0].rule == "phase-batch-member-runs");
  CHECK(r.findings[5].rule == "phase-batch-member-path");
}

TEST_CASE("P1 batches: P-B08 the first review: line in P1a/P1b, every one in P1c", "[p1]") {
  FileMap files = p1_batch_files();
  files[R] = lg::test::replaced(files[R], "- review-minutes-actual: 18\n",
                                "- review-minutes-actual: 18\n- review: batches/reviews/2026-09-01-pm-r2.md\n"
                                "- review:\n- review: batches/reviews/2026-09-01-pm.md\n");
  for (P1Sub sub : {P1Sub::a, P1Sub::b}) CHECK(run_batches(files, sub).peer.empty());
  const BatchRun c = run_batches(files, P1Sub::c);
  CHECK(c.peer == Lines{R + ": review: batches/reviews/2026-09-01-pm-r2.md does not exist"});
  CHECK(c.findings[0].location.line == 23);
  // An empty first review: line is read (and checks nothing) in P1a.
  FileMap first_empty = p1_batch_files();
  first_empty[R] = lg::test::replaced(first_empty[R], "- review: batches/reviews/2026-09-01-pm.md\n",
                                      "- review:\n- review: batches/reviews/nowhere.md\n");
  CHECK(run_batches(first_empty, P1Sub::a).peer.empty());
  CHECK(run_batches(first_empty, P1Sub::c).peer == Lines{R + ": review: batches/reviews/nowhere.md does not exist"});
}

TEST_CASE("P1 batches: P-V01 review titles per sub-epoch", "[p1]") {
  FileMap files = p1_batch_files();
  files[V] = lg::test::replaced(files[V], "# Batch review 2026-09-01-pm\n", "# Batch review 2026-09-01 pm\n");
  for (P1Sub sub : {P1Sub::a, P1Sub::c}) {
    const BatchRun r = run_batches(files, sub);
    CHECK(r.peer == Lines{V + ": title must be `# Batch review 2026-09-01-pm`"});
    CHECK(r.findings[0].rule == "phase-review-title");
    CHECK(r.findings[0].location.line == 1);
  }
  // A partial review (P1c): either title, else both are named.
  FileMap partial = p1_batch_files();
  const std::string part = "batches/reviews/2026-09-01-pm-r2.md";
  partial[part] = partial[V];
  CHECK(run_batches(partial, P1Sub::c).peer.empty());
  partial[part] = lg::test::replaced(partial[V], "# Batch review 2026-09-01-pm", "# Batch review 2026-09-01-pm-r2");
  CHECK(run_batches(partial, P1Sub::c).peer.empty());
  partial[part] = lg::test::replaced(partial[V], "# Batch review 2026-09-01-pm", "# Batch review");
  CHECK(run_batches(partial, P1Sub::c).peer ==
        Lines{part + ": title must be `# Batch review 2026-09-01-pm-r2` or `# Batch review 2026-09-01-pm`"});
  // P1a has no partial reviews: the stem is the slot.
  partial[part] = partial[V];
  CHECK(run_batches(partial, P1Sub::a).peer == Lines{
                                                   part + ": title must be `# Batch review 2026-09-01-pm-r2`",
                                                   part + ": no batch record batches/2026-09-01-pm-r2.md",
                                               });
}

TEST_CASE("P1 batches: P-V02 a partial review is -r2 or later (P1c)", "[p1]") {
  FileMap files = p1_batch_files();
  for (const std::string& suffix : {std::string("-r1"), std::string("-r0"), std::string("-r01")}) {
    const std::string part = "batches/reviews/2026-09-01-pm" + suffix + ".md";
    FileMap f = files;
    f[part] = files[V];
    const BatchRun r = run_batches(f, P1Sub::c);
    CHECK(r.peer ==
          Lines{part + ": a partial review is -r2 or later (the first review of a slot is 2026-09-01-pm.md)"});
    CHECK(r.findings[0].rule == "phase-review-partial-number");
  }
  for (const std::string& suffix : {std::string("-r2"), std::string("-r10"), std::string("-r\xD9\xA3")}) {
    FileMap f = files;
    f["batches/reviews/2026-09-01-pm" + suffix + ".md"] = files[V];
    CHECK(run_batches(f, P1Sub::c).peer.empty());
  }
  // A stem that is itself a record slot is not a partial.
  FileMap slot = files;
  slot["batches/2026-09-01-pm-r1.md"] = "# Batch\n- members:\n";
  slot["batches/reviews/2026-09-01-pm-r1.md"] = "# Batch review 2026-09-01-pm-r1\n";
  CHECK(run_batches(slot, P1Sub::c).peer.empty());
}

TEST_CASE("P1 batches: P-V03 a review needs its record; P-V06 only then", "[p1]") {
  FileMap files = p1_batch_files();
  files["batches/reviews/2026-09-02-am.md"] =
      "# Batch review 2026-09-02-am\n\n## someone — HEALTHY\n"
      "- decision: accept\n- ruled: no\n";
  const BatchRun r = run_batches(files);
  CHECK(r.peer == Lines{"batches/reviews/2026-09-02-am.md: no batch record batches/2026-09-02-am.md"});
  CHECK(r.findings[0].rule == "phase-review-has-record");
}

TEST_CASE("P1 batches: P-V04 section headings, after dash normalisation", "[p1]") {
  FileMap files = p1_batch_files();
  files[V] = lg::test::replaced(files[V], "## 09_rerun — SUSPECT", "## 09_rerun -- SUSPECT");  // fine
  CHECK(run_batches(files).peer.empty());
  files[V] = lg::test::replaced(files[V], "## 08_accepted — HEALTHY", "## 08_accepted - HEALTHY");
  files[V] = lg::test::replaced(files[V], "## 07_awaiting_ruling — HEALTHY", "## 07_awaiting_ruling — Healthy  ");
  const BatchRun r = run_batches(files);
  CHECK(r.peer ==
        Lines{
            V + ": line 21: section heading is not `## <slug> " + k_em + " <HEALTH>`: ## 08_accepted - HEALTHY",
            V + ": line 28: section heading is not `## <slug> " + k_em + " <HEALTH>`: ## 07_awaiting_ruling " + k_em +
                " Healthy",
        });
  CHECK(r.findings[0].rule == "phase-review-heading");
  CHECK(r.findings[0].location.line == 21);
}

TEST_CASE("P1 batches: P-V07 a section needs decision and ruled; V08-V10 then skipped", "[p1]") {
  FileMap files = p1_batch_files();
  files[V] = lg::test::replaced(files[V], "## 09_rerun — SUSPECT\n- decision: rerun\n- ruled: yes\n",
                                "## 09_rerun — SUSPECT\n- decision: tweak\n- ruled:yes\n");
  files[V] = lg::test::replaced(files[V], "## 07_awaiting_ruling — HEALTHY\n- decision: accept\n",
                                "## 07_awaiting_ruling — HEALTHY\n- decision: \n");
  const BatchRun r = run_batches(files);
  CHECK(r.peer == Lines{
                      V + ": 09_rerun: needs `- decision:` and `- ruled:` lines",
                      V + ": 07_awaiting_ruling: needs `- decision:` and `- ruled:` lines",
                  });
  CHECK(r.findings[0].rule == "phase-review-decision-ruled");
  CHECK(r.findings[0].location.line == 14);
  // At end of file too.
  files[V] = lg::test::replaced(files[V], "## 05_running_array — RUNNING\n- decision: leave-to-finish\n- ruled: yes\n",
                                "## 05_running_array — RUNNING\n- decision: leave-to-finish\n");
  CHECK(run_batches(files).peer.back() == V + ": 05_running_array: needs `- decision:` and `- ruled:` lines");
}

TEST_CASE("P1 batches: P-V08..P-V10 decision and ruled values; the first of each wins", "[p1]") {
  FileMap files = p1_batch_files();
  files[V] = lg::test::replaced(files[V], "## 10_dropped — FAILED\n- decision: drop\n- ruled: yes\n",
                                "## 10_dropped — FAILED\n- decision: drop   \n- ruled: yes\n- decision: tweak\n- ruled: maybe\n");
  CHECK(run_batches(files).peer.empty());
  files[V] = lg::test::replaced(files[V], "## 06_pulled — HEALTHY\n- decision: (none)\n- ruled: no\n",
                                "## 06_pulled — HEALTHY\n- decision:  \n- ruled: Yes\n");
  files[V] = lg::test::replaced(files[V], "## 08_accepted — HEALTHY\n- decision: accept\n- ruled: yes\n",
                                "## 08_accepted — HEALTHY\n- ruled: yes\n- decision: (none)\n");
  const BatchRun r = run_batches(files);
  CHECK(r.peer == Lines{
                      V + ": 08_accepted: ruled: yes needs a verb, not (none)",
                      // "- decision:  " reads one space (the lazy group takes at least one character).
                      V + ": 06_pulled: decision ' ' is not a ruling verb or (none)",
                      V + ": 06_pulled: ruled 'Yes' is not yes | no",
                  });
  CHECK(r.findings[0].location.line == 24);
  CHECK(r.findings[1].location.line == 37);
  CHECK(r.findings[2].location.line == 38);
}

TEST_CASE("P1 batches: records first, then reviews, each in sorted path order", "[p1]") {
  FileMap files = p1_batch_files();
  files["batches/2026-09-01-zz.md"] = "# Batch\n- review: batches/reviews/none-z.md\n";
  files["batches/2026-09-01-a.md"] = "# Batch\n- review: batches/reviews/none-a.md\n";
  files["batches/reviews/2026-09-01-a.md"] = "# Batch review 2026-09-01-a\n## x — HEALTHY\n";
  files["batches/reviews/2026-09-01-a-b.md"] = "# Batch review 2026-09-01-a-b\n";
  const BatchRun r = run_batches(files);
  CHECK(r.peer == Lines{
                      "batches/2026-09-01-a.md: review: batches/reviews/none-a.md does not exist",
                      "batches/2026-09-01-zz.md: review: batches/reviews/none-z.md does not exist",
                      "batches/reviews/2026-09-01-a-b.md: no batch record batches/2026-09-01-a-b.md",
                      "batches/reviews/2026-09-01-a.md: section 'x' names no member of batches/2026-09-01-a.md",
                      "batches/reviews/2026-09-01-a.md: x: needs `- decision:` and `- ruled:` lines",
                  });
}

TEST_CASE("P1: every rule id used is registered", "[p1]") {
  for (const char* id : {"projects-yaml-p1-duplicate-row",
                         "projects-yaml-p1-field-known",
                         "projects-yaml-p1-field-unique",
                         "projects-yaml-p1-sync-verbs-flow",
                         "projects-yaml-p1-sync-verbs-bare",
                         "projects-yaml-p1-field-has-value",
                         "projects-yaml-p1-quotes",
                         "projects-yaml-p1-scalar-quoting",
                         "projects-yaml-p1-outside-subset",
                         "phase-batch-slot-name",
                         "phase-batch-member-parses",
                         "phase-batch-member-path",
                         "phase-batch-member-slug",
                         "phase-batch-member-runs",
                         "phase-batch-member-minutes",
                         "phase-batch-member-state",
                         "phase-batch-review-resolves",
                         "phase-review-title",
                         "phase-review-partial-number",
                         "phase-review-has-record",
                         "phase-review-heading",
                         "phase-review-health",
                         "phase-review-section-member",
                         "phase-review-decision-ruled",
                         "phase-review-decision-verb",
                         "phase-review-ruled-yes-no",
                         "phase-review-ruled-needs-verb"}) {
    INFO(id);
    CHECK(lg::rules::find_rule(id) != nullptr);
  }
}
