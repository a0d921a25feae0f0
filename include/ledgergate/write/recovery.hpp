// Writes interrupted by a crash or a kill: finished or discarded by the next
// writer (and `ledgergate recover`), reported by a check of the working
// tree meanwhile. Every write stages its files in the git directory (the
// staging area, src/write/staging.hpp) and records its intent there before
// its first rename; a write whose writer is gone is rolled forward when it
// had passed that point and back when it had not.
#pragma once

#include <string>
#include <vector>

#include "ledgergate/util/result.hpp"

namespace lg::write {

struct RecoveryReport {
  int finished = 0;                  // interrupted writes rolled forward
  int discarded = 0;                 // writes interrupted before their commit point, their staged files removed
  std::vector<std::string> written;  // the paths rolled forward (relative to the folder written)
  std::vector<std::string> kept;     // paths changed since the write began, left as they are
  std::vector<std::string> removed;  // temporary files beside their targets whose writer is gone
};

// Finishes or discards the interrupted writes of the folder `folder` (a
// working tree, or a plain folder) under that folder's writer lock, and
// removes the staged files of writers that are gone: in the staging area,
// and anywhere below `folder` (`.git` aside, no symlink followed) a
// `.NAME.ledgergate-PID-N` whose process is not running (left beside its
// target by an older writer, or staged there from another filesystem).
// Errors: I/O.
Result<RecoveryReport> recover_writes(const std::string& folder);

// An interrupted write (or one running now) of `folder`: the paths it has
// yet to rename into place and those it has.
struct PendingWrite {
  std::vector<std::string> pending;
  std::vector<std::string> done;
  bool running = false;  // its writer still runs
};

// The writes of `folder` that have passed their commit point and not
// finished. Reads only (no lock is kept, nothing is written).
Result<std::vector<PendingWrite>> pending_writes(const std::string& folder);

// An error (invalid_input) when `folder` has a pending write, saying which
// paths it has yet to write and how to finish it: a check of the folder
// cannot judge a tree that is half one write (`check --worktree`,
// `--root`). Errors: the staging area cannot be read.
Result<void> refuse_pending_writes(const std::string& folder);

}  // namespace lg::write
