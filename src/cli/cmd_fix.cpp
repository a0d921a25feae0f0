// `ledgergate fix [--worktree | --index | --root DIR] [--rule ID ...] [--diff]
// [--commit [-m MSG]]`: applies the certain fixes (only the rules named with
// --rule, suggested ones included, when any is named) through the writer
// verbs' path (write/apply.hpp: validated, then written atomically or
// committed from objects), or prints them as a unified diff.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>

#include "commands.hpp"
#include "errors.hpp"
#include "terminal.hpp"
#include "ledgergate/fix/engine.hpp"
#include "ledgergate/git/index_stage.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/report/fix.hpp"
#include "ledgergate/report/notices.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/text.hpp"
#include "ledgergate/write/apply.hpp"
#include "ledgergate/write/atomic_file.hpp"

namespace lg::cli {
namespace {

struct FixOptions {
  bool worktree = false, index = false, diff = false, commit = false;
  std::string root, message, branch, profile;
  std::vector<std::string> rules;
};

// The branch HEAD names, for --commit without --branch.
Result<std::string> commit_branch(const git::Repository& repo) {
  if (auto name = git::head_branch(repo)) return *name;
  return make_error(ErrorKind::usage, "HEAD names no branch: say which with --branch");
}

// --rule: known ids (or spec labels) whose fix is not a human's call, as ids.
Result<std::vector<std::string>> rule_ids(const std::vector<std::string>& named) {
  std::vector<std::string> out;
  for (const std::string& name : named) {
    const diag::RuleInfo* r = rules::find_rule(name);
    if (!r) return make_error(ErrorKind::usage, "--rule " + name + ": no such rule (see `ledgergate rules`)");
    if (r->fix.kind == diag::FixKind::none) {
      return make_error(ErrorKind::usage, "--rule " + name + ": " + std::string(r->id) + " has no automatic fix (" +
                                              std::string(r->fix.what) + ")");
    }
    out.emplace_back(r->id);
  }
  return out;
}

// What the command fixes: a tree to read and where a write goes.
struct Target {
  std::optional<git::Repository> repo;
  std::unique_ptr<git::TreeSource> tree;
  std::string folder;  // the folder written (worktree, --root); "" for --commit and --index
  std::string branch;  // --commit
};

Result<Target> open_target(const FixOptions& o, const Globals& g) {
  Target t;
  if (!o.root.empty()) {
    t.folder = o.root;
    LG_TRY(t.tree, git::open_directory_source(o.root));
    return t;
  }
  LG_TRY(git::Repository repo, git::Repository::open(g.repo.empty() ? "." : g.repo, true));
  t.repo.emplace(std::move(repo));
  if (o.commit) {
    t.branch = o.branch;
    if (t.branch.empty()) {
      LG_TRY(t.branch, commit_branch(*t.repo));
    }
    LG_TRY(git::ObjectId tip, t.repo->resolve_commit("refs/heads/" + t.branch));
    LG_TRY(git::ObjectId tree, t.repo->commit_tree(tip));
    LG_TRY(t.tree, git::open_tree_source(*t.repo, tree, t.branch));
    return t;
  }
  if (o.index) {
    LG_TRY(t.tree, git::open_index_source(*t.repo));
    return t;
  }
  if (t.repo->is_bare()) return make_error(ErrorKind::usage, "the repository is bare: use --commit");
  t.folder = t.repo->workdir();
  LG_TRY(t.tree, git::open_directory_source(t.folder));
  return t;
}

ExitCode verdict_of(const fix::FixReport& r) {
  bool error = false;
  for (const diag::Finding& f : r.after) {
    if (f.cannot_judge) return ExitCode::error;
    error = error || f.severity == diag::Severity::error;
  }
  return error || !r.refused.empty() ? ExitCode::fail : ExitCode::pass;
}

// --index: the staged tree fixed and validated as the verbs validate an
// edit, the fixed files staged; a working-tree file that held what the index
// held is written too, so the two stay alike (one with unstaged changes is
// left as it is, and said so).
ExitCode fix_index(Target& t, const fix::FixOptions& options, const write::ApplyOptions& apply, bool color) {
  auto fixed = fix::fix_tree(*t.tree, options);
  if (!fixed) return report_error(fixed.error());
  const fix::FixReport& report = *fixed;
  std::vector<write::FileEdit> edits;
  std::vector<std::pair<std::string, std::string>> staged;
  for (const fix::ChangedFile& f : report.files) {
    edits.push_back(write::FileEdit{f.path, f.after});
    staged.emplace_back(f.path, f.after);
  }
  auto refusal = write::validate_edit(*t.tree, edits, apply);
  if (!refusal) return report_error(refusal.error());
  if (*refusal) {
    print_error((*refusal)->message);
    return ExitCode::fail;
  }
  if (!staged.empty()) {
    if (auto done = git::stage_files(*t.repo, staged); !done) return report_error(done.error());
  }
  std::fputs(report::render_fix(report, color).c_str(), stdout);
  for (const fix::ChangedFile& f : report.files) {
    const std::string path = t.repo->workdir() + f.path;
    std::ifstream in(path, std::ios::binary);
    const std::string disk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in && disk == f.before) {
      if (auto written = write::write_file_atomically(path, f.after); !written) return report_error(written.error());
    } else {
      print_warning(f.path + ": staged the fix; the working tree's copy differs from the index and is left as it is");
    }
  }
  std::fputs(report::render_fix_summary(report, !report.files.empty()).c_str(), stderr);
  return verdict_of(report);
}

ExitCode run_fix(const FixOptions& o, const Globals& g) {
  auto ids = rule_ids(o.rules);
  if (!ids) return report_error(ids.error());
  auto target = open_target(o, g);
  if (!target) return report_error(target.error());
  auto policy = policy::load_policy(*target->tree);
  if (!policy) return report_error(policy.error());
  fix::FixOptions options;
  options.check = policy::check_options(*policy);
  options.rules = *ids;
  write::ApplyOptions apply;
  apply.policy = options.check;
  if (!o.profile.empty()) {
    auto profile = ledger::parse_profile(o.profile);
    if (!profile) return report_error(profile.error());
    options.check.profile = o.profile;
    apply.profile = *profile;
  }
  fix::FixReport report;
  const bool color = use_color(g.color, stdout);
  if (o.diff) {
    auto fixed = fix::fix_tree(*target->tree, options);
    if (!fixed) return report_error(fixed.error());
    report = std::move(*fixed);
    std::fputs(report::render_fix_diff(report.files).c_str(), stdout);
    std::fputs(report::render_fix_summary(report, false).c_str(), stderr);
    return verdict_of(report);
  }
  if (o.index) return fix_index(*target, options, apply, color);
  Result<write::Applied> applied = make_error(ErrorKind::internal, "fix: no target");
  const write::Editor editor = fix::fix_editor(options, &report);
  if (o.commit) {
    applied = write::apply_as_commit(*target->repo, target->branch, editor, o.message, apply);
  } else {
    applied = write::apply_to_directory(target->folder, editor, apply);
  }
  if (!applied) return report_error(applied.error());
  if (const auto* refusal = std::get_if<write::Refusal>(&applied->outcome)) {
    print_error(refusal->message);
    return ExitCode::fail;
  }
  std::fputs(report::render_fix(report, color).c_str(), stdout);
  std::fputs(report::render_fix_summary(report, !report.files.empty()).c_str(), stderr);
  if (applied->commit) std::fputs(report::render_written_id(*applied->commit).c_str(), stdout);
  return verdict_of(report);
}

}  // namespace

void setup_fix(CLI::App& app, Globals& globals) {
  auto o = std::make_shared<FixOptions>();
  CLI::App* cmd = app.add_subcommand(
      "fix", "Apply the certain fixes (and, by --rule, suggested ones) to the working tree, validated before writing");
  auto* worktree = cmd->add_flag("--worktree", o->worktree, "Fix the repository's working tree (the default)");
  auto* index = cmd->add_flag("--index", o->index,
                              "Fix the tree the index would commit: stage the fixed files (and write those the working "
                              "tree holds unchanged)");
  auto* root = cmd->add_option("--root", o->root, "Fix a plain folder (no git needed)");
  auto* commit = cmd->add_flag("--commit", o->commit,
                               "Commit the fixes to --branch from objects (no checkout, no index; works on a bare repository)");
  cmd->add_option("-m,--message", o->message, "The commit message of --commit (default: the fixes' summary)")
      ->needs(commit);
  cmd->add_option("--branch", o->branch, "The branch --commit moves (default: the one HEAD names)")->needs(commit);
  cmd->add_option("--rule", o->rules,
                  "Fix only this rule (id or spec label; repeatable): a suggested fix is applied only when named")
      ->type_name("RULE")
      ->allow_extra_args(false);
  cmd->add_flag("--diff", o->diff, "Print the fixes as a unified diff and write nothing");
  cmd->add_option("--profile", o->profile, "Pin the ledger profile instead of detecting it (cortex-projects, ...)");
  worktree->excludes(index)->excludes(root)->excludes(commit);
  index->excludes(root)->excludes(commit);
  root->excludes(commit);
  cmd->callback([o, &globals] { globals.exit_code = run_fix(*o, globals); });
}

}  // namespace lg::cli
