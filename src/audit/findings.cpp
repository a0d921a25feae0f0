// Findings as the audit's passes compare and record them.
#include "findings.hpp"

#include <fmt/format.h>

namespace lg::audit {

PathFindings by_path(std::vector<diag::Finding> findings) {
  PathFindings out;
  for (diag::Finding& f : findings) {
    std::string path = f.location.path;
    out[path].push_back(std::move(f));
  }
  return out;
}

std::string describe(const diag::Finding& f) {
  return fmt::format("{}:{}: {} [{}]", f.location.path, f.location.line, f.message, f.rule);
}

void Events::add(diag::Finding f) {
  if (m_options.is_off(f)) return;
  m_options.apply_severity(f);
  f.location.rev = m_short;
  m_findings.push_back(AuditFinding{std::move(f), m_commit, std::nullopt, false});
}

}  // namespace lg::audit
