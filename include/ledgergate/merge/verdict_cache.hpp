// The whole trial merge's report in the persistent cache (cache/cache.hpp,
// kind trial_merge; docs/cache.md): a rerun of `trial-merge` on the same
// pair is one lookup, without the merge. What determines a report exactly
// is its key: the two commit ids (they name the trees, the history and so
// the merge bases, and BASE's policy file), the options, the configuration
// the merge reads (merge.conflictStyle, the rename limits), and the stamp
// every key carries (the rule table, ledgergate's version). A shallow repository is never
// cached (a deepened history can change the merge bases); a report holding
// an `input-unreadable` finding neither (a read failed: not a function of
// the content).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/rules/check_cache.hpp"

namespace lg::merge {

// The cache's address of one trial merge: nullopt when the cache is off or
// the repository is shallow. Errors: an unreadable configuration.
struct VerdictKey {
  std::string home;                 // the common git dir the store lives under
  std::string base, head;           // the commits' ids
  std::string options, settings;    // the options, the merge settings read
  std::string key;                  // the entry's full key (cache::key_of of the above)
};
Result<std::optional<VerdictKey>> verdict_key(const git::Repository& repo, const git::ObjectId& base,
                                              const git::ObjectId& head, const TrialMergeOptions& options);

// The report stored under `key`, when present and whole (a note otherwise,
// through cache::add_note).
std::optional<TrialMergeReport> load_report(const VerdictKey& key);
// Stores `report` under `key` unless it must not be cached (see above).
void keep_report(const VerdictKey& key, const TrialMergeReport& report);

// The branch's diff (branch_diff.hpp's tree_changes) kept by its two tree
// ids, which name every byte it depends on: when main moves on, the pair is
// new but the merge base and HEAD are not, so the classification's diff is
// a lookup. With `use` false (or the cache off) it is tree_changes.
Result<std::vector<policy::Change>> cached_tree_changes(const git::Repository& repo, const git::ObjectId& from,
                                                        const git::ObjectId& to, bool use);

// What the retirement detector (trial_merge.cpp) reads of a side's
// projects.yaml: whether it is a table (rules::projects_table is not null)
// and, per row in order, its key and whether the key's status is "retired".
// Kept by the file's kind and blob id when `home` (a common git dir) is
// given and the cache is on, so a side whose projects.yaml was seen before
// is not parsed again.
struct RetiredRows {
  bool table = false;
  std::vector<std::pair<std::string, bool>> rows;
};
Result<RetiredRows> retired_rows(git::TreeSource& side, rules::CheckCache& cache, const std::string& home);

// The payload encoding: every field of the report. decode_report fails
// closed (nullopt) on anything it does not read back exactly.
std::string encode_report(const TrialMergeReport& report);
std::optional<TrialMergeReport> decode_report(std::string_view payload);

}  // namespace lg::merge
