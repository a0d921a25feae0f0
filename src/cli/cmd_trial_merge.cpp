// `ledgergate trial-merge BASE HEAD`: merge in memory, classify, check, and
// print the verdict (exit 0 pass, 1 fail, 2 could not run). `--write-tree`
// writes the merged tree's objects into the repository (as `git merge-tree
// --write-tree` does: no ref, no index) and prints its id; `--commit -m MSG`
// writes the one merge commit (and the objects it needs) and moves no ref.

#include <cstdio>
#include <memory>
#include <optional>

#include "cache_cli.hpp"
#include "commands.hpp"
#include "baseline_file.hpp"
#include "errors.hpp"
#include "ledgergate/git/commit.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/report/notices.hpp"
#include "ledgergate/report/trial_merge.hpp"

namespace lg::cli {
namespace {

struct TrialMergeOptions {
  std::string base;
  std::string head;
  std::string format = "text";
  bool write_tree = false;
  bool no_check = false;
  std::string commit_message;
  bool commit = false;
  std::string profile;
  std::string ledger_merge;  // --merge records|git ("" = the policy's)
  std::string gate;          // --gate new|all ("" = the policy's)
  std::string baseline;      // --baseline FILE
  std::string scope = "tree";  // --scope tree|change
};

Result<git::ObjectId> write_commit(const git::Repository& repo, git::TrialRepo& trial,
                                   const merge::TrialMergeReport& r, const std::string& message) {
  if (auto p = trial.persist(repo, r.merge.tree); !p) return p.error();
  return git::write_commit(repo, r.merge.tree, {r.base, r.head}, message);
}

ExitCode run_trial_merge(const TrialMergeOptions& o, const Globals& g) {
  expect_error_document("trial-merge", o.format);
  auto repo = git::Repository::open(g.repo.empty() ? "." : g.repo, true);
  if (!repo) return report_error(repo.error());
  auto base = repo->resolve_commit(o.base);
  if (!base) return report_error(base.error());
  auto head = repo->resolve_commit(o.head);
  if (!head) return report_error(head.error());
  auto trial = git::TrialRepo::open(*repo);
  if (!trial) return report_error(trial.error());
  merge::TrialMergeOptions options;
  options.shared_cache = &command_cache();
  options.check = !o.no_check;
  options.profile = o.profile;
  // --commit and --write-tree write the merged objects: the merge must run (a cached report holds none).
  options.cache_report = !o.commit && !o.write_tree;
  if (!o.ledger_merge.empty()) {
    options.ledger_merge = o.ledger_merge == "git" ? policy::LedgerMerge::git : policy::LedgerMerge::records;
  }
  if (!o.gate.empty()) options.gate = diag::parse_gate(o.gate);
  options.scope = o.scope == "change" ? merge::Scope::change : merge::Scope::tree;
  if (!o.baseline.empty()) {
    auto baseline = read_baseline(o.baseline);
    if (!baseline) return report_error(baseline.error());
    options.baseline = std::move(*baseline);
  }
  auto report = merge::trial_merge(*repo, *trial, *base, *head, options);
  if (!report) return report_error(report.error());
  const bool clean = !report->nothing_to_merge && report->merge.conflicts.empty();
  const bool pass = o.no_check ? clean : report->pass();
  const diag::Verdict verdict = report::trial_merge_verdict(*report, pass);
  // The commit is written before anything is printed, so a machine format's
  // one document can name it.
  std::optional<git::ObjectId> commit;
  if (o.write_tree && clean && verdict != diag::Verdict::error) {
    if (auto p = trial->persist(*repo, report->merge.tree); !p) return report_error(p.error());
  }
  if (o.commit && verdict == diag::Verdict::pass) {
    auto id = write_commit(*repo, *trial, *report, o.commit_message);
    if (!id) return report_error(id.error());
    commit = *id;
  }
  if (o.format == "json" || o.format == "sarif") {  // one document: the tree and commit ids are in it
    std::fputs((o.format == "json" ? report::render_trial_merge_json(*report, verdict, commit)
                                    : report::render_trial_merge_sarif(*report, verdict))
                   .c_str(),
               stdout);
    document_printed();
  } else {
    std::fputs(report::render_trial_merge_text(*report, o.base, o.head, o.no_check).c_str(), stdout);
  }
  if (verdict == diag::Verdict::error) {
    return report_error(make_error(ErrorKind::invalid_input, "cannot judge the merged tree"));
  }
  const bool text = o.format == "text";
  if (text && o.write_tree && clean) std::fputs(report::render_written_id(report->merge.tree).c_str(), stdout);
  if (text && commit) std::fputs(report::render_written_id(*commit).c_str(), stdout);
  if (o.commit && !commit) std::fputs(report::render_merge_commit_refused().c_str(), stderr);
  return pass ? ExitCode::pass : ExitCode::fail;
}

}  // namespace

void setup_trial_merge(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<TrialMergeOptions>();
  CLI::App* cmd = app.add_subcommand("trial-merge", "Merge HEAD into BASE in memory and judge the result");
  cmd->add_option("base", opts->base, "The target (e.g. main)")->type_name("REV")->required();
  cmd->add_option("head", opts->head, "The branch to land")->type_name("REV")->required();
  cmd->add_option("--format", opts->format,
                  "Output: text, json or sarif (SARIF 2.1.0); json and sarif print one document")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  cmd->add_flag("--write-tree", opts->write_tree,
                "Write the merged tree's objects into the repository (no ref, no index: as git merge-tree "
                "--write-tree) and print its id (clean merges; with --format json it is the document's \"tree\")");
  cmd->add_option("--profile", opts->profile,
                  "Pin the profile (check and built-in policy), e.g. cortex-tasks; default: BASE's policy file, else "
                  "its layout");
  cmd->add_option("--merge", opts->ledger_merge,
                  "A ledger file git's merge leaves conflicted: records (merge it record by record) or git (keep "
                  "the conflict); default: BASE's policy `merge:` key, records")
      ->check(CLI::IsMember({"records", "git"}));
  cmd->add_option("--gate", opts->gate,
                  "Fail on the error findings the merge adds to BASE's (new) or on every error of the merged tree "
                  "(all); default: BASE's policy `gate:`, new")
      ->check(CLI::IsMember({"new", "all"}));
  cmd->add_option("--scope", opts->scope,
                  "What the check judges: the whole merged tree (tree), or only what the merge changes against "
                  "BASE (change: the same new and fixed findings and verdict under the gate new, findings it does "
                  "not touch not counted; cortex-projects ledgers, else the whole tree); default: tree")
      ->check(CLI::IsMember({"tree", "change"}));
  cmd->add_option("--baseline", opts->baseline,
                  "A baseline file whose findings never fail (default: the one BASE's policy `baseline:` names)");
  cmd->add_flag("--no-check", opts->no_check, "Only merge: no classification, no check (any repository)");
  auto* message = cmd->add_option("-m,--message", opts->commit_message, "Message of the merge commit");
  cmd->add_flag("--commit", opts->commit, "Write the merge commit (parents BASE, HEAD) on a pass; moves no ref")
      ->needs(message);
  cmd->callback([opts, &globals] { globals.exit_code = run_trial_merge(*opts, globals); });
}

}  // namespace lg::cli
