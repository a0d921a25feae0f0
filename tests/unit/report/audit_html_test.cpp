// The audit page (report/audit_html.cpp): a chart, a table of rules whose
// counts are the report's, the findings grouped by rule and linked to their
// commits; deterministic bytes. tests/board/chromium-pages loads it in a browser.
#include <catch2/catch.hpp>

#include <string>

#include "ledgergate/report/board.hpp"

using namespace lg;

namespace {

git::ObjectId id_of(char c) {
  auto id = git::ObjectId::from_hex(std::string(40, c));
  REQUIRE(id);
  return *id;
}

audit::AuditFinding finding(std::string rule, char introduced, std::optional<char> fixed) {
  audit::AuditFinding f;
  f.finding.rule = std::move(rule);
  f.finding.severity = diag::Severity::error;
  f.finding.location = {"", "projects/a.md", 3, 0};
  f.finding.message = "a <message>";
  f.introduced_in = id_of(introduced);
  if (fixed) f.fixed_in = id_of(*fixed);
  return f;
}

audit::AuditReport sample_report() {
  audit::AuditReport r;
  r.commits.push_back({id_of('1'), "first", "cortex-tasks", false, 1788393600});
  r.commits.push_back({id_of('2'), "migrate", "cortex-projects", false, 1788480000});
  r.commits.push_back({id_of('3'), "merge <b>", "cortex-projects", true, 1788566400});
  r.commits.push_back({id_of('4'), "tip", "cortex-projects", false, 1788652800});
  r.findings.push_back(finding("audit-run-without-log", '1', '3'));
  r.findings.push_back(finding("audit-run-without-log", '2', std::nullopt));
  r.findings.push_back(finding("audit-archive-changed", '2', std::nullopt));
  r.findings.push_back(finding("audit-ledger-merge-unclean", '3', std::nullopt));
  return r;
}

const report::PageStamp k_stamp{"ledgergate 9.9.9", "2026-09-03 00:00 UTC"};

}  // namespace

TEST_CASE("audit page: a chart, the rule table's counts, the findings by rule", "[report][audit]") {
  const std::string html = report::render_audit_html(sample_report(), "https://github.com/Own/Repo", k_stamp);
  CHECK(html == report::render_audit_html(sample_report(), "https://github.com/Own/Repo", k_stamp));
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<svg viewBox=") != std::string::npos);
  // Families stacked, most findings first: audit-run (2), then the others.
  CHECK(html.find("<polygon class=\"f0\"") != std::string::npos);
  CHECK(html.find("<title>audit-run: 1 open at the tip</title>") != std::string::npos);
  // The migration (cortex-tasks → cortex-projects) and the unclean merge are marked.
  CHECK(html.find("<line class=\"mig\"") != std::string::npos);
  CHECK(html.find("<line class=\"merge-bad\"") != std::string::npos);
  CHECK(html.find("<tr data-rule=\"audit-run-without-log\"><th scope=\"row\"><a href=\"#rule-audit-run-without-log\">"
                  "<code>audit-run-without-log</code></a></th><td class=\"fam\">audit-run</td><td class=\"num\">2</td>"
                  "<td class=\"num\">1</td><td class=\"num\">1</td></tr>") != std::string::npos);
  CHECK(html.find("<details id=\"rule-audit-archive-changed\">") != std::string::npos);
  CHECK(html.find("<a href=\"https://github.com/Own/Repo/commit/" + std::string(40, '2') + "\">") != std::string::npos);
  CHECK(html.find("“merge &lt;b&gt;”") != std::string::npos);
  CHECK(html.find("a &lt;message&gt;") != std::string::npos);
  // Without a home the commit is named, not linked.
  const std::string bare = report::render_audit_html(sample_report(), "", k_stamp);
  CHECK(bare.find("/commit/") == std::string::npos);
  CHECK(bare.find("<span title=\"" + std::string(40, '2') + "\">") != std::string::npos);
}
