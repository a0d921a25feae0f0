// `ledgergate check [REV] [--index | --worktree | --root DIR] [-- PATH...]`:
// read a tree, run the profile's rules, print in the chosen format (the
// report narrowed to the paths and rules asked for), exit 0/1/2.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "command_line.hpp"
#include "cache_cli.hpp"
#include "commands.hpp"
#include "baseline_file.hpp"
#include "errors.hpp"
#include "file_io.hpp"
#include "paths.hpp"
#include "ledgergate/cache/cache.hpp"
#include "ledgergate/diag/rule_select.hpp"
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
#include "ledgergate/rules/change.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/columns.hpp"
#include "ledgergate/rules/threads.hpp"
#include "ledgergate/write/recovery.hpp"

namespace lg::cli {
namespace {

struct CheckOptions {
  std::string rev;
  bool index = false;
  bool worktree = false;
  std::string root;
  std::string profile;  // "" = the policy's profile (default auto)
  std::string format = "text";
  std::string against;  // --against REV2: judge the checked tree as a change from REV2's
  std::string gate;     // --gate new|all with --against ("" = REV2's policy)
  bool bisect = false;  // --bisect: `git bisect run`'s exit codes (0 good, 1 bad, 125 skip)
  std::string baseline;        // --baseline FILE: findings it holds are suppressed
  std::string write_baseline;  // --write-baseline FILE: record today's findings
  bool quiet = false;          // -q: the verdict line only, and nothing on a pass
  bool statistics = false;     // --statistics: a count per rule instead of the findings
  std::vector<std::string> select;  // --select RULE|FAMILY...
  std::vector<std::string> ignore;  // --ignore RULE|FAMILY...
  std::vector<std::string> paths;   // `-- PATH...`: the report's paths, as typed
};

struct Source {
  std::unique_ptr<git::TreeSource> tree;
  std::optional<git::Repository> repo;  // kept open for the tree's life
  std::string label;
  std::string root;  // the folder the tree's paths are under on disk ("" for a bare repository)
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
    // A folder that is half one write is not judged (write/recovery.hpp).
    if (auto whole = write::refuse_pending_writes(o.root); !whole) return whole.error();
    s.tree = std::move(*tree);
    s.root = o.root;
    return s;
  }
  LG_TRY(git::Repository repo, git::Repository::open(g.repo.empty() ? "." : g.repo, true));
  s.repo.emplace(std::move(repo));
  if (!s.repo->is_bare()) s.root = s.repo->workdir();
  if (o.worktree) {
    if (s.repo->is_bare()) return make_error(ErrorKind::usage, "--worktree: the repository is bare");
    if (auto whole = write::refuse_pending_writes(s.repo->workdir()); !whole) return whole.error();
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

// Whether the text report ends with the uncommitted-ledger notice: a check
// of HEAD (no revision named) in a repository, not quiet.
bool notes_uncommitted(const CheckOptions& o, const Source& s) {
  return o.rev.empty() && !o.index && !o.worktree && o.format == "text" && !o.quiet && s.repo;
}

// Where the notice's question keeps what it learned for the next check of
// the same working tree (git/status.hpp's memo): the persistent cache,
// unless it is off.
struct ScanMemoEntry {
  cache::Cache cache;
  std::string workdir;
  std::string index;

  std::string load() const {
    const cache::Cache::Entry kept = cache.get(cache::Kind::worktree_scan, {workdir, index});
    return kept.payload ? std::string(*kept.payload) : std::string();
  }
  void keep(std::string_view memo) const { cache.put(cache::Kind::worktree_scan, {workdir, index}, memo); }
};
std::optional<ScanMemoEntry> scan_memo_entry(const Source& s) {
  auto opened = cache::Cache::open(s.repo->common_dir());
  if (!opened) return std::nullopt;
  return ScanMemoEntry{std::move(*opened), s.repo->workdir(), s.repo->index_path()};
}

// The notice's question started: git's index file and the ledger's working
// files are read on other threads while the tree is checked (not with
// LEDGERGATE_THREADS=1: then when asked).
std::unique_ptr<git::UncommittedScan> start_uncommitted(const CheckOptions& o, const Source& s) {
  if (!notes_uncommitted(o, s)) return nullptr;
  const auto paths = ledger::cortex_ledger_paths();
  git::ScanOptions options;
  options.threads = rules::check_threads();
  if (const auto entry = scan_memo_entry(s)) options.memo = entry->load();
  return std::make_unique<git::UncommittedScan>(*s.repo, std::vector<std::string>(paths.begin(), paths.end()),
                                                std::move(options));
}

void note_uncommitted(const Source& s, git::UncommittedScan* started) {
  if (!started) return;
  auto found = git::has_uncommitted_changes(*s.repo, *started);
  if (found) {
    if (const std::optional<std::string> memo = started->memo()) {
      if (const auto entry = scan_memo_entry(s)) entry->keep(*memo);
    }
  }
  if (!found) {
    std::fputs(report::render_uncommitted_unknown_note(found.error().message).c_str(), stderr);
  } else if (*found == git::Uncommitted::changed) {
    std::fputs(report::render_uncommitted_note().c_str(), stderr);
  } else if (*found == git::Uncommitted::not_looked) {
    std::fputs(report::render_uncommitted_not_looked_note(started->files(), git::k_uncommitted_max_files).c_str(),
               stderr);
  }
}

// `--against REV2`: the tree of the older revision the checked one is judged
// against, and its policy (the change's own policy file never judges it).
struct Against {
  std::unique_ptr<git::TreeSource> tree;
  policy::RepoPolicy policy;
};
Result<Against> open_against(const CheckOptions& o, Source& s) {
  if (!s.repo) return make_error(ErrorKind::usage, "--against needs a git repository (not --root)");
  Against out;
  LG_TRY(git::ObjectId commit, s.repo->resolve_commit(o.against));
  LG_TRY(git::ObjectId tree, s.repo->commit_tree(commit));
  LG_TRY(out.tree, git::open_tree_source(*s.repo, tree, o.against));
  LG_TRY(out.policy, policy::load_policy(*out.tree));
  return out;
}

// The checked tree as a change from REV2's: its findings judged against
// REV2's (checked with the same options), then the cross-version rules
// (orl-h-*) from REV2 to it, each introduced by the change.
Result<diag::Attribution> judge_against(const CheckOptions& o, Source& s, Against& a, rules::CheckReport& report,
                                        const rules::CheckOptions& options, rules::CheckCache& cache) {
  diag::Attribution out;
  out.gate = o.format == "cortex" ? diag::Gate::all : o.gate.empty() ? a.policy.gate : *diag::parse_gate(o.gate);
  out.reference = o.against;
  LG_TRY(out.fixed, rules::attribute_check(*a.tree, *s.tree, report.findings, options, cache));
  LG_TRY(auto history, rules::check_open_requirements_between(*a.tree, *s.tree, options));
  diag::attribute(history, {});
  for (diag::Finding& f : history) report.findings.push_back(std::move(f));
  return out;
}

// A check run to its findings: the tree, its policy, the report, and (with
// --against) the change's attribution and the older tree.
struct Checked {
  Source source;
  std::optional<Against> against;
  policy::RepoPolicy policy;
  rules::CheckReport report;
  std::optional<diag::Attribution> change;
  std::vector<std::string> paths;  // the `-- PATH` operands as tree paths
  std::unique_ptr<git::UncommittedScan> uncommitted;  // the notice's question, started
};

Result<Checked> run_rules(const CheckOptions& o, const Globals& g) {
  Checked c;
  LG_TRY(c.source, open_source(o, g));
  c.uncommitted = start_uncommitted(o, c.source);
  for (const std::string& operand : o.paths) {
    LG_TRY(std::string path, tree_path(operand, c.source.root));
    c.paths.push_back(std::move(path));
  }
  if (!o.against.empty()) {
    LG_TRY(Against opened, open_against(o, c.source));
    c.against.emplace(std::move(opened));
  }
  // The checked tree's own policy file (rule severities, the profile); with
  // --against, REV2's.
  if (c.against) {
    c.policy = c.against->policy;
  } else {
    LG_TRY(c.policy, policy::load_policy(*c.source.tree));
  }
  // With --against, the older tree's check reads what this one kept.
  rules::CheckCache& cache = c.against ? command_cache() : one_check_cache();
  rules::CheckOptions options = c.against ? policy::check_options(c.policy) : policy::check_options_for_own_tree(c.policy);
  if (!o.profile.empty()) options.profile = o.profile;
  LG_TRY(c.report, rules::check_tree(*c.source.tree, options, cache));
  if (c.against) {
    LG_TRY(diag::Attribution judged, judge_against(o, c.source, *c.against, c.report, options, cache));
    c.change.emplace(std::move(judged));
  }
  rules::locate_columns(*c.source.tree, c.report.findings);
  for (diag::Finding& f : c.report.findings) f.location.rev = c.source.label;
  return c;
}

// The findings --select/--ignore and the `-- PATH...` operands keep (the
// check itself saw the whole tree: cross-file facts stay whole).
void narrow(const diag::RuleSelection& selection, Checked& c) {
  std::vector<diag::Finding>& findings = c.report.findings;
  findings = selection.apply(std::move(findings));
  if (c.paths.empty()) return;
  std::erase_if(findings, [&](const diag::Finding& f) {
    return !f.cannot_judge && !std::any_of(c.paths.begin(), c.paths.end(), [&](const std::string& p) {
      return p.empty() || f.location.path == p || f.location.path.starts_with(p + "/");
    });
  });
}

// The baseline's findings taken out of the report (--baseline FILE, or with
// --against the older tree's policy baseline).
Result<std::vector<diag::Finding>> suppress(const CheckOptions& o, Checked& c) {
  if (!o.baseline.empty()) {
    LG_TRY(diag::Baseline baseline, read_baseline(o.baseline));
    return baseline.suppress(c.report.findings);
  }
  if (c.against) {
    LG_TRY(auto baseline, policy::load_baseline(*c.against->tree, c.policy));
    if (baseline) return baseline->suppress(c.report.findings);
  }
  return std::vector<diag::Finding>{};
}

void print_text(const CheckOptions& o, const Globals& g, Checked& c, const std::vector<diag::Finding>& shown,
                const report::JsonHeader& header) {
  if (o.quiet && header.verdict == diag::Verdict::pass) return;
  if (!o.quiet) {
    std::fputs(o.statistics ? report::render_statistics(shown).c_str()
                            : report::render_text(shown, use_color(g.color, stdout), display_base(c.source.root)).c_str(),
               stdout);
  }
  std::fputs(report::render_check_summary(shown, header, use_color(g.color, stderr)).c_str(), stderr);
  if (o.quiet) return;
  if (c.change) {
    std::fputs(report::render_change_notes(c.report.findings, *c.change).c_str(), stderr);
  } else if (header.suppressed > 0) {
    std::fputs(report::render_suppressed_note(header.suppressed).c_str(), stderr);
  }
  note_uncommitted(c.source, c.uncommitted.get());
}

void print_report(const CheckOptions& o, const Globals& g, Checked& c, const std::vector<diag::Finding>& suppressed,
                  report::JsonHeader& header) {
  const std::vector<diag::Finding>& findings = c.report.findings;
  // What text and annotations list: the findings the change introduced (every one without --against).
  const std::vector<diag::Finding> shown = c.change ? report::shown_findings(findings, *c.change) : findings;
  // The machine formats carry each finding's fix (none where computing it fails).
  std::optional<report::FindingFixes> fixes;
  if (o.format == "json" || o.format == "sarif") {
    if (auto computed = fix::fixes_for(*c.source.tree, findings)) fixes = std::move(*computed);
    if (fixes) header.fixes = &*fixes;
  }
  document_printed();
  if (o.format == "cortex") {
    std::fputs(report::render_cortex(findings).c_str(), stdout);
  } else if (o.format == "github") {
    std::fputs(report::render_github(shown).c_str(), stdout);
    append_step_summary(report::render_github_summary(shown, header, "ledgergate check"));
  } else if (o.format == "json") {
    std::fputs(report::render_json(findings, header).c_str(), stdout);
  } else if (o.format == "sarif") {
    std::fputs(report::render_check_sarif(findings, suppressed, header).c_str(), stdout);
  } else {
    print_text(o, g, c, shown, header);
  }
}

ExitCode run_check(const CheckOptions& o, const Globals& g) {
  expect_error_document("check", o.format);
  auto selection = diag::RuleSelection::make(o.select, o.ignore);
  if (!selection) {
    print_error(o, selection.error().message);
    return ExitCode::error;
  }
  auto checked = run_rules(o, g);
  if (!checked) {
    print_error(o, checked.error().message);
    return ExitCode::error;
  }
  Checked& c = *checked;
  narrow(*selection, c);
  if (!o.write_baseline.empty()) {
    if (!write_atomically(o.write_baseline, diag::Baseline::of(c.report.findings).render())) {
      print_error_document("cannot write the baseline " + o.write_baseline);
      return ExitCode::error;
    }
  }
  auto suppressed = suppress(o, c);
  if (!suppressed) {
    print_error(o, suppressed.error().message);
    return ExitCode::error;
  }
  if (c.change) c.change->suppressed = *suppressed;
  const diag::Gate gate = c.change ? c.change->gate : diag::Gate::all;
  const bool cannot_judge = c.report.cannot_judge();
  const bool failed = diag::any_blocking(c.report.findings, gate);
  const diag::Verdict verdict =
      cannot_judge ? diag::Verdict::error : failed ? diag::Verdict::fail : diag::Verdict::pass;
  report::JsonHeader header{verdict, c.report.profile, c.source.label, suppressed->size(),
                            c.change ? &*c.change : nullptr};
  print_report(o, g, c, *suppressed, header);
  if (cannot_judge) {
    cli::print_error("cannot judge: some ledger input could not be read (see the findings)");
    return ExitCode::error;
  }
  return failed ? ExitCode::fail : ExitCode::pass;
}

}  // namespace

void setup_check(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand(
      "check", "Check a ledger tree against its profile's rules; `check [REV] -- PATH...` reports only those paths");
  cmd->add_option("rev", opts->rev, "Commit to check (default: HEAD)")->type_name("REV");
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
  auto* against = cmd->add_option("--against", opts->against,
                                  "Judge the checked tree as a change from this older revision: fail on the error "
                                  "findings it introduces (its policy judges), and run the cross-version rules "
                                  "(orl-h-*) from it")
                       ->type_name("REV")
                       ->excludes(root);
  cmd->add_option("--gate", opts->gate,
                  "With --against: fail on the error findings the change introduces (new) or on every error of the "
                  "checked tree (all); default: the older revision's policy `gate:`, new")
      ->check(CLI::IsMember({"new", "all"}))
      ->needs(against);
  cmd->add_flag("--bisect", opts->bisect,
                "Exit codes for `git bisect run`: 0 clean, 1 error findings, 125 cannot judge (skip)");
  cmd->add_flag("-q,--quiet", opts->quiet, "Text: print only the verdict line, and nothing on a pass");
  cmd->add_option("--select", opts->select,
                  "Report only these rules: rule ids or family prefixes (`ledger`, `projects-yaml`), "
                  "comma-separated or repeated")
      ->type_name("RULE")
      ->delimiter(',');
  cmd->add_option("--ignore", opts->ignore, "Leave out these rules (rule ids or family prefixes), as --select")
      ->type_name("RULE")
      ->delimiter(',');
  cmd->add_flag("--statistics", opts->statistics, "Text: a count of findings per rule instead of the findings");
  allow_path_operands(cmd);
  cmd->callback([opts, &globals] {
    opts->paths = globals.operands;
    if (opts->statistics && opts->format != "text") {
      throw CLI::ValidationError("--statistics", "prints text; it cannot be combined with --format " + opts->format);
    }
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
