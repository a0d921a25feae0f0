// `ledgergate project VERB ...`: the ledger writer verbs (docs/writing.md). Each
// verb becomes an editor (write/cortex_r.hpp for era R), chosen by the
// layout of the tree it edits (detected on that tree, or pinned with
// --profile), and goes through write/apply.hpp: validated against the whole
// tree, then written atomically into a folder or committed from objects.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>

#include "cmd_project_pt.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/report/project.hpp"
#include "ledgergate/util/clock.hpp"
#include "ledgergate/util/text.hpp"
#include "ledgergate/write/apply.hpp"
#include "ledgergate/write/cortex_r.hpp"

namespace lg::cli {
namespace {

// Every option of every verb, in one place. An era's own options are members
// of its verb's args (write/verb_args.hpp) and are registered in that verb's
// add_* function below, so one option set serves every layout.
struct ProjectOptions {
  std::string root, format = "text", message, branch, profile;
  bool commit = false;
  write::NewArgs new_args;
  write::RunArgs run;
  write::RunningArgs running;
  write::DoneArgs done;
  write::LogArgs log;
  write::NowArgs now;
  write::IssueArgs issue;
  write::LinkArgs link;
  write::RetireArgs retire;
  PtOptions pt;  // era T/P: move, rule, gates, and new's SLUG and options
};

// A verb's editor for a profile; nullopt when the layout has no such verb.
// Era R's editors are chosen here; eras T and P add theirs (with_pt).
using EditorFor = std::function<Result<std::optional<write::Editor>>(const ledger::Profile&, write::EditNotes*)>;

// The editor that reads the layout off the tree it is given, so a retried
// commit decides on the new tip as it edits it.
write::Editor dispatching(const std::string& verb, const EditorFor& choose, std::optional<ledger::Profile> pinned,
                          write::EditNotes* notes) {
  return [verb, choose, pinned, notes](git::TreeSource& tree) -> Result<write::Outcome> {
    ledger::Profile profile;
    if (pinned) {
      profile = *pinned;
    } else {
      LG_TRY(auto detected, ledger::detect_layout(tree));
      profile = ledger::newest_profile(detected);
    }
    const ledger::Layout layout = profile.layout;
    LG_TRY(auto editor, choose(profile, notes));
    if (!editor) {
      if (layout == ledger::Layout::none) return make_error(ErrorKind::usage, "the tree holds no Cortex ledger layout");
      return make_error(ErrorKind::usage,
                        "`" + verb + "` is not a verb of the " + std::string(ledger::layout_name(layout)) + " layout");
    }
    return (*editor)(tree);
  };
}

void print(const report::ProjectOutput& o) {
  std::fputs(o.out.c_str(), stdout);
  std::fputs(o.err.c_str(), stderr);
}

// The branch HEAD names, for --commit without --branch.
Result<std::string> commit_branch(const git::Repository& repo) {
  if (auto name = git::head_branch(repo)) return *name;
  return make_error(ErrorKind::usage, "HEAD names no branch: say which with --branch");
}

// The check settings of the policy file of the tree a verb edits (rule
// severities, rules turned off), so a rule that policy makes a warning or
// turns off does not refuse the edit (as `check` of that tree would not
// fail on it).
Result<void> read_severities(git::TreeSource& tree, write::ApplyOptions& options) {
  LG_TRY(policy::RepoPolicy policy, policy::load_policy(tree));
  options.policy = policy::check_options(policy);
  return {};
}

Result<write::Applied> apply_to_folder(const std::string& root, const write::Editor& editor, write::ApplyOptions options) {
  LG_TRY(auto tree, git::open_directory_source(root));
  if (auto read = read_severities(*tree, options); !read) return read.error();
  return write::apply_to_directory(root, editor, options);
}

// The folder the verb's repository (or tree) is opened from: --root, else -C's, else ".".
std::string repo_dir(const ProjectOptions& o, const Globals& g) {
  return !o.root.empty() ? o.root : g.repo.empty() ? "." : g.repo;
}

// `branch`: the branch --commit moved (--branch, or the one HEAD names).
Result<write::Applied> apply(const ProjectOptions& o, const Globals& g, const write::Editor& editor,
                             write::ApplyOptions options, std::string& branch) {
  if (o.commit) {
    LG_TRY(git::Repository repo, git::Repository::open(repo_dir(o, g), true));
    branch = o.branch;
    if (branch.empty()) {
      LG_TRY(branch, commit_branch(repo));
    }
    // The tip's policy; a missing branch is apply_as_commit's error to report.
    if (auto tip = repo.resolve_commit("refs/heads/" + branch)) {
      LG_TRY(git::ObjectId tree_id, repo.commit_tree(*tip));
      LG_TRY(auto tree, git::open_tree_source(repo, tree_id, branch));
      if (auto read = read_severities(*tree, options); !read) return read.error();
    }
    return write::apply_as_commit(repo, branch, editor, o.message, options);
  }
  if (!o.root.empty()) return apply_to_folder(o.root, editor, options);
  LG_TRY(git::Repository repo, git::Repository::open(repo_dir(o, g), true));  // o.root is empty here
  if (repo.is_bare()) return make_error(ErrorKind::usage, "the repository is bare: use --commit");
  return apply_to_folder(repo.workdir(), editor, options);
}

ExitCode run_verb(const std::string& verb, const ProjectOptions& o, const Globals& g, std::string* today,
                  const EditorFor& choose) {
  expect_error_document("project", o.format);
  if (!o.root.empty() && !o.commit && !std::filesystem::is_directory(o.root)) {
    print(report::render_project_problem(verb, "--root " + util::py_path_text(o.root) + " is not a directory",
                                         o.format, diag::Verdict::error));
    return ExitCode::error;
  }
  // --today before every other check of the verb (spec §8.5.0).
  if (today && today->empty()) {
    *today = util::format_now("%Y-%m-%d", util::Zone::local);  // the reference's default `--today`
  } else if (today) {
    const auto date = write::today_value(*today);
    if (!date) {
      print(report::render_project_problem(verb, "--today must be YYYY-MM-DD, not " + *today, o.format,
                                           diag::Verdict::fail));
      return ExitCode::fail;
    }
    *today = *date;
  }
  write::ApplyOptions options;
  std::optional<ledger::Profile> pinned;
  if (!o.profile.empty()) {
    auto profile = ledger::parse_profile(o.profile);
    if (!profile) return report_error(profile.error());
    options.profile = *profile;
    pinned = *profile;
  }
  write::EditNotes notes;
  std::string branch;
  auto applied = apply(o, g, dispatching(verb, choose, pinned, &notes), options, branch);
  if (!applied) return report_error(applied.error());
  report::ProjectResult r;
  r.verb = verb;
  r.attempts = applied->attempts;
  r.branch = branch;
  if (const auto* refusal = std::get_if<write::Refusal>(&applied->outcome)) {
    r.refused = true;
    r.message = refusal->message;
    r.human = refusal->human;
  } else {
    const auto& change = std::get<write::Change>(applied->outcome);
    r.message = change.message;
    for (const write::FileEdit& f : change.files) r.paths.push_back(f.path);
    r.lines = notes.lines;
    if (applied->commit) r.commit = applied->commit->hex();
  }
  print(report::render_project(r, o.format));
  return r.refused ? ExitCode::fail : ExitCode::pass;
}

// A verb with the options every verb takes.
CLI::App* add_verb(CLI::App* project, const std::string& name, const std::string& help, ProjectOptions& o) {
  CLI::App* cmd = project->add_subcommand(name, help);
  // As the reference's argparse: an option given twice takes the last
  // value, and a long option may be shortened to a prefix naming only one.
  cmd->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  allow_option_prefixes(cmd);
  cmd->add_option("--root", o.root, "Edit the ledger tree in this folder (default: the repository's working tree)");
  cmd->add_option("--format", o.format, "cortex (the reference's lines), text or json")
      ->check(CLI::IsMember({"cortex", "text", "json"}));
  cmd->add_flag("--commit", o.commit,
                "Commit the edit to --branch (a bare repository too); where that branch is checked out, its index and "
                "files are brought up to date, as git commit leaves them");
  cmd->add_option("-m,--message", o.message, "The commit message (default: the verb's success line)");
  cmd->add_option("--branch", o.branch, "The branch --commit moves (default: the one HEAD names)");
  cmd->add_option("--profile", o.profile, "Pin the ledger profile instead of detecting it (cortex-projects, ...)");
  return cmd;
}

void add_today(CLI::App* cmd, std::string& today) {
  cmd->add_option("--today", today, "The date written, YYYY-MM-DD (default: the local date)");
}

void add_key(CLI::App* cmd, std::string& key) {
  cmd->add_option("key", key, "The project's key (a projects.yaml row)")->type_name("KEY")->required();
}

template <class Args>
EditorFor era_r(const Args& args, write::Editor (*make)(const Args&, write::EditNotes*)) {
  return [&args, make](const ledger::Profile& profile, write::EditNotes* notes) -> Result<std::optional<write::Editor>> {
    if (profile.layout == ledger::Layout::cortex_projects) return std::optional(make(args, notes));
    return std::optional<write::Editor>();
  };
}

// The era-T/P editor of `verb` (cmd_project_pt.hpp), else `r`'s.
EditorFor with_pt(const std::string& verb, const ProjectOptions& o, EditorFor r = {}) {
  return [verb, &o, r](const ledger::Profile& profile, write::EditNotes* notes) -> Result<std::optional<write::Editor>> {
    LG_TRY(auto editor, pt_editor(verb, profile, o.pt, o.new_args, o.retire, notes));
    if (editor || !r) return editor;
    return r(profile, notes);
  };
}

// Where a T/P verb's FILE arguments are: the tree's top (pt.root) and the
// folder a relative FILE is resolved against (pt.base). With --root both are
// that folder; else the repository's top level and the current directory
// (-C's folder), as git resolves a pathspec given in a subdirectory.
void set_pt_paths(ProjectOptions& o, const Globals& g) {
  namespace fs = std::filesystem;
  const std::string where = repo_dir(o, g);
  o.pt.root = o.pt.base = fs::absolute(where).lexically_normal().generic_string();
  if (!o.root.empty()) return;
  auto repo = git::Repository::open(where, true);
  if (!repo || repo->is_bare()) return;  // a bare repository has no folders: FILE is a repository path
  // Both canonical, so a symlinked folder does not read as outside the tree.
  std::error_code top_ec, cwd_ec;
  const fs::path top = fs::weakly_canonical(repo->workdir(), top_ec), cwd = fs::weakly_canonical(where, cwd_ec);
  if (top_ec || cwd_ec) return;
  o.pt.root = (top / "").generic_string();
  o.pt.base = (cwd / "").generic_string();
}

// Runs a verb with a T/P editor (else `r`'s, era R's).
ExitCode run_pt_verb(const std::string& verb, ProjectOptions& o, const Globals& g, std::string* today, EditorFor r = {}) {
  set_pt_paths(o, g);
  return run_verb(verb, o, g, today, with_pt(verb, o, std::move(r)));
}

void add_new(CLI::App* project, const std::shared_ptr<ProjectOptions>& op, Globals& g) {
  ProjectOptions& o = *op;
  CLI::App* cmd = add_verb(project, "new", "Open projects/KEY.md for a projects.yaml row", o);
  add_key(cmd, o.new_args.key);
  cmd->add_option("--summary", o.new_args.summary,
                  "What the project asks, at most 15 words (T: the task's question, at most 10; none in P)");
  cmd->add_option("--issue", o.new_args.issue, "Repo#N, an issue URL or none (default none)");
  cmd->add_option("--now", o.new_args.now, "The first ## Now text");
  add_today(cmd, o.new_args.today);
  add_pt_new_options(cmd, o.pt);
  cmd->callback([op, &g] {
    ProjectOptions& v = *op;
    // --summary is required but in era P, which has a SLUG.
    if (!v.pt.summary_given && v.pt.new_args.slug.empty()) {
      expect_error_document("project", v.format);
      g.exit_code = report_error(Error{ErrorKind::usage, "new: the following arguments are required: --summary"});
      return;
    }
    g.exit_code = run_pt_verb("new", v, g, &v.new_args.today, era_r(v.new_args, &write::r_new)); });
}

// An era-R verb on the options member `args`: KEY first, then what the
// caller adds; run with `make`'s editor (and the member's --today, if any).
template <class Args>
CLI::App* add_r_verb(CLI::App* project, const std::shared_ptr<ProjectOptions>& op, Globals& g, const std::string& name,
                     const std::string& help, Args ProjectOptions::*args,
                     write::Editor (*make)(const Args&, write::EditNotes*)) {
  CLI::App* cmd = add_verb(project, name, help, *op);
  add_key(cmd, ((*op).*args).key);
  cmd->callback([op, &g, name, args, make] {
    ProjectOptions& v = *op;
    Args& a = v.*args;
    std::string* today = nullptr;
    if constexpr (requires { a.today; }) today = &a.today;
    g.exit_code = run_verb(name, v, g, today, era_r(a, make));
  });
  return cmd;
}

void add_run(CLI::App* project, const std::shared_ptr<ProjectOptions>& op, Globals& g) {
  write::RunArgs& a = op->run;
  CLI::App* cmd = add_r_verb(project, op, g, "run", "Record a submitted job as an open run and log it", &ProjectOptions::run,
                             &write::r_run);
  cmd->add_option("jobid", a.jobid, "The SLURM job id (342301, 342301_3, 342301_[0-9])")->required();
  cmd->add_option("what", a.what, "What the run is, one line")->required();
  cmd->add_option("--partition", a.partition, "gpu or ral (default: the row's partition)");
  add_today(cmd, a.today);
}

void add_running(CLI::App* project, const std::shared_ptr<ProjectOptions>& op, Globals& g) {
  CLI::App* cmd = add_r_verb(project, op, g, "running", "Mark an open run as running", &ProjectOptions::running,
                             &write::r_running);
  cmd->add_option("jobid", op->running.jobid, "The run's job id")->required();
}

void add_done(CLI::App* project, const std::shared_ptr<ProjectOptions>& op, Globals& g) {
  write::DoneArgs& a = op->done;
  CLI::App* cmd = add_r_verb(project, op, g, "done", "Move a finished (or failed) run from ## Runs into the log",
                             &ProjectOptions::done, &write::r_done);
  cmd->add_option("jobid", a.jobid, "The run's job id")->required();
  cmd->add_flag("--failed", a.failed, "The run failed");
  cmd->add_option("--wall", a.wall, "Wall time, H:MM");
  cmd->add_option("--note", a.note, "One line appended to the log entry");
  add_today(cmd, a.today);
}

void add_log(CLI::App* project, const std::shared_ptr<ProjectOptions>& op, Globals& g) {
  write::LogArgs& a = op->log;
  CLI::App* cmd =
      add_r_verb(project, op, g, "log", "Prepend an entry to ## Log (newest first)", &ProjectOptions::log, &write::r_log);
  cmd->add_option("text", a.text, "The entry, one line")->required();
  cmd->add_option("--kind", a.kind, "note (default), result, lesson or run")
      ->check(CLI::IsMember({"note", "result", "lesson", "run"}));
  add_today(cmd, a.today);
}

void add_now(CLI::App* project, const std::shared_ptr<ProjectOptions>& op, Globals& g) {
  CLI::App* cmd = add_r_verb(project, op, g, "now", "Replace the ## Now text", &ProjectOptions::now, &write::r_now);
  cmd->add_option("text", op->now.text, "Where the project is (several lines allowed)")->required();
}

write::Editor issue_editor(const write::IssueArgs& args, write::EditNotes*) { return write::r_issue(args); }

void add_issue(CLI::App* project, const std::shared_ptr<ProjectOptions>& op, Globals& g) {
  CLI::App* cmd = add_r_verb(project, op, g, "issue", "Print the ledger's concise block for its issue (writes nothing)",
                             &ProjectOptions::issue, &issue_editor);
  cmd->add_option("-n", op->issue.count, "How many log entries (default 5; a negative N leaves out the oldest |N|)")
      ->check([](const std::string& n) {
        return util::py_int(n) ? std::string() : "must be an integer, not " + n;
      });
}

void add_link(CLI::App* project, const std::shared_ptr<ProjectOptions>& op, Globals& g) {
  CLI::App* cmd =
      add_r_verb(project, op, g, "link", "Set the ledger's Issue: header", &ProjectOptions::link, &write::r_link);
  cmd->add_option("ref", op->link.ref, "Repo#N, an issue URL or none")->required();
}

void add_retire(CLI::App* project, const std::shared_ptr<ProjectOptions>& op, Globals& g) {
  ProjectOptions& o = *op;
  CLI::App* cmd = add_verb(project, "retire", "Retire a projects.yaml row and note it in the ledger", o);
  add_key(cmd, o.retire.key);
  cmd->add_option("--why", o.retire.why, "Why, one line (no double quote)")->required();
  add_today(cmd, o.retire.today);
  cmd->callback([op, &g] {
    ProjectOptions& v = *op;
    g.exit_code = run_pt_verb("retire", v, g, &v.retire.today, era_r(v.retire, &write::r_retire)); });
}

// A verb of eras T and P only; its --today (when `dated`) is pt.today.
CLI::App* add_pt_verb(CLI::App* project, const std::shared_ptr<ProjectOptions>& op, Globals& g, const std::string& name,
                      const std::string& help, bool dated) {
  CLI::App* cmd = add_verb(project, name, help, *op);
  cmd->callback([op, &g, name, dated] {
    ProjectOptions& v = *op;
    g.exit_code = run_pt_verb(name, v, g, dated ? &v.pt.today : nullptr); });
  return cmd;
}

}  // namespace

void setup_project(CLI::App& app, Globals& globals) {
  auto o = std::make_shared<ProjectOptions>();
  CLI::App* project = app.add_subcommand(
      "project", "Write a Cortex ledger: the reference's verbs, validated against the whole tree, atomic");
  project->require_subcommand(1);
  project->footer("Each edit is checked as `ledgergate check` judges the tree; an edit that adds a finding is "
                  "refused and nothing is written.");
  add_new(project, o, globals);
  add_run(project, o, globals);
  add_running(project, o, globals);
  add_done(project, o, globals);
  add_log(project, o, globals);
  add_now(project, o, globals);
  add_issue(project, o, globals);
  add_link(project, o, globals);
  add_retire(project, o, globals);
  add_pt_move_options(
      add_pt_verb(project, o, globals, "move", "T/P: move a task (or phase) file along one edge of the state table", true),
      o->pt);
  add_pt_rule_options(
      add_pt_verb(project, o, globals, "rule", "T/P: file a ruling on a task (or phase) and move it", true), o->pt);
  add_pt_verb(project, o, globals, "gates", "T/P: list the gated tasks (or phases) and their refs (writes nothing)", false);
}

}  // namespace lg::cli
