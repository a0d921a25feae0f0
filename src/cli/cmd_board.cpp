// `ledgergate board [REV | --root DIR] [--format md|html] [--out FILE]` and
// `board --check FILE`: render the newest era's board from a commit's objects
// (no checkout), write it atomically, or say whether a committed page is
// stale (exit 1) once its generated line and banner are set aside.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "errors.hpp"
#include "file_io.hpp"
#include "page_stamp.hpp"
#include "ledgergate/board/board.hpp"
#include "ledgergate/git/config.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/report/board.hpp"

namespace lg::cli {
namespace {

struct BoardCliOptions {
  std::string rev;
  std::string root;
  std::string format;  // "" = md, or by --check FILE's extension
  std::string out;
  std::string check;
};

std::string format_of(const BoardCliOptions& o) {
  if (!o.format.empty()) return o.format;
  const std::string& file = !o.check.empty() ? o.check : o.out;
  return file.ends_with(".html") || file.ends_with(".htm") ? "html" : "md";
}

Result<board::Board> read(const BoardCliOptions& o, const Globals& g) {
  std::unique_ptr<git::TreeSource> tree;
  std::optional<git::Repository> repo;
  board::BoardOptions options;
  if (!o.root.empty()) {
    auto dir = git::open_directory_source(o.root);
    if (!dir) return make_error(ErrorKind::usage, "--root " + o.root + " is not a directory");
    tree = std::move(*dir);
  } else {
    LG_TRY(git::Repository opened, git::Repository::open(g.repo.empty() ? "." : g.repo, true));
    repo.emplace(std::move(opened));
    const std::string label = o.rev.empty() ? "HEAD" : o.rev;
    LG_TRY(git::ObjectId commit, repo->resolve_commit(label));
    LG_TRY(git::ObjectId id, repo->commit_tree(commit));
    LG_TRY(tree, git::open_tree_source(*repo, id, label));
    // The home's last resort (decision 48): the remote, when the tree's own files name none.
    if (auto config = git::Config::snapshot(*repo)) {
      if (auto url = config->get_string("remote.origin.url"); url && *url) options.remote_url = **url;
    }
  }
  LG_TRY(policy::RepoPolicy policy, policy::load_policy(*tree));
  options.check = policy::check_options_for_own_tree(policy);
  options.stale_days = policy.board_stale_days;
  return board::read_board(*tree, options);
}

ExitCode run_board(const BoardCliOptions& o, const Globals& g) {
  auto b = read(o, g);
  if (!b) return report_error(b.error());
  const report::PageStamp stamp = page_stamp();
  const std::string page =
      format_of(o) == "html" ? report::render_board_html(*b, stamp) : report::render_board_md(*b, stamp);
  if (!o.check.empty()) {
    bool exists = false;
    auto committed = read_file_bytes(o.check, exists);
    if (!committed) return ExitCode::error;
    const bool same = exists && report::strip_volatile_lines(*committed) == report::strip_volatile_lines(page);
    std::fputs(report::render_board_check(o.check, exists, same).c_str(), same ? stdout : stderr);
    return same ? ExitCode::pass : ExitCode::fail;
  }
  if (!o.out.empty()) {
    if (!write_atomically(o.out, page)) return ExitCode::error;
    std::fputs(report::render_board_written(o.out).c_str(), stderr);
    return ExitCode::pass;
  }
  std::fputs(page.c_str(), stdout);
  return ExitCode::pass;
}

}  // namespace

void setup_board(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<BoardCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "board", "Render the board (dashboard.md / dashboard.html) of a cortex-projects ledger, or check a committed one");
  cmd->add_option("rev", opts->rev, "Commit to render (default: HEAD); read from objects, no checkout")->type_name("REV");
  cmd->add_option("--root", opts->root, "Render a plain folder instead (no git needed)");
  cmd->add_option("--format", opts->format,
                  "Page: md or html (default: by the --out/--check file's extension, else md)")
      ->check(CLI::IsMember({"md", "html"}));
  auto* out = cmd->add_option("-o,--out,--output", opts->out, "Write the page to FILE (atomically) instead of stdout");
  cmd->add_option("--check", opts->check,
                  "Exit 1 if the committed page FILE differs from a re-render, setting aside its generated "
                  "line and its Last updated banner; 0 if not")
      ->excludes(out);
  cmd->footer(
      "The page is deterministic: the same tree gives the same bytes but for the generated line and the "
      "banner (its time is SOURCE_DATE_EPOCH when set, else now). Exit codes: 0 rendered or up to date, "
      "1 --check found the page stale, 2 could not run.");
  cmd->callback([opts, &globals] {
    if (!opts->rev.empty() && !opts->root.empty()) {
      throw CLI::ValidationError("rev", "a revision cannot be combined with --root");
    }
    globals.exit_code = run_board(*opts, globals);
  });
}

}  // namespace lg::cli
