// `audit`: walk a ledger's history oldest first and say where every `check`
// finding entered and left, which cross-commit invariants (spec §6.3, §6.4)
// a commit broke, and which merges were resolved by hand or landed unclean
// by the ledger-merge job. Each commit is diffed against its first parent;
// parses are shared through one CheckCache, and ledgers are compared only
// where a blob changed.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::audit {

// True when a merge commit's message says the ledger-merge job made it: it
// contains "ledger-merge", "Landed by ledgergate land" (`land`'s message) or
// "into _ledger_merge" (git's default message in the reference workflow,
// which merges on a `_ledger_merge` branch, spec §7.7).
bool made_by_ledger_merge(std::string_view message);

struct AuditOptions {
  std::string range;            // "A..B", a revision, or "" (all of HEAD)
  std::optional<long long> since;  // committer time (seconds since the epoch): older commits are skipped
  bool first_parent = false;
  // Called after each commit with (done, total); may be empty.
  std::function<void(std::size_t, std::size_t)> progress;
  // true: era-R commits are checked from their first parent's findings,
  // re-running only what the diff changed; false: every commit is checked
  // in full by check_tree (the reference the incremental walk must equal).
  bool incremental = true;
  // The differential check: every incremental result is compared with
  // check_tree's, and the tree walk with libgit2's diff; a difference is an
  // error. Slow: for tests.
  bool verify = false;
  // A second thread, with its own repository handle, reads ahead of the walk
  // (up to 64 commits): each commit's first-parent tree diff and the ledger
  // versions it changed, parsed. What it could not do the walk does as
  // without it; the report is the same either way. Off under verify.
  bool pipeline = true;
  // A folder keeping each commit's result (created when missing): commits
  // found there are not checked again. Used by the incremental walk only.
  std::string cache_dir;
  // Without cache_dir: keep the results in the repository's persistent
  // cache (cache/store.hpp) unless it is off. The CLI's default.
  bool repository_cache = false;
};

struct AuditCommit {
  git::ObjectId id;
  std::string summary;  // the message's first line
  std::string profile;  // detected profile ("" when the tree holds no ledger)
  bool merge = false;
  long long time = 0;   // committer time (seconds since the epoch)
};

struct AuditFinding {
  diag::Finding finding;      // location.rev = the commit where it was seen last
  git::ObjectId introduced_in;  // the commit that introduced it
  std::optional<git::ObjectId> fixed_in;  // the commit that removed it; nullopt when present at the tip
  bool before_range = false;  // already present in the parent of the range's first commit
};

struct AuditReport {
  std::vector<AuditCommit> commits;   // oldest first
  // by introducing commit, then in report order (a deque: thousands, grown
  // without a copy of all of them)
  std::deque<AuditFinding> findings;
  bool failed() const;                // some finding is an error
  std::size_t commits_checked = 0;    // commits walked and checked (not read from a cache)
  std::size_t full_checks = 0;        // of which checked in full (the rest from their parent's findings)
  std::string cache_warning;          // the first cache entry that could not be written ("" when none)
};

// Parses a --since date (YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS]Z) to seconds since the epoch (UTC).
Result<long long> parse_since(std::string_view date);

// Audits the history of `repo`. Errors (the verdict "cannot judge"): a
// shallow clone, a missing object, an unknown revision; each names what is
// missing.
Result<AuditReport> audit_history(const git::Repository& repo, const AuditOptions& options);

}  // namespace lg::audit
