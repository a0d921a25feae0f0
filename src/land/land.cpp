// The land flow: a list of steps, each recorded, over a fresh repository
// handle after every fetch (so refs and packs the fetch wrote are seen).
#include "ledgergate/land/land.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <random>
#include <thread>

#include "ledgergate/git/commit.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/trial_repo.hpp"
#include "ledgergate/land/git_cli.hpp"
#include "ledgergate/merge/branch_diff.hpp"
#include "ledgergate/merge/change_scope.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/rules/change.hpp"
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

const Step* deciding_step(const LandReport& r) {
  for (auto it = r.steps.rbegin(); it != r.steps.rend(); ++it) {
    if (it->status == StepStatus::error || it->status == StepStatus::fail) return &*it;
  }
  return r.steps.empty() ? nullptr : &r.steps.back();
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
    m_r.steps.push_back(Step{std::move(name), attempt, status, std::move(message), {}, {}, {}});
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
    bool birth = false;
    return merge::classify_from_bases(*m_repo, bases, to, pol, m_cache, birth);
  }

  // The branch tip's check, judged against the merge base (the first
  // libgit2 finds in a criss-cross history): the findings the branch brings.
  struct TipCheck {
    rules::CheckReport report;
    diag::Attribution attribution;
  };
  Result<TipCheck> check_tip(const policy::RepoPolicy& pol) {
    LG_TRY(git::ObjectId tree, m_repo->commit_tree(m_head));
    LG_TRY(auto source, git::open_tree_source(*m_repo, tree, m_o.branch));
    LG_TRY(const std::vector<git::ObjectId> bases, git::merge_bases(*m_repo, m_main, m_head));
    const git::ObjectId base = bases.front();
    LG_TRY(git::ObjectId base_tree, m_repo->commit_tree(base));
    LG_TRY(auto before, git::open_tree_source(*m_repo, base_tree, base.short_hex()));
    const rules::CheckOptions options = policy::check_options(pol);
    TipCheck out;
    out.attribution.gate = m_o.gate.value_or(pol.gate);
    out.attribution.reference = "the merge base " + base.short_hex();
    std::optional<merge::ChangeFindings> change;
    if (m_o.scope == merge::Scope::change && merge::ChangeScope::applies(out.attribution.gate, options, pol)) {
      LG_TRY(change, merge::judge_tree_change(*m_repo, *before, base_tree, *source, tree, options, m_cache));
    }
    if (change) {  // --scope change: the tip judged where the branch changed it
      out.report.profile = std::move(change->profile);
      out.report.findings = std::move(change->findings);
      out.attribution.fixed = std::move(change->fixed);
      out.attribution.whole = false;
    } else {
      LG_TRY(out.report, rules::check_tree(*source, options, m_cache));
      LG_TRY(out.attribution.fixed, rules::attribute_check(*before, *source, out.report.findings, options, m_cache));
    }
    std::optional<diag::Baseline> baseline = m_o.baseline;
    if (!baseline) {
      LG_TRY(auto main_tree, m_repo->commit_tree(m_main));
      LG_TRY(auto main_source, git::open_tree_source(*m_repo, main_tree, m_o.into));
      LG_TRY(baseline, policy::load_baseline(*main_source, pol));
    }
    if (baseline) out.attribution.suppressed = baseline->suppress(out.report.findings);
    return out;
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
    for (diag::Finding& f : checked->report.findings) f.location.rev = m_o.branch;
    const bool cannot_judge = checked->report.cannot_judge();
    const bool failed = diag::any_blocking(checked->report.findings, checked->attribution.gate);
    const bool clean = !checked->report.failed() && checked->attribution.whole;  // the change alone: not the tip
    Step& s = step("check-branch", cannot_judge ? StepStatus::error : failed ? StepStatus::fail : StepStatus::ok,
                   cannot_judge ? "cannot judge the branch tip"
                   : failed     ? "the branch tip has drift: left for a human"
                   : clean      ? "the branch tip checks clean"
                                : "the branch tip adds no error finding");
    s.findings = std::move(checked->report.findings);
    s.attribution = std::move(checked->attribution);
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
    s.attribution = r.attribution;
    if (r.cannot_judge()) {
      s.status = StepStatus::error;
      s.message += ": cannot judge the merged tree";
      return Outcome::error;
    }
    if (!r.pass()) {
      s.message += ": left for a human";
      return Outcome::left_for_human;
    }
    // Only a whole check says the merged tree checks clean (the change alone: it adds no error).
    const bool no_error = r.attribution.whole && std::none_of(r.findings.begin(), r.findings.end(),
                                       [](const diag::Finding& f) { return f.severity == diag::Severity::error; });
    s.message += no_error ? ", checks clean" : ", adds no error finding";
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
        step("push", StepStatus::fail, fmt::format("{} moved from {} ({})", target, m_main.short_hex(), pushed.detail),
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
    m_cache.trim();
    LG_TRY(git::TrialRepo trial, git::TrialRepo::open(*m_repo));
    merge::TrialMergeOptions options;
    options.gate = m_o.gate;
    options.baseline = m_o.baseline;
    options.scope = m_o.scope;
    options.shared_cache = &m_cache;  // the branch tip's and the merge base's files are judged once
    LG_TRY(merge::TrialMergeReport r, merge::trial_merge(*m_repo, trial, m_main, m_head, options));
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

  using Clock = std::chrono::steady_clock;
  // The shortest pause between two looks at a held lease (even with --retry-delay 0).
  static constexpr Millis k_min_poll{20};

  Millis since(Clock::time_point t) const { return std::chrono::duration_cast<Millis>(Clock::now() - t); }

  double jitter() { return std::uniform_real_distribution<double>(0.0, 1.0)(m_rng); }

  void wait(Millis d) {
    if (d.count() <= 0) return;
    std::this_thread::sleep_for(d);
    m_r.waited_ms += d.count();
  }

  static long long wall_ms() {
    return std::chrono::duration_cast<Millis>(std::chrono::system_clock::now().time_since_epoch()).count();
  }

  std::string holder() {
    std::array<char, 256> host{};
    if (gethostname(host.data(), host.size() - 1) != 0) host[0] = '\0';
    return fmt::format("{} pid {} #{:08x}", host[0] ? host.data() : "unknown-host", static_cast<long>(getpid()),
                       std::uniform_int_distribution<std::uint32_t>()(m_rng));
  }

  std::string lease_tracking() const { return "refs/ledgergate/remotes/" + m_o.remote + "/land-lock"; }

  // The remote's lease as last fetched: its id ("" when there is none) and what it says.
  struct SeenLease {
    std::string id;
    std::optional<Lease> lease;
  };
  Result<SeenLease> fetch_lease() {
    const std::string ns = "refs/ledgergate/remotes/" + m_o.remote + "/";
    if (auto f = m_cli->fetch({"+refs/ledgergate/*:" + ns + "*"}, true); !f) return f.error();
    if (auto r = reopen(false); !r) return r.error();
    SeenLease seen;
    const std::optional<git::ObjectId> id = git::ref_target(*m_repo, lease_tracking());
    if (!id) return seen;
    seen.id = id->hex();
    if (auto message = git::commit_message(*m_repo, *id)) seen.lease = parse_lease(*message);
    return seen;
  }

  Result<git::ObjectId> write_lease(const Lease& lease) {
    LG_TRY(git::TreeBuilder empty, git::TreeBuilder::open(*m_repo, nullptr));
    LG_TRY(git::ObjectId tree, empty.write());
    return git::write_commit(*m_repo, tree, {}, lease_message(lease));
  }

  // Takes the remote's lease: waits (polling with backoff) while another
  // lander holds one that has not expired, takes over an expired or
  // unreadable one, and goes on without a queue when the remote refuses
  // the ref. An outcome when the flow stops (the budget ran out, an error).
  std::optional<Outcome> take_lease() {
    const Clock::time_point start = Clock::now();
    const std::string ref(k_lease_ref);
    int polls = 0;
    std::string waited_on;  // the holders waited on, latest last
    int holders = 0;
    for (;;) {
      auto seen = fetch_lease();
      if (!seen) return error("queue", seen.error());
      const long long now = wall_ms();
      if (seen->lease && seen->lease->expires_ms > now) {
        const std::string who = fmt::format("{} ({})", seen->lease->holder, seen->lease->branch);
        if (who != waited_on) waited_on = who, ++holders;
        const Millis poll = std::min(backoff_delay(++polls, std::max(m_o.retry_delay, k_min_poll), m_o.retry_delay_cap / 10, jitter()),
                                     Millis(seen->lease->expires_ms - now + 1));
        if (since(m_start) + poll > m_o.retry_for) {
          if (polls > 1) m_r.waited_ms += since(start).count();
          step("queue", StepStatus::error,
               fmt::format("the lease {} on {} stayed held (last by {}) for the whole --retry-for {}: giving up",
                           ref, m_o.remote, waited_on, format_duration(m_o.retry_for)));
          return Outcome::gave_up;
        }
        std::this_thread::sleep_for(std::max(poll, Millis(1)));
        continue;
      }
      const std::string took_over =
          seen->id.empty() ? ""
          : seen->lease    ? fmt::format(", taking over the expired lease of {} ({})", seen->lease->holder,
                                         seen->lease->branch)
                           : fmt::format(", replacing {} which is not a lease", git::ObjectId::short_of(seen->id));
      auto id = write_lease(Lease{holder(), m_o.branch, now + m_o.lease_for.count()});
      if (!id) return error("queue", id.error());
      auto pushed = m_cli->push_cas(ref, seen->id, id->hex());
      if (!pushed) return error("queue", pushed.error());
      if (pushed->kind == PushKind::lost_race) continue;  // another lander took it first: see who
      if (pushed->kind == PushKind::refused) {
        step("queue", StepStatus::skipped,
             fmt::format("{} refused the lease {} ({}): landing without a queue", m_o.remote, ref, pushed->detail));
        return std::nullopt;
      }
      m_lease = id->hex();
      m_r.lease_taken = true;
      std::string message = fmt::format("took the lease {} on {} for {}{}", ref, m_o.remote,
                                        format_duration(m_o.lease_for), took_over);
      if (polls > 0) {
        const Millis waited = since(start);
        m_r.waited_ms += waited.count();
        message += fmt::format(" after waiting {} behind {} lander(s)", format_duration(waited), holders);
      }
      step("queue", StepStatus::ok, message);
      return std::nullopt;
    }
  }

  // Gives the lease back, only while it is still ours; never changes the outcome.
  void release_lease() {
    if (m_lease.empty()) return;
    const std::string ref(k_lease_ref);
    auto pushed = m_cli->push_cas(ref, m_lease, "");
    m_lease.clear();
    if (pushed && pushed->kind == PushKind::pushed) {
      step("release", StepStatus::ok, fmt::format("released the lease {} on {}", ref, m_o.remote));
    } else {
      step("release", StepStatus::skipped,
           fmt::format("the lease {} on {} was not released ({}): it expires by itself", ref, m_o.remote,
                       pushed ? (pushed->kind == PushKind::lost_race ? "another lander took it over" : pushed->detail)
                              : pushed.error().message));
    }
  }

  // Re-fetches before attempt `n` and stops when main already contains the branch.
  std::optional<Outcome> refetch(int n) {
    if (auto f = fetch(false); !f) return error("fetch", f.error(), n);
    m_r.main_after = m_main.hex();
    if (main_contains_head()) {
      step("fetch", StepStatus::ok,
           fmt::format("{}/{} at {} already contains {}: landed concurrently", m_o.remote, m_o.into,
                       m_main.short_hex(), m_o.branch),
           n);
      m_delete_branch = true;
      return Outcome::already_in_main;
    }
    step("fetch", StepStatus::ok, fmt::format("{}/{} at {}", m_o.remote, m_o.into, m_main.short_hex()), n);
    return std::nullopt;
  }

  // The attempts: each on a freshly fetched main, after a backoff, while the budget lasts.
  Outcome attempts(bool fetch_first) {
    for (int n = 1;; ++n) {
      m_r.attempts = n;
      if (n > 1 || fetch_first) {
        if (auto stop = refetch(n)) return *stop;
      }
      Outcome outcome = Outcome::error;
      auto a = attempt(n, outcome);
      if (!a) return error(m_stage, a.error(), n);
      if (*a == Attempt::done) {
        m_delete_branch = outcome == Outcome::landed;
        return outcome;
      }
      const Millis delay = backoff_delay(n, m_o.retry_delay, m_o.retry_delay_cap, jitter());
      const bool out_of_attempts = m_o.max_attempts > 0 && n >= m_o.max_attempts;
      if (out_of_attempts || since(m_start) + delay > m_o.retry_for) {
        step("push", StepStatus::error,
             fmt::format("{}/{} moved under every one of {} attempts {}: giving up", m_o.remote, m_o.into, n,
                         out_of_attempts ? fmt::format("(--max-attempts {})", m_o.max_attempts)
                                         : fmt::format("within --retry-for {}", format_duration(m_o.retry_for))));
        return Outcome::gave_up;
      }
      m_r.steps.back().message += fmt::format(": retrying on the new tip in {}", format_duration(delay));
      wait(delay);
    }
  }

  Outcome flow() {
    if (auto stop = judge_branch()) return *stop;
    m_start = Clock::now();
    bool fetch_first = false;
    if (m_o.mode == Mode::merge && m_o.queue) {
      if (auto stop = take_lease()) return *stop;
      fetch_first = m_r.lease_taken;  // main as it is now that it is our turn
    }
    const Outcome outcome = attempts(fetch_first);
    release_lease();
    return m_delete_branch ? delete_branch(outcome) : outcome;
  }

  const LandOptions& m_o;
  LandReport m_r;
  std::optional<git::Repository> m_repo;
  std::optional<GitCli> m_cli;
  git::ObjectId m_main;
  git::ObjectId m_head;
  // The parses and findings of every check of the run (by blob id): the
  // classify, the branch tip's check and each trial merge share them,
  // within a long walk's budget, trimmed before each attempt (a main that
  // moved under many attempts must not keep every version's parses); no
  // row of a check is read after it (CheckCache::judging_budget).
  rules::CheckCache m_cache{[] {
    rules::CheckCache::Budget b = rules::CheckCache::history_budget();
    b.full_rows = false;
    return b;
  }()};
  std::string m_stage;  // the step an error inside an attempt belongs to
  std::string m_lease;  // the lease commit we hold on the remote (hex), "" when none
  bool m_delete_branch = false;
  Clock::time_point m_start;
  std::mt19937 m_rng{std::random_device{}()};
};

}  // namespace

LandReport land(const LandOptions& options) { return Lander(options).run(); }

}  // namespace lg::land
