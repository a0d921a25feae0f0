// projects.yaml rules Y-01..Y-18 (spec §5.1) and the duplicate-key warning:
// exact reference texts, emission order, and the kept row values. YAML error
// texts and lines were obtained by running PyYAML 6.0 on each input.
#include "ledgergate/rules/projects_yaml.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/ledger/yaml_doc.hpp"
#include "ledgergate/rules/threads.hpp"
#include "support/fixture_tree.hpp"
#include "support/check_threads.hpp"
#include "support/indent.hpp"

using lg::diag::CollectingSink;
using lg::diag::Finding;
using lg::diag::PeerForm;
using lg::rules::check_projects_yaml;
using lg::rules::ProjectsTable;
using lg::rules::ProjectsYamlEra;

namespace {

// The T-skeleton fixture (T2/R: with `assistant`).
const std::string k_fixture = R"(# Test fixture — the science body map with one fictional project.
# Same restricted subset as the live projects.yaml (REFERENCE.md).

example:
  remote: none
  local_path: /mnt/c/Users/Jammy/Science/example
  ral_root: /mnt/ral/jnightin/example
  mirror: /mnt/c/Users/Jammy/Science/example/mirror   # the pull root
  sync_cli: hpc/sync
  sync_verbs: [pull, submit, jobs, tail]
  ledger: wiki/project/state.md
  assistant: none
  witness_file: output/**/checkpoint.hdf5
  partition: gpu
  status: active
)";

// The fixture with `old` replaced by `replacement` (as the reference's tests do).
std::string fixture_with(const std::string& old, const std::string& replacement) {
  return lg::test::replaced(k_fixture, old, replacement);
}

struct Run {
  ProjectsTable table;
  std::vector<Finding> findings;
  std::vector<std::string> peer;  // the reference's lines, in order
  std::vector<std::string> ours;  // ledgergate-only findings: "line: message"
};

Run run(std::optional<std::string> text, const ProjectsYamlEra& era = {}) {
  CollectingSink sink;
  Run r;
  r.table = check_projects_yaml(text ? std::optional<std::string_view>(*text) : std::nullopt, era, sink);
  r.findings = sink.take();
  for (const Finding& f : r.findings) {
    if (f.peer == PeerForm::none) {
      r.ours.push_back(std::to_string(f.location.line) + ": " + f.message);
    } else {
      r.peer.push_back(lg::diag::peer_text(f));
    }
  }
  return r;
}

using Lines = std::vector<std::string>;

}  // namespace

TEST_CASE("projects.yaml: the fixture is clean and its row is kept as the reference keeps it",
          "[rules][projects_yaml]") {
  const Run r = run(k_fixture);
  CHECK(r.findings.empty());
  CHECK(r.table.present);
  REQUIRE(r.table.rows.size() == 1);
  const auto& row = r.table.rows[0];
  CHECK(row.key == "example");
  CHECK(row.line == 4);
  REQUIRE(row.get("sync_verbs"));
  CHECK(*row.get("sync_verbs") == "pull, submit, jobs, tail");
  CHECK(*row.get("mirror") == "/mnt/c/Users/Jammy/Science/example/mirror");
  CHECK(row.get("note") == std::nullopt);
  CHECK(r.table.find("example") == &row);
  CHECK(r.table.find("other") == nullptr);
}

TEST_CASE("projects.yaml: a block list and a quoted scalar are ordinary YAML", "[rules][projects_yaml]") {
  std::string text =
      fixture_with("  sync_verbs: [pull, submit, jobs, tail]\n", "  sync_verbs:\n    - pull\n    - submit\n");
  text += "  note: \"a fact: with a colon # and a hash\"\n";
  const Run r = run(text);
  CHECK(r.findings.empty());
  REQUIRE(r.table.rows.size() == 1);
  CHECK(*r.table.rows[0].get("sync_verbs") == "pull, submit");
  CHECK(*r.table.rows[0].get("note") == "a fact: with a colon # and a hash");
}

TEST_CASE("projects.yaml: Y-01 a missing file", "[rules][projects_yaml]") {
  const Run r = run(std::nullopt);
  CHECK(r.peer == Lines{"projects.yaml: missing"});
  CHECK_FALSE(r.table.present);
  CHECK(r.findings[0].rule == "projects-yaml-present");
}

TEST_CASE("projects.yaml: Y-02 a document PyYAML cannot read is one finding with its line", "[rules][projects_yaml]") {
  const Run unclosed = run("example:\n  remote: [unclosed\n");
  CHECK(unclosed.peer == Lines{"projects.yaml:3: not valid YAML: expected ',' or ']', but got '<stream end>'"});
  CHECK(unclosed.findings[0].location.line == 3);
  CHECK(unclosed.findings[0].rule == "projects-yaml-parses");
  CHECK(unclosed.table.rows.empty());
  CHECK(unclosed.table.present);

  CHECK(run(fixture_with("  status: active\n", "  status: active: yes\n")).peer ==
        Lines{"projects.yaml:15: not valid YAML: mapping values are not allowed here"});
  CHECK(run(fixture_with("  partition: gpu\n", "\tpartition: gpu\n")).peer ==
        Lines{"projects.yaml:14: not valid YAML: found character '\\t' that cannot start any token"});
  CHECK(run(fixture_with("  status: active\n", "  status: \"active\n")).peer ==
        Lines{"projects.yaml:16: not valid YAML: found unexpected end of stream"});
  CHECK(run(fixture_with("  partition: gpu\n", "   partition: gpu\n")).peer ==
        Lines{"projects.yaml:14: not valid YAML: mapping values are not allowed here"});
  CHECK(run(k_fixture + "---\nother: 1\n").peer ==
        Lines{"projects.yaml:16: not valid YAML: but found another document"});
}

TEST_CASE("projects.yaml: Y-02 without a mark prints the whole error text", "[rules][projects_yaml]") {
  CHECK(run(fixture_with("  status: active\n", "  status: 2026-02-30\n")).peer ==
        Lines{"projects.yaml: not valid YAML: day is out of range for month"});
  CHECK(run("example: \xff\n").peer ==
        Lines{"projects.yaml: not valid YAML: 'utf-8' codec can't decode byte 0xff in position 9: invalid start byte"});
}

TEST_CASE("projects.yaml: Y-03 the document must be a mapping of project keys", "[rules][projects_yaml]") {
  CHECK(run("- example\n").peer == Lines{"projects.yaml: the document is not a mapping of project keys"});
  CHECK(run("just a string\n").peer == Lines{"projects.yaml: the document is not a mapping of project keys"});
  // Empty, comment-only and null documents have no rows and no finding.
  for (const char* text :
       {"", "# Test fixture — an empty science body map. No rows: parses to an empty map.\n", "~\n", "---\n"}) {
    const Run r = run(std::string(text));
    CHECK(r.findings.empty());
    CHECK(r.table.rows.empty());
  }
}

TEST_CASE("projects.yaml: Y-04 a project key must match the key grammar", "[rules][projects_yaml]") {
  const Run r = run("Example: {}\n5: {}\nyes: {}\n~: {}\n2026-09-01: {}\n'bad key': {}\n");
  CHECK(r.peer == Lines{
                      "projects.yaml: project key 'Example' must match ^[a-z][a-z0-9_]*$",
                      "projects.yaml: project key 5 must match ^[a-z][a-z0-9_]*$",
                      "projects.yaml: project key True must match ^[a-z][a-z0-9_]*$",
                      "projects.yaml: project key None must match ^[a-z][a-z0-9_]*$",
                      "projects.yaml: project key datetime.date(2026, 9, 1) must match ^[a-z][a-z0-9_]*$",
                      "projects.yaml: project key 'bad key' must match ^[a-z][a-z0-9_]*$",
                  });
  CHECK(r.findings[1].location.line == 2);
  CHECK(r.table.rows.empty());
}

TEST_CASE("projects.yaml: Y-05 a row must be a mapping of fields", "[rules][projects_yaml]") {
  CHECK(run("example: a string\n").peer == Lines{"projects.yaml: example is not a mapping of fields"});
  CHECK(run("example:\n").peer == Lines{"projects.yaml: example is not a mapping of fields"});
  CHECK(run("example: [a]\n").table.rows.empty());
}

TEST_CASE("projects.yaml: Y-06 an unknown field is reported and dropped", "[rules][projects_yaml]") {
  const Run r = run(fixture_with("  status: active\n", "  status: active\n  colour: blue\n  5: x\n"));
  CHECK(r.peer ==
        Lines{"projects.yaml: unknown field `colour` on example", "projects.yaml: unknown field `5` on example"});
  CHECK(r.findings[0].location.line == 16);
  CHECK(r.table.rows[0].get("colour") == std::nullopt);
}

TEST_CASE("projects.yaml: Y-06 assistant is unknown before T2", "[rules][projects_yaml]") {
  ProjectsYamlEra t1;
  t1.assistant_known = false;
  CHECK(run(k_fixture, t1).peer == Lines{"projects.yaml: unknown field `assistant` on example"});
  CHECK(run(fixture_with("  assistant: none\n", ""), t1).findings.empty());
}

TEST_CASE("projects.yaml: Y-07 sync_verbs must be a list, else it is also missing", "[rules][projects_yaml]") {
  const Run r = run(fixture_with("  sync_verbs: [pull, submit, jobs, tail]\n", "  sync_verbs: pull\n"));
  CHECK(r.peer == Lines{"projects.yaml: example.sync_verbs must be a list `[a, b]`",
                        "projects.yaml: example is missing sync_verbs"});
  CHECK(r.findings[0].location.line == 10);
}

TEST_CASE("projects.yaml: Y-08 sync_verbs must hold bare words; non-strings are bad", "[rules][projects_yaml]") {
  const Run r = run(fixture_with("  sync_verbs: [pull, submit, jobs, tail]\n", "  sync_verbs: [pull, 'Not A Verb']\n"));
  CHECK(r.peer == Lines{"projects.yaml: example.sync_verbs holds a non-bare word: ['Not A Verb']"});
  CHECK(*r.table.rows[0].get("sync_verbs") == "pull");

  const Run mixed =
      run(fixture_with("  sync_verbs: [pull, submit, jobs, tail]\n", "  sync_verbs: [pull, 5, ~, Push, [x]]\n"));
  CHECK(mixed.peer == Lines{"projects.yaml: example.sync_verbs holds a non-bare word: [5, None, 'Push', ['x']]"});
  CHECK(run(fixture_with("  sync_verbs: [pull, submit, jobs, tail]\n", "  sync_verbs: []\n")).findings.empty());
}

TEST_CASE("projects.yaml: Y-09 a null field has no value and is then empty (G-26)", "[rules][projects_yaml]") {
  const Run r = run(k_fixture + "  note:\n");
  CHECK(r.peer == Lines{"projects.yaml: example.note has no value", "projects.yaml: example.note is empty"});
  CHECK(r.findings[0].location.line == 16);
  CHECK(*r.table.rows[0].get("note") == "");

  const Run assistant = run(fixture_with("  assistant: none\n", "  assistant:\n"));
  CHECK(assistant.peer ==
        Lines{"projects.yaml: example.assistant has no value", "projects.yaml: example.assistant is empty"});
}

TEST_CASE("projects.yaml: a null sync_verbs must be a list and is then missing (G-26)", "[rules][projects_yaml]") {
  const Run r = run(fixture_with("  sync_verbs: [pull, submit, jobs, tail]\n", "  sync_verbs:\n"));
  CHECK(r.peer == Lines{"projects.yaml: example.sync_verbs must be a list `[a, b]`",
                        "projects.yaml: example is missing sync_verbs"});
}

TEST_CASE("projects.yaml: Y-10 a field must be a string; YAML 1.1 types plain scalars", "[rules][projects_yaml]") {
  std::string text = fixture_with("  status: active\n", "  status: yes\n");
  text = text.replace(text.find("  partition: gpu\n"), 17, "  partition: 5\n");
  text += "  note: 2026-09-01\n";
  const Run r = run(text);
  CHECK(r.peer == Lines{
                      "projects.yaml: example.partition must be a string, not int",
                      "projects.yaml: example.status must be a string, not bool",
                      "projects.yaml: example.note must be a string, not date",
                      "projects.yaml: example.partition must be gpu | ral | both, not 5",
                      "projects.yaml: example.status must be active | dormant | planned | retired, not True",
                  });
  CHECK(*r.table.rows[0].get("note") == "2026-09-01");

  const Run more = run(k_fixture + "  note: 1.5\n");
  CHECK(more.peer == Lines{"projects.yaml: example.note must be a string, not float"});
  CHECK(run(k_fixture + "  note: [a, b]\n").peer == Lines{"projects.yaml: example.note must be a string, not list"});
  CHECK(run(k_fixture + "  note: 2026-09-01 10:00:00\n").peer ==
        Lines{"projects.yaml: example.note must be a string, not datetime"});
  CHECK(run(k_fixture + "  note: \"5\"\n").findings.empty());
}

TEST_CASE("projects.yaml: Y-11 a row must have every required field", "[rules][projects_yaml]") {
  const Run r = run(fixture_with("  ledger: wiki/project/state.md\n", ""));
  CHECK(r.peer == Lines{"projects.yaml: example is missing ledger"});
  CHECK(r.findings[0].location.line == 4);
  CHECK(run("example: {status: active}\n").peer ==
        Lines{"projects.yaml: example is missing remote, local_path, ral_root, mirror, sync_cli, sync_verbs, ledger, "
              "assistant, witness_file, partition"});
  CHECK(run(fixture_with("  assistant: none\n", "")).peer == Lines{"projects.yaml: example is missing assistant"});
}

TEST_CASE("projects.yaml: Y-12 a whitespace-only field is empty", "[rules][projects_yaml]") {
  CHECK(run(k_fixture + "  note: \"  \"\n").peer == Lines{"projects.yaml: example.note is empty"});
  CHECK(run(k_fixture + "  note: x\n").findings.empty());
}

TEST_CASE("projects.yaml: Y-13 partition is gpu | ral | both", "[rules][projects_yaml]") {
  std::string text = fixture_with("  partition: gpu\n", "  partition: cpu\n");
  text = text.replace(text.find("  ledger: wiki/project/state.md\n"), 32, "");
  CHECK(run(text).peer == Lines{"projects.yaml: example is missing ledger",
                                "projects.yaml: example.partition must be gpu | ral | both, not cpu"});
  CHECK(run(fixture_with("  partition: gpu\n", "  partition: both\n")).findings.empty());
}

TEST_CASE("projects.yaml: Y-14 status follows the era's statuses", "[rules][projects_yaml]") {
  CHECK(run(fixture_with("  status: active\n", "  status: someday\n")).peer ==
        Lines{"projects.yaml: example.status must be active | dormant | planned | retired, not someday"});
  CHECK(run(fixture_with("  status: active\n", "  status: planned\n")).findings.empty());
  CHECK(run(fixture_with("  status: active\n", "  status: retired\n")).findings.empty());
  ProjectsYamlEra p2;
  p2.statuses = {"active", "dormant", "planned"};
  CHECK(run(fixture_with("  status: active\n", "  status: retired\n"), p2).peer ==
        Lines{"projects.yaml: example.status must be active | dormant | planned, not retired"});
}

TEST_CASE("projects.yaml: Y-15 remote is owner/repo or none", "[rules][projects_yaml]") {
  CHECK(run(fixture_with("  remote: none\n", "  remote: PyAutoLabs\n")).peer ==
        Lines{"projects.yaml: example.remote must be owner/repo or none"});
  CHECK(run(fixture_with("  remote: none\n", "  remote: a/b/c\n")).peer ==
        Lines{"projects.yaml: example.remote must be owner/repo or none"});
  CHECK(run(fixture_with("  remote: none\n", "  remote: PyAutoLabs/auto_lens.x-1\n")).findings.empty());
  CHECK(run(fixture_with("  remote: none\n", "  remote: Ünï/répo\n")).findings.empty());  // Unicode \w
  // Python's `$` matches before a final newline: a literal block scalar passes (G-14).
  CHECK(run(fixture_with("  remote: none\n", "  remote: |\n    owner/repo\n")).findings.empty());
}

TEST_CASE("projects.yaml: Y-16 local_path then ral_root must be absolute", "[rules][projects_yaml]") {
  std::string text =
      fixture_with("  local_path: /mnt/c/Users/Jammy/Science/example\n", "  local_path: Science/example\n");
  text = text.replace(text.find("  ral_root: /mnt/ral/jnightin/example\n"), 38, "  ral_root: ~/example\n");
  const Run r = run(text);
  CHECK(r.peer == Lines{"projects.yaml: example.local_path must be an absolute path",
                        "projects.yaml: example.ral_root must be an absolute path"});
  CHECK(r.findings[1].location.line == 7);
}

TEST_CASE("projects.yaml: Y-17 mirror is an absolute path or none", "[rules][projects_yaml]") {
  CHECK(run(fixture_with("  mirror: /mnt/c/Users/Jammy/Science/example/mirror", "  mirror: mirror")).peer ==
        Lines{"projects.yaml: example.mirror must be an absolute path or none"});
  CHECK(run(fixture_with("  mirror: /mnt/c/Users/Jammy/Science/example/mirror", "  mirror: none")).findings.empty());
}

TEST_CASE("projects.yaml: Y-18 assistant is none or a bare directory name", "[rules][projects_yaml]") {
  CHECK(run(fixture_with("  assistant: none\n", "  assistant: autolens_assistant\n")).findings.empty());
  CHECK(run(fixture_with("  assistant: none\n", "  assistant: ../autolens_assistant\n")).peer ==
        Lines{"projects.yaml: example.assistant must be 'none' or a bare workspace-relative directory name "
              "(got '../autolens_assistant')"});
  CHECK(
      run(fixture_with("  assistant: none\n", "  assistant: /home/jammy/Code/PyAutoLabs/autolens_assistant\n")).peer ==
      Lines{"projects.yaml: example.assistant must be 'none' or a bare workspace-relative directory name "
            "(got '/home/jammy/Code/PyAutoLabs/autolens_assistant')"});
}

TEST_CASE("projects.yaml: Y-13..Y-18 only test a non-empty value", "[rules][projects_yaml]") {
  const Run r =
      run("example:\n  remote: ''\n  local_path: ''\n  ral_root: ''\n  mirror: ''\n  sync_cli: x\n  sync_verbs: []\n"
          "  ledger: x\n  assistant: ''\n  witness_file: x\n  partition: ''\n  status: ''\n");
  CHECK(r.peer == Lines{
                      "projects.yaml: example.remote is empty",
                      "projects.yaml: example.local_path is empty",
                      "projects.yaml: example.ral_root is empty",
                      "projects.yaml: example.mirror is empty",
                      "projects.yaml: example.assistant is empty",
                      "projects.yaml: example.partition is empty",
                      "projects.yaml: example.status is empty",
                  });
}

TEST_CASE("projects.yaml: a row's findings come in the reference's order", "[rules][projects_yaml]") {
  const Run r =
      run("b_row:\n  status: nope\n  colour: red\n  note:\n  remote: x\n  partition: 7\n  mirror: rel\n"
          "a_row: 5\n");
  CHECK(r.peer == Lines{
                      "projects.yaml: unknown field `colour` on b_row",
                      "projects.yaml: b_row.note has no value",
                      "projects.yaml: b_row.partition must be a string, not int",
                      "projects.yaml: b_row is missing local_path, ral_root, sync_cli, sync_verbs, ledger, assistant, "
                      "witness_file",
                      "projects.yaml: b_row.note is empty",
                      "projects.yaml: b_row.partition must be gpu | ral | both, not 7",
                      "projects.yaml: b_row.status must be active | dormant | planned | retired, not nope",
                      "projects.yaml: b_row.remote must be owner/repo or none",
                      "projects.yaml: b_row.mirror must be an absolute path or none",
                      "projects.yaml: a_row is not a mapping of fields",
                  });
}

TEST_CASE("projects.yaml: a duplicate row keeps the last value at the first position", "[rules][projects_yaml]") {
  const std::string text = "first:\n  status: active\nsecond: 1\nfirst:\n  status: retired\n";
  const Run r = run(text);
  CHECK(r.ours == Lines{"4: duplicate project key `first` (first at line 1) — the loader keeps the last"});
  const Finding& dup = r.findings[0];
  CHECK(dup.rule == "projects-yaml-duplicate-key");
  CHECK(dup.severity == lg::diag::Severity::warning);
  // The reference's view: one row `first` (holding the last value), reported before `second`.
  REQUIRE(r.peer.size() == 2);
  CHECK(r.peer[0].rfind("projects.yaml: first is missing remote", 0) == 0);
  CHECK(r.peer[1] == "projects.yaml: second is not a mapping of fields");
  REQUIRE(r.table.rows.size() == 1);
  CHECK(*r.table.rows[0].get("status") == "retired");
  CHECK(r.table.rows[0].line == 4);
}

TEST_CASE("projects.yaml: a duplicate field keeps the last value", "[rules][projects_yaml]") {
  const Run r = run(k_fixture + "  status: someday\n");
  CHECK(r.ours == Lines{"16: duplicate field `status` on example (first at line 15) — the loader keeps the last"});
  CHECK(r.peer == Lines{"projects.yaml: example.status must be active | dormant | planned | retired, not someday"});
  CHECK(r.findings[1].location.line == 16);
  // Keys equal under Python's == are duplicates too.
  CHECK(run("1: {}\ntrue: {}\n").ours ==
        Lines{"2: duplicate project key `1` (first at line 1) — the loader keeps the last"});
}

TEST_CASE("projects.yaml: merged fields are not duplicates", "[rules][projects_yaml]") {
  std::string text = k_fixture;
  text = text.replace(text.find("example:\n"), 9, "example: &row\n");
  text += "other:\n  <<: *row\n  status: retired\n";
  const Run r = run(text);
  CHECK(r.findings.empty());
  REQUIRE(r.table.rows.size() == 2);
  CHECK(*r.table.rows[1].get("status") == "retired");
  CHECK(*r.table.rows[1].get("partition") == "gpu");
}

TEST_CASE("projects.yaml: reads text with universal newlines", "[rules][projects_yaml]") {
  std::string crlf;
  for (char c : k_fixture) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  CHECK(run(crlf).findings.empty());
  std::string cr = k_fixture;
  std::replace(cr.begin(), cr.end(), '\n', '\r');
  CHECK(run(cr).findings.empty());
}

namespace {

// "rule | reference line" for each finding, in order.
Lines rule_texts(const Run& r) {
  Lines out;
  for (const Finding& f : r.findings) out.push_back(f.rule + " | " + lg::diag::peer_text(f));
  return out;
}

}  // namespace

TEST_CASE("projects.yaml: each rule fires by its id on a bad input, not on the corrected one",
          "[rules][projects_yaml]") {
  SECTION("projects-yaml-is-mapping (Y-03)") {
    CHECK(rule_texts(run("- example\n")) ==
          Lines{"projects-yaml-is-mapping | projects.yaml: the document is not a mapping of project keys"});
    CHECK(rule_texts(run("42\n")) ==
          Lines{"projects-yaml-is-mapping | projects.yaml: the document is not a mapping of project keys"});
    CHECK(run(k_fixture).findings.empty());
  }
  SECTION("projects-yaml-key-grammar (Y-04)") {
    CHECK(rule_texts(run(fixture_with("example:\n", "Example:\n"))) ==
          Lines{"projects-yaml-key-grammar | projects.yaml: project key 'Example' must match ^[a-z][a-z0-9_]*$"});
    CHECK(rule_texts(run(fixture_with("example:\n", "my-example:\n"))) ==
          Lines{"projects-yaml-key-grammar | projects.yaml: project key 'my-example' must match ^[a-z][a-z0-9_]*$"});
    CHECK(run(fixture_with("example:\n", "my_example2:\n")).findings.empty());
  }
  SECTION("projects-yaml-row-is-mapping (Y-05)") {
    CHECK(rule_texts(run("example: [remote, none]\n")) ==
          Lines{"projects-yaml-row-is-mapping | projects.yaml: example is not a mapping of fields"});
    CHECK(run(k_fixture).findings.empty());
  }
  SECTION("projects-yaml-sync-verbs-list (Y-07)") {
    CHECK(rule_texts(run(fixture_with("  sync_verbs: [pull, submit, jobs, tail]\n", "  sync_verbs: pull, submit\n"))) ==
          Lines{"projects-yaml-sync-verbs-list | projects.yaml: example.sync_verbs must be a list `[a, b]`",
                "projects-yaml-required-fields | projects.yaml: example is missing sync_verbs"});
    CHECK(run(fixture_with("  sync_verbs: [pull, submit, jobs, tail]\n", "  sync_verbs: [pull, submit]\n"))
              .findings.empty());
  }
  SECTION("projects-yaml-sync-verbs-words (Y-08)") {
    const std::string verbs = "  sync_verbs: [pull, submit, jobs, tail]\n";
    CHECK(rule_texts(run(fixture_with(verbs, "  sync_verbs: [pull, Submit]\n"))) ==
          Lines{"projects-yaml-sync-verbs-words | projects.yaml: example.sync_verbs holds a non-bare word: "
                "['Submit']"});
    CHECK(run(fixture_with(verbs, "  sync_verbs: [pull, submit-all]\n")).findings.empty());
  }
  SECTION("projects-yaml-field-has-value (Y-09)") {
    const Run r = run(fixture_with("  ledger: wiki/project/state.md\n", "  ledger:\n"));
    CHECK(rule_texts(r) == Lines{"projects-yaml-field-has-value | projects.yaml: example.ledger has no value",
                                 "projects-yaml-field-not-empty | projects.yaml: example.ledger is empty"});
    CHECK(r.findings[0].location.line == 11);
    CHECK(run(fixture_with("  ledger: wiki/project/state.md\n", "  ledger: state.md\n")).findings.empty());
  }
  SECTION("projects-yaml-absolute-paths (Y-16)") {
    const std::string ral_root = "  ral_root: /mnt/ral/jnightin/example\n";
    const Run r = run(fixture_with(ral_root, "  ral_root: mnt/ral/jnightin/example\n"));
    CHECK(rule_texts(r) ==
          Lines{"projects-yaml-absolute-paths | projects.yaml: example.ral_root must be an absolute path"});
    CHECK(r.findings[0].location.line == 7);
    CHECK(run(fixture_with(ral_root, "  ral_root: /mnt/ral/example\n")).findings.empty());
  }
  // One field's value replaced: the bad value's finding, and a good value without one.
  struct FieldCase {
    const char* rule;
    std::string from, bad, message, good;
  };
  const FieldCase field_cases[] = {
      {"projects-yaml-field-is-string (Y-10)", "  sync_cli: hpc/sync\n", "  sync_cli: 12\n",
       "projects-yaml-field-is-string | projects.yaml: example.sync_cli must be a string, not int",
       "  sync_cli: '12'\n"},
      {"projects-yaml-partition-enum (Y-13)", "  partition: gpu\n", "  partition: GPU\n",
       "projects-yaml-partition-enum | projects.yaml: example.partition must be gpu | ral | both, not GPU",
       "  partition: ral\n"},
      {"projects-yaml-remote-shape (Y-15)", "  remote: none\n", "  remote: owner/repo name\n",
       "projects-yaml-remote-shape | projects.yaml: example.remote must be owner/repo or none",
       "  remote: owner/repo_name\n"},
      {"projects-yaml-mirror-shape (Y-17)", "  mirror: /mnt/c/Users/Jammy/Science/example/mirror", "  mirror: None",
       "projects-yaml-mirror-shape | projects.yaml: example.mirror must be an absolute path or none",
       "  mirror: none"},
      {"projects-yaml-assistant-shape (Y-18)", "  assistant: none\n", "  assistant: my assistant\n",
       "projects-yaml-assistant-shape | projects.yaml: example.assistant must be 'none' or a bare "
       "workspace-relative directory name (got 'my assistant')",
       "  assistant: my_assistant\n"},
  };
  for (const FieldCase& c : field_cases) {
    SECTION(c.rule) {
      CHECK(rule_texts(run(fixture_with(c.from, c.bad))) == Lines{c.message});
      CHECK(run(fixture_with(c.from, c.good)).findings.empty());
    }
  }
}

TEST_CASE("projects.yaml: a row's fields are kept compactly, in order, byte for byte", "[rules][projects_yaml]") {
  using lg::rules::ProjectFields;
  ProjectFields f;
  CHECK(f.empty());
  CHECK(f.size() == 0);
  CHECK(f.begin() == f.end());
  const std::string with_nul("a\0b", 3);
  const std::string long_value(70000, 'v');
  f.emplace_back("status", "active");
  f.emplace_back("note", "");
  f.emplace_back("ledger", with_nul);
  f.emplace_back("status", "retired");  // a later duplicate: get() finds the first
  f.emplace_back("local_path", long_value);
  f.shrink_to_fit();
  CHECK_FALSE(f.empty());
  CHECK(f.size() == 5);
  CHECK(f.get("status") == std::optional<std::string_view>("active"));
  CHECK(f.get("note") == std::optional<std::string_view>(""));
  CHECK(f.get("ledger") == std::optional<std::string_view>(with_nul));
  CHECK(f.get("local_path") == std::optional<std::string_view>(long_value));
  CHECK(f.get("mirror") == std::nullopt);
  CHECK(f.get("") == std::nullopt);
  std::vector<std::pair<std::string, std::string>> seen;
  for (const auto& [name, value] : f) seen.emplace_back(name, value);
  CHECK(seen == std::vector<std::pair<std::string, std::string>>{
                    {"status", "active"}, {"note", ""}, {"ledger", with_nul}, {"status", "retired"}, {"local_path", long_value}});
  const ProjectFields same = {{"status", "active"}, {"note", ""}, {"ledger", with_nul}, {"status", "retired"},
                              {"local_path", long_value}};
  CHECK(same == f);
  CHECK_FALSE(ProjectFields{{"status", "active"}} == ProjectFields{{"statu", "sactive"}});  // lengths are kept
}

TEST_CASE("projects.yaml: read row by row, every row finding and kept row is the whole document's",
          "[rules][projects_yaml]") {
  // The same rows twice: as written (read one row at a time) and ended by
  // `...` (a document end the simple reader leaves to the full port, so the
  // document is loaded whole).
  const std::string rows = k_fixture +
                           "Bad_Key:\n  remote: none\n"
                           "scalar_row: 5\n"
                           "null_row:\n"
                           "odd:\n"
                           "  colour: red\n"
                           "  remote:\n"
                           "  local_path: 5\n"
                           "  ral_root: '  '\n"
                           "  mirror: rel\n"
                           "  sync_cli: hpc/sync\n"
                           "  sync_verbs: pull\n"
                           "  ledger: wiki/x.md\n"
                           "  assistant: a/b\n"
                           "  witness_file: out\n"
                           "  partition: cpu\n"
                           "  status: dormant\n"
                           "  status: nope\n"
                           "shapes:\n"
                           "  remote: not a remote\n"
                           "  local_path: relative\n"
                           "  ral_root: /abs\n"
                           "  sync_verbs: [Pull, ok, 7]\n"
                           "  when: 2026-01-02\n"
                           "  partition: 7\n"
                           "  note: fine\n";
  const auto shape = [](const std::string& text) {
    return lg::ledger::load_yaml_entries(text, lg::ledger::YamlTexts::borrowed,
                                         [](const lg::ledger::YamlEntry&) { return true; });
  };
  REQUIRE(shape(rows));
  REQUIRE_FALSE(shape(rows + "...\n"));
  const Run by_row = run(rows);
  const Run whole = run(rows + "...\n");
  CHECK(rule_texts(by_row) == rule_texts(whole));
  REQUIRE(by_row.findings.size() == whole.findings.size());
  for (std::size_t i = 0; i < by_row.findings.size(); ++i) {
    CHECK(by_row.findings[i].location.line == whole.findings[i].location.line);
    CHECK(by_row.findings[i].peer == whole.findings[i].peer);
  }
  std::vector<std::string> rules;
  for (const Finding& f : by_row.findings) rules.emplace_back(f.rule);
  for (const char* rule :
       {"projects-yaml-key-grammar", "projects-yaml-row-is-mapping", "projects-yaml-field-known",
        "projects-yaml-field-has-value", "projects-yaml-field-is-string", "projects-yaml-sync-verbs-list",
        "projects-yaml-sync-verbs-words", "projects-yaml-required-fields", "projects-yaml-field-not-empty",
        "projects-yaml-partition-enum", "projects-yaml-status-enum", "projects-yaml-remote-shape",
        "projects-yaml-absolute-paths", "projects-yaml-mirror-shape", "projects-yaml-assistant-shape",
        "projects-yaml-duplicate-key"}) {
    CHECK(std::count(rules.begin(), rules.end(), rule) > 0);
  }
  REQUIRE(by_row.table.rows.size() == whole.table.rows.size());
  for (std::size_t i = 0; i < by_row.table.rows.size(); ++i) {
    const auto& a = by_row.table.rows[i];
    const auto& b = whole.table.rows[i];
    CHECK(a.key == b.key);
    CHECK(a.line == b.line);
    const auto fields = [](const lg::rules::ProjectRow& row) {
      Lines out;
      for (const auto& [name, value] : row.fields) out.push_back(std::string(name) + "=" + std::string(value));
      return out;
    };
    CHECK(fields(a) == fields(b));
  }
  CHECK(by_row.table.find("odd") != nullptr);
}

TEST_CASE("projects.yaml: a project key written twice, or not a str, is judged on the whole document",
          "[rules][projects_yaml]") {
  // Python's dict: the row keeps its first position and its last value, so
  // the first row's findings cannot be reported before the second is read.
  const Run twice = run(k_fixture + "other:\n  remote: none\nexample: 5\n");
  CHECK(twice.peer == Lines{"projects.yaml: example is not a mapping of fields",
                            "projects.yaml: other is missing local_path, ral_root, mirror, sync_cli, sync_verbs, "
                            "ledger, assistant, witness_file, partition, status"});
  CHECK(twice.ours == std::vector<std::string>{"18: duplicate project key `example` (first at line 4) — the loader "
                                               "keeps the last"});
  // 1 and true are one key to Python.
  const Run equal = run("1: a\ntrue: b\n");
  CHECK(equal.peer == Lines{"projects.yaml: project key 1 must match ^[a-z][a-z0-9_]*$"});
}

namespace {

// `copies` renamed copies of the fixture's row and of rows with findings of
// every kind, with comments and blank lines between them: a document big
// enough to be read in two parts (over 256 KiB at 600 copies).
std::string big_document(int copies) {
  std::string out = "# a big projects.yaml\n\n";
  for (int i = 0; i < copies; ++i) {
    const std::string n = std::to_string(i);
    std::string row = k_fixture.substr(k_fixture.find("example:"));
    row.replace(0, std::string("example").size(), "example_" + n);
    out += row + "\n# row " + n + "\n";
    out += "odd_" + n + ":\n  colour: red\n  remote:\n  local_path: 5\n  mirror: rel\n  partition: cpu\n";
    out += "  status: dormant\n  status: nope\n  sync_verbs: [Pull, ok, 7]\n\n";
    out += "scalar_" + n + ": 5\nnull_" + n + ":\n";
  }
  return out;
}

using Threads = lg::test::CheckThreads;

// The reading on one thread and on two, compared finding by finding and row by row.
void same_on_two_threads(const std::string& text) {
  Run one, two;
  {
    Threads t(1);
    one = run(text);
  }
  {
    Threads t(2);
    two = run(text);
  }
  CHECK(one.peer == two.peer);
  CHECK(one.ours == two.ours);
  REQUIRE(one.findings.size() == two.findings.size());
  for (std::size_t i = 0; i < one.findings.size(); ++i) {
    CHECK(one.findings[i].rule == two.findings[i].rule);
    CHECK(one.findings[i].location.line == two.findings[i].location.line);
  }
  REQUIRE(one.table.rows.size() == two.table.rows.size());
  for (std::size_t i = 0; i < one.table.rows.size(); ++i) {
    CHECK(one.table.rows[i].key == two.table.rows[i].key);
    CHECK(one.table.rows[i].line == two.table.rows[i].line);
    CHECK(one.table.rows[i].fields == two.table.rows[i].fields);
  }
}

}  // namespace

TEST_CASE("projects.yaml: a big document read in two parts on two threads reads as on one",
          "[rules][projects_yaml]") {
  const std::string text = big_document(600);
  REQUIRE(text.size() > 256 * 1024);
  // It is cut before a root entry's key line, past the middle.
  const auto cut = lg::ledger::root_entry_cut(text, text.size() / 2);
  REQUIRE(cut.has_value());
  CHECK(*cut >= text.size() / 2);
  CHECK(text[*cut - 1] == '\n');
  CHECK(text[*cut] != ' ');
  CHECK(text[*cut] != '#');
  // Each part, and the whole, reads entry by entry (no fallback to the whole document).
  const auto entries = [](std::string_view part, int first_line) {
    std::vector<int> lines;
    const bool read = lg::ledger::load_yaml_entries(
        part, lg::ledger::YamlTexts::borrowed,
        [&](const lg::ledger::YamlEntry& e) {
          lines.push_back(e.key->line);
          return true;
        },
        first_line);
    return read ? lines : std::vector<int>{-1};
  };
  const int tail_line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(*cut), '\n'));
  std::vector<int> parts = entries(std::string_view(text).substr(0, *cut), 0);
  const std::vector<int> tail = entries(std::string_view(text).substr(*cut), tail_line);
  parts.insert(parts.end(), tail.begin(), tail.end());
  CHECK(parts == entries(text, 0));
  CHECK(parts.size() > 1000);
  SECTION("every key once: the rows and findings in document order") {
    same_on_two_threads(text);
    CHECK(run(text).table.rows.size() == 2 * 600);
  }
  SECTION("a key of the first part written again in the second: the whole document's duplicate") {
    const std::string twice = text + "example_3: 5\n";
    same_on_two_threads(twice);
    CHECK(run(twice).ours.size() > 0);
  }
  SECTION("a line the simple reader does not take, in either part") {
    same_on_two_threads(text + "- a list item\n");
    same_on_two_threads("- a list item\n" + text);
    same_on_two_threads(text.substr(0, *cut) + "  stray: 1\n" + text.substr(*cut));
  }
  SECTION("lines of every kind put at random places near the cut") {
    const std::vector<std::string> pool = {"\n", "# a comment\n", "   # an indented comment\n", "  stray: 1\n",
                                           "loose_key: v\n", "- an item\n", "plain words\n", "\tkey: tab\n",
                                           "nested:\n  sub: 1\n", "example_7: again\n", "odd_9:\n", "   \n",
                                           "quoted: 'it''s'\n", "deep:\n    more: 2\n", "  less: 3\n"};
    std::mt19937 rng(7);
    for (int round = 0; round < 40; ++round) {
      std::string mutated = text;
      for (int n = std::uniform_int_distribution<int>(1, 3)(rng); n > 0; --n) {
        // A line start within 4 KiB of the middle, where the cut falls.
        std::size_t at = mutated.size() / 2 - 2048 + std::uniform_int_distribution<std::size_t>(0, 4096)(rng);
        at = mutated.rfind('\n', at) + 1;
        mutated.insert(at, pool[std::uniform_int_distribution<std::size_t>(0, pool.size() - 1)(rng)]);
      }
      INFO("round " << round);
      same_on_two_threads(mutated);
    }
  }
  SECTION("an indented document: cut at its own indentation") {
    const std::string indented = lg::test::indented(text);
    const auto at = lg::ledger::root_entry_cut(indented, indented.size() / 2);
    REQUIRE(at.has_value());
    CHECK(indented.compare(*at, 2, "  ") == 0);
    CHECK(indented[*at + 2] != ' ');
    same_on_two_threads(indented);
  }
}

TEST_CASE("projects.yaml: root_entry_cut finds no cut without a later root entry", "[rules][projects_yaml]") {
  CHECK_FALSE(lg::ledger::root_entry_cut("", 0).has_value());
  CHECK_FALSE(lg::ledger::root_entry_cut("a: 1\n", 0).has_value());  // the first entry is never a cut
  CHECK_FALSE(lg::ledger::root_entry_cut("a:\n  b: 1\n  c: 2\n", 3).has_value());
  CHECK(lg::ledger::root_entry_cut("a: 1\n# c\n\nb: 2\n", 1) == std::optional<std::size_t>(10));
  CHECK(lg::ledger::root_entry_cut("a: 1\nb: 2\nc: 3\n", 6) == std::optional<std::size_t>(10));
}
