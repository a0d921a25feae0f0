#include "ledgergate/rules/cortex_projects.hpp"

#include <catch2/catch.hpp>

#include "ledgergate/rules/check.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

rules::ProjectsTable table(const std::string& status, const std::string& partition) {
  rules::ProjectsTable t;
  t.present = true;
  rules::ProjectRow row;
  row.key = "demo";
  row.line = 1;
  row.fields = {{"partition", partition}, {"status", status}};
  t.rows.push_back(row);
  return t;
}

const std::string k_base =
    "# demo \u2014 A short summary\n\nProject: demo\nIssue: demo#1\n\n## Now\n\nWorking.\n\n## Runs\n\n"
    "- 12 \u2014 open \u2014 ral \u2014 2026-09-01 \u2014 a run\n\n## Log\n\n"
    "- 2026-09-02 \u2014 note \u2014 b\n- 2026-09-01 \u2014 run \u2014 12 submitted: a run\n";


std::vector<diag::Finding> run(const std::string& text, const std::string& status = "active",
                               const std::string& partition = "both") {
  diag::CollectingSink sink;
  const auto t = table(status, partition);
  rules::check_project_ledger(ledger::parse_project_ledger(text), "projects/demo.md", "demo", t, sink);
  return sink.take();
}

std::vector<std::string> texts(const std::vector<diag::Finding>& fs) {
  std::vector<std::string> out;
  for (const auto& f : fs) out.push_back(f.rule + " | " + diag::peer_text(f));
  return out;
}

}  // namespace

TEST_CASE("cortex-projects rules: a well-formed ledger has no finding", "[rules][cortex_projects]") {
  CHECK(run(k_base).empty());
  CHECK(run(k_base, "dormant", "ral").empty());
}

TEST_CASE("cortex-projects rules: each peer rule fires with the reference text", "[rules][cortex_projects]") {
  using V = std::vector<std::string>;
  CHECK(texts(run(test::replaced(k_base, "## Runs", "## Jobs"))) ==
        V{"ledger-sections-exact | projects/demo.md: sections must be exactly ## Now \u00b7 ## Runs \u00b7 ## Log in "
          "that order (found: Now, Jobs, Log)"});
  CHECK(texts(run(test::replaced(k_base, "## Runs\n\n", "## Runs\n\n  orphan\n"))) ==
        V{"ledger-run-continuation-orphan | projects/demo.md: line 12: continuation line without a run line"});
  CHECK(texts(run(test::replaced(k_base, "# demo \u2014 A", "#demo A"))) ==
        V{"ledger-title-present | projects/demo.md: first line must be `# <key> \u2014 <summary>`"});
  // A `# ` line that does not parse as `# <key> — <summary>` is the wrong title, not a missing one.
  CHECK(texts(run(test::replaced(k_base, "# demo \u2014 A", "# Demo: A"))) ==
        V{"ledger-title-names-key | projects/demo.md: title must be `# demo \u2014 <summary>`, not `# Demo: A short summary`"});
  CHECK(texts(run(test::replaced(k_base, "Project: demo\n", ""))) ==
        V{"ledger-header-required | projects/demo.md: header is missing `Project:`"});
  CHECK(texts(run(test::replaced(k_base, "Issue: demo#1", "Issue:"))) ==
        V{"ledger-issue-grammar | projects/demo.md: `Issue:` must be Repo#N, an issue URL or none, not ''"});
  CHECK(texts(run(test::replaced(k_base, "Project: demo", "Project:"))) ==
        V{"ledger-project-equals-key | projects/demo.md: `Project:` must be demo"});
  CHECK(texts(run(test::replaced(k_base, "- 12 \u2014", "- 12_[3-1,] \u2014"))) ==
        V{"ledger-run-ident-grammar | projects/demo.md: run ident does not parse: 12_[3-1,]"});
  CHECK(texts(run(test::replaced(k_base, "ral \u2014 2026-09-01", "ral \u2014 2026-09-31"))) ==
        V{"ledger-run-date-real | projects/demo.md: run 12 date is not a real date: 2026-09-31"});
  CHECK(texts(run(k_base, "active", "gpu")) ==
        V{"ledger-run-partition-agrees | projects/demo.md: run 12 is on `ral` but the project runs on `gpu`"});
  CHECK(texts(run(k_base, "retired")) ==
        V{"ledger-retired-has-no-runs | projects/demo.md: a retired project still lists runs"});
  CHECK(texts(run(test::replaced(k_base, "- 2026-09-01 \u2014 run", "- 2026-09-03 \u2014 run"))) ==
        V{"ledger-log-newest-first | projects/demo.md: log is not newest-first at line 17 (2026-09-03 after "
          "2026-09-02)"});
  CHECK(texts(run(test::replaced(k_base, "## Log\n\n", "## Log\n\n  x\n"))) ==
        V{"ledger-log-continuation-orphan | projects/demo.md: line 16: continuation line without a log line"});
}

TEST_CASE("cortex-projects rules: a project without a row skips row-dependent rules", "[rules][cortex_projects]") {
  diag::CollectingSink sink;
  rules::ProjectsTable empty;
  rules::check_project_ledger(ledger::parse_project_ledger(test::replaced(k_base, "Working.", "")), "projects/demo.md", "demo",
                              empty, sink);
  CHECK(texts(sink.take()) ==
        std::vector<std::string>{"ledger-has-row | projects/demo.md: demo is not a projects.yaml key"});
}

TEST_CASE("cortex-projects rules: gap warnings stay out of the reference output", "[rules][cortex_projects]") {
  const auto overlap = run(test::replaced(k_base, "- 12 \u2014 open", "- 12_[0-3] \u2014 open \u2014 ral \u2014 2026-09-01 "
                                                             "\u2014 x\n- 12_2 \u2014 open"));
  REQUIRE(overlap.size() == 1);
  CHECK(overlap[0].rule == "ledger-run-overlap");
  CHECK(overlap[0].severity == diag::Severity::warning);
  CHECK(overlap[0].peer == diag::PeerForm::none);

  const auto order = run(test::replaced(k_base, "- 12 \u2014", "- 12_[4-5,1] \u2014"));
  REQUIRE(order.size() == 1);
  CHECK(order[0].rule == "ledger-run-tasks-ascending");

  const auto fenced = run(test::replaced(k_base, "Working.", "```\n## Log\n```"));
  std::vector<std::string> rules_hit;
  for (const auto& f : fenced) rules_hit.push_back(f.rule);
  // The reference counts the fenced heading, so the closing fence is an unparsed log line.
  CHECK(rules_hit == std::vector<std::string>{"ledger-sections-exact", "ledger-log-line-parses",
                                              "ledger-heading-in-fence", "ledger-duplicate-section"});

  const auto dup = run(test::replaced(k_base, "Issue: demo#1\n", "Issue: demo#1\nIssue: other#2\n"));
  REQUIRE(dup.size() == 1);
  CHECK(dup[0].rule == "ledger-header-duplicate-key");

  const auto digits = run(test::replaced(k_base, "- 2026-09-02", "- \uff12\uff10\uff12\uff16-09-02"));
  std::vector<std::string> digit_rules;
  for (const auto& f : digits) digit_rules.push_back(f.rule);
  CHECK(digit_rules == std::vector<std::string>{"ledger-log-date-real", "ledger-non-ascii-digit"});
}

TEST_CASE("cortex-projects rules: text input problems are located", "[rules][cortex_projects]") {
  diag::CollectingSink sink;
  rules::check_text_input(ledger::decode_text("ok\r\nbad \xff\n").facts, "projects/x.md", sink);
  const auto fs = sink.take();
  REQUIRE(fs.size() == 2);
  CHECK(fs[0].rule == "input-not-utf8");
  CHECK(fs[0].location.line == 2);
  CHECK(fs[0].cannot_judge);
  CHECK(fs[1].rule == "input-line-endings");
  CHECK(fs[1].location.line == 1);
}

TEST_CASE("cortex-projects rules: each rule fires on its bad case, not on the corrected one",
          "[rules][cortex_projects]") {
  using V = std::vector<std::string>;
  const std::string run_line = "- 12 \u2014 open \u2014 ral \u2014 2026-09-01 \u2014 a run";

  SECTION("ledger-run-line-parses (R-P03)") {
    CHECK(texts(run(test::replaced(k_base, "- 12 \u2014 open", "- 12 \u2014 closed"))) ==
          V{"ledger-run-line-parses | projects/demo.md: line 12: run line does not parse: - 12 \u2014 closed \u2014 "
            "ral \u2014 2026-09-01 \u2014 a run"});
    // The raw line is quoted stripped, before ` -- ` is read as ` \u2014 `.
    CHECK(texts(run(test::replaced(k_base, run_line, "- 12 -- shut -- ral -- 2026-09-01 -- a run   "))) ==
          V{"ledger-run-line-parses | projects/demo.md: line 12: run line does not parse: "
            "- 12 -- shut -- ral -- 2026-09-01 -- a run"});
    // Corrected: the run line parses (with either dash spelling).
    CHECK(run(test::replaced(k_base, "- 12 \u2014 open", "- 12 \u2014 running")).empty());
    CHECK(run(test::replaced(k_base, run_line, "- 12 -- open -- ral -- 2026-09-01 -- a run")).empty());
  }

  SECTION("ledger-title-names-key (R-P07)") {
    CHECK(texts(run(test::replaced(k_base, "# demo \u2014", "# other \u2014"))) ==
          V{"ledger-title-names-key | projects/demo.md: title must be `# demo \u2014 <summary>`, not "
            "`# other \u2014 A short summary`"});
    // The title is quoted as written (stripped), not dash-normalised.
    CHECK(texts(run(test::replaced(k_base, "# demo \u2014", "#   demo_2 --"))) ==
          V{"ledger-title-names-key | projects/demo.md: title must be `# demo \u2014 <summary>`, not "
            "`# demo_2 -- A short summary`"});
    CHECK(run(test::replaced(k_base, "# demo \u2014", "# demo --")).empty());
    CHECK(run(k_base).empty());
  }

  SECTION("ledger-summary-word-cap (R-P08)") {
    const std::string fifteen =
        "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen";
    CHECK(texts(run(test::replaced(k_base, "A short summary", fifteen + " sixteen"))) ==
          V{"ledger-summary-word-cap | projects/demo.md: summary is over 15 words: " + fifteen + " sixteen"});
    CHECK(run(test::replaced(k_base, "A short summary", fifteen)).empty());
  }

  SECTION("ledger-header-closed (R-F03)") {
    const auto extra = run(test::replaced(k_base, "Issue: demo#1\n", "Issue: demo#1\nOwner: me\nStatus: live\n"));
    CHECK(texts(extra) == V{"ledger-header-closed | projects/demo.md: unknown header key(s) Owner, Status \u2014 the "
                            "header holds only Project, Issue"});
    REQUIRE(extra.size() == 1);
    CHECK(extra[0].location.line == 5);
    // Corrected: only Project and Issue; a `- item` line in the block is ignored, and a
    // `Key:` line after the blank line that ends the header is body text.
    CHECK(run(k_base).empty());
    CHECK(run(test::replaced(k_base, "Issue: demo#1\n", "Issue: demo#1\n- owner: me\n")).empty());
    CHECK(run(test::replaced(k_base, "Working.", "Owner: me")).empty());
  }

  SECTION("ledger-now-on-active (R-F06)") {
    CHECK(texts(run(test::replaced(k_base, "Working.", ""))) ==
          V{"ledger-now-on-active | projects/demo.md: `## Now` is empty on an active project"});
    CHECK(texts(run(test::replaced(k_base, "Working.", "   \n  "))) ==
          V{"ledger-now-on-active | projects/demo.md: `## Now` is empty on an active project"});
    // Corrected: a line in ## Now, or a row that is not active.
    CHECK(run(k_base).empty());
    CHECK(run(test::replaced(k_base, "Working.", ""), "dormant").empty());
    CHECK(run(test::replaced(k_base, "Working.", ""), "planned").empty());
  }
}

TEST_CASE("cortex-projects rules: ledger-file-name (R-L01) through the check driver", "[rules][cortex_projects]") {
  const std::string row =
      "demo:\n  remote: none\n  local_path: /tmp/x\n  ral_root: /tmp/y\n  mirror: none\n  sync_cli: s\n"
      "  sync_verbs: [pull]\n  ledger: L.md\n  assistant: none\n  witness_file: w\n  partition: both\n"
      "  status: dormant\n";
  auto check = [&](const std::string& ledger_path) {
    test::TempDir dir;
    test::write_tree(dir.path() + "/root", {{"projects.yaml", row}, {ledger_path, k_base}});
    auto tree = git::open_directory_source(dir.path() + "/root");
    REQUIRE(tree);
    rules::CheckCache cache;
    auto report = rules::check_tree(**tree, {}, cache);
    REQUIRE(report);
    CHECK(report->profile == "cortex-projects");
    return texts(report->findings);
  };
  using V = std::vector<std::string>;
  // A name that is not a bare key: the file is reported and not read as a ledger.
  CHECK(check("projects/Demo.md") ==
        V{"ledger-file-name | projects/Demo.md: file name must be projects/<key>.md with a bare key"});
  CHECK(check("projects/demo-1.md") ==
        V{"ledger-file-name | projects/demo-1.md: file name must be projects/<key>.md with a bare key"});
  // Corrected: projects/<key>.md is read as the ledger of `demo`.
  CHECK(check("projects/demo.md").empty());
  // AGENTS.md and TEMPLATE.md are not ledgers and not misnamed.
  CHECK(check("projects/AGENTS.md").empty());
}

TEST_CASE("cortex-projects rules: a one-letter run line is quoted intact (check_tree fuzz finding)",
          "[rules][cortex_projects]") {
  // The minimised fuzz input: projects/e.md holding "## Runs\nr". Under clang
  // the parse finding's message was freed from the stack (RuleId consteval).
  const auto fs = run("\n## Runs\nr");
  std::vector<std::string> parses;
  for (const std::string& t : texts(fs)) {
    if (t.rfind("ledger-run-line-parses", 0) == 0) parses.push_back(t);
  }
  CHECK(parses == std::vector<std::string>{
                      "ledger-run-line-parses | projects/demo.md: line 3: run line does not parse: r"});
}
