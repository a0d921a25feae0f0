// Drift attribution: which commit introduced each check finding and which
// fixed it. Findings are matched across commits by (rule, path, message),
// so a line shift is not a fix plus a new finding; the findings standing at
// the commit judged last are kept by path, so a commit whose check reports
// only the paths that changed costs what changed. Private to audit/.
#pragma once

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "findings.hpp"
#include "ledgergate/git/object_id.hpp"

namespace lg::audit {

class Drift {
 public:
  // Opens and fixes findings in `findings` (the report's), which outlives it.
  explicit Drift(std::deque<AuditFinding>& findings) : m_findings(findings) {}

  // The findings of the parent of the range's first commit: present before
  // the range.
  void baseline(std::vector<diag::Finding> findings, const git::ObjectId& commit);
  // Commit `commit` judged with all its findings.
  void update(std::vector<diag::Finding> findings, const git::ObjectId& commit);
  // Commit `commit` judged with the findings of the paths whose findings
  // changed (an empty list: none left), the rest standing.
  void update_paths(PathFindings changed, const git::ObjectId& commit);
  // The walk's end: open findings were seen last at the commit judged last
  // (their paths' findings did not change after their last update).
  void finish();

  // The paths whose findings differ between the commit judged last and `all`.
  PathFindings changed_paths(const std::vector<diag::Finding>& all) const;
  const PathFindings& standing() const { return m_state; }
  const git::ObjectId& last_judged() const { return m_last_judged; }

 private:
  using Seen = std::map<std::string, std::vector<diag::Finding*>>;
  void open_findings(Seen& now, const git::ObjectId& commit);

  std::deque<AuditFinding>& m_findings;
  git::ObjectId m_last_judged;  // the commit judged last; zero before any
  PathFindings m_state;       // its findings by path, severities applied
  std::map<std::string, std::vector<std::size_t>> m_open;  // drift key → open findings, oldest first
};

}  // namespace lg::audit
