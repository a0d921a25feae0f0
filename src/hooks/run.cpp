// The hooks' verdicts: the index for pre-commit and pre-merge-commit, a
// trial merge per pushed ref for pre-push, check and frozen paths for a push
// to main on the server. Reads only; the CLI prints.
#include "ledgergate/hooks/run.hpp"

#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "ledgergate/git/commit.hpp"
#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/hooks/install.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/rules/change.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/columns.hpp"

extern char** environ;

namespace lg::hooks {
namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) out.push_back(line);
    start = end + 1;
  }
  return out;
}

std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= line.size()) {
    std::size_t end = line.find(' ', start);
    if (end == std::string_view::npos) end = line.size();
    out.push_back(line.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

Result<git::ObjectId> parse_oid(std::string_view hex, std::string_view line) {
  const std::optional<git::ObjectId> id = git::ObjectId::from_hex(hex);
  if (!id) {
    return make_error(ErrorKind::invalid_input, "not an object id: '" + std::string(hex) + "' in '" +
                                                    std::string(line) + "'");
  }
  return *id;
}

// Checks `tree` with the options of the judging side's policy; the findings' rev is `label`.
Result<rules::CheckReport> check_with(git::TreeSource& tree, const rules::CheckOptions& options,
                                      const std::string& label, rules::CheckCache& cache) {
  LG_TRY(rules::CheckReport report, rules::check_tree(tree, options, cache));
  rules::locate_columns(tree, report.findings);
  for (diag::Finding& f : report.findings) f.location.rev = label;
  return report;
}

// What a change's check is judged with: the gate and the reference tree.
struct Reference {
  git::TreeSource* tree = nullptr;  // null: no reference (every finding counts)
  std::string name;                 // "HEAD", "origin refs/heads/x (abc1234)", "the empty tree"
};

// Judges `report` (the check of `tree` with `options`) against `ref`, takes
// the baseline's findings out, and records the verdict: fail on a blocking
// finding, error when the tree cannot be judged.
Result<void> add_check(Judgement& j, rules::CheckReport report, std::string what, git::TreeSource& tree,
                       const Reference& ref, const rules::CheckOptions& options, rules::CheckCache& cache,
                       std::optional<diag::Baseline> baseline) {
  diag::Attribution& a = j.attribution;
  a.reference = ref.name;
  if (ref.tree && !report.findings.empty()) {
    LG_TRY(a.fixed, rules::attribute_check(*ref.tree, tree, report.findings, options, cache));
    for (diag::Finding& f : a.fixed) f.location.rev = ref.tree->rev();
  } else if (!ref.name.empty()) {
    diag::attribute(report.findings, {});  // the empty tree: every finding is new
  }
  if (baseline) a.suppressed = baseline->suppress(report.findings);
  if (report.cannot_judge()) {
    j.verdict = Verdict::error;
    j.notes.emplace_back(CheckFailed{std::move(what), true});
  } else if (diag::any_blocking(report.findings, a.gate)) {
    if (j.verdict == Verdict::pass) j.verdict = Verdict::fail;
    j.notes.emplace_back(CheckFailed{std::move(what), false});
  }
  j.findings = std::move(report.findings);
  return {};
}

// The baseline a judgement takes: the option's, else the file `policy`
// names in `tree` (the tree the policy was read from).
Result<std::optional<diag::Baseline>> baseline_for(const JudgeOptions& o, git::TreeSource* tree,
                                                   const policy::RepoPolicy& policy) {
  if (o.baseline || !tree) return o.baseline;
  return policy::load_baseline(*tree, policy);
}

void add_trial_merge(Judgement& j, PushTarget target, const git::ObjectId& base, merge::TrialMergeReport r) {
  const bool cannot_judge = r.cannot_judge();
  j.verdict = cannot_judge ? Verdict::error : r.pass() ? Verdict::pass : Verdict::fail;
  j.findings = std::move(r.findings);
  j.attribution = r.attribution;
  j.notes.emplace_back(MergedInto{std::move(target), base, std::move(r), cannot_judge});
}

bool under_any(const std::vector<std::string>& dirs, std::string_view path) {
  for (const std::string& d : dirs) {
    if (!path.empty() && path.starts_with(d)) return true;
  }
  return false;
}

}  // namespace

Result<std::vector<PushedRef>> parse_pre_push(std::string_view text) {
  std::vector<PushedRef> out;
  for (const std::string_view line : lines_of(text)) {
    const std::vector<std::string_view> f = fields_of(line);
    if (f.size() != 4) {
      return make_error(ErrorKind::invalid_input,
                        "pre-push: expected '<local ref> <local sha> <remote ref> <remote sha>', got '" +
                            std::string(line) + "'");
    }
    PushedRef p;
    p.local_ref = f[0];
    LG_TRY(p.local, parse_oid(f[1], line));
    p.remote_ref = f[2];
    LG_TRY(p.remote, parse_oid(f[3], line));
    out.push_back(std::move(p));
  }
  return out;
}

Result<std::vector<RefUpdate>> parse_pre_receive(std::string_view text) {
  std::vector<RefUpdate> out;
  for (const std::string_view line : lines_of(text)) {
    const std::vector<std::string_view> f = fields_of(line);
    if (f.size() != 3) {
      return make_error(ErrorKind::invalid_input,
                        "pre-receive: expected '<old sha> <new sha> <ref>', got '" + std::string(line) + "'");
    }
    LG_TRY(RefUpdate u, parse_update_args(f[2], f[0], f[1]));
    out.push_back(std::move(u));
  }
  return out;
}

Result<RefUpdate> parse_update_args(std::string_view ref, std::string_view old_hex, std::string_view new_hex) {
  const std::string line = fmt::format("{} {} {}", ref, old_hex, new_hex);
  RefUpdate u;
  u.ref = ref;
  LG_TRY(u.old_id, parse_oid(old_hex, line));
  LG_TRY(u.new_id, parse_oid(new_hex, line));
  return u;
}

Result<Judgement> judge_index(const git::Repository& repo, const JudgeOptions& o) {
  LG_TRY(std::unique_ptr<git::TreeSource> index, git::open_index_source(repo));
  // HEAD's tree: the reference, and where the policy is read from.
  std::unique_ptr<git::TreeSource> head;
  if (!repo.head_unborn()) {
    LG_TRY(const git::ObjectId commit, repo.resolve_commit("HEAD"));
    LG_TRY(const git::ObjectId tree, repo.commit_tree(commit));
    LG_TRY(head, git::open_tree_source(repo, tree, "HEAD"));
  }
  LG_TRY(const policy::RepoPolicy policy, policy::load_policy(head ? *head : *index));
  const rules::CheckOptions options =
      head ? policy::check_options(policy) : policy::check_options_for_own_tree(policy);
  rules::CheckCache cache;
  LG_TRY(rules::CheckReport report, check_with(*index, options, ":index", cache));
  Judgement j{{"the staged tree", std::nullopt, ""}, Verdict::pass, {}, {}, {}};
  j.attribution.gate = o.gate.value_or(policy.gate);
  LG_TRY(auto baseline, baseline_for(o, head ? head.get() : index.get(), policy));
  if (auto r = add_check(j, std::move(report), "the staged tree", *index, {head.get(), head ? "HEAD" : ""}, options,
                         cache, std::move(baseline));
      !r) {
    return r.error();
  }
  return j;
}

namespace {

constexpr std::string_view k_heads = "refs/heads/";

// `<remote> <ref> (abc1234)`, as the notes name a commit of the remote.
std::string on_remote(std::string_view remote, std::string_view ref, const git::ObjectId& commit) {
  return fmt::format("{} {} ({})", remote, ref, commit.short_hex());
}

// The commit at `ref` when the ref exists and peels to a commit.
std::optional<git::ObjectId> commit_at(const git::Repository& repo, const std::string& ref) {
  const std::optional<git::ObjectId> id = git::ref_target(repo, ref);
  if (!id) return std::nullopt;
  const Result<git::ObjectId> commit = git::peel_to_commit(repo, *id);
  return commit ? std::optional<git::ObjectId>(*commit) : std::nullopt;
}

// The remote ref's old tip when the push names one and its commit is here.
Result<std::optional<git::ObjectId>> remote_tip(const git::Repository& repo, const PushedRef& pushed) {
  if (pushed.remote.is_zero()) return std::optional<git::ObjectId>();  // a new remote ref
  const Result<bool> known = git::has_object(repo, pushed.remote);
  if (!known) return known.error().with_context("opening the object database");
  if (!*known) return std::optional<git::ObjectId>();
  LG_TRY(const git::ObjectId commit, git::peel_to_commit(repo, pushed.remote));
  return std::optional<git::ObjectId>(commit);
}

// The remote-tracking refs a push to `branch` of `remote` may compare with:
// the branch's own copy, then main's.
std::vector<std::string> tracking_refs(std::string_view remote, const std::string& branch) {
  std::vector<std::string> out;
  if (!branch.empty()) out.push_back(fmt::format("refs/remotes/{}/{}", remote, branch));
  if (branch != "main") out.push_back(fmt::format("refs/remotes/{}/main", remote));
  return out;
}

struct PushPolicy {
  policy::RepoPolicy policy;
  std::unique_ptr<git::TreeSource> tree;  // the tree it was read from (null: the built-in one)
  std::string where;                      // "" = the built-in policy
};

Result<PushPolicy> policy_at(const git::Repository& repo, const git::ObjectId& commit, std::string where) {
  PushPolicy out;
  LG_TRY(const git::ObjectId tree, repo.commit_tree(commit));
  LG_TRY(out.tree, git::open_tree_source(repo, tree, commit.short_hex()));
  LG_TRY(out.policy, policy::load_policy(*out.tree));
  out.where = std::move(where);
  return out;
}

// The policy that judges a push of `head` to `branch` (see judge_push):
// never read from a commit the push carries.
Result<PushPolicy> push_policy(const git::Repository& repo, std::string_view remote, const PushedRef& pushed,
                               const git::ObjectId& head, const std::string& branch) {
  LG_TRY(const std::optional<git::ObjectId> tip, remote_tip(repo, pushed));
  if (tip) return policy_at(repo, *tip, on_remote(remote, pushed.remote_ref, *tip));
  for (const std::string& ref : tracking_refs(remote, branch)) {
    if (const auto commit = commit_at(repo, ref)) return policy_at(repo, *commit, fmt::format("{} ({})", ref, commit->short_hex()));
  }
  // A local branch the push does not contain is not part of it.
  for (const std::string& name : {branch, std::string("main")}) {
    if (name.empty()) continue;
    const std::string ref = std::string(k_heads) + name;
    const auto local = commit_at(repo, ref);
    if (!local || *local == head) continue;
    LG_TRY(const bool contained, git::is_descendant_of(repo, head, *local));
    if (!contained) return policy_at(repo, *local, fmt::format("the local {} ({})", ref, local->short_hex()));
  }
  PushPolicy out;
  LG_TRY(const git::ObjectId tree, repo.commit_tree(head));
  LG_TRY(const auto pushed_tree, git::open_tree_source(repo, tree, head.short_hex()));
  LG_TRY(out.policy, policy::load_builtin_policy(*pushed_tree));
  return out;
}

// What a pushed tree that is not trial-merged is checked against: the
// remote ref's old tip (the merge base with it), else the merge base with a
// remote-tracking copy of the branch or of main, else the empty tree.
struct PushReference {
  std::optional<git::ObjectId> commit;
  std::string name;
};
Result<PushReference> push_reference(const git::Repository& repo, std::string_view remote, const PushedRef& pushed,
                                     const git::ObjectId& head, const std::string& branch) {
  auto base_with = [&](const git::ObjectId& other, const std::string& what) -> Result<std::optional<PushReference>> {
    const Result<std::vector<git::ObjectId>> bases = git::merge_bases(repo, head, other);
    if (!bases) return std::optional<PushReference>();  // unrelated histories
    const git::ObjectId base = bases->front();
    if (base == other) return std::optional<PushReference>(PushReference{base, what});
    return std::optional<PushReference>(
        PushReference{base, fmt::format("the merge base {} with {}", base.short_hex(), what)});
  };
  LG_TRY(const std::optional<git::ObjectId> tip, remote_tip(repo, pushed));
  std::vector<std::pair<git::ObjectId, std::string>> candidates;
  if (tip) candidates.emplace_back(*tip, on_remote(remote, pushed.remote_ref, *tip));
  for (const std::string& ref : tracking_refs(remote, branch)) {
    if (const auto commit = commit_at(repo, ref)) candidates.emplace_back(*commit, fmt::format("{} ({})", ref, commit->short_hex()));
  }
  for (const auto& [commit, what] : candidates) {
    LG_TRY(std::optional<PushReference> found, base_with(commit, what));
    if (found) return std::move(*found);
  }
  return PushReference{std::nullopt, "the empty tree"};
}

// Checks the pushed tree of `head` with `pol` against `ref`.
Result<void> check_pushed(Judgement& j, const git::Repository& repo, const git::ObjectId& head, const PushPolicy& pol,
                          const PushReference& ref, const JudgeOptions& o) {
  LG_TRY(const git::ObjectId tree, repo.commit_tree(head));
  LG_TRY(std::unique_ptr<git::TreeSource> source, git::open_tree_source(repo, tree, head.short_hex()));
  std::unique_ptr<git::TreeSource> before;
  if (ref.commit) {
    LG_TRY(const git::ObjectId before_tree, repo.commit_tree(*ref.commit));
    LG_TRY(before, git::open_tree_source(repo, before_tree, ref.commit->short_hex()));
  }
  const rules::CheckOptions options = policy::check_options(pol.policy);
  rules::CheckCache cache;
  LG_TRY(rules::CheckReport report, check_with(*source, options, "pushed", cache));
  j.notes.emplace_back(CheckedAgainst{ref.name});
  j.attribution.gate = o.gate.value_or(pol.policy.gate);
  LG_TRY(auto baseline, baseline_for(o, pol.tree.get(), pol.policy));
  return add_check(j, std::move(report), "the pushed tree", *source, {before.get(), ref.name}, options, cache,
                   std::move(baseline));
}

}  // namespace

Result<Judgement> judge_push(const git::Repository& repo, git::TrialRepo& trial, std::string_view remote,
                             const PushedRef& pushed, const JudgeOptions& o) {
  Judgement j{{pushed.local_ref, std::string(remote), pushed.remote_ref}, Verdict::pass, {}, {}, {}};
  if (pushed.local.is_zero()) {
    j.notes.emplace_back(RefDeleted{false});
    return j;
  }
  LG_TRY(const git::ObjectId head, git::peel_to_commit(repo, pushed.local));
  const std::string_view ref = pushed.remote_ref;
  const std::string branch = ref.starts_with(k_heads) ? std::string(ref.substr(k_heads.size())) : std::string();
  LG_TRY(const PushPolicy pol, push_policy(repo, remote, pushed, head, branch));
  j.notes.emplace_back(PolicyFrom{pol.where});
  const std::vector<std::string>& guarded = pol.policy.protected_branches;
  if (branch.empty() || std::find(guarded.begin(), guarded.end(), branch) == guarded.end()) {
    j.notes.emplace_back(NotProtected{pushed.remote_ref, guarded});
    LG_TRY(const PushReference reference, push_reference(repo, remote, pushed, head, branch));
    if (auto r = check_pushed(j, repo, head, pol, reference, o); !r) return r.error();
    return j;
  }
  // The target: the remote's copy of the branch as last fetched, else the remote ref's old tip.
  PushTarget target{fmt::format("refs/remotes/{}/{}", remote, branch), std::string(remote), std::nullopt};
  std::optional<git::ObjectId> tracked = commit_at(repo, target.ref);
  if (!tracked) {
    LG_TRY(tracked, remote_tip(repo, pushed));
    if (!tracked) {
      j.notes.emplace_back(TargetMissing{std::move(target)});
      LG_TRY(const PushReference reference, push_reference(repo, remote, pushed, head, branch));
      if (auto r = check_pushed(j, repo, head, pol, reference, o); !r) return r.error();
      return j;
    }
    target = PushTarget{pushed.remote_ref, std::string(remote), *tracked};
  }
  const git::ObjectId base = *tracked;
  if (base == head || git::is_descendant_of(repo, base, head).value_or(false)) {
    j.notes.emplace_back(AlreadyIn{std::move(target)});
    return j;
  }
  merge::TrialMergeOptions options;
  options.gate = o.gate;
  options.baseline = o.baseline;
  LG_TRY(merge::TrialMergeReport report, merge::trial_merge(repo, trial, base, head, options));
  add_trial_merge(j, std::move(target), base, std::move(report));
  for (diag::Finding& f : j.findings) f.location.rev = "merged";
  return j;
}

Result<Judgement> judge_receive(const git::Repository& repo, const RefUpdate& update, const JudgeOptions& o) {
  Judgement j{{update.ref, std::nullopt, ""}, Verdict::pass, {}, {}, {}};
  if (update.ref != k_main_ref) return j;  // only main is guarded
  if (update.new_id.is_zero()) {
    j.notes.emplace_back(RefDeleted{true});
    return j;
  }
  LG_TRY(const git::ObjectId new_commit, git::peel_to_commit(repo, update.new_id));
  LG_TRY(const git::ObjectId new_tree, repo.commit_tree(new_commit));
  const std::string label = new_commit.short_hex();
  LG_TRY(std::unique_ptr<git::TreeSource> new_source, git::open_tree_source(repo, new_tree, label));
  std::optional<git::ObjectId> old_tree;
  std::unique_ptr<git::TreeSource> old_source;
  std::string old_name;
  if (!update.old_id.is_zero()) {
    LG_TRY(const git::ObjectId old_commit, git::peel_to_commit(repo, update.old_id));
    LG_TRY(old_tree, repo.commit_tree(old_commit));
    LG_TRY(old_source, git::open_tree_source(repo, *old_tree, old_commit.short_hex()));
    old_name = fmt::format("main ({})", old_commit.short_hex());
  }
  // The policy that judges is main's current one, never the pushed one.
  LG_TRY(const policy::RepoPolicy policy, policy::load_policy(old_source ? *old_source : *new_source));
  const rules::CheckOptions options =
      old_source ? policy::check_options(policy) : policy::check_options_for_own_tree(policy);
  rules::CheckCache cache;
  LG_TRY(rules::CheckReport report, check_with(*new_source, options, label, cache));
  j.attribution.gate = o.gate.value_or(policy.gate);
  LG_TRY(auto baseline, baseline_for(o, old_source ? old_source.get() : new_source.get(), policy));
  if (auto r = add_check(j, std::move(report), "the new tree of main", *new_source, {old_source.get(), old_name},
                         options, cache, std::move(baseline));
      !r) {
    return r.error();
  }
  if (old_tree) {
    LG_TRY(const std::vector<git::DiffEntry> diff, git::diff_trees(repo, &*old_tree, &new_tree));
    for (const git::DiffEntry& e : diff) {
      const std::string& frozen = under_any(policy.paths.frozen_dirs, e.old_path) ? e.old_path : e.path;
      if (!under_any(policy.paths.frozen_dirs, frozen)) continue;
      j.notes.emplace_back(FrozenChange{frozen, e.status, e.old_path.empty() || e.old_path == e.path ? "" : e.path});
      if (j.verdict == Verdict::pass) j.verdict = Verdict::fail;
    }
  }
  return j;
}

Result<int> run_original(const std::string& hooks_dir, std::string_view hook, const std::vector<std::string>& args,
                         const std::string* input) {
  LG_TRY(const std::string path, original_to_run(hooks_dir, hook));
  if (path.empty() || ::access(path.c_str(), X_OK) != 0) return -1;  // git runs only executable hooks
  // stdin from an unlinked temporary file: no pipe to fill, no SIGPIPE.
  using FilePtr = std::unique_ptr<FILE, decltype(&std::fclose)>;
  FilePtr in(nullptr, &std::fclose);
  if (input) {
    in.reset(std::tmpfile());
    if (!in || std::fwrite(input->data(), 1, input->size(), in.get()) != input->size() || std::fflush(in.get()) != 0 ||
        std::fseek(in.get(), 0, SEEK_SET) != 0) {
      return make_error(ErrorKind::io, "buffering the hook's input: " + std::string(std::strerror(errno)));
    }
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (in) posix_spawn_file_actions_adddup2(&actions, fileno(in.get()), 0);
  auto spawn = [&](std::vector<std::string> argv_strings) {
    std::vector<char*> argv;
    for (std::string& s : argv_strings) argv.push_back(s.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    return std::pair{rc, pid};
  };
  std::vector<std::string> argv = {path};
  argv.insert(argv.end(), args.begin(), args.end());
  auto [rc, pid] = spawn(argv);
  if (rc == ENOEXEC) {  // no #! line: git runs such a hook with the shell
    argv.insert(argv.begin(), "/bin/sh");
    std::tie(rc, pid) = spawn(argv);
  }
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return make_error(ErrorKind::io, "running " + path + ": " + std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return make_error(ErrorKind::io, "waiting for " + path + ": " + std::strerror(errno));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace lg::hooks
