// `ledgergate recover [--root DIR]`: finish (or discard) the ledgergate
// writes a crash or a kill interrupted in a working tree, and remove the
// staged files of writers that are gone (write/recovery.hpp). Every writer
// does the same first; this is the command for when no write is due.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "errors.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/report/notices.hpp"
#include "ledgergate/write/recovery.hpp"

namespace lg::cli {
namespace {

struct RecoverOptions {
  std::string root;
};

ExitCode run_recover(const RecoverOptions& o, const Globals& g) {
  std::string folder = o.root;
  if (folder.empty()) {
    auto repo = git::Repository::open(g.repo.empty() ? "." : g.repo, true);
    if (!repo) return report_error(repo.error());
    if (repo->is_bare()) return report_error(Error{ErrorKind::usage, "the repository is bare: it has no working tree"});
    folder = repo->workdir();
  }
  auto done = write::recover_writes(folder);
  if (!done) return report_error(done.error());
  std::fputs(report::render_recovery(*done).c_str(), stdout);
  return ExitCode::pass;
}

}  // namespace

void setup_recover(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<RecoverOptions>();
  CLI::App* cmd = app.add_subcommand(
      "recover", "Finish (or discard) ledgergate writes a crash or kill interrupted, and remove their staged files");
  cmd->add_option("--root", opts->root, "The folder written (default: the repository's working tree)");
  cmd->footer("A write interrupted after its commit point is finished; one interrupted before it is discarded. "
              "Every ledgergate write does this first; `check --worktree` refuses to judge a tree until then.");
  cmd->callback([opts, &globals] { globals.exit_code = run_recover(*opts, globals); });
}

}  // namespace lg::cli
