// What the audit's passes share about findings: check findings grouped by
// path (the unit the incremental check and drift compare), finding
// equality (diag's), severity overrides, and the sink a commit's cross-commit
// findings (its events) go to. Private to audit/.
#pragma once

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "ledgergate/audit/audit.hpp"
#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/object_id.hpp"
#include "ledgergate/rules/check.hpp"

namespace lg::audit {

using PathFindings = std::map<std::string, std::vector<diag::Finding>>;

using diag::same_finding;
using diag::same_findings;
PathFindings by_path(std::vector<diag::Finding> findings);
// "path:line: message [rule]", for verify's messages.
std::string describe(const diag::Finding& f);

// A commit's events, appended to the report in the order they are found:
// severities overridden by the commit's policy, seen at the commit.
class Events {
 public:
  Events(std::deque<AuditFinding>& findings, const git::ObjectId& commit, const rules::CheckOptions& options)
      : m_findings(findings), m_commit(commit), m_short(commit.short_hex()), m_options(options) {}
  void add(diag::Finding f);

 private:
  std::deque<AuditFinding>& m_findings;
  git::ObjectId m_commit;
  std::string m_short;  // its short form
  const rules::CheckOptions& m_options;
};

}  // namespace lg::audit
