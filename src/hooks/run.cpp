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
#include "ledgergate/rules/check.hpp"

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
                                      const std::string& label) {
  rules::CheckCache cache;
  LG_TRY(rules::CheckReport report, rules::check_tree(tree, options, cache));
  for (diag::Finding& f : report.findings) f.location.rev = label;
  return report;
}

void add_check(Judgement& j, rules::CheckReport report, std::string what) {
  if (report.cannot_judge()) {
    j.verdict = Verdict::error;
    j.notes.emplace_back(CheckFailed{std::move(what), true});
  } else if (report.failed()) {
    if (j.verdict == Verdict::pass) j.verdict = Verdict::fail;
    j.notes.emplace_back(CheckFailed{std::move(what), false});
  }
  j.findings = std::move(report.findings);
}

void add_trial_merge(Judgement& j, PushTarget target, const git::ObjectId& base, merge::TrialMergeReport r) {
  const bool cannot_judge = r.cannot_judge();
  j.verdict = cannot_judge ? Verdict::error : r.pass() ? Verdict::pass : Verdict::fail;
  j.findings = std::move(r.findings);
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

Result<Judgement> judge_index(const git::Repository& repo) {
  LG_TRY(std::unique_ptr<git::TreeSource> index, git::open_index_source(repo));
  LG_TRY(const policy::RepoPolicy policy, policy::load_policy(*index));
  LG_TRY(rules::CheckReport report, check_with(*index, policy::check_options_for_own_tree(policy), ":index"));
  Judgement j{{"the staged tree", std::nullopt, ""}, Verdict::pass, {}, {}};
  add_check(j, std::move(report), "the staged tree");
  return j;
}

namespace {

// The branches pre-push gates: the policy of the remote's main as last
// fetched (what the push must not break), else the pushed commit's own.
Result<std::vector<std::string>> protected_branches(const git::Repository& repo, std::string_view remote,
                                                    const git::ObjectId& head) {
  const std::optional<git::ObjectId> main = git::ref_target(repo, fmt::format("refs/remotes/{}/main", remote));
  LG_TRY(const git::ObjectId commit, main ? git::peel_to_commit(repo, *main) : Result<git::ObjectId>(head));
  LG_TRY(const git::ObjectId tree, repo.commit_tree(commit));
  LG_TRY(std::unique_ptr<git::TreeSource> source, git::open_tree_source(repo, tree, commit.short_hex()));
  LG_TRY(const policy::RepoPolicy policy, policy::load_policy(*source));
  return policy.protected_branches;
}

}  // namespace

Result<Judgement> judge_push(const git::Repository& repo, git::TrialRepo& trial, std::string_view remote,
                             const PushedRef& pushed) {
  Judgement j{{pushed.local_ref, std::string(remote), pushed.remote_ref}, Verdict::pass, {}, {}};
  if (pushed.local.is_zero()) {
    j.notes.emplace_back(RefDeleted{false});
    return j;
  }
  LG_TRY(const git::ObjectId head, git::peel_to_commit(repo, pushed.local));
  LG_TRY(const std::vector<std::string> guarded, protected_branches(repo, remote, head));
  constexpr std::string_view heads = "refs/heads/";
  const std::string_view ref = pushed.remote_ref;
  const std::string branch = ref.starts_with(heads) ? std::string(ref.substr(heads.size())) : std::string();
  if (branch.empty() || std::find(guarded.begin(), guarded.end(), branch) == guarded.end()) {
    LG_TRY(const git::ObjectId tree, repo.commit_tree(head));
    LG_TRY(std::unique_ptr<git::TreeSource> source, git::open_tree_source(repo, tree, head.short_hex()));
    LG_TRY(const policy::RepoPolicy policy, policy::load_policy(*source));
    LG_TRY(rules::CheckReport report, check_with(*source, policy::check_options_for_own_tree(policy), "pushed"));
    j.notes.emplace_back(NotProtected{pushed.remote_ref, guarded});
    add_check(j, std::move(report), "the pushed tree");
    return j;
  }
  // The target: the remote's copy of the branch as last fetched, else the remote ref's old tip.
  PushTarget target{fmt::format("refs/remotes/{}/{}", remote, branch), std::string(remote), std::nullopt};
  std::optional<git::ObjectId> tracked = git::ref_target(repo, target.ref);
  if (!tracked) {
    // A new remote ref (the zero id) is not looked up in the object database.
    const Result<bool> known = pushed.remote.is_zero() ? Result<bool>(false) : git::has_object(repo, pushed.remote);
    if (!known) return known.error().with_context("opening the object database");
    if (!*known) {
      j.notes.emplace_back(TargetMissing{std::move(target)});
      return j;
    }
    LG_TRY(tracked, git::peel_to_commit(repo, pushed.remote));
    target = PushTarget{pushed.remote_ref, std::string(remote), *tracked};
  }
  const git::ObjectId base = *tracked;
  if (base == head || git::is_descendant_of(repo, base, head).value_or(false)) {
    j.notes.emplace_back(AlreadyIn{std::move(target)});
    return j;
  }
  merge::TrialMergeOptions options;
  LG_TRY(merge::TrialMergeReport report, merge::trial_merge(repo, trial, base, head, options));
  add_trial_merge(j, std::move(target), base, std::move(report));
  for (diag::Finding& f : j.findings) f.location.rev = "merged";
  return j;
}

Result<Judgement> judge_receive(const git::Repository& repo, const RefUpdate& update) {
  Judgement j{{update.ref, std::nullopt, ""}, Verdict::pass, {}, {}};
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
  if (!update.old_id.is_zero()) {
    LG_TRY(const git::ObjectId old_commit, git::peel_to_commit(repo, update.old_id));
    LG_TRY(old_tree, repo.commit_tree(old_commit));
    LG_TRY(old_source, git::open_tree_source(repo, *old_tree, old_commit.short_hex()));
  }
  // The policy that judges is main's current one, never the pushed one.
  LG_TRY(const policy::RepoPolicy policy, policy::load_policy(old_source ? *old_source : *new_source));
  LG_TRY(rules::CheckReport report,
         check_with(*new_source,
                    old_source ? policy::check_options(policy) : policy::check_options_for_own_tree(policy), label));
  add_check(j, std::move(report), "the new tree of main");
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
  const std::string path = original_path(hooks_dir, hook);
  if (::access(path.c_str(), X_OK) != 0) return -1;  // git runs only executable hooks
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
