// Renderings of an audit report: text grouped by commit, the JSON API
// ({"schema", "verdict", "suppressed", "commits", "findings": [{the findings'
// fields, introduced_in, fixed_in, before_range}]}) and SARIF 2.1.0 (one run
// of report/sarif's writer). `suppressed`: the findings a baseline holds,
// taken out of the report by the caller (they do not fail the verdict).
#pragma once

#include <cstddef>
#include <deque>
#include <string>

#include "ledgergate/audit/audit.hpp"
#include "ledgergate/diag/verdict.hpp"

namespace lg::report {

diag::Verdict audit_verdict(const audit::AuditReport& report);
std::string render_audit_text(const audit::AuditReport& report, std::size_t suppressed = 0);
std::string render_audit_json(const audit::AuditReport& report, std::size_t suppressed = 0);
std::string render_audit_sarif(const audit::AuditReport& report, const std::deque<audit::AuditFinding>& suppressed = {});

}  // namespace lg::report
