// `trial-merge BASE HEAD`: merge HEAD into BASE in memory and decide whether
// the branch may land without a human — the merge is clean, the branch's
// diff is ledger-only, no semantic conflict, the merged tree adds no error
// finding to BASE's (its findings judged against BASE's; the policy's
// `gate: all` fails on every error of the merged tree) and the branch tip has
// no error finding of its own. Nothing is written to the user's repository.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ledgergate/diag/baseline.hpp"
#include "ledgergate/diag/finding.hpp"
#include "ledgergate/diag/verdict.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/trial_repo.hpp"
#include "ledgergate/merge/tree_merge.hpp"
#include "ledgergate/rules/check_cache.hpp"
#include "ledgergate/policy/classifier.hpp"
#include "ledgergate/policy/policy_file.hpp"

namespace lg::merge {

struct SemanticConflict {
  std::string kind;     // "run-added-twice", "log-interleaved", "retired-with-new-runs", "record-conflict"
  std::string path;
  std::string message;  // names both sides
};

// A path git's textual merge left conflicted (a content conflict) that the
// record-level merge (record_merge.hpp) merged: its bytes are in the merged
// tree and it is no longer in the conflict list.
struct ResolvedPath {
  std::string path;
  std::string how = "records";  // the merge that resolved it
  std::string format;           // the record format: "cortex-project", ... (merge::to_string)
  std::vector<std::pair<std::string, int>> records;  // what it merged: {"log_added", 2}, ... (RecordMerge::records)
};

// What the merged tree's check judges: the whole tree (every finding of the
// merged tree, each judged against BASE's), or only what the merge changes
// against BASE (the new and fixed findings and the verdict under the gate
// `new` are the same; the unchanged findings are not counted). `change`
// applies to the cortex-projects layout and the gate `new`; any other case,
// or a change to the policy file or the open-requirements files, is judged
// whole.
enum class Scope { tree, change };

struct TrialMergeOptions {
  bool check = true;    // false: the merge step alone (--no-check)
  std::string profile;  // pins the profile (check and built-in policy); "" = BASE's policy file, else its layout
  std::optional<policy::LedgerMerge> ledger_merge;  // pins the policy's `merge:` key (--merge)
  // Look the whole report up in the persistent cache, and keep it there
  // (verdict_cache.hpp): a hit does no merge, so the merged objects are not
  // in the trial repository; a caller that writes them (`--commit`, `land`)
  // leaves this off.
  bool cache_report = false;
  std::optional<diag::Gate> gate;  // pins the policy's `gate:` (--gate)
  // Findings it holds never fail (--baseline FILE); unset: the baseline
  // file BASE's policy names (`baseline:`), if any.
  std::optional<diag::Baseline> baseline;
  Scope scope = Scope::tree;  // --scope
  // The parses and findings a caller's own checks keep (by blob id), shared
  // with the trial merge's: `land` checks the branch tip first, then
  // trial-merges, and each file is read and judged once. Null: its own.
  rules::CheckCache* shared_cache = nullptr;
};

struct TrialMergeReport {
  git::ObjectId base{}, head{}, merge_base{};  // merge_base: the first of merge_bases (the diff's base)
  std::vector<git::ObjectId> merge_bases;      // all of them, in git's order (several: criss-cross)
  std::optional<git::ObjectId> virtual_base;   // several merge bases: the tree merged over (git's virtual base)
  bool nothing_to_merge = false;  // HEAD is already contained in BASE
  TreeMerge merge;                     // after the record merge's retry: the conflicts left
  std::vector<ResolvedPath> resolved;  // the conflicts the record merge resolved, by path
  policy::Classification classification;
  bool birth = false;             // projects.yaml judged a birth
  std::string profile;  // the merged tree's check's (with scope `change`: the cortex-projects pass's alone)
  // The check of the merged tree (rev "merged"), each judged against BASE's
  // (its state), then the branch tip's error findings that neither BASE nor
  // the merged tree has (rev "HEAD", introduced).
  std::vector<diag::Finding> findings;
  // The gate, and what the merge fixes of BASE's findings; `whole` false:
  // only the change was judged (--scope change, where it applies).
  diag::Attribution attribution;
  std::vector<SemanticConflict> semantic;
  bool checked = false;
  // The blobs of the user's repository the merged tree's check stood on
  // (with the persistent cache), which a cached report confirms before it
  // is used, with the commits and their trees.
  std::vector<git::ObjectId> covered;

  bool cannot_judge() const;
  bool pass() const;
};

// Runs the trial merge in `trial` (the merged objects stay there, so a caller
// may persist them, unless the report came from the cache: cache_report).
// Several merge bases are merged into a virtual base as git does
// (virtual_base.hpp). Errors: unreadable objects, no merge base,
// a criss-cross history whose virtual base is not reproduced (renames,
// file/directory conflicts inside it), an invalid policy on the BASE side,
// a ledger layout that cannot be checked.
Result<TrialMergeReport> trial_merge(const git::Repository& repo, git::TrialRepo& trial, const git::ObjectId& base,
                                     const git::ObjectId& head, const TrialMergeOptions& options);

}  // namespace lg::merge
