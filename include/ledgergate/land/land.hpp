// `land BRANCH --into main`: the reference's ledger-merge workflow (spec
// §7.7) as one flow over a repository with a remote. Fetch; stop when the
// branch head is already in main; classify merge-base..head; check the
// branch tip against the merge base; trial-merge into the remote main and
// check the merged tree against main's (a change fails on the error
// findings it introduces, unless main's policy says `gate: all`);
// in merge mode take the queue's lease (pacing.hpp), write the merge commit
// (no worktree, no ref moved locally) and push it as a compare-and-swap on
// the remote's main, retrying from the new tip — re-fetched, re-merged,
// re-checked — after a jittered backoff when another writer got there
// first, for as long as the time budget allows; release the lease; delete
// the remote branch only when the remote main contains its head. Every step
// is recorded.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/baseline.hpp"
#include "ledgergate/diag/finding.hpp"
#include "ledgergate/diag/verdict.hpp"
#include "ledgergate/land/pacing.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/policy/classifier.hpp"

namespace lg::land {

enum class Mode { audit, merge };

struct LandOptions {
  std::string repo = ".";  // the local repository (discovered upward)
  std::string branch;
  std::string into = "main";
  std::string remote = "origin";
  Mode mode = Mode::audit;
  bool keep_branch = false;
  // Contention (merge mode): attempts go on after a lost race while the
  // time since the first attempt began, plus the next backoff, stays within
  // `retry_for` (and, when `max_attempts` > 0, up to that many attempts).
  Millis retry_for = std::chrono::minutes(10);
  Millis retry_delay = std::chrono::milliseconds(200);  // the first backoff; doubled each retry, jittered
  Millis retry_delay_cap = std::chrono::seconds(10);
  int max_attempts = 0;
  // Take turns under the remote's lease ref (k_lease_ref), held at most
  // `lease_for` so a lander that dies blocks the others no longer than that.
  bool queue = true;
  Millis lease_for = std::chrono::minutes(2);
  // The gate (--gate; else main's policy `gate:`) and a baseline whose
  // findings never fail (--baseline FILE; else the file main's policy names).
  std::optional<diag::Gate> gate;
  std::optional<diag::Baseline> baseline;
  // What the check-branch and trial-merge steps judge (--scope): the whole
  // tree, or only what the branch changes (merge::Scope; the same verdict
  // under the gate `new`, the unchanged findings not counted).
  merge::Scope scope = merge::Scope::tree;
};

enum class StepStatus { ok, fail, skipped, error };
std::string_view to_string(StepStatus s);

// What stopped a classify or trial-merge step, listed under it as
// `trial-merge` words it (report/trial_merge.hpp).
struct StepDetails {
  std::vector<merge::Conflict> conflicts;
  std::vector<policy::Classified> paths;  // the classified paths (the code ones are listed)
  std::vector<merge::SemanticConflict> semantic;
  std::vector<merge::ResolvedPath> resolved;  // the conflicts the record merge resolved
};

struct Step {
  std::string name;  // refuse, fetch, contained, classify, check-branch, queue, trial-merge, commit, push, release,
                     // delete-branch
  int attempt = 0;   // 1.. for the steps of the retry loop; 0 otherwise
  StepStatus status = StepStatus::ok;
  std::string message;
  StepDetails details;
  std::vector<diag::Finding> findings;    // check findings (branch tip or merged tree), each with its state
  diag::Attribution attribution;          // what the findings were judged against (check-branch, trial-merge)
};

enum class Outcome {
  landed,           // merge mode: main now contains the branch head (exit 0)
  would_land,       // audit mode: every check passes (exit 0)
  already_in_main,  // nothing to do (exit 0)
  left_for_human,   // code, drift, a conflict, nothing to merge, a condemned branch (exit 1)
  gave_up,          // main kept moving (every attempt lost the race) or the lease stayed held, for the whole
                    // time budget (exit 2)
  error,            // could not run: usage, fetch/push failure, unreadable objects (exit 2)
};
std::string_view to_string(Outcome o);
int exit_code(Outcome o);

struct LandReport {
  LandOptions options;
  Outcome outcome = Outcome::error;
  std::string head;          // the branch head landed or judged (hex), "" if unknown
  std::string main_before;   // the remote main first seen (hex)
  std::string main_after;    // the remote main last seen or pushed (hex)
  std::string merge_commit;  // the commit pushed (hex), "" if none
  int attempts = 0;
  long long waited_ms = 0;   // time spent waiting: backoff between attempts, and for the lease
  bool lease_taken = false;  // landed in turn, under the remote's lease
  bool branch_deleted = false;
  std::vector<Step> steps;
};

// The step that decided the outcome: the last that failed or could not
// run (the queue's release comes after it), else the last; nullptr when
// there is none.
const Step* deciding_step(const LandReport& r);

// Why BRANCH may not be landed into INTO, or nullopt. `condemned` is set for
// archive/condemned/* (a verdict, exit 1), unset for bad usage (exit 2).
struct Refusal {
  std::string reason;
  bool condemned = false;
};
std::optional<Refusal> refuse(std::string_view branch, std::string_view into, std::string_view remote);

// The merge commit's message.
std::string merge_message(std::string_view branch, std::string_view into);

// Runs the flow. Never fails: errors are an `error` outcome with the step
// that failed and git's own message.
LandReport land(const LandOptions& options);

}  // namespace lg::land
