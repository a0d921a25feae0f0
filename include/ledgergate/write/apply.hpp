// Running an editor (edit.hpp) against a destination: validate, then write.
// The edit is checked in memory against the whole tree (validate_edit) and
// refused when it adds a finding the tree did not have, so a refused edit
// writes nothing (the reference writes first and validates after: spec
// §10 G-01, G-02). A directory is written file by file atomically under an
// exclusive lock; a branch is written as a commit from objects alone, its
// ref moved by compare-and-swap and the edit re-run on a lost race.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/ledger/check_options.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/util/result.hpp"
#include "ledgergate/write/edit.hpp"

namespace lg::write {

struct ApplyOptions {
  bool validate = true;                     // check before/after; refuse what adds a finding
  std::optional<ledger::Profile> profile;   // pinned; else detected from the tree
  // The repository policy's check settings (policy::check_options yields
  // them): its rule severities, the rules it turns `off` and its
  // open-requirements glob, applied to both checks as `check` applies them,
  // so a rule the policy makes a warning, or turns off, does not refuse.
  // Its profile and detected layout are not used (`profile` above pins; the
  // edited tree's layout is detected).
  ledger::CheckOptions policy;
  // --commit: a lost compare-and-swap is retried on the new tip after a
  // jittered backoff (util::backoff_delay, `land`'s pacing) while the time
  // since the first attempt, plus the next delay, stays within `retry_for`
  // (and, when `max_attempts` > 0, up to that many attempts in all).
  int max_attempts = 0;
  std::chrono::milliseconds retry_for{std::chrono::minutes(2)};
  std::chrono::milliseconds retry_delay{10};  // the first backoff; doubled each retry, jittered
  std::chrono::milliseconds retry_delay_cap{1000};
  // Validate what the edit can change rather than both trees whole (same
  // answer; see validate_edit). Off: both trees are checked whole.
  bool incremental = true;
};

struct Applied {
  Outcome outcome;                       // the verb's outcome (a Refusal when validation refused)
  std::vector<std::string> written;      // paths written, in the edit's order
  std::optional<git::ObjectId> commit;   // the commit made (--commit)
  int attempts = 1;
};

// The refusal for `edits` over `before`, or nullopt when the edit adds no
// finding: `before` and the overlaid tree are checked alike (the pinned
// profile, else the one detected in `before`), and an error finding of the
// after that the before lacks is new (same rule, path and message, the
// finding's own line number left out: lines may move). Warnings do not
// refuse: the reference's check passes with them, and its verbs write them
// (a run of 3002 beside 3002_1 is the overlap warning). A new parse
// finding (R-P01..R-P08) of an edited file refuses with the reference's
// "the edit would not read back: {findings}", every parse finding of the
// edited files as written, without the `{rel}: ` prefix, joined "; ";
// any other new finding with ours, "the edit would add a finding: {finding}"
// (the first, as the reference's checker prints it, "; N more" after it).
// A tree with no ledger layout before is checked with the after's layout.
//
// The two checks cost what the edit touches when the tree is of the
// cortex-projects layout and the edit writes only projects.yaml and regular
// files directly in an existing projects/ (each absent or a regular file
// before, none named by the open-requirements glob): only the findings
// such an edit can change are worked out on each side — projects.yaml's
// when it is written; the file-name step's for the written names; each
// written ledger's, and each ledger whose row's inputs projects.yaml's edit
// changes, against its row (read through the persistent cache's facts, and
// not at all when the ledger's facts for its row's rules are the same on
// both sides); and "active but has no ledger" for the rows whose verdict
// may change. Every other finding has the same inputs on both sides, so the
// refusal is the one checking both trees whole gives (options.incremental =
// false does that; tests/unit/write/validate_delta_test.cpp compares the two
// over random edits). Any other edit is checked whole.
// Errors: an unreadable tree.
Result<std::optional<Refusal>> validate_edit(git::TreeSource& before, const std::vector<FileEdit>& edits,
                                             const ApplyOptions& options);

// Runs `editor` on the folder `root` (its files on disk, `.git` skipped),
// validates its change and writes it as one transaction
// (src/write/staging.hpp): each file staged and synced in the staging area
// (the git directory of the working tree `root` lies in; outside any
// repository `root/.ledgergate-write`), an intent recorded when there is
// more than one, then each renamed over its target and the folders synced.
// A crash or kill leaves no file half-written, no temporary file where git
// sees it, and several files all written or none: the next writer (or
// `ledgergate recover`) rolls an interrupted write forward or back first.
// Every path is resolved below `root` without following a symbolic link
// (an edit through a symlinked folder is an error, never a write outside
// the tree). An existing file keeps its permission bits, a new one gets
// 0644 less the umask, a missing parent directory is created (0755 less the
// umask). The whole recover-read-edit-validate-write holds an exclusive
// flock on the root directory's own descriptor (no lock file), so two
// writers of one root never interleave. Nothing is written on a refusal, a
// failed validation or an error before the commit point. Errors: `root` is
// not a directory, a path that leaves the root or passes a symlink, I/O.
Result<Applied> apply_to_directory(const std::string& root, const Editor& editor, const ApplyOptions& options);

// Runs `editor` on the tip tree of local branch `branch` of `repo` (bare or
// not), validates, writes the edited blobs and the tree, one commit over the
// tip (`message`, or the verb's success line when empty) and moves the
// branch only if it still points at that tip. A lost race re-reads the new
// tip and re-runs the editor (re-validated) after a jittered backoff, while
// `options.retry_for` lasts. When the branch is checked out in a working
// tree of the repository (the main one or a linked one), that tree is
// locked (its writers' lock and git's index.lock) and each edited path must
// be unchanged there from the tip, in the index and on disk, or the edit is
// refused naming the path and nothing is written; after the ref moved, its
// index entries and files are brought up to date as `git commit` leaves
// them (staged with an intent before the ref update: a crash is finished
// by the next writer). A branch checked out nowhere is written from objects
// alone. A change with no files makes no commit. Errors: no such branch,
// unreadable or unwritable objects, no committer identity, the time budget
// spent on lost races, another process holding a working tree's index.lock.
Result<Applied> apply_as_commit(const git::Repository& repo, const std::string& branch, const Editor& editor,
                                const std::string& message, const ApplyOptions& options);

}  // namespace lg::write
