// `ledgergate renumber ID [--to NEW|next] (--rev BRANCH | --worktree) [--onto REV]`:
// re-assigns a ruling id on a branch (the ruling-id race). Exit 0 renumbered;
// 1 refused, nothing written (the id is public, the new id is taken, or the
// result would add check findings); 2 could not run.

#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "errors.hpp"
#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/merge/renumber.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/report/commands.hpp"
#include "ledgergate/report/notices.hpp"

namespace lg::cli {
namespace {

struct RenumberOptions {
  std::string id;
  std::string to = "next";
  std::string rev;
  bool worktree = false;
  std::string onto = "main";
};

struct Target {
  std::unique_ptr<git::TreeSource> tree;
  git::ObjectId tip;      // the commit the branch's changes sit on (HEAD for --worktree)
  std::string ref_name;   // --rev: the local branch's full ref name
  std::string label;
};

Result<Target> open_rev(const git::Repository& repo, const std::string& name) {
  const std::optional<git::LocalBranch> branch = git::find_local_branch(repo, name);
  if (!branch) return make_error(ErrorKind::usage, "--rev " + name + " is not a local branch");
  if (!branch->tip) return make_error(ErrorKind::usage, "--rev " + name + " is a symbolic reference");
  if (branch->checked_out) {
    return make_error(ErrorKind::usage, name + " is checked out in a working tree: renumber it there with --worktree");
  }
  Target t;
  t.ref_name = branch->ref_name;
  t.tip = *branch->tip;
  t.label = name;
  LG_TRY(git::ObjectId tree, repo.commit_tree(t.tip));
  LG_TRY(t.tree, git::open_tree_source(repo, tree, name));
  return t;
}

Result<Target> open_worktree(const git::Repository& repo) {
  if (repo.is_bare()) return make_error(ErrorKind::usage, "--worktree needs a working tree (the repository is bare)");
  Target t;
  LG_TRY(t.tip, repo.resolve_commit("HEAD"));
  t.label = "the working tree";
  LG_TRY(t.tree, git::open_directory_source(repo.workdir()));
  return t;
}

ExitCode run_renumber(const RenumberOptions& o, const Globals& g) {
  if (o.worktree == !o.rev.empty()) return report_error(make_error(ErrorKind::usage, "give exactly one of --rev BRANCH or --worktree"));
  auto repo = git::Repository::open(g.repo.empty() ? "." : g.repo, true);
  if (!repo) return report_error(repo.error());
  auto target = o.worktree ? open_worktree(*repo) : open_rev(*repo, o.rev);
  if (!target) return report_error(target.error());
  auto upstream = repo->resolve_commit(o.onto);
  if (!upstream) return report_error(upstream.error());
  auto upstream_tree_id = repo->commit_tree(*upstream);
  if (!upstream_tree_id) return report_error(upstream_tree_id.error());
  auto upstream_tree = git::open_tree_source(*repo, *upstream_tree_id, o.onto);
  if (!upstream_tree) return report_error(upstream_tree.error());
  auto bases = git::merge_bases(*repo, target->tip, *upstream);
  if (!bases) return report_error(bases.error());
  // The branch is checked the way `check` checks it: with its own policy.
  auto pol = policy::load_policy(*target->tree);
  if (!pol) return report_error(pol.error());

  // An id is public when any merge base holds it (several in a criss-cross
  // history): the plan is made against each, and the first refusal stands.
  merge::RenumberRequest request{o.id, o.to, o.onto, target->label};
  Result<merge::RenumberPlan> plan = make_error(ErrorKind::internal, "no merge base");
  for (const git::ObjectId& mb : *bases) {
    auto mb_tree_id = repo->commit_tree(mb);
    if (!mb_tree_id) return report_error(mb_tree_id.error());
    auto mb_tree = git::open_tree_source(*repo, *mb_tree_id, "merge-base");
    if (!mb_tree) return report_error(mb_tree.error());
    plan = merge::plan_renumber(*target->tree, **upstream_tree, **mb_tree, request, policy::check_options(*pol));
    if (!plan || plan->refused()) break;
  }
  if (!plan) return report_error(plan.error());
  if (plan->refused()) {
    std::fputs(report::render_renumber_refusal(*plan).c_str(), stdout);
    return ExitCode::fail;
  }
  std::fputs(report::render_renumber_plan(*plan, target->label).c_str(), stdout);
  if (o.worktree) {
    if (auto r = merge::write_renumber(repo->workdir(), *plan); !r) return report_error(r.error());
    std::fputs(report::render_renumber_written().c_str(), stdout);
    return ExitCode::pass;
  }
  auto commit = merge::commit_renumber(*repo, target->ref_name, target->tip, *plan);
  if (!commit) return report_error(commit.error());
  std::fputs(report::render_renumber_commit(*commit, target->ref_name, target->tip).c_str(), stdout);
  return ExitCode::pass;
}

}  // namespace

void setup_renumber(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<RenumberOptions>();
  CLI::App* cmd = app.add_subcommand(
      "renumber", "Re-assign a ruling id on a branch (the ruling-id race): move the ruling, rewrite its references");
  cmd->add_option("id", opts->id, "The ruling id to re-assign (R-YYYYMMDD-nn)")->required();
  cmd->add_option("--to", opts->to,
                  "The new id, or next: the lowest free number of that day on the branch and on --onto (default)");
  auto* rev = cmd->add_option("--rev", opts->rev, "Write one commit on this local branch (compare-and-swap on its ref)");
  auto* wt = cmd->add_flag("--worktree", opts->worktree, "Edit the working tree's files instead (nothing staged)");
  rev->excludes(wt);
  cmd->add_option("--onto", opts->onto, "The branch it races with (default main): its ids are taken, and an id cited "
                                        "in the merge base with it is public");
  cmd->callback([opts, &globals] { globals.exit_code = run_renumber(*opts, globals); });
}

}  // namespace lg::cli
