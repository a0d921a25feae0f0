// rules::projects_yaml_row_inputs: the rows' inputs (key, line, status,
// partition) read by the fast path, or entry by entry by the simple reader,
// or whole, are exactly projects_yaml_table's rows with their other fields
// left out, on common rows and on odd lines put anywhere. And
// check_projects_yaml keeping the inputs alone (RowFields::inputs) reports
// what it reports keeping every field.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "ledgergate/rules/threads.hpp"
#include "support/check_threads.hpp"
#include "support/indent.hpp"

using lg::rules::ProjectRow;
using lg::rules::ProjectsTable;
using lg::rules::ProjectsYamlEra;
using lg::rules::RowFields;

namespace {

// The rows as text: each row's key, line, status and partition (the
// inputs) and, for a table of inputs, whether it holds any other field.
std::vector<std::string> rows_of(const ProjectsTable& table, bool inputs_only) {
  std::vector<std::string> out;
  out.push_back(table.present ? "present" : "absent");
  for (const ProjectRow& row : table.rows) {
    std::string r = row.key + "@" + std::to_string(row.line);
    std::size_t held = 0;
    for (const char* name : {"status", "partition"}) {
      const auto v = row.get(name);
      r += v ? " " + std::string(name) + "=" + std::string(*v) : " no " + std::string(name);
      held += v ? 1 : 0;
    }
    if (!inputs_only && row.fields.size() != held) r += " and other fields";
    out.push_back(r);
    const ProjectRow* found = table.find(row.key);
    if (!found || found->line != row.line) out.push_back("not found: " + row.key);
  }
  return out;
}

// The plain reader's rows (all fields read, the inputs kept) and the row
// inputs' reader's.
std::vector<std::string> plain(const std::string& text) {
  return rows_of(lg::rules::projects_yaml_table(text, ProjectsYamlEra{}), true);
}
std::vector<std::string> inputs(const std::string& text) {
  return rows_of(lg::rules::projects_yaml_row_inputs(text, ProjectsYamlEra{}), false);
}

// A row of the common shape; without its partition or status line when
// that is empty.
std::string common_row(const std::string& key, const std::string& status, const std::string& partition) {
  return key + ":\n  remote: PyAutoLabs/" + key + "\n  local_path: /mnt/c/Users/Jammy/Science/" + key +
         "\n  ral_root: /mnt/ral/jnightin/" + key + "\n  mirror: none\n  sync_cli: hpc/sync\n" +
         "  sync_verbs: [push, pull, sync, status]\n  ledger: wiki/project/state.md\n" +
         "  assistant: autolens_assistant\n  witness_file: results/**/*.json\n" +
         (partition.empty() ? "" : "  partition: " + partition + "\n") +
         (status.empty() ? "" : "  status: " + status + "\n") + "  note: \"programme hst epic batch\"\n";
}

std::string common_document(int rows) {
  static const char* statuses[] = {"active", "dormant", "planned", "retired", "'active'", "\"quoted words\""};
  static const char* partitions[] = {"gpu", "ral", "both", "cpu words", "'ral'", "\"\""};
  std::string out = "# projects.yaml\n\n";
  for (int i = 0; i < rows; ++i) {
    out += common_row("row_" + std::to_string(i), i % 5 == 4 ? "" : statuses[i % 6],
                      i % 5 == 3 ? "" : partitions[(i / 6) % 6]);
    if (i % 7 == 0) out += "\n# between rows\n";
  }
  return out;
}

using Threads = lg::test::CheckThreads;

// Lines of every shape: the fast path's, those it leaves to the simple
// reader (a field's, a row's, the document's), those the simple reader
// leaves to the whole document.
const std::vector<std::string> k_pool = {
    "\n", "# a comment\n", "   # an indented comment\n", "   \n", "  status: active\n", "  status: dormant\n",
    "  partition: ral\n", "  status: 'it''s'\n", "  status: \"back\\\\slash\"\n", "  status: [a, b]\n",
    "  partition: yes\n", "  status: 5\n", "  status: 2026-01-02\n", "  partition: ~\n", "  status: null\n",
    "  status:\n", "  note: a # comment\n", "  status: active # comment\n", "  status: x*y\n",
    "  status: 'quoted' # c\n", "    deeper: 1\n", " between: 1\n", "  _x: 1\n", "  Yes: 2\n", "  on: 3\n",
    "  1: 4\n", "  a-b: 5\n", "  status: a: b\n", "  sync_verbs: [Pull, ok, 7]\n", "  sync_verbs: []\n",
    "  sync_verbs: [a,]\n", "  sync_verbs: [a b]\n", "  remote: /x/y\n", "  partition: .inf\n",
    "  status: -active\n", "  status: Active   \n", "  status: 'unclosed\n", "loose_key: v\n",
    "row_3: again\n", "yes:\n  status: active\n", "Upper:\n  status: active\n", "nested:\n  sub:\n    more: 1\n",
    "null_row:\n", "scalar_row: 5\n", "- an item\n", "plain words\n", "\tkey: tab\n", "key:  # c\n  status: x\n",
    "---\n", "...\n", "&anchor a:\n  status: x\n", "row_x: {a: b}\n", "  status: \"\"\n", "  partition: ''\n",
    "k:\n  status: a\n  status: b\n", "k2:\n  partition: p\n  status: s\n", "  status: true\n",
    // Rows whose status or partition is odd, lines a row without them may take.
    "k3:\n  partition: yes\n", "k4:\n  status: null\n", "k5:\n  status: a # c\n", "k6:\n  status: 'x' \n",
    "k7:\n  status: [a]\n", "k8:\n  partition: 1.5\n", "k9:\n  status: Off\n", "k10:\n  status: /abs\n",
    "k11:\n  partition: \"a b\"\n", "k12:\n  status: ~\n", "k13:\n  status: 'a''b'\n", "k14:\n  status: NULL\n",
    "k15:\n  status: x*\n  partition: r\n", "k16:\n  status: 2026-01-02\n", "k17:\n  status: =\n",
    "k18:\n  status: <<\n", "k19:\n  status: -x\n", "k20:\n  status: .inf\n", "k21:\n  status: 0x1F\n"};

std::string mutate(std::string text, std::mt19937& rng) {
  for (int n = std::uniform_int_distribution<int>(1, 4)(rng); n > 0; --n) {
    std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(rng);
    at = text.rfind('\n', at);
    at = at == std::string::npos ? 0 : at + 1;
    text.insert(at, k_pool[std::uniform_int_distribution<std::size_t>(0, k_pool.size() - 1)(rng)]);
  }
  return text;
}

}  // namespace

TEST_CASE("projects.yaml row inputs: common rows read as the plain reader reads them",
          "[rules][projects_yaml][row_inputs]") {
  const std::string text = common_document(60);
  const auto want = plain(text);
  REQUIRE(want.size() == 61);
  CHECK(inputs(text) == want);
  // The rows hold their inputs only, status first.
  const ProjectsTable t = lg::rules::projects_yaml_row_inputs(text, ProjectsYamlEra{});
  REQUIRE(t.rows.size() == 60);
  REQUIRE(t.rows[0].fields.size() == 2);
  CHECK((*t.rows[0].fields.begin()).first == "status");
  CHECK(t.rows[0].get("partition") == std::optional<std::string_view>("gpu"));
  CHECK(t.rows[0].get("status") == std::optional<std::string_view>("active"));
  CHECK(t.rows[6].get("status") == std::optional<std::string_view>("active"));
  CHECK(t.rows[10].get("status") == std::optional<std::string_view>("active"));  // 'active'
  CHECK(t.rows[5].get("status") == std::optional<std::string_view>("quoted words"));
  CHECK(t.rows[0].get("remote") == std::nullopt);
  CHECK(t.rows[1].line == 18);
  CHECK(t.rows[3].get("partition") == std::nullopt);
  CHECK(t.rows[4].get("status") == std::nullopt);
  // An indented document, and a document without a final newline.
  const std::string indented = lg::test::indented(text);
  CHECK(inputs(indented) == plain(indented));
  CHECK(inputs(text.substr(0, text.size() - 1)) == plain(text.substr(0, text.size() - 1)));
}

TEST_CASE("projects.yaml row inputs: the comparison fails on a row read otherwise",
          "[rules][projects_yaml][row_inputs]") {
  // What the tests below compare tells one field's value, a row's line, a
  // missing row and a missing field apart: a reader that read any of these
  // otherwise would fail them.
  const std::string text = common_document(12);
  const auto want = plain(text);
  std::string other_status = text;
  other_status.replace(other_status.find("status: dormant"), 15, "status: dormanT");
  CHECK(inputs(other_status) != want);
  CHECK(inputs("\n" + text) != want);
  std::string one_less = text;
  one_less.erase(0, one_less.find("row_1:"));
  CHECK(inputs(one_less) != want);
  std::string no_partition = text;
  no_partition.erase(no_partition.find("  partition: gpu\n"), 17);
  CHECK(inputs(no_partition) != want);
}

TEST_CASE("projects.yaml row inputs: odd lines anywhere read as the plain reader reads them",
          "[rules][projects_yaml][row_inputs]") {
  Threads one(1);
  const std::string text = common_document(30);
  // Each line of the pool alone, at the start, in the middle and at the end.
  for (const std::string& line : k_pool) {
    const std::size_t middle = text.find("row_15:");
    for (const std::string& t : {line + text, text.substr(0, middle) + line + text.substr(middle), text + line}) {
      INFO(t);
      CHECK(inputs(t) == plain(t));
    }
  }
  std::mt19937 rng(11);
  for (int round = 0; round < 300; ++round) {
    const std::string t = mutate(text, rng);
    INFO("round " << round << "\n" << t);
    CHECK(inputs(t) == plain(t));
  }
}

TEST_CASE("projects.yaml row inputs: a big document read in two parts reads as the plain reader reads it",
          "[rules][projects_yaml][row_inputs]") {
  const std::string text = common_document(1200);
  REQUIRE(text.size() > 256 * 1024);
  std::mt19937 rng(5);
  for (int round = 0; round < 12; ++round) {
    const std::string t = round == 0 ? text : mutate(text, rng);
    INFO("round " << round);
    std::vector<std::string> two;
    {
      Threads threads(2);
      two = inputs(t);
    }
    Threads threads(1);
    CHECK(two == plain(t));
    CHECK(inputs(t) == two);
  }
}

TEST_CASE("projects.yaml row inputs: an absent file, an empty one, one that does not parse",
          "[rules][projects_yaml][row_inputs]") {
  const ProjectsTable absent = lg::rules::projects_yaml_row_inputs(std::nullopt, ProjectsYamlEra{});
  CHECK_FALSE(absent.present);
  for (const std::string t : {"", "# only a comment\n", "a: [\n", "a:\n  b: 'x\n", "\xff\xfe", "a:\r\n  status: x\r\n",
                              "a:\n\tstatus: x\n", "row:\n  status: \"x\\u0041\"\n"}) {
    INFO(t);
    CHECK(inputs(t) == plain(t));
  }
}

namespace {

// check_projects_yaml's findings (each as rule, line and message) and its
// rows as rows_of reads them, keeping `fields`.
std::vector<std::string> judged(const std::string& text, RowFields fields) {
  lg::diag::CollectingSink sink;
  const ProjectsTable table = lg::rules::check_projects_yaml(text, ProjectsYamlEra{}, sink, "projects.yaml", fields);
  std::vector<std::string> out = rows_of(table, fields == RowFields::all);
  for (const lg::diag::Finding& f : sink.take()) {
    out.push_back(f.rule + ":" + std::to_string(f.location.line) + ": " + f.message);
  }
  return out;
}

}  // namespace

TEST_CASE("projects.yaml judged keeping the row inputs alone: the same findings and inputs",
          "[rules][projects_yaml][row_inputs]") {
  Threads one(1);
  const std::string text = common_document(30);
  const auto all = judged(text, RowFields::all);
  CHECK(judged(text, RowFields::inputs) == all);
  lg::diag::CollectingSink sink;
  const ProjectsTable slim = lg::rules::check_projects_yaml(text, ProjectsYamlEra{}, sink, "projects.yaml",
                                                            RowFields::inputs);
  REQUIRE(slim.rows.size() == 30);
  CHECK(slim.rows[0].fields.size() == 2);
  CHECK(slim.rows[0].get("remote") == std::nullopt);
  CHECK(slim.rows[0].get("status") == std::optional<std::string_view>("active"));
  // The comparison tells a finding apart: a row without its remote is one.
  std::string no_remote = text;
  no_remote.erase(no_remote.find("  remote: PyAutoLabs/row_2\n"), 27);
  CHECK(judged(no_remote, RowFields::inputs) != all);
  CHECK(judged(no_remote, RowFields::inputs) == judged(no_remote, RowFields::all));
  std::mt19937 rng(23);
  for (int round = 0; round < 300; ++round) {
    const std::string t = mutate(text, rng);
    INFO("round " << round << "\n" << t);
    CHECK(judged(t, RowFields::inputs) == judged(t, RowFields::all));
  }
  // A big document, read in two parts on two threads.
  const std::string big = common_document(1200);
  Threads two(2);
  CHECK(judged(big, RowFields::inputs) == judged(big, RowFields::all));
  const std::string big_odd = mutate(big, rng);
  CHECK(judged(big_odd, RowFields::inputs) == judged(big_odd, RowFields::all));
}
