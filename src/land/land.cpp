// The land flow: a list of steps, each recorded, over a fresh repository
// handle after every fetch (so refs and packs the fetch wrote are seen).
#include "ledgergate/land/land.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ledgergate/git/commit.hpp"
#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/trial_repo.hpp"
#include "ledgergate/land/git_cli.hpp"
#include "ledgergate/merge/branch_diff.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/rules/check.hpp"

namespace lg::land {

std::string_view to_string(StepStatus s) {
  switch (s) {
    case StepStatus::ok: return "ok";
    case StepStatus::fail: return "fail";
    case StepStatus::skipped: return "skipped";
    case StepStatus::error: return "error";
  }
  return "error";
}

std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::landed: return "landed";
    case Outcome::would_land: return "would-land";
    case Outcome::already_in_main: return "already-in-main";
    case Outcome::left_for_human: return "left-for-human";
    case Outcome::gave_up: return "gave-up";
    case Outcome::error: return "error";
  }
  return "error";
}

int exit_code(Outcome o) {
  switch (o) {
    case Outcome::landed:
    case Outcome::would_land:
    case Outcome::already_in_main: return 0;
    case Outcome::left_for_human: return 1;
    case Outcome::gave_up:
    case Outcome::error: return 2;
  }
  return 2;
}

std::optional<Refusal> refuse(std::string_view branch, std::string_view into, std::string_view remote) {
  if (branch.empty()) return Refusal{"no branch given", false};
  if (branch == into || branch == "main" || branch == "HEAD") {
    return Refusal{fmt::format("refusing to land {} into {}", branch, into), false};
  }
  if (branch.front() == '-' || into.empty() || into.front() == '-' || remote.empty() || remote.front() == '-') {
    return Refusal{"a branch, target or remote name may not start with '-'", false};
  }
  for (const std::string_view name : {branch, into}) {
    if (!git::is_valid_ref_name("refs/heads/" + std::string(name))) {
      return Refusal{fmt::format("not a valid branch name: {}", name), false};
    }
  }
  if (!git::is_valid_remote_name(std::string(remote))) {
    return Refusal{fmt::format("not a valid remote name: {}", remote), false};
  }
  if (branch.rfind("archive/condemned/", 0) == 0) {
    return Refusal{fmt::format("{} is condemned: condemned branches are never landed", branch), true};
  }
  return std::nullopt;
}

std::string merge_message(std::string_view branch, std::string_view into) {
  return fmt::format(
      "Merge branch '{}' into {}\n\nLanded by ledgergate land: the change is ledger-only, and the branch tip and "
      "the merged tree check clean.\n",
      branch, into);
}

namespace {

// One run of the flow; its members are the state the steps share.
class Lander {
 public:
  explicit Lander(const LandOptions& o) : m_o(o) { m_r.options = o; }

  LandReport run() {
    m_r.outcome = flow();
    return std::move(m_r);
  }

 private:
  Step& step(std::string name, StepStatus status, std::string message, int attempt = 0) {
    m_r.steps.push_back(Step{std::move(name), attempt, status, std::move(message), {}, {}});
    return m_r.steps.back();
  }
  Outcome error(std::string name, const Error& e, int attempt = 0) {
    step(std::move(name), StepStatus::error, e.message, attempt);
    return Outcome::error;
  }

  std::string tracking(const std::string& branch) const { return "refs/remotes/" + m_o.remote + "/" + branch; }
  std::string refspec(const std::string& branch) const { return "+refs/heads/" + branch + ":" + tracking(branch); }

  // Fetches, then reopens the repository and reads the remote main (and the branch).
  Result<void> fetch(bool with_branch) {
    std::vector<std::string> specs = {refspec(m_o.into)};
    if (with_branch) specs.push_back(refspec(m_o.branch));
    if (auto f = m_cli->fetch(specs); !f) return f.error();
    return reopen(with_branch);
  }

  Result<void> reopen(bool with_branch) {
    m_repo.reset();
    LG_TRY(git::Repository repo, git::Repository::open(m_o.repo, true));
    m_repo.emplace(std::move(repo));
    LG_TRY(m_main, m_repo->resolve_commit(tracking(m_o.into)));
    if (with_branch) {
      LG_TRY(m_head, m_repo->resolve_commit(tracking(m_o.branch)));
    }
    return {};
  }

  bool main_contains_head() const {
    return m_main == m_head || git::is_descendant_of(*m_repo, m_main, m_head).value_or(false);
  }

  Result<policy::RepoPolicy> main_policy() {
    LG_TRY(git::ObjectId tree, m_repo->commit_tree(m_main));
    LG_TRY(auto source, git::open_tree_source(*m_repo, tree, m_o.into));
    return policy::load_policy(*source);
  }

  // merge-base(main, head) → head (from every merge base in a criss-cross
  // history), judged by main's policy (never the branch's).
  Result<policy::Classification> classify(const policy::RepoPolicy& pol) {
    LG_TRY(std::vector<git::ObjectId> bases, git::merge_bases(*m_repo, m_main, m_head));
    LG_TRY(git::ObjectId to, m_repo->commit_tree(m_head));
    rules::CheckCache yaml_cache;
    bool birth = false;
    return merge::classify_from_bases(*m_repo, bases, to, pol, yaml_cache, birth);
  }

  Result<rules::CheckReport> check_tip(const policy::RepoPolicy& pol) {
    LG_TRY(git::ObjectId tree, m_repo->commit_tree(m_head));
    LG_TRY(auto source, git::open_tree_source(*m_repo, tree, m_o.branch));
    rules::CheckCache cache;
    return rules::check_tree(*source, policy::check_options(pol), cache);
  }

  // The steps before the retry loop: refuse, fetch, contained, classify, check-branch.
  std::optional<Outcome> judge_branch() {
    if (auto r = refuse(m_o.branch, m_o.into, m_o.remote)) {
      step("refuse", r->condemned ? StepStatus::fail : StepStatus::error, r->reason);
      return r->condemned ? Outcome::left_for_human : Outcome::error;
    }
    {
      auto repo = git::Repository::open(m_o.repo, true);
      if (!repo) return error("fetch", repo.error());
      if (repo->is_shallow()) {
        return error("fetch", make_error(ErrorKind::invalid_input,
                                         "the repository is a shallow clone: land needs the full history "
                                         "(actions/checkout: fetch-depth: 0)"));
      }
      m_cli.emplace(repo->git_dir(), m_o.remote);
    }
    if (auto f = fetch(true); !f) return error("fetch", f.error());
    m_r.head = m_head.hex();
    m_r.main_before = m_r.main_after = m_main.hex();
    step("fetch", StepStatus::ok,
         fmt::format("{}/{} at {}, {}/{} at {}", m_o.remote, m_o.into, m_main.short_hex(),
                     m_o.remote, m_o.branch, m_head.short_hex()));
    if (main_contains_head()) {
      step("contained", StepStatus::skipped, fmt::format("{} is already in {}: nothing to do", m_o.branch, m_o.into));
      return Outcome::already_in_main;
    }
    step("contained", StepStatus::ok, fmt::format("{} is not yet in {}", m_o.branch, m_o.into));
    auto pol = main_policy();
    if (!pol) return error("classify", pol.error());
    auto c = classify(*pol);
    if (!c) return error("classify", c.error());
    if (c->paths.empty()) {
      step("classify", StepStatus::fail, "no changed paths: nothing to merge");
      return Outcome::left_for_human;
    }
    if (c->code_count() > 0) {
      Step& s = step("classify", StepStatus::fail,
                     fmt::format("{} of {} path(s) need a human: left for a human", c->code_count(), c->paths.size()));
      s.details.paths = c->paths;
      return Outcome::left_for_human;
    }
    step("classify", StepStatus::ok, fmt::format("ledger-only, {} path(s)", c->paths.size()));
    auto checked = check_tip(*pol);
    if (!checked) return error("check-branch", checked.error());
    for (diag::Finding& f : checked->findings) f.location.rev = m_o.branch;
    const bool cannot_judge = checked->cannot_judge();
    const bool failed = checked->failed();
    Step& s = step("check-branch", cannot_judge ? StepStatus::error : failed ? StepStatus::fail : StepStatus::ok,
                   cannot_judge ? "cannot judge the branch tip"
                   : failed     ? "the branch tip has drift: left for a human"
                                : "the branch tip checks clean");
    s.findings = std::move(checked->findings);
    if (cannot_judge) return Outcome::error;
    if (failed) return Outcome::left_for_human;
    return std::nullopt;
  }

  Result<git::ObjectId> write_commit(const git::TrialRepo& trial, const merge::TrialMergeReport& r) {
    if (auto p = trial.persist(*m_repo, r.merge.tree); !p) return p.error();
    return git::write_commit(*m_repo, r.merge.tree, {r.base, r.head}, merge_message(m_o.branch, m_o.into));
  }

  enum class Attempt { done, retry };

  // Records the trial merge onto the current main; an outcome when it stops the flow.
  std::optional<Outcome> judge_merge(int n, const merge::TrialMergeReport& r) {
    const std::string onto = fmt::format("{} {}", m_o.into, m_main.short_hex());
    const bool clean = !r.nothing_to_merge && r.merge.conflicts.empty();
    Step& s = step("trial-merge", r.pass() ? StepStatus::ok : StepStatus::fail,
                   clean ? fmt::format("merged tree {} onto {}", r.merge.tree.short_hex(), onto)
                         : fmt::format("the merge onto {} has conflicts", onto),
                   n);
    s.details = {r.merge.conflicts, r.classification.paths, r.semantic, r.resolved};
    s.findings = r.findings;
    if (r.cannot_judge()) {
      s.status = StepStatus::error;
      s.message += ": cannot judge the merged tree";
      return Outcome::error;
    }
    if (!r.pass()) {
      s.message += ": left for a human";
      return Outcome::left_for_human;
    }
    s.message += ", checks clean";
    return std::nullopt;
  }

  // Pushes `commit` to the remote's main as a compare-and-swap on the main judged.
  Result<Attempt> push(int n, const git::ObjectId& commit, Outcome& outcome) {
    const std::string commit_hex = commit.hex();
    const std::string expected = m_main.hex();
    LG_TRY(PushOutcome pushed, m_cli->push_cas("refs/heads/" + m_o.into, expected, commit_hex));
    const std::string target = m_o.remote + "/" + m_o.into;
    switch (pushed.kind) {
      case PushKind::pushed:
        step("push", StepStatus::ok,
             fmt::format("{} {} -> {}", target, m_main.short_hex(), commit.short_hex()),
             n);
        m_r.merge_commit = m_r.main_after = commit_hex;
        m_main = commit;
        outcome = Outcome::landed;
        return Attempt::done;
      case PushKind::lost_race:
        step("push", StepStatus::fail,
             fmt::format("{} moved from {} ({}){}", target, m_main.short_hex(), pushed.detail,
                         n > m_o.max_retries ? "" : ": retrying on the new tip"),
             n);
        return Attempt::retry;
      case PushKind::refused:
        step("push", StepStatus::error, fmt::format("the push to {} was refused: {}", target, pushed.detail), n);
        outcome = Outcome::error;
        return Attempt::done;
    }
    return Attempt::done;
  }

  // One attempt: trial-merge onto the current main, then (merge mode) commit and push.
  Result<Attempt> attempt(int n, Outcome& outcome) {
    m_stage = "trial-merge";
    LG_TRY(git::TrialRepo trial, git::TrialRepo::open(*m_repo));
    LG_TRY(merge::TrialMergeReport r, merge::trial_merge(*m_repo, trial, m_main, m_head, {}));
    if (auto stop = judge_merge(n, r)) {
      outcome = *stop;
      return Attempt::done;
    }
    if (m_o.mode == Mode::audit) {
      step("commit", StepStatus::skipped, "audit mode: no commit written, nothing pushed", n);
      outcome = Outcome::would_land;
      return Attempt::done;
    }
    m_stage = "commit";
    LG_TRY(git::ObjectId commit, write_commit(trial, r));
    step("commit", StepStatus::ok, fmt::format("merge commit {}", commit.short_hex()), n);
    m_stage = "push";
    return push(n, commit, outcome);
  }

  // Deletes the remote branch, only while the remote main contains its head
  // and the branch still points at that head (a lease on the branch too).
  Outcome delete_branch(Outcome outcome) {
    if (m_o.mode != Mode::merge) return outcome;
    if (m_o.keep_branch) {
      step("delete-branch", StepStatus::skipped, "--keep-branch: the branch is kept");
      return outcome;
    }
    if (auto f = fetch(false); !f) return error("delete-branch", f.error());
    m_r.main_after = m_main.hex();
    if (!main_contains_head()) {
      step("delete-branch", StepStatus::skipped,
           fmt::format("{}/{} does not contain {}: the branch is kept", m_o.remote, m_o.into,
                       m_head.short_hex()));
      return outcome;
    }
    // A lease that failed means the branch moved; a lock held by a concurrent
    // writer on the remote is only contention, so that is tried again.
    auto pushed = m_cli->push_cas("refs/heads/" + m_o.branch, m_r.head, "");
    for (int retry = 0; retry < 2 && pushed && pushed->kind == PushKind::lost_race &&
                        pushed->detail.find("stale info") == std::string::npos;
         ++retry) {
      pushed = m_cli->push_cas("refs/heads/" + m_o.branch, m_r.head, "");
    }
    if (!pushed) return error("delete-branch", pushed.error());
    if (pushed->kind == PushKind::pushed) {
      step("delete-branch", StepStatus::ok, fmt::format("deleted {} on {}", m_o.branch, m_o.remote));
      m_r.branch_deleted = true;
    } else if (pushed->kind == PushKind::lost_race) {
      step("delete-branch", StepStatus::skipped,
           fmt::format("{} moved on {} after {} ({}): the branch is kept", m_o.branch, m_o.remote,
                       m_head.short_hex(), pushed->detail));
    } else {
      step("delete-branch", StepStatus::error, fmt::format("could not delete {}: {}", m_o.branch, pushed->detail));
      return Outcome::error;
    }
    return outcome;
  }

  Outcome flow() {
    if (auto stop = judge_branch()) return *stop;
    for (int n = 1; n <= 1 + std::max(0, m_o.max_retries); ++n) {
      m_r.attempts = n;
      if (n > 1) {
        if (auto f = fetch(false); !f) return error("fetch", f.error(), n);
        m_r.main_after = m_main.hex();
        if (main_contains_head()) {
          step("fetch", StepStatus::ok,
               fmt::format("{}/{} at {} already contains {}: landed concurrently", m_o.remote, m_o.into,
                           m_main.short_hex(), m_o.branch),
               n);
          return delete_branch(Outcome::already_in_main);
        }
        step("fetch", StepStatus::ok,
             fmt::format("{}/{} at {}", m_o.remote, m_o.into, m_main.short_hex()), n);
      }
      Outcome outcome = Outcome::error;
      auto a = attempt(n, outcome);
      if (!a) return error(m_stage, a.error(), n);
      if (*a == Attempt::done) return outcome == Outcome::landed ? delete_branch(outcome) : outcome;
    }
    step("push", StepStatus::error,
         fmt::format("{}/{} moved under every one of {} attempts: giving up", m_o.remote, m_o.into, m_r.attempts));
    return Outcome::gave_up;
  }

  const LandOptions& m_o;
  LandReport m_r;
  std::optional<git::Repository> m_repo;
  std::optional<GitCli> m_cli;
  git::ObjectId m_main;
  git::ObjectId m_head;
  std::string m_stage;  // the step an error inside an attempt belongs to
};

}  // namespace

LandReport land(const LandOptions& options) { return Lander(options).run(); }

}  // namespace lg::land
