// What the hooks judge. pre-commit and pre-merge-commit: the tree the index
// would commit. pre-push: each pushed ref, trial-merged into the remote's
// main as last fetched. pre-receive and update (server side, bare): a push to
// refs/heads/main whose new tree fails `check` or that changes a frozen path.
// Nothing here writes to the repository, prints or exits; the CLI does.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

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
// pre-push: no remote-tracking main and the remote ref is new here.
struct TargetMissing {
  PushTarget target;
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
using Note = std::variant<CheckFailed, RefDeleted, TargetMissing, AlreadyIn, MergedInto, FrozenChange, NotProtected>;

// What was judged: "the staged tree", a ref on the server, or a pushed
// local ref with the remote and the remote ref it goes to.
struct Subject {
  std::string name;
  std::optional<std::string> remote;  // pre-push only
  std::string remote_ref;             // pre-push only
};

// The judgement of one thing (the index, one pushed ref): the verdict, what
// was found, and the check's findings (their rev names what was checked).
struct Judgement {
  Subject subject;
  Verdict verdict = Verdict::pass;
  std::vector<Note> notes;
  std::vector<diag::Finding> findings;
};

// pre-commit, pre-merge-commit: checks the index's stage-0 tree (the merge
// result during a merge) with the index's own policy file.
Result<Judgement> judge_index(const git::Repository& repo);

// pre-push: `remote` is the hook's first argument. Deletions pass. Only a
// push to a protected branch B (the policy's `protected:`, default [main];
// the policy read from refs/remotes/<remote>/main as last fetched, else
// from the pushed commit) is gated with a trial merge: refs already
// contained in the target pass; the target is refs/remotes/<remote>/B,
// without it the remote ref's old commit when present locally, else the ref
// passes with a note. A push anywhere else (a feature branch, a tag) only
// checks the pushed tree with its own policy: code there is not refused.
Result<Judgement> judge_push(const git::Repository& repo, git::TrialRepo& trial, std::string_view remote,
                             const PushedRef& pushed);

// pre-receive, update: only refs/heads/main is judged. The policy (check
// severities, frozen dirs) is read from the old tip, never from the push.
Result<Judgement> judge_receive(const git::Repository& repo, const RefUpdate& update);

// Runs the hook that was there before ours (kept beside as
// `<hook>.ledgergate-orig`) with `args`; `input` is its stdin when given,
// else it inherits ours. Returns its exit status (128 + N for a signal), or
// -1 when no executable original is kept.
Result<int> run_original(const std::string& hooks_dir, std::string_view hook, const std::vector<std::string>& args,
                         const std::string* input);

}  // namespace lg::hooks
