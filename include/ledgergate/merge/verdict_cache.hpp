// The whole trial merge's report in the persistent cache (cache/store.hpp;
// docs/performance.md): a rerun of `trial-merge` on the same pair is one
// lookup, without the merge. What determines a report exactly is its key:
// the two commit ids (they name the trees, the history and so the merge
// bases, and BASE's policy file), the options, the configuration the merge
// reads (merge.conflictStyle, the rename limits), the rule table and
// ledgergate's version (every entry's header). A shallow repository is never
// cached (a deepened history can change the merge bases); a report holding
// an `input-unreadable` finding neither (a read failed: not a function of
// the content).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ledgergate/merge/trial_merge.hpp"

namespace lg::merge {

// The cache's address of one trial merge: nullopt when the cache is off or
// the repository is shallow. Errors: an unreadable configuration.
struct VerdictKey {
  std::string home;  // the common git dir the store lives under
  std::string key;   // the entry's full key
};
Result<std::optional<VerdictKey>> verdict_key(const git::Repository& repo, const git::ObjectId& base,
                                              const git::ObjectId& head, const TrialMergeOptions& options);

// The report stored under `key`, when present and whole (a note otherwise,
// through cache::add_note).
std::optional<TrialMergeReport> load_report(const VerdictKey& key);
// Stores `report` under `key` unless it must not be cached (see above).
void keep_report(const VerdictKey& key, const TrialMergeReport& report);

// The payload encoding: every field of the report. decode_report fails
// closed (nullopt) on anything it does not read back exactly.
std::string encode_report(const TrialMergeReport& report);
std::optional<TrialMergeReport> decode_report(std::string_view payload);

}  // namespace lg::merge
