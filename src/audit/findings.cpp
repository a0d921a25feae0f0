// Findings as the audit's passes compare and record them.
#include "findings.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace lg::audit {

bool same_finding(const diag::Finding& a, const diag::Finding& b) {
  return a.rule == b.rule && a.severity == b.severity && a.location.path == b.location.path &&
         a.location.line == b.location.line && a.location.column == b.location.column && a.message == b.message &&
         a.peer == b.peer && a.cannot_judge == b.cannot_judge;
}

bool same_findings(const std::vector<diag::Finding>& a, const std::vector<diag::Finding>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_finding);
}

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
