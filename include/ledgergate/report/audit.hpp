// Renderings of an audit report: text grouped by commit, the JSON API
// ({"verdict", "commits", "findings": [{rule, severity, path, line, message,
// introduced_in, fixed_in}]}) and SARIF 2.1.0 (one run; the driver's rules
// are the registry's rules the results name).
#pragma once

#include <string>

#include "ledgergate/audit/audit.hpp"

namespace lg::report {

std::string render_audit_text(const audit::AuditReport& report);
std::string render_audit_json(const audit::AuditReport& report);
std::string render_audit_sarif(const audit::AuditReport& report);

}  // namespace lg::report
