// Severity names and the reference spelling of a finding.
#include "ledgergate/diag/finding.hpp"

#include "ledgergate/util/quote.hpp"

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

// The path C-quoted when it holds what could forge a line (util::quote_path):
// the reference prints it raw; every name it has been run on prints the same.
std::string peer_text(const Finding& f) {
  const std::string path = util::quote_path(f.location.path);
  const std::string message = util::escape_controls(f.message);
  if (f.peer == PeerForm::path_line_message) return path + ":" + std::to_string(f.location.line) + ": " + message;
  return path + ": " + message;
}

}  // namespace lg::diag
