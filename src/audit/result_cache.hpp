// `audit --cache DIR`: each commit's audit result kept in a file of its own,
// named by the commit id and a fingerprint of what else decides the result
// (ledgergate's version, the rule registry, the walk's options), so a
// re-audit checks only the commits it has not seen. Entries are written
// through a temporary file and a rename; an entry that does not parse, fails
// its checksum or names another commit or fingerprint is ignored (the commit
// is checked again and the entry rewritten). Internal to the audit.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::audit {

struct CachedCommit {
  std::string profile;
  // The cross-commit findings of the commit (before drift) and of its merge
  // judgment (after), in report order.
  std::vector<diag::Finding> events, merge_events;
  // The ruling ids whose files the commit deleted or renamed away (eras P
  // and T): a replayed commit gives them back to the walk, which reports
  // an id filed again later.
  std::vector<std::string> deleted_ruling_ids;
  // The check findings: by path, either those that changed from the first
  // parent's (delta) or all of them (full).
  bool delta = false;
  std::map<std::string, std::vector<diag::Finding>> findings;
};

class ResultCache {
 public:
  // `fingerprint`: what besides the commit decides its result.
  ResultCache(std::string dir, std::string fingerprint);
  std::optional<CachedCommit> load(const std::string& commit) const;
  Result<void> store(const std::string& commit, const CachedCommit& entry) const;

 private:
  std::string path_of(const std::string& commit) const;
  std::string m_dir, m_fingerprint;
};

// The fingerprint of this build and the walk's options.
std::string cache_fingerprint(bool first_parent);

}  // namespace lg::audit
