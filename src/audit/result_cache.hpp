// The audit's per-commit results, kept in the persistent cache (cache/
// cache.hpp, kind audit_result): each commit's result keyed by the commit id
// and the walk (first parent or all parents), under the stamp every key
// carries (ledgergate's version, the rule table), so a re-audit checks only
// the commits it has not seen. The store is `audit --cache DIR` (no budget: the user's
// folder), else the repository's own cache (unless it is off). An entry
// that is not whole, of another version or of another key is ignored (a
// note; the commit is checked again and the entry rewritten). Internal to
// the audit.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ledgergate/cache/cache.hpp"
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
  // `--cache DIR`: every entry kept; a failed write is an error (a warning
  // in the report).
  static ResultCache in_folder(std::string dir, bool first_parent);
  // The repository's cache (its common git dir): budgeted, and a failed
  // write (a read-only repository) is no error.
  static ResultCache in_repository(const std::string& common_dir, bool first_parent);

  std::optional<CachedCommit> load(const std::string& commit) const;
  Result<void> store(const std::string& commit, const CachedCommit& entry) const;

 private:
  ResultCache(cache::Store store, bool first_parent, bool quiet)
      : m_cache(std::move(store)), m_walk(first_parent ? "first-parent" : "all-parents"), m_quiet(quiet) {}
  cache::Cache m_cache;
  std::string_view m_walk;  // the walk's input to every key
  bool m_quiet;
};

}  // namespace lg::audit
