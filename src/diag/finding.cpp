// Severity names and the reference spelling of a finding.
#include "ledgergate/diag/finding.hpp"

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

}  // namespace lg::diag
