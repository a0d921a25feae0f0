// `ledgergate init [DIR] [--profile cortex-projects]`: a new ledger
// repository from nothing — the repository (`git init` when DIR is not one),
// the empty ledger and its policy file (write/init.hpp, written and checked
// as the writer verbs write), the hooks and the merge driver. Nothing that
// exists is overwritten: a file of the ledger, a hook that is not
// ledgergate's or a merge driver that is not refuses before anything is
// written (exit 1).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <variant>

#include "commands.hpp"
#include "errors.hpp"
#include "own_binary.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/hooks/install.hpp"
#include "ledgergate/hooks/merge_driver.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/report/commands.hpp"
#include "ledgergate/report/merge_driver.hpp"
#include "ledgergate/util/clock.hpp"
#include "ledgergate/write/apply.hpp"
#include "ledgergate/write/init.hpp"

namespace lg::cli {
namespace {

struct InitOptions {
  std::string dir = ".";
  std::string profile = "cortex-projects";
};

// The repository at `dir` (its top level), or a new one.
Result<git::Repository> open_or_init(const std::string& dir) {
  if (auto repo = git::Repository::open(dir, false)) return repo;
  return git::Repository::init(dir);
}

// The hooks and driver that are someone else's: init would have to replace them.
Result<std::optional<std::string>> foreign_setup(const git::Repository& repo, const std::string& hooks_dir) {
  for (const std::string& name : hooks::default_hooks(repo.is_bare())) {
    LG_TRY(const hooks::HookStatus status, hooks::hook_status(hooks_dir, name));
    if (status.state == hooks::HookState::foreign) {
      return std::optional<std::string>(status.path + " already exists: init installs no hook over another");
    }
  }
  LG_TRY(const hooks::DriverStatus driver, hooks::merge_driver_status(repo, {}));
  if (driver.driver && !driver.driver_ours) {
    return std::optional<std::string>(std::string(hooks::k_driver_key) +
                                      " is already set (not ledgergate's): init installs no driver over another");
  }
  return std::optional<std::string>();
}

ExitCode run_init(const InitOptions& o) {
  auto profile = ledger::parse_profile(o.profile);
  if (!profile) return report_error(profile.error());
  if (profile->layout != ledger::Layout::cortex_projects) {
    return report_error(Error{ErrorKind::usage, "init starts a cortex-projects ledger only, not " + o.profile});
  }
  auto binary = own_binary();
  if (!binary) return report_error(binary.error());
  std::error_code ec;
  if (std::filesystem::exists(o.dir, ec) && !std::filesystem::is_directory(o.dir, ec)) {
    return report_error(Error{ErrorKind::usage, o.dir + " is not a directory"});
  }
  const write::InitArgs args{*profile, util::format_now("%Y-%m-%dT%H:%MZ", util::Zone::utc)};
  // A folder that is no repository yet is judged before `git init`, so that
  // a refusal leaves it as it was.
  if (!git::Repository::open(o.dir, false) && std::filesystem::is_directory(o.dir, ec)) {
    auto folder = git::open_directory_source(o.dir);
    if (!folder) return report_error(folder.error());
    auto outcome = write::init_ledger(args)(**folder);
    if (!outcome) return report_error(outcome.error());
    if (const auto* refusal = std::get_if<write::Refusal>(&*outcome)) {
      std::fputs(report::render_init_refusal(refusal->message).c_str(), stderr);
      return ExitCode::fail;
    }
  }
  auto repo = open_or_init(o.dir);
  if (!repo) return report_error(repo.error());
  if (repo->is_bare()) return report_error(Error{ErrorKind::usage, o.dir + " is a bare repository: init needs a working tree"});
  auto hooks_dir = hooks::hooks_dir(*repo);
  if (!hooks_dir) return report_error(hooks_dir.error());
  auto foreign = foreign_setup(*repo, *hooks_dir);
  if (!foreign) return report_error(foreign.error());
  if (*foreign) {
    std::fputs(report::render_init_refusal(**foreign).c_str(), stderr);
    return ExitCode::fail;
  }

  // The ledger's files, checked as a writer verb's edit is and written atomically.
  write::ApplyOptions options;
  options.profile = *profile;
  auto applied = write::apply_to_directory(repo->workdir(), write::init_ledger(args), options);
  if (!applied) return report_error(applied.error());
  if (const auto* refusal = std::get_if<write::Refusal>(&applied->outcome)) {
    std::fputs(report::render_init_refusal(refusal->message).c_str(), stderr);
    return ExitCode::fail;
  }
  std::fputs(report::render_init_written(repo->workdir(), profile->name(), applied->written).c_str(), stdout);

  std::fputs(report::render_hooks_dir(*hooks_dir).c_str(), stdout);
  for (const std::string& name : hooks::default_hooks(false)) {
    auto change = hooks::install_hook(*hooks_dir, name, *binary);
    if (!change) return report_error(change.error());
    std::fputs(report::render_hook_change(*change).c_str(), stdout);
  }
  hooks::DriverSetup driver;
  driver.binary = *binary;
  driver.patterns = hooks::driver_patterns(profile->layout, std::string(ledger::k_default_open_requirements_glob));
  auto installed = hooks::install_merge_driver(*repo, driver);
  if (!installed) return report_error(installed.error());
  std::fputs(report::render_driver_change(*installed).c_str(), stdout);
  std::fputs(report::render_init_next().c_str(), stdout);
  return ExitCode::pass;
}

}  // namespace

void setup_init(CLI::App& app, Globals& globals) {
  auto o = std::make_shared<InitOptions>();
  CLI::App* cmd = app.add_subcommand(
      "init", "Start a new ledger repository: an empty ledger, its policy file, the hooks and the merge driver");
  cmd->add_option("dir", o->dir, "The repository's folder (default: the current one; made, and `git init`ed, when needed)");
  cmd->add_option("--profile", o->profile, "The layout to start (cortex-projects, the only one init starts)")
      ->check(CLI::IsMember({"cortex-projects"}));
  cmd->footer("Nothing that exists is overwritten: a ledger file, a hook or a merge driver already there refuses "
              "(exit 1) before anything is written.");
  cmd->callback([o, &globals] { globals.exit_code = run_init(*o); });
}

}  // namespace lg::cli
