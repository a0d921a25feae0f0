// The audit report as text (grouped by commit), JSON (the documented API)
// and SARIF 2.1.0 (report/sarif's one writer). Pure functions of an AuditReport: the CLI prints them.
#include "ledgergate/report/audit.hpp"

#include <fmt/format.h>

#include <map>

#include "ledgergate/diag/severity_counts.hpp"
#include "ledgergate/report/format.hpp"
#include "ledgergate/report/sarif.hpp"
#include "ledgergate/util/json.hpp"
#include "ledgergate/util/quote.hpp"

namespace lg::report {
namespace {

using audit::AuditCommit;
using audit::AuditFinding;
using audit::AuditReport;

std::string where(const diag::Finding& f) {
  if (f.location.path.empty()) return "";
  const std::string path = util::quote_path(f.location.path);
  if (f.location.line > 0) return fmt::format("{}:{}: ", path, f.location.line);
  return path + ": ";
}

}  // namespace

std::string render_audit_text(const AuditReport& report, std::size_t suppressed) {
  // Per commit: what it introduced (+) and what it fixed (-).
  std::map<git::ObjectId, std::vector<std::string>> lines;
  std::string before;
  for (const AuditFinding& a : report.findings) {
    const diag::Finding& f = a.finding;
    const std::string message = util::escape_controls(f.message);
    const std::string text = fmt::format("{}{}: {} [{}]", where(f), diag::to_string(f.severity), message, f.rule);
    if (a.before_range) {
      before += fmt::format("  = {}{}\n", text, a.fixed_in ? " (fixed in " + a.fixed_in->short_hex() + ")" : "");
    } else {
      lines[a.introduced_in].push_back("  + " + text);
    }
    if (a.fixed_in) {
      lines[*a.fixed_in].push_back(fmt::format("  - fixed: {}{} [{}] (introduced in {})", where(f), message, f.rule,
                                               a.introduced_in.short_hex()));
    }
  }
  std::string out;
  if (!before.empty()) out += "already present before the range:\n" + before;
  for (const AuditCommit& c : report.commits) {
    auto it = lines.find(c.id);
    if (it == lines.end()) continue;
    out += fmt::format("{} {}{} [{}]\n", c.id.short_hex(), c.summary, c.merge ? " (merge)" : "",
                       c.profile.empty() ? "no ledger" : c.profile);
    for (const std::string& l : it->second) out += l + "\n";
  }
  diag::SeverityCounts n;
  std::size_t open = 0;
  for (const AuditFinding& a : report.findings) {
    n.add(a.finding.severity);
    if (!a.fixed_in && a.finding.rule.rfind("audit-", 0) != 0) ++open;
  }
  out += fmt::format("audit: {} commit{}, {} error{}, {} warning{}, {} info; {} check finding{} present at the tip\n",
                     report.commits.size(), report.commits.size() == 1 ? "" : "s", n.errors, n.errors == 1 ? "" : "s",
                     n.warnings, n.warnings == 1 ? "" : "s", n.infos, open, open == 1 ? "" : "s");
  if (suppressed > 0) out += fmt::format("audit: {} finding(s) in the baseline suppressed\n", suppressed);
  return out;
}

diag::Verdict audit_verdict(const AuditReport& report) {
  return report.failed() ? diag::Verdict::fail : diag::Verdict::pass;
}

std::string render_audit_json(const AuditReport& report, std::size_t suppressed) {
  util::JsonWriter w;
  write_json_head(w, "audit", audit_verdict(report));
  w.key("suppressed").number(suppressed);
  w.key("commits").begin_array(util::JsonLayout::lines(2));
  for (const AuditCommit& c : report.commits) {
    w.begin_object().key("id").string(c.id.hex()).key("profile").string(c.profile).key("merge").boolean(c.merge);
    w.end_object();
  }
  w.end_array().key("findings").begin_array(util::JsonLayout::lines(2));
  for (const AuditFinding& a : report.findings) {
    w.begin_object();
    write_finding_fields(w, a.finding);
    w.key("introduced_in").string(a.introduced_in.hex()).key("fixed_in");
    a.fixed_in ? w.string(a.fixed_in->hex()) : w.null();
    w.key("before_range").boolean(a.before_range).end_object();
  }
  w.end_array().end_object();
  return w.str() + "\n";
}

namespace {

SarifResult audit_result(const AuditFinding& a, bool suppressed) {
  return SarifResult{&a.finding, suppressed, false, [&a](util::JsonWriter& w) {
                       w.key("introduced_in").string(a.introduced_in.hex()).key("fixed_in");
                       a.fixed_in ? w.string(a.fixed_in->hex()) : w.null();
                       w.key("before_range").boolean(a.before_range);
                     }};
}

}  // namespace

// One run of the shared writer: every finding a result (where it entered
// and left in its properties), then the baseline's as suppressed results.
std::string render_audit_sarif(const AuditReport& report, const std::deque<AuditFinding>& suppressed) {
  SarifRun run;
  run.command = "audit";
  run.exit_code = report.failed() ? 1 : 0;
  for (const AuditFinding& a : report.findings) run.results.push_back(audit_result(a, false));
  for (const AuditFinding& a : suppressed) run.results.push_back(audit_result(a, true));
  return render_sarif(run);
}

}  // namespace lg::report
