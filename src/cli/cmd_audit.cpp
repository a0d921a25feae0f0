// `ledgergate audit [RANGE] [--since DATE] [--first-parent] [--format text|json|sarif]
// [--cache DIR] [--jobs 1|2] [--progress|--no-progress]`: walk a ledger's history, print what entered and
// left at which commit, exit 0 clean / 1 violations / 2 cannot judge.
#include <malloc.h>
#include <unistd.h>

#include <cctype>
#include <thread>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "baseline_file.hpp"
#include "errors.hpp"
#include "file_io.hpp"
#include "ledgergate/audit/audit.hpp"
#include "ledgergate/board/board.hpp"
#include "ledgergate/git/commit.hpp"
#include "ledgergate/git/config.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/report/audit.hpp"
#include "ledgergate/report/board.hpp"
#include "ledgergate/report/notices.hpp"
#include "page_stamp.hpp"

namespace lg::cli {
namespace {

// The GitHub home board::read_home finds in `commit`'s tree (or the origin
// remote), "" when none: the audit page links commits there.
std::string home_of(const git::Repository& repo, const git::ObjectId& commit) {
  std::string remote;
  if (auto config = git::Config::snapshot(repo)) {
    if (auto url = config->get_string("remote.origin.url"); url && *url) remote = **url;
  }
  auto tree_id = repo.commit_tree(commit);
  if (!tree_id) return "";
  auto tree = git::open_tree_source(repo, *tree_id, commit.short_hex());
  if (!tree) return "";
  auto home = board::read_home(**tree, remote);
  return home && *home ? (*home)->url : "";
}

struct AuditCliOptions {
  std::string range;
  std::string since;
  bool first_parent = false;
  std::string format = "text";
  bool progress = false;
  bool no_progress = false;
  std::string cache;    // --cache DIR
  bool full = false;    // every commit checked in full (the reference of the incremental walk)
  bool verify = false;  // the differential check, commit by commit
  unsigned jobs = 0;    // --jobs: 1 = one thread, lean settings; 0 = by the machine
  std::string baseline;        // --baseline FILE: findings it holds are suppressed
  std::string write_baseline;  // --write-baseline FILE: record the audit's findings
};

// Takes the findings `baseline` holds out of the report (they no longer fail it).
std::deque<audit::AuditFinding> suppress(diag::Baseline& baseline, audit::AuditReport& report) {
  std::deque<audit::AuditFinding> kept, taken;
  for (audit::AuditFinding& a : report.findings) (baseline.take(a.finding) ? taken : kept).push_back(std::move(a));
  report.findings = std::move(kept);
  return taken;
}

// Redraws report::render_progress on stderr, at most every 100 ms and once at the end.
class ProgressBar {
 public:
  void operator()(std::size_t done, std::size_t total) {
    const auto now = std::chrono::steady_clock::now();
    if (done != total && now - m_last < std::chrono::milliseconds(100)) return;
    m_last = now;
    const double seconds = std::chrono::duration<double>(now - m_start).count();
    const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
    std::fputs(report::render_progress(done, total, rate).c_str(), stderr);
  }

 private:
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point m_last{};
};

ExitCode run_audit(const AuditCliOptions& o, const Globals& g) {
  expect_error_document("audit", o.format);
  std::optional<diag::Baseline> baseline;
  if (!o.baseline.empty()) {  // read first: a bad file stops the command before the walk
    auto read = read_baseline(o.baseline);
    if (!read) return report_error(read.error());
    baseline = std::move(*read);
  }
  audit::AuditOptions options;
  options.range = o.range;
  options.first_parent = o.first_parent;
  options.incremental = !o.full;
  options.verify = o.verify;
  options.cache_dir = o.cache;
  options.repository_cache = true;  // unless --no-cache / LEDGERGATE_NO_CACHE
  const unsigned jobs = o.jobs != 0 ? o.jobs : std::thread::hardware_concurrency() >= 2 ? 2u : 1u;
  options.pipeline = jobs >= 2;
  if (!o.since.empty()) {
    auto since = audit::parse_since(o.since);
    if (!since) return report_error(since.error());
    options.since = *since;
  }
  if ((o.progress || isatty(fileno(stderr)) == 1) && !o.no_progress) {
    auto bar = std::make_shared<ProgressBar>();
    options.progress = [bar](std::size_t done, std::size_t total) { (*bar)(done, total); };
  }
  // The walk reads each commit and tree about once, so libgit2's object
  // cache buys nothing (off: measured faster as well as smaller). The pack
  // windows libgit2 maps are capped at 32 MiB in 8 MiB windows: smaller
  // limits remap windows all the time, and with the read-ahead thread every
  // munmap is a cross-core TLB shootdown (2 MiB / 12 MiB: 6.3 s instead of
  // 4.0 s at 2,000 projects × 20,000 commits, scripts/bench-audit); the
  // pages the walk reads are given back every so often instead
  // (git::drop_pack_pages). The read-ahead and the walk allocate all the
  // time: with one malloc arena they wait on its lock (5.3 s); they get
  // two (~8 MB), and --jobs 1, one thread, uses one.
  git::tune_for_history_walk();
  if (options.pipeline) mallopt(M_ARENA_MAX, 2);
  auto repo = git::Repository::open(g.repo.empty() ? "." : g.repo, true);
  if (!repo) return report_error(repo.error());
  auto report = audit::audit_history(*repo, options);
  // The page links each commit on the project's home, read from the tip's tree before the repository closes.
  std::string home;
  if (report && o.format == "html" && !report->commits.empty()) home = home_of(*repo, report->commits.back().id);
  {  // the report stands alone: its pack windows and freed memory go back before it is rendered
    git::Repository done = std::move(*repo);
  }
  malloc_trim(0);
  if (!report) return report_error(report.error());
  if (!report->cache_warning.empty()) print_warning(report->cache_warning);
  if (!o.write_baseline.empty()) {
    std::vector<diag::Finding> all;
    for (const audit::AuditFinding& a : report->findings) all.push_back(a.finding);
    if (!write_atomically(o.write_baseline, diag::Baseline::of(all).render())) {
      print_error_document("cannot write the baseline " + o.write_baseline);
      return ExitCode::error;
    }
  }
  std::deque<audit::AuditFinding> suppressed;
  if (baseline) suppressed = suppress(*baseline, *report);
  document_printed();
  const std::string out = o.format == "json"    ? report::render_audit_json(*report, suppressed.size())
                          : o.format == "sarif" ? report::render_audit_sarif(*report, suppressed)
                          : o.format == "html"  ? report::render_audit_html(*report, home, page_stamp())
                                                : report::render_audit_text(*report, suppressed.size());
  std::fputs(out.c_str(), stdout);
  return report->failed() ? ExitCode::fail : ExitCode::pass;
}

}  // namespace

void setup_audit(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<AuditCliOptions>();
  CLI::App* cmd = app.add_subcommand("audit", "Audit a ledger's history: drift per commit and cross-commit rules");
  cmd->add_option("range", opts->range, "A..B or a revision (default: all of HEAD's history)");
  cmd->add_option("--since", opts->since, "Skip commits older than DATE (YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z)");
  cmd->add_flag("--first-parent", opts->first_parent, "Follow only the first parent of merges");
  cmd->add_option("--jobs", opts->jobs,
                  "Threads: 2 reads ahead of the walk (default on 2+ cores), 1 walks alone in less memory")
      ->check(CLI::Range(1u, 2u));
  cmd->add_option("--cache", opts->cache,
                  "Keep each commit's result in DIR (created when missing); a re-audit checks only new commits. "
                  "Without it, results are kept in the repository's cache (docs/cache.md; off with --no-cache)");
  cmd->add_option("--format", opts->format,
                  "Output: text (grouped by commit), json, sarif (SARIF 2.1.0) or html (a chart of open findings, a table of rules, the findings by rule)")
      ->check(CLI::IsMember({"text", "json", "sarif", "html"}));
  cmd->add_option("--baseline", opts->baseline,
                  "Suppress the findings this baseline file holds (reported as a count; they do not fail)");
  cmd->add_option("--write-baseline", opts->write_baseline,
                  "Record the audit's findings in this baseline file (written atomically)");
  auto* progress = cmd->add_flag("--progress", opts->progress, "Show a progress bar on stderr (default on a TTY)");
  cmd->add_flag("--no-progress", opts->no_progress, "Never show the progress bar")->excludes(progress);
  // Hidden: for tests and benchmarks.
  cmd->add_flag("--full-check", opts->full, "Check every commit in full (no incremental check)")->group("");
  cmd->add_flag("--verify-incremental", opts->verify,
                "Compare every incremental check with a full one; a difference is an error")
      ->group("");
  cmd->callback([opts, &globals] { globals.exit_code = run_audit(*opts, globals); });
}

}  // namespace lg::cli
