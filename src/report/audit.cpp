// The audit report as text (grouped by commit), JSON (the documented API)
// and SARIF 2.1.0. Pure functions of an AuditReport: the CLI prints them.
#include "ledgergate/report/audit.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>
#include <map>

#include "ledgergate/diag/severity_counts.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/hash.hpp"
#include "ledgergate/util/json.hpp"
#include "ledgergate/util/quote.hpp"
#include "ledgergate/util/version.hpp"

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

// FNV-1a over what drift matches a finding by: stable across line shifts.
std::uint64_t drift_hash(const diag::Finding& f) {
  util::Fnv1a h;
  for (std::string_view part : {std::string_view(f.rule), std::string_view(f.location.path), std::string_view(f.message)}) {
    h.add(part);
    h.add_byte(0xff);
  }
  return h.value();
}

// A repository-relative path as a URI reference: RFC 3986's unreserved
// characters and '/' as they are, every other byte percent-encoded.
std::string uri_of(std::string_view path) {
  std::string out;
  for (char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += ch;
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string_view sarif_level(diag::Severity s) {
  switch (s) {
    case diag::Severity::error: return "error";
    case diag::Severity::warning: return "warning";
    case diag::Severity::info: return "note";
  }
  return "note";
}

}  // namespace

std::string render_audit_text(const AuditReport& report) {
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
  return out;
}

std::string render_audit_json(const AuditReport& report) {
  util::JsonWriter w;
  w.begin_object().key("verdict").string(report.failed() ? "fail" : "pass");
  w.key("commits").begin_array(util::JsonLayout::lines(2));
  for (const AuditCommit& c : report.commits) {
    w.begin_object().key("id").string(c.id.hex()).key("profile").string(c.profile).key("merge").boolean(c.merge);
    w.end_object();
  }
  w.end_array().key("findings").begin_array(util::JsonLayout::lines(2));
  for (const AuditFinding& a : report.findings) {
    const diag::Finding& f = a.finding;
    w.begin_object().key("rule").string(f.rule).key("severity").string(diag::to_string(f.severity));
    w.key("path").string(f.location.path).key("line").number(f.location.line).key("message").string(f.message);
    w.key("introduced_in").string(a.introduced_in.hex()).key("fixed_in");
    a.fixed_in ? w.string(a.fixed_in->hex()) : w.null();
    w.end_object();
  }
  w.end_array().end_object();
  return w.str() + "\n";
}

namespace {

// The registry's rules the findings name, in order of first use, and each
// one's index in that list.
struct UsedRules {
  std::vector<const rules::RuleInfo*> rules;
  std::map<std::string, std::size_t, std::less<>> index;
};

UsedRules used_rules(const AuditReport& report) {
  UsedRules used;
  for (const AuditFinding& a : report.findings) {
    if (used.index.count(a.finding.rule) != 0) continue;
    const rules::RuleInfo* info = rules::find_rule(a.finding.rule);
    if (!info) continue;
    used.index.emplace(a.finding.rule, used.rules.size());
    used.rules.push_back(info);
  }
  return used;
}

void write_sarif_rule(util::JsonWriter& w, const rules::RuleInfo& r) {
  w.begin_object().key("id").string(r.id);
  w.key("shortDescription").begin_object().key("text").string(r.summary).end_object();
  if (!r.detail.empty()) w.key("fullDescription").begin_object().key("text").string(r.detail).end_object();
  w.key("defaultConfiguration").begin_object().key("level").string(sarif_level(r.severity)).end_object();
  w.key("properties").begin_object().key("profile").string(r.profile).key("spec").string(r.ref).end_object();
  w.end_object();
}

void write_sarif_result(util::JsonWriter& w, const AuditFinding& a, const UsedRules& used) {
  const diag::Finding& f = a.finding;
  w.begin_object().key("ruleId").string(f.rule);
  if (const auto rule = used.index.find(f.rule); rule != used.index.end()) w.key("ruleIndex").number(rule->second);
  w.key("level").string(sarif_level(f.severity));
  w.key("message").begin_object().key("text").string(f.message).end_object();
  if (!f.location.path.empty()) {
    w.key("locations").begin_array().begin_object().key("physicalLocation").begin_object();
    w.key("artifactLocation").begin_object().key("uri").string(uri_of(f.location.path)).end_object();
    if (f.location.line > 0) w.key("region").begin_object().key("startLine").number(f.location.line).end_object();
    w.end_object().end_object().end_array();
  }
  w.key("partialFingerprints").begin_object();
  w.key("ledgergateDrift/v1").string(fmt::format("{:016x}", drift_hash(f))).end_object();
  w.key("properties").begin_object().key("introduced_in").string(a.introduced_in.hex()).key("fixed_in");
  a.fixed_in ? w.string(a.fixed_in->hex()) : w.null();
  w.key("before_range").boolean(a.before_range).end_object();
  w.end_object();
}

}  // namespace

// SARIF 2.1.0: one run; the driver lists the registry's rules that results
// name (in order of first use), each result carries its rule, level,
// message, location (a region only when the line is known), a fingerprint
// of what drift matches findings by (rule, path, message), and where it
// entered and left in its properties.
std::string render_audit_sarif(const AuditReport& report) {
  const UsedRules used = used_rules(report);
  util::JsonWriter w;
  w.begin_object().key("$schema").string("https://json.schemastore.org/sarif-2.1.0.json").key("version").string("2.1.0");
  w.key("runs").begin_array().begin_object(util::JsonLayout::lines(2));
  w.key("tool").begin_object().key("driver").begin_object();
  w.key("name").string("ledgergate").key("version").string(util::k_version);
  w.key("rules").begin_array(util::JsonLayout::lines(4));
  for (const rules::RuleInfo* r : used.rules) write_sarif_rule(w, *r);
  w.end_array().end_object().end_object();
  w.key("results").begin_array(util::JsonLayout::lines(4));
  for (const AuditFinding& a : report.findings) write_sarif_result(w, a, used);
  w.end_array().end_object().end_array().end_object();
  return w.str() + "\n";
}

}  // namespace lg::report
