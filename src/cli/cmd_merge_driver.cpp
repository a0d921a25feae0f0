// `ledgergate merge-driver install|uninstall|status [--attributes-file
// info|committed] [--profile P] [--force]`: registers `ledgergate
// merge-file` as the git merge driver of the detected profile's ledger paths
// (hooks/merge_driver.hpp), removes it, or shows it.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "errors.hpp"
#include "ledgergate/hooks/merge_driver.hpp"
#include "ledgergate/report/merge_driver.hpp"
#include "merge_driver.hpp"
#include "own_binary.hpp"

namespace lg::cli {
namespace {

hooks::AttributesFile attributes_file(const MergeDriverOptions& o) {
  return o.attributes_file == "committed" ? hooks::AttributesFile::committed : hooks::AttributesFile::info;
}

Result<hooks::DriverSetup> setup_for(const git::Repository& repo, const MergeDriverOptions& o) {
  hooks::DriverSetup setup;
  LG_TRY(setup.binary, own_binary());
  LG_TRY(setup.patterns, hooks::detected_patterns(repo, o.profile));
  setup.file = attributes_file(o);
  setup.force = o.force;
  return setup;
}

Result<git::Repository> open_repo(const Globals& g) { return git::Repository::open(g.repo.empty() ? "." : g.repo, true); }

ExitCode run_uninstall(const MergeDriverOptions& o, const Globals& g) {
  auto repo = open_repo(g);
  if (!repo) return report_error(repo.error());
  auto change = hooks::uninstall_merge_driver(*repo, attributes_file(o), o.force);
  if (!change) return report_error(change.error());
  std::fputs(report::render_driver_change(*change).c_str(), stdout);
  return ExitCode::pass;
}

ExitCode run_status(const MergeDriverOptions& o, const Globals& g) {
  auto repo = open_repo(g);
  if (!repo) return report_error(repo.error());
  auto setup = setup_for(*repo, o);
  if (!setup) return report_error(setup.error());
  auto status = hooks::merge_driver_status(*repo, *setup);
  if (!status) return report_error(status.error());
  std::fputs(report::render_driver_status(*status).c_str(), stdout);
  return ExitCode::pass;
}

}  // namespace

ExitCode install_merge_driver(const git::Repository& repo, const MergeDriverOptions& o) {
  auto setup = setup_for(repo, o);
  if (!setup) return report_error(setup.error());
  auto change = hooks::install_merge_driver(repo, *setup);
  if (!change) return report_error(change.error());
  std::fputs(report::render_driver_change(*change).c_str(), stdout);
  return ExitCode::pass;
}

bool merge_driver_installed(const git::Repository& repo) {
  auto status = hooks::merge_driver_status(repo, {});
  return status && status->driver_ours && status->block;
}

void setup_merge_driver(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<MergeDriverOptions>();
  CLI::App* cmd = app.add_subcommand(
      "merge-driver", "Register `ledgergate merge-file` as git's merge driver for the ledger files (see merge-file)");
  cmd->require_subcommand(1);
  const auto add_common = [&](CLI::App* sub) {
    sub->add_option("--attributes-file", opts->attributes_file,
                    "Where the patterns go: info (info/attributes in the common git dir, the default) or committed (the "
                    "working tree's .gitattributes)")
        ->check(CLI::IsMember({"info", "committed"}));
  };
  CLI::App* install = cmd->add_subcommand(
      "install", "Set merge.ledgergate.* in the repository's config and add the detected profile's ledger patterns");
  add_common(install);
  install->add_option("--profile", opts->profile, "Pin the layout whose ledger paths are registered (default: HEAD's)");
  install->add_flag("--force", opts->force,
                    "Replace a merge.ledgergate.driver that is not ledgergate's (saved for uninstall to put back)");
  install->callback([opts, &globals] {
    auto repo = open_repo(globals);
    globals.exit_code = repo ? install_merge_driver(*repo, *opts) : report_error(repo.error());
  });
  CLI::App* uninstall =
      cmd->add_subcommand("uninstall", "Remove the driver's config keys (putting back what install --force replaced) "
                                      "and the attributes block install added");
  add_common(uninstall);
  uninstall->add_flag("--force", opts->force, "Remove merge.ledgergate.* even when it is not ledgergate's");
  uninstall->callback([opts, &globals] { globals.exit_code = run_uninstall(*opts, globals); });
  CLI::App* status = cmd->add_subcommand("status", "Show the driver's config and attributes and whether they match");
  add_common(status);
  status->add_option("--profile", opts->profile, "Pin the layout to compare the patterns with (default: HEAD's)");
  status->callback([opts, &globals] { globals.exit_code = run_status(*opts, globals); });
}

}  // namespace lg::cli
