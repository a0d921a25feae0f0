// `ledgergate hooks install|uninstall|status [--hook NAME...]` and
// `ledgergate hooks run NAME ARGS...` (what the shims exec). A hook exits 0 to
// let git go on, 1 to refuse (a fail verdict, or the chained original hook
// refused), 2 when it cannot judge (which refuses too: never a silent pass).
#include <fmt/format.h>

#include <array>
#include <cstdlib>
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "baseline_file.hpp"
#include "errors.hpp"
#include "merge_driver.hpp"
#include "own_binary.hpp"
#include "ledgergate/hooks/install.hpp"
#include "ledgergate/hooks/run.hpp"
#include "ledgergate/report/commands.hpp"
#include "ledgergate/report/merge_driver.hpp"
#include "ledgergate/report/notices.hpp"

namespace lg::cli {
namespace {

struct HooksOptions {
  std::vector<std::string> hooks;  // --hook NAME...
  std::string run_name;
  std::vector<std::string> run_args;
  bool merge_driver = false;  // install: the merge driver too
  std::string gate;           // run: --gate new|all ("" = the policy's)
  std::string baseline;       // run: --baseline FILE
};

Result<git::Repository> open_repo(const Globals& g) {
  return git::Repository::open(g.repo.empty() ? "." : g.repo, true);
}

ExitCode run_install(const HooksOptions& o, const Globals& g, bool install) {
  auto repo = open_repo(g);
  if (!repo) return report_error(repo.error());
  auto dir = hooks::hooks_dir(*repo);
  if (!dir) return report_error(dir.error());
  std::vector<std::string> names = o.hooks;
  if (names.empty() && install) names = hooks::default_hooks(repo->is_bare());
  if (names.empty()) names.assign(hooks::known_hooks().begin(), hooks::known_hooks().end());
  std::string binary;
  if (install) {
    auto b = own_binary();
    if (!b) return report_error(b.error());
    binary = *b;
  }
  std::fputs(report::render_hooks_dir(*dir).c_str(), stdout);
  for (const std::string& name : names) {
    auto change = install ? hooks::install_hook(*dir, name, binary) : hooks::uninstall_hook(*dir, name);
    if (!change) return report_error(change.error());
    std::fputs(report::render_hook_change(*change).c_str(), stdout);
  }
  if (install && o.merge_driver) return install_merge_driver(*repo, {});
  // A bare repository runs no merge, so there is no driver to offer there.
  if (install && !repo->is_bare() && !merge_driver_installed(*repo)) {
    std::fputs(report::render_merge_driver_hint().c_str(), stdout);
  }
  return ExitCode::pass;
}

ExitCode run_status(const Globals& g) {
  auto repo = open_repo(g);
  if (!repo) return report_error(repo.error());
  auto dir = hooks::hooks_dir(*repo);
  if (!dir) return report_error(dir.error());
  std::fputs(report::render_hooks_dir(*dir).c_str(), stdout);
  for (const std::string_view name : hooks::known_hooks()) {
    auto s = hooks::hook_status(*dir, name);
    if (!s) return report_error(s.error());
    std::fputs(report::render_hook_status(*s).c_str(), stdout);
  }
  return ExitCode::pass;
}

std::string read_stdin() {
  std::string out;
  std::array<char, 8192> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), stdin)) > 0) out.append(buf.data(), n);
  return out;
}

// The pre-commit framework runs a pre-push hook once per pushed ref with no
// stdin and no arguments, describing the ref in PRE_COMMIT_* variables:
// PRE_COMMIT_FROM_REF is the remote's tip (or, for a new remote ref, the
// parent of the first commit no remote has), and both it and
// PRE_COMMIT_TO_REF are missing when every commit of the ref is new to the
// remotes (the first push to an empty remote): then the local branch is the
// pushed tip.
Result<void> from_pre_commit_framework(HooksOptions& o, std::string& input, const git::Repository& repo) {
  const char* remote = std::getenv("PRE_COMMIT_REMOTE_NAME");
  if (!input.empty() || remote == nullptr) return {};
  const char* local_branch = std::getenv("PRE_COMMIT_LOCAL_BRANCH");
  const char* remote_branch = std::getenv("PRE_COMMIT_REMOTE_BRANCH");
  const char* from_ref = std::getenv("PRE_COMMIT_FROM_REF");
  const char* to_ref = std::getenv("PRE_COMMIT_TO_REF");
  std::string to;
  if (to_ref != nullptr) {
    to = to_ref;
  } else if (local_branch != nullptr) {
    LG_TRY(const git::ObjectId tip, repo.resolve_commit(local_branch));
    to = tip.hex();
  } else {
    return {};  // nothing pushed
  }
  const std::string zero(git::ObjectId::k_hex_size, '0');
  const bool from_known = from_ref != nullptr && git::ObjectId::from_hex(from_ref).has_value();
  input = fmt::format("{} {} {} {}\n", local_branch ? local_branch : "HEAD", to,
                      remote_branch ? remote_branch : "HEAD", from_known ? std::string(from_ref) : zero);
  if (o.run_args.empty()) o.run_args.push_back(remote);
  return {};
}

// Prints one judgement; `quiet_pass` prints nothing for a pass without findings.
void print_judgement(std::string_view hook, const hooks::Judgement& j, bool quiet_pass) {
  if (quiet_pass && j.verdict == hooks::Verdict::pass && j.findings.empty()) return;
  std::fputs(report::render_judgement(hook, j).c_str(), stdout);
}

// The gate and baseline the options name.
Result<hooks::JudgeOptions> judge_options(const HooksOptions& o) {
  hooks::JudgeOptions out;
  if (!o.gate.empty()) out.gate = diag::parse_gate(o.gate);
  if (!o.baseline.empty()) {
    LG_TRY(out.baseline, read_baseline(o.baseline));
  }
  return out;
}

// Judges what `hook` is given; the worst verdict decides.
Result<hooks::Verdict> judge(const HooksOptions& o, const git::Repository& repo, const std::string& input) {
  LG_TRY(const hooks::JudgeOptions options, judge_options(o));
  std::vector<hooks::Judgement> judged;
  if (o.run_name == "pre-commit" || o.run_name == "pre-merge-commit") {
    LG_TRY(hooks::Judgement j, hooks::judge_index(repo, options));
    judged.push_back(std::move(j));
  } else if (o.run_name == "pre-push") {
    LG_TRY(const std::vector<hooks::PushedRef> pushed, hooks::parse_pre_push(input));
    if (!pushed.empty() && o.run_args.empty()) {
      return make_error(ErrorKind::usage, "pre-push: the remote's name is missing");
    }
    LG_TRY(git::TrialRepo trial, git::TrialRepo::open(repo));
    for (const hooks::PushedRef& p : pushed) {
      LG_TRY(hooks::Judgement j, hooks::judge_push(repo, trial, o.run_args[0], p, options));
      judged.push_back(std::move(j));
    }
  } else {
    std::vector<hooks::RefUpdate> updates;
    if (o.run_name == "update") {
      if (o.run_args.size() != 3) return make_error(ErrorKind::usage, "update: expected <ref> <old sha> <new sha>");
      LG_TRY(hooks::RefUpdate u, hooks::parse_update_args(o.run_args[0], o.run_args[1], o.run_args[2]));
      updates.push_back(std::move(u));
    } else {
      LG_TRY(updates, hooks::parse_pre_receive(input));
    }
    for (const hooks::RefUpdate& u : updates) {
      LG_TRY(hooks::Judgement j, hooks::judge_receive(repo, u, options));
      judged.push_back(std::move(j));
    }
  }
  hooks::Verdict worst = hooks::Verdict::pass;
  const bool quiet = o.run_name != "pre-push";
  for (const hooks::Judgement& j : judged) {
    print_judgement(o.run_name, j, quiet);
    if (j.verdict == hooks::Verdict::error || (j.verdict == hooks::Verdict::fail && worst == hooks::Verdict::pass)) {
      worst = j.verdict;
    }
  }
  return worst;
}

ExitCode run_hook(const HooksOptions& o, const Globals& g) {
  auto refuse_with = [](const std::string& line, ExitCode code) {
    std::fflush(stdout);
    std::fputs(line.c_str(), stderr);
    return code;
  };
  auto refuse = [&](std::string_view why, ExitCode code) {
    return refuse_with(report::render_hook_refusal(o.run_name, why), code);
  };
  auto repo = g.repo.empty() ? git::Repository::open_from_environment() : open_repo(g);
  if (!repo) {
    report_error(repo.error());
    return refuse("cannot judge", ExitCode::error);
  }
  const bool reads_stdin = o.run_name == "pre-push" || o.run_name == "pre-receive";
  std::string input = reads_stdin ? read_stdin() : std::string();
  // The hook that was there before ours runs first; its refusal stands.
  auto dir = hooks::hooks_dir(*repo);
  if (!dir) {
    report_error(dir.error());
    return refuse("cannot judge", ExitCode::error);
  }
  std::fflush(stdout);
  auto original = hooks::run_original(*dir, o.run_name, o.run_args, reads_stdin ? &input : nullptr);
  if (!original) {
    report_error(original.error());
    return refuse("the original hook could not run", ExitCode::error);
  }
  if (*original > 0) {
    return refuse_with(
        report::render_original_hook_refusal(o.run_name, hooks::original_path(*dir, o.run_name), *original),
        ExitCode::fail);
  }
  HooksOptions options = o;
  if (o.run_name == "pre-push") {
    if (auto r = from_pre_commit_framework(options, input, *repo); !r) {
      report_error(r.error());
      return refuse("cannot judge", ExitCode::error);
    }
  }
  auto verdict = judge(options, *repo, input);
  if (!verdict) {
    report_error(verdict.error());
    return refuse("cannot judge", ExitCode::error);
  }
  switch (*verdict) {
    case hooks::Verdict::pass: return ExitCode::pass;
    case hooks::Verdict::fail: {
      const bool server = o.run_name == "pre-receive" || o.run_name == "update";
      return refuse(server ? "see above" : "see above (git's --no-verify skips this hook)", ExitCode::fail);
    }
    case hooks::Verdict::error: return refuse("cannot judge", ExitCode::error);
  }
  return ExitCode::error;
}

}  // namespace

void setup_hooks(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<HooksOptions>();
  CLI::App* cmd = app.add_subcommand("hooks", "Install, remove, inspect or run ledgergate's git hooks");
  cmd->require_subcommand(1);
  const std::vector<std::string> names(hooks::known_hooks().begin(), hooks::known_hooks().end());

  CLI::App* install = cmd->add_subcommand(
      "install", "Install the hook shims (default: pre-commit, pre-merge-commit, pre-push; bare: pre-receive, update)");
  install->add_option("--hook", opts->hooks, "A hook to install (repeatable)")->check(CLI::IsMember(names));
  install->add_flag("--merge-driver", opts->merge_driver,
                    "Also register the merge driver for the ledger files (as `merge-driver install` does)");
  install->callback([opts, &globals] { globals.exit_code = run_install(*opts, globals, true); });

  CLI::App* uninstall =
      cmd->add_subcommand("uninstall", "Remove ledgergate's shims and put back the hooks they chained");
  uninstall->add_option("--hook", opts->hooks, "A hook to remove (repeatable; default: all)")
      ->check(CLI::IsMember(names));
  uninstall->callback([opts, &globals] { globals.exit_code = run_install(*opts, globals, false); });

  CLI::App* status = cmd->add_subcommand(
      "status", "Show which hooks are installed, where, and whether the binary each runs is still there");
  status->callback([&globals] { globals.exit_code = run_status(globals); });

  CLI::App* run = cmd->add_subcommand("run", "Run a hook (what the shims call): exit 0 lets git go on");
  run->add_option("name", opts->run_name, "The hook")->required()->check(CLI::IsMember(names));
  run->add_option("args", opts->run_args, "The hook's arguments, as git passes them");
  run->add_option("--gate", opts->gate,
                  "Fail on the error findings the change introduces (new) or on every error of its tree (all); "
                  "default: the judging policy's `gate:`, new")
      ->check(CLI::IsMember({"new", "all"}));
  run->add_option("--baseline", opts->baseline,
                  "A baseline file whose findings never fail (default: the one the judging policy's `baseline:` "
                  "names)");
  run->callback([opts, &globals] { globals.exit_code = run_hook(*opts, globals); });
}

}  // namespace lg::cli
