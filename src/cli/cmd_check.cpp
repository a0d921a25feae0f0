// `ledgergate check [REV] [--index | --worktree | --root DIR]`: read a tree,
// run the profile's rules, print in the chosen format, exit 0/1/2.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "baseline_file.hpp"
#include "errors.hpp"
#include "file_io.hpp"
#include "ledgergate/git/status.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "github_output.hpp"
#include "ledgergate/fix/engine.hpp"
#include "terminal.hpp"
#include "ledgergate/report/format.hpp"
#include "ledgergate/report/github.hpp"
#include "ledgergate/report/notices.hpp"
#include "ledgergate/report/sarif.hpp"
#include "ledgergate/rules/check.hpp"

namespace lg::cli {
namespace {

struct CheckOptions {
  std::string rev;
  bool index = false;
  bool worktree = false;
  std::string root;
  std::string profile;  // "" = the policy's profile (default auto)
  std::string format = "text";
  std::string against;  // --against REV2: also run the cross-version rules from REV2 to the checked tree
  bool bisect = false;  // --bisect: `git bisect run`'s exit codes (0 good, 1 bad, 125 skip)
  std::string baseline;        // --baseline FILE: findings it holds are suppressed
  std::string write_baseline;  // --write-baseline FILE: record today's findings
};

struct Source {
  std::unique_ptr<git::TreeSource> tree;
  std::optional<git::Repository> repo;  // kept open for the tree's life
  std::string label;
};

void print_error(const CheckOptions& o, const std::string& message) {
  if (o.format == "cortex" && !o.root.empty()) {
    std::fputs(report::render_cortex_error(message).c_str(), stderr);
  } else {
    cli::print_error(message);
  }
  print_error_document(message);
}

Result<Source> open_source(const CheckOptions& o, const Globals& g) {
  Source s;
  if (!o.root.empty()) {
    auto tree = git::open_directory_source(o.root);
    if (!tree) return make_error(ErrorKind::usage, "--root " + o.root + " is not a directory");
    s.tree = std::move(*tree);
    return s;
  }
  LG_TRY(git::Repository repo, git::Repository::open(g.repo.empty() ? "." : g.repo, true));
  s.repo.emplace(std::move(repo));
  if (o.worktree) {
    if (s.repo->is_bare()) return make_error(ErrorKind::usage, "--worktree: the repository is bare");
    LG_TRY(s.tree, git::open_directory_source(s.repo->workdir()));
    return s;
  }
  if (o.index) {
    LG_TRY(s.tree, git::open_index_source(*s.repo));
    s.label = ":index";
    return s;
  }
  s.label = o.rev.empty() ? "HEAD" : o.rev;
  LG_TRY(git::ObjectId commit, s.repo->resolve_commit(s.label));
  LG_TRY(git::ObjectId tree, s.repo->commit_tree(commit));
  LG_TRY(s.tree, git::open_tree_source(*s.repo, tree, s.label));
  return s;
}

void note_uncommitted(const CheckOptions& o, const Source& s) {
  if (!o.rev.empty() || o.index || o.worktree || !s.repo || o.format != "text") return;
  const auto paths = ledger::cortex_ledger_paths();
  auto dirty = git::has_uncommitted_changes(*s.repo, std::vector<std::string>(paths.begin(), paths.end()));
  if (dirty && *dirty) {
    std::fputs(report::render_uncommitted_note().c_str(), stderr);
  }
}

// The cross-version rules (orl-h-*) from the tree of --against REV2 (the
// older version) to the checked tree.
Result<std::vector<diag::Finding>> check_against(const CheckOptions& o, Source& s, const rules::CheckOptions& options) {
  if (!s.repo) return make_error(ErrorKind::usage, "--against needs a git repository (not --root)");
  LG_TRY(git::ObjectId commit, s.repo->resolve_commit(o.against));
  LG_TRY(git::ObjectId tree, s.repo->commit_tree(commit));
  LG_TRY(auto before, git::open_tree_source(*s.repo, tree, o.against));
  return rules::check_open_requirements_between(*before, *s.tree, options);
}

ExitCode run_check(const CheckOptions& o, const Globals& g) {
  expect_error_document("check", o.format);
  auto source = open_source(o, g);
  if (!source) {
    print_error(o, source.error().message);
    return ExitCode::error;
  }
  // The checked tree's own policy file (rule severities, the profile).
  auto policy = policy::load_policy(*source->tree);
  if (!policy) {
    print_error(o, policy.error().message);
    return ExitCode::error;
  }
  rules::CheckCache cache;
  rules::CheckOptions options = policy::check_options_for_own_tree(*policy);
  if (!o.profile.empty()) options.profile = o.profile;
  auto report = rules::check_tree(*source->tree, options, cache);
  if (!report) {
    print_error(o, report.error().message);
    return ExitCode::error;
  }
  if (!o.against.empty()) {
    auto history = check_against(o, *source, options);
    if (!history) {
      print_error(o, history.error().message);
      return ExitCode::error;
    }
    for (diag::Finding& f : *history) report->findings.push_back(std::move(f));
  }
  for (diag::Finding& f : report->findings) f.location.rev = source->label;
  if (!o.write_baseline.empty()) {
    if (!write_atomically(o.write_baseline, diag::Baseline::of(report->findings).render())) {
      print_error_document("cannot write the baseline " + o.write_baseline);
      return ExitCode::error;
    }
  }
  std::vector<diag::Finding> suppressed;
  if (!o.baseline.empty()) {
    auto baseline = read_baseline(o.baseline);
    if (!baseline) {
      print_error(o, baseline.error().message);
      return ExitCode::error;
    }
    suppressed = baseline->suppress(report->findings);
  }
  const bool cannot_judge = report->cannot_judge();
  const bool failed = report->failed();
  const diag::Verdict verdict =
      cannot_judge ? diag::Verdict::error : failed ? diag::Verdict::fail : diag::Verdict::pass;
  report::JsonHeader header{verdict, report->profile, source->label, suppressed.size()};
  // The machine formats carry each finding's fix (none where computing it fails).
  std::optional<report::FindingFixes> fixes;
  if (o.format == "json" || o.format == "sarif") {
    if (auto computed = fix::fixes_for(*source->tree, report->findings)) fixes = std::move(*computed);
    if (fixes) header.fixes = &*fixes;
  }
  document_printed();
  if (o.format == "cortex") {
    std::fputs(report::render_cortex(report->findings).c_str(), stdout);
  } else if (o.format == "github") {
    std::fputs(report::render_github(report->findings).c_str(), stdout);
    append_step_summary(report::render_github_summary(report->findings, header, "ledgergate check"));
  } else if (o.format == "json") {
    std::fputs(report::render_json(report->findings, header).c_str(), stdout);
  } else if (o.format == "sarif") {
    std::fputs(report::render_check_sarif(report->findings, suppressed, header).c_str(), stdout);
  } else {
    std::fputs(report::render_text(report->findings, use_color(g.color, stdout)).c_str(), stdout);
    std::fputs(report::render_check_summary(report->findings, header).c_str(), stderr);
    if (!suppressed.empty()) std::fputs(report::render_suppressed_note(suppressed.size()).c_str(), stderr);
    note_uncommitted(o, *source);
  }
  if (cannot_judge) {
    cli::print_error("cannot judge: some ledger input could not be read (see the findings)");
    return ExitCode::error;
  }
  return failed ? ExitCode::fail : ExitCode::pass;
}

}  // namespace

void setup_check(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand("check", "Check a ledger tree against its profile's rules");
  cmd->add_option("rev", opts->rev, "Commit to check (default: HEAD)");
  auto* index = cmd->add_flag("--index", opts->index, "Check the tree the index would commit");
  auto* worktree = cmd->add_flag("--worktree", opts->worktree, "Check the repository's working tree");
  auto* root = cmd->add_option("--root", opts->root, "Check a plain folder (no git needed)");
  index->excludes(worktree)->excludes(root);
  worktree->excludes(root);
  std::vector<std::string> profiles = {"auto"};
  for (const ledger::Layout layout : ledger::known_layouts()) {
    profiles.emplace_back(ledger::layout_name(layout));
    for (const std::string_view sub : ledger::sub_eras(layout)) profiles.push_back(ledger::Profile{layout, sub}.name());
  }
  cmd->add_option("--profile", opts->profile,
                  "Profile: auto (detect from the tree's layout), a profile name, or name@sub-era "
                  "(cortex-phases@p1a|p1b|p1c|p2|p3, cortex-tasks@t1|t2; default the newest)")
      ->check(CLI::IsMember(profiles));
  cmd->add_option("--format", opts->format,
                  "Output: text, cortex (the reference's exact output), json, sarif (SARIF 2.1.0) or github "
                  "(Actions annotations)")
      ->check(CLI::IsMember({"text", "cortex", "json", "sarif", "github"}));
  cmd->add_option("--baseline", opts->baseline,
                  "Suppress the findings this baseline file holds (reported as a count; they do not fail)");
  cmd->add_option("--write-baseline", opts->write_baseline,
                  "Record the check's findings in this baseline file (written atomically)");
  cmd->add_option("--against", opts->against,
                  "Also run the cross-version rules (orl-h-*) from this older revision to the checked tree")
      ->excludes(root);
  cmd->add_flag("--bisect", opts->bisect,
                "Exit codes for `git bisect run`: 0 clean, 1 error findings, 125 cannot judge (skip)");
  cmd->callback([opts, &globals] {
    if (!opts->rev.empty() && (opts->index || opts->worktree || !opts->root.empty())) {
      throw CLI::ValidationError("rev", "a revision cannot be combined with --index, --worktree or --root");
    }
    globals.exit_code = run_check(*opts, globals);
    // `git bisect run ledgergate check --bisect`: a commit that cannot be
    // judged (no ledger, a profile this build does not check, unreadable
    // input) is skipped (125), never called bad.
    if (opts->bisect && globals.exit_code == ExitCode::error) globals.exit_code = static_cast<ExitCode>(125);
  });
}

}  // namespace lg::cli
