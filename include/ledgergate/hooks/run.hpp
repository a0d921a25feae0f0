// What the hooks judge, each a change against its reference: pre-commit and
// pre-merge-commit, the tree the index would commit against HEAD's; pre-push,
// each pushed ref trial-merged into the remote's copy of a protected branch
// (against that tip), or checked against the remote's tip (or the merge base
// with it); pre-receive and update (server side, bare), a push to
// refs/heads/main, its new tree against the old one, and any change of a
// frozen path. A change fails on the error findings it introduces (the
// policy's `gate: all`: on every one). The policy never comes from the
// change under judgement. Nothing here writes to the repository, prints or
// exits; the CLI does.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ledgergate/diag/baseline.hpp"
#include "ledgergate/diag/finding.hpp"
#include "ledgergate/diag/verdict.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/trial_repo.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::hooks {

// The branch the gate guards, on the server and as the remote's target.
inline constexpr std::string_view k_main_ref = "refs/heads/main";

// One line of pre-push's stdin: `<local ref> <local sha> <remote ref> <remote sha>`.
struct PushedRef {
  std::string local_ref;
  git::ObjectId local;
  std::string remote_ref;
  git::ObjectId remote;
};
Result<std::vector<PushedRef>> parse_pre_push(std::string_view text);

// One ref update on the server: pre-receive's `<old> <new> <ref>` lines, or
// update's arguments.
struct RefUpdate {
  git::ObjectId old_id;
  git::ObjectId new_id;
  std::string ref;
};
Result<std::vector<RefUpdate>> parse_pre_receive(std::string_view text);
Result<RefUpdate> parse_update_args(std::string_view ref, std::string_view old_hex, std::string_view new_hex);

// The one verdict type (diag/verdict.hpp), named here as the hooks' own.
using diag::Verdict;

// What every judging hook takes besides its input.
struct JudgeOptions {
  std::optional<diag::Gate> gate;  // pins the policy's `gate:` (--gate)
  // Findings it holds never fail (--baseline FILE); unset: the baseline
  // file the judging policy names (`baseline:`), if any.
  std::optional<diag::Baseline> baseline;
};

// Where pre-push merges a ref: the remote's main as last fetched, else
// (`old_tip` set) the remote ref's old tip.
struct PushTarget {
  std::string ref;  // refs/remotes/<remote>/main, or the remote ref
  std::string remote;
  std::optional<git::ObjectId> old_tip;
};

// What a judgement found, in the order it was found; report/ words each.
// The check of a tree failed, or could not read some ledger input.
struct CheckFailed {
  std::string what;  // "the staged tree", "the new tree of main"
  bool cannot_judge = false;
};
// The push deletes the ref (main on the server): nothing to judge.
struct RefDeleted {
  bool main = false;
};
// pre-push: a protected branch with no copy here to merge into (no
// remote-tracking ref, and the remote ref is new or its tip is not here):
// the pushed tree was checked against `reference` instead.
struct TargetMissing {
  PushTarget target;
};
// pre-push: where the policy that judges the push was read from: the
// remote's tip, a remote-tracking ref, a local branch the push does not
// contain, or none of them (the built-in policy), never the pushed commits.
struct PolicyFrom {
  std::string where;  // "origin refs/heads/main (abc1234)", "" = the built-in policy
};
// pre-push: what a pushed tree was checked against (a push to a branch that
// is not protected, or a protected one with no copy here).
struct CheckedAgainst {
  std::string reference;  // "origin refs/heads/x (abc1234)", "the merge base abc1234 with ...", "the empty tree"
};
// pre-push: the ref is already contained in the target.
struct AlreadyIn {
  PushTarget target;
};
// pre-push: the remote ref is not a protected branch (the policy's
// `protected:`, default main): the pushed tree was checked, not merged.
struct NotProtected {
  std::string remote_ref;
  std::vector<std::string> protected_branches;
};
// pre-push: the ref trial-merged into the target (at `base`).
struct MergedInto {
  PushTarget target;
  git::ObjectId base;
  merge::TrialMergeReport report;  // its findings moved to the Judgement
  bool cannot_judge = false;        // the merged tree could not be judged
};
// Server: a push changed a path under a frozen directory.
struct FrozenChange {
  std::string path;    // the frozen one (the old path of a rename out of it)
  std::string status;  // git's letter
  std::string renamed_to;  // "" unless renamed
};
using Note = std::variant<CheckFailed, RefDeleted, TargetMissing, AlreadyIn, MergedInto, FrozenChange, NotProtected,
                          PolicyFrom, CheckedAgainst>;

// What was judged: "the staged tree", a ref on the server, or a pushed
// local ref with the remote and the remote ref it goes to.
struct Subject {
  std::string name;
  std::optional<std::string> remote;  // pre-push only
  std::string remote_ref;             // pre-push only
};

// The judgement of one thing (the index, one pushed ref): the verdict, what
// was found, and the check's findings (their rev names what was checked),
// each judged against the reference (`attribution`).
struct Judgement {
  Subject subject;
  Verdict verdict = Verdict::pass;
  std::vector<Note> notes;
  std::vector<diag::Finding> findings;
  diag::Attribution attribution;
};

// pre-commit, pre-merge-commit: checks the index's stage-0 tree (the merge
// result during a merge) with HEAD's policy (the index's own before the
// first commit), judged against HEAD's tree. A staged tree with no finding
// passes without HEAD's being read.
Result<Judgement> judge_index(const git::Repository& repo, const JudgeOptions& options = {});

// pre-push: `remote` is the hook's first argument (a remote's name, or the
// URL pushed to). Deletions pass. The policy is read from the remote ref's
// old tip when that commit is here, else the remote-tracking copy of the
// branch or of main, else the local branch of that name when the pushed
// commit does not contain it, else the built-in policy: never from the
// pushed commits (a PolicyFrom note says which). Only a push to a protected
// branch B (the policy's `protected:`, default [main]) is gated with a trial
// merge: refs already contained in the target pass; the target is
// refs/remotes/<remote>/B, else the remote ref's old tip when it is here;
// with neither, the pushed tree is checked as below (TargetMissing). A push
// anywhere else (a feature branch, a tag) checks the pushed tree against the
// remote ref's old tip (the merge base with it), else the merge base with a
// remote-tracking copy of the branch or of main, else the empty tree: code
// there is not refused.
Result<Judgement> judge_push(const git::Repository& repo, git::TrialRepo& trial, std::string_view remote,
                             const PushedRef& pushed, const JudgeOptions& options = {});

// pre-receive, update: only refs/heads/main is judged, its new tree against
// the old one. The policy (check severities, frozen dirs, the gate) is read
// from the old tip, never from the push.
Result<Judgement> judge_receive(const git::Repository& repo, const RefUpdate& update,
                                const JudgeOptions& options = {});

// Runs the hook that was there before ours (kept beside as
// `<hook>.ledgergate-orig`) with `args`; `input` is its stdin when given,
// else it inherits ours. Returns its exit status (128 + N for a signal), or
// -1 when no executable original is kept.
Result<int> run_original(const std::string& hooks_dir, std::string_view hook, const std::vector<std::string>& args,
                         const std::string* input);

}  // namespace lg::hooks
