// Severity names and the reference spelling of a finding.
#include "ledgergate/diag/finding.hpp"

#include <algorithm>

namespace lg::diag {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

bool parse_severity(std::string_view name, Severity& out) {
  for (Severity s : {Severity::info, Severity::warning, Severity::error}) {
    if (name == to_string(s)) {
      out = s;
      return true;
    }
  }
  return false;
}

std::string peer_text(const Finding& f) {
  if (f.peer == PeerForm::path_line_message) {
    return f.location.path + ":" + std::to_string(f.location.line) + ": " + f.message;
  }
  return f.location.path + ": " + f.message;
}

bool same_finding(const Finding& a, const Finding& b) {
  return a.rule == b.rule && a.severity == b.severity && a.location.path == b.location.path &&
         a.location.line == b.location.line && a.location.column == b.location.column && a.message == b.message &&
         a.peer == b.peer && a.cannot_judge == b.cannot_judge;
}

bool same_findings(const std::vector<Finding>& a, const std::vector<Finding>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_finding);
}

}  // namespace lg::diag
