// The audit report as text (grouped by commit), JSON (the documented API)
// and SARIF 2.1.0. Pure functions of an AuditReport: the CLI prints them.
#include "ledgergate/audit/render.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>
#include <map>

#include "ledgergate/report/format.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/hash.hpp"
#include "ledgergate/util/version.hpp"

namespace lg::audit {
namespace {

std::string short_id(const std::string& hex) { return hex.substr(0, 12); }

std::string where(const diag::Finding& f) {
  if (f.location.path.empty()) return "";
  if (f.location.line > 0) return fmt::format("{}:{}: ", f.location.path, f.location.line);
  return f.location.path + ": ";
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
  std::map<std::string, std::vector<std::string>> lines;
  std::string before;
  for (const AuditFinding& a : report.findings) {
    const diag::Finding& f = a.finding;
    const std::string text = fmt::format("{}{}: {} [{}]", where(f), diag::to_string(f.severity), f.message, f.rule);
    if (a.before_range) {
      before += fmt::format("  = {}{}\n", text, a.fixed_in ? " (fixed in " + short_id(*a.fixed_in) + ")" : "");
    } else {
      lines[a.introduced_in].push_back("  + " + text);
    }
    if (a.fixed_in) {
      lines[*a.fixed_in].push_back(fmt::format("  - fixed: {}{} [{}] (introduced in {})", where(f), f.message, f.rule,
                                               short_id(a.introduced_in)));
    }
  }
  std::string out;
  if (!before.empty()) out += "already present before the range:\n" + before;
  for (const AuditCommit& c : report.commits) {
    auto it = lines.find(c.id);
    if (it == lines.end()) continue;
    out += fmt::format("{} {}{} [{}]\n", short_id(c.id), c.summary, c.merge ? " (merge)" : "",
                       c.profile.empty() ? "no ledger" : c.profile);
    for (const std::string& l : it->second) out += l + "\n";
  }
  std::size_t errors = 0, warnings = 0, infos = 0, open = 0;
  for (const AuditFinding& a : report.findings) {
    if (a.finding.severity == diag::Severity::error) ++errors;
    else if (a.finding.severity == diag::Severity::warning) ++warnings;
    else ++infos;
    if (!a.fixed_in && a.finding.rule.rfind("audit-", 0) != 0) ++open;
  }
  out += fmt::format("audit: {} commit{}, {} error{}, {} warning{}, {} info; {} check finding{} present at the tip\n",
                     report.commits.size(), report.commits.size() == 1 ? "" : "s", errors, errors == 1 ? "" : "s",
                     warnings, warnings == 1 ? "" : "s", infos, open, open == 1 ? "" : "s");
  return out;
}

std::string render_audit_json(const AuditReport& report) {
  std::string out = fmt::format("{{\"verdict\": {}, \"commits\": [",
                                report::json_string(report.failed() ? "fail" : "pass"));
  for (std::size_t i = 0; i < report.commits.size(); ++i) {
    const AuditCommit& c = report.commits[i];
    out += fmt::format("{}\n  {{\"id\": {}, \"profile\": {}, \"merge\": {}}}", i == 0 ? "" : ",",
                       report::json_string(c.id), report::json_string(c.profile), c.merge ? "true" : "false");
  }
  out += report.commits.empty() ? "], \"findings\": [" : "\n], \"findings\": [";
  for (std::size_t i = 0; i < report.findings.size(); ++i) {
    const AuditFinding& a = report.findings[i];
    const diag::Finding& f = a.finding;
    out += fmt::format(
        "{}\n  {{\"rule\": {}, \"severity\": {}, \"path\": {}, \"line\": {}, \"message\": {}, \"introduced_in\": {}, "
        "\"fixed_in\": {}}}",
        i == 0 ? "" : ",", report::json_string(f.rule), report::json_string(diag::to_string(f.severity)),
        report::json_string(f.location.path), f.location.line, report::json_string(f.message),
        report::json_string(a.introduced_in), a.fixed_in ? report::json_string(*a.fixed_in) : "null");
  }
  out += report.findings.empty() ? "]}\n" : "\n]}\n";
  return out;
}

// SARIF 2.1.0: one run; the driver lists the registry's rules that results
// name (in order of first use), each result carries its rule, level,
// message, location (a region only when the line is known), a fingerprint
// of what drift matches findings by (rule, path, message), and where it
// entered and left in its properties.
std::string render_audit_sarif(const AuditReport& report) {
  std::vector<const rules::RuleInfo*> used;
  std::map<std::string, std::size_t, std::less<>> index;
  for (const AuditFinding& a : report.findings) {
    if (index.count(a.finding.rule) != 0) continue;
    const rules::RuleInfo* info = rules::find_rule(a.finding.rule);
    if (!info) continue;
    index.emplace(a.finding.rule, used.size());
    used.push_back(info);
  }
  std::string out =
      "{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", \"version\": \"2.1.0\", \"runs\": [{\n"
      "  \"tool\": {\"driver\": {\"name\": \"ledgergate\", \"version\": \"" + std::string(util::k_version) + "\", \"rules\": [";
  for (std::size_t i = 0; i < used.size(); ++i) {
    const rules::RuleInfo& r = *used[i];
    out += fmt::format(
        "{}\n    {{\"id\": {}, \"shortDescription\": {{\"text\": {}}}{}, "
        "\"defaultConfiguration\": {{\"level\": \"{}\"}}, \"properties\": {{\"profile\": {}, \"spec\": {}}}}}",
        i == 0 ? "" : ",", report::json_string(r.id), report::json_string(r.summary),
        r.detail.empty() ? std::string()
                         : fmt::format(", \"fullDescription\": {{\"text\": {}}}", report::json_string(r.detail)),
        sarif_level(r.severity), report::json_string(r.profile), report::json_string(r.ref));
  }
  out += used.empty() ? "]}},\n  \"results\": [" : "\n  ]}},\n  \"results\": [";
  bool first = true;
  for (const AuditFinding& a : report.findings) {
    const diag::Finding& f = a.finding;
    std::string location;
    if (!f.location.path.empty()) {
      location = fmt::format(", \"locations\": [{{\"physicalLocation\": {{\"artifactLocation\": {{\"uri\": {}}}{}}}}}]",
                             report::json_string(uri_of(f.location.path)),
                             f.location.line > 0 ? fmt::format(", \"region\": {{\"startLine\": {}}}", f.location.line)
                                                 : std::string());
    }
    const auto rule = index.find(f.rule);
    out += fmt::format(
        "{}\n    {{\"ruleId\": {}{}, \"level\": \"{}\", \"message\": {{\"text\": {}}}{}, "
        "\"partialFingerprints\": {{\"ledgergateDrift/v1\": \"{:016x}\"}}, "
        "\"properties\": {{\"introduced_in\": {}, \"fixed_in\": {}, \"before_range\": {}}}}}",
        first ? "" : ",", report::json_string(f.rule),
        rule == index.end() ? std::string() : fmt::format(", \"ruleIndex\": {}", rule->second), sarif_level(f.severity),
        report::json_string(f.message), location, drift_hash(f), report::json_string(a.introduced_in),
        a.fixed_in ? report::json_string(*a.fixed_in) : "null", a.before_range ? "true" : "false");
    first = false;
  }
  out += first ? "]\n}]}\n" : "\n  ]\n}]}\n";
  return out;
}


}  // namespace lg::audit
