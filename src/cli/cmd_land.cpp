// `ledgergate land BRANCH --into main [--remote origin] [--mode audit|merge]`:
// the ledger-merge job as one command (lg::land). Exit 0 landed, would land
// (audit) or already in main; 1 left for a human; 2 could not run.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "baseline_file.hpp"
#include "errors.hpp"
#include "github_output.hpp"
#include "ledgergate/report/land.hpp"

namespace lg::cli {
namespace {

struct LandCliOptions {
  land::LandOptions land;
  std::string mode = "audit";
  std::string format = "text";
  std::string retry_for = land::format_duration(land.retry_for);
  std::string retry_delay = land::format_duration(land.retry_delay);
  std::string lease_for = land::format_duration(land.lease_for);
  bool no_queue = false;
  std::string gate;      // --gate new|all ("" = main's policy)
  std::string baseline;  // --baseline FILE
  std::string scope = "tree";  // --scope tree|change
};

// A duration option's check: "250ms", "30s", "5m", "1h30m".
const CLI::Validator k_duration(
    [](const std::string& s) {
      return land::parse_duration(s) ? std::string() : "not a duration (250ms, 30s, 5m, 1h30m): " + s;
    },
    "DURATION");

ExitCode run_land(LandCliOptions& o, const Globals& g) {
  o.land.repo = g.repo.empty() ? "." : g.repo;
  o.land.mode = o.mode == "merge" ? land::Mode::merge : land::Mode::audit;
  expect_error_document("land", o.format);
  o.land.retry_for = *land::parse_duration(o.retry_for);
  o.land.retry_delay = *land::parse_duration(o.retry_delay);
  o.land.lease_for = *land::parse_duration(o.lease_for);
  o.land.queue = !o.no_queue && o.land.lease_for.count() > 0;
  if (!o.gate.empty()) o.land.gate = diag::parse_gate(o.gate);
  o.land.scope = o.scope == "change" ? merge::Scope::change : merge::Scope::tree;
  if (!o.baseline.empty()) {
    auto baseline = read_baseline(o.baseline);
    if (!baseline) return report_error(baseline.error());
    o.land.baseline = std::move(*baseline);
  }
  const land::LandReport report = land::land(o.land);
  document_printed();  // every outcome, an error too, has its document
  if (o.format == "github") {
    std::fputs(report::render_land_github(report).c_str(), stdout);
    append_step_summary(report::render_land_markdown(report));
  } else {
    const std::string out = o.format == "json"    ? report::render_land_json(report)
                            : o.format == "sarif" ? report::render_land_sarif(report)
                                                  : report::render_land_text(report);
    std::fputs(out.c_str(), stdout);
  }
  if (report.outcome == land::Outcome::error || report.outcome == land::Outcome::gave_up) {
    const land::Step* decided = land::deciding_step(report);
    const std::string why = decided ? decided->message : "internal error";
    print_error("land: " + why);
  }
  return static_cast<ExitCode>(land::exit_code(report.outcome));
}

}  // namespace

void setup_land(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<LandCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "land", "Land a ledger-only branch into main on the remote (the ledger-merge job); audit mode writes nothing");
  cmd->add_option("branch", opts->land.branch, "The branch to land (as named on the remote)")->type_name("REV")->required();
  cmd->add_option("--into", opts->land.into, "The target branch on the remote (default main)");
  cmd->add_option("--remote", opts->land.remote, "The remote to fetch from and push to (default origin)");
  cmd->add_option("--mode", opts->mode, "audit (judge only, the default) or merge (write and push)")
      ->check(CLI::IsMember({"audit", "merge"}));
  cmd->add_option("--format", opts->format,
                  "Output: text, json, sarif (SARIF 2.1.0) or github (Actions annotations and step summary)")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}));
  cmd->add_option("--gate", opts->gate,
                  "Fail on the error findings the branch adds (new) or on every error of the branch tip and the "
                  "merged tree (all); default: main's policy `gate:`, new")
      ->check(CLI::IsMember({"new", "all"}));
  cmd->add_option("--scope", opts->scope,
                  "What the check-branch and trial-merge steps judge: the whole tree (tree), or only what the "
                  "branch changes (change: the same new and fixed findings and verdict under the gate new, "
                  "findings it does not touch not counted; cortex-projects ledgers, else the whole tree); "
                  "default: tree")
      ->check(CLI::IsMember({"tree", "change"}));
  cmd->add_option("--baseline", opts->baseline,
                  "A baseline file whose findings never fail (default: the one main's policy `baseline:` names)");
  cmd->add_flag("--keep-branch", opts->land.keep_branch, "Do not delete the remote branch after landing");
  cmd->add_option("--retry-for", opts->retry_for,
                  "Merge mode: how long to keep retrying while main moves under the push, and to wait for the "
                  "queue (default 10m)")
      ->check(k_duration);
  cmd->add_option("--retry-delay", opts->retry_delay,
                  "Merge mode: the first pause before a retry, doubled each retry up to 10s, jittered "
                  "(default 200ms; 0 retries at once)")
      ->check(k_duration);
  cmd->add_option("--max-attempts", opts->land.max_attempts,
                  "Merge mode: give up after this many attempts even within --retry-for (default 0: no limit)")
      ->check(CLI::Range(0, 1'000'000));
  cmd->add_flag("--no-queue", opts->no_queue,
                "Merge mode: do not take turns under the remote's lease ref refs/ledgergate/land-lock");
  cmd->add_option("--lease-for", opts->lease_for,
                  "Merge mode: how long the queue's lease is held at most, so a lander that dies blocks the "
                  "others no longer (default 2m; 0 is --no-queue)")
      ->check(k_duration);
  cmd->callback([opts, &globals] { globals.exit_code = run_land(*opts, globals); });
}

}  // namespace lg::cli
