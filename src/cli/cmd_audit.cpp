// `ledgergate audit [RANGE] [--since DATE] [--first-parent] [--format text|json]
// [--progress|--no-progress]`: walk a ledger's history, print what entered and
// left at which commit, exit 0 clean / 1 violations / 2 cannot judge.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>

#include "commands.hpp"
#include "ledgergate/audit/audit.hpp"
#include "ledgergate/report/format.hpp"

namespace lg::cli {
namespace {

struct AuditCliOptions {
  std::string range;
  std::string since;
  bool first_parent = false;
  std::string format = "text";
  bool progress = false;
  bool no_progress = false;
};

std::string short_id(const std::string& hex) { return hex.substr(0, 12); }

std::string where(const diag::Finding& f) {
  if (f.location.path.empty()) return "";
  if (f.location.line > 0) return fmt::format("{}:{}: ", f.location.path, f.location.line);
  return f.location.path + ": ";
}

std::string render_text(const audit::AuditReport& report) {
  // Per commit: what it introduced (+) and what it fixed (-).
  std::map<std::string, std::vector<std::string>> lines;
  std::string before;
  for (const audit::AuditFinding& a : report.findings) {
    const diag::Finding& f = a.finding;
    const std::string text = fmt::format("{}{}: {} [{}]", where(f), diag::to_string(f.severity), f.message, f.rule);
    if (a.before_range) {
      before += fmt::format("  = {}{}\n", text, a.fixed_in ? " (fixed in " + short_id(*a.fixed_in) + ")" : "");
    } else {
      lines[a.introduced_in].push_back("  + " + text);
    }
    if (a.fixed_in) {
      lines[*a.fixed_in].push_back(fmt::format("  - fixed: {}{} [{}] (introduced in {})", where(f), f.message, f.rule,
                                               short_id(a.introduced_in)));
    }
  }
  std::string out;
  if (!before.empty()) out += "already present before the range:\n" + before;
  for (const audit::AuditCommit& c : report.commits) {
    auto it = lines.find(c.id);
    if (it == lines.end()) continue;
    out += fmt::format("{} {}{} [{}]\n", short_id(c.id), c.summary, c.merge ? " (merge)" : "",
                       c.profile.empty() ? "no ledger" : c.profile);
    for (const std::string& l : it->second) out += l + "\n";
  }
  std::size_t errors = 0, warnings = 0, infos = 0, open = 0;
  for (const audit::AuditFinding& a : report.findings) {
    if (a.finding.severity == diag::Severity::error) ++errors;
    else if (a.finding.severity == diag::Severity::warning) ++warnings;
    else ++infos;
    if (!a.fixed_in && a.finding.rule.rfind("audit-", 0) != 0) ++open;
  }
  out += fmt::format("audit: {} commit{}, {} error{}, {} warning{}, {} info; {} check finding{} present at the tip\n",
                     report.commits.size(), report.commits.size() == 1 ? "" : "s", errors, errors == 1 ? "" : "s",
                     warnings, warnings == 1 ? "" : "s", infos, open, open == 1 ? "" : "s");
  return out;
}

std::string render_json(const audit::AuditReport& report) {
  std::string out = fmt::format("{{\"verdict\": {}, \"commits\": [",
                                report::json_string(report.failed() ? "fail" : "pass"));
  for (std::size_t i = 0; i < report.commits.size(); ++i) {
    const audit::AuditCommit& c = report.commits[i];
    out += fmt::format("{}\n  {{\"id\": {}, \"profile\": {}, \"merge\": {}}}", i == 0 ? "" : ",",
                       report::json_string(c.id), report::json_string(c.profile), c.merge ? "true" : "false");
  }
  out += report.commits.empty() ? "], \"findings\": [" : "\n], \"findings\": [";
  for (std::size_t i = 0; i < report.findings.size(); ++i) {
    const audit::AuditFinding& a = report.findings[i];
    const diag::Finding& f = a.finding;
    out += fmt::format(
        "{}\n  {{\"rule\": {}, \"severity\": {}, \"path\": {}, \"line\": {}, \"message\": {}, \"introduced_in\": {}, "
        "\"fixed_in\": {}}}",
        i == 0 ? "" : ",", report::json_string(f.rule), report::json_string(diag::to_string(f.severity)),
        report::json_string(f.location.path), f.location.line, report::json_string(f.message),
        report::json_string(a.introduced_in), a.fixed_in ? report::json_string(*a.fixed_in) : "null");
  }
  out += report.findings.empty() ? "]}\n" : "\n]}\n";
  return out;
}

// "[#####.....] 120/2000 commits, 850/s" on one stderr line.
class ProgressBar {
 public:
  void operator()(std::size_t done, std::size_t total) {
    const auto now = std::chrono::steady_clock::now();
    if (done != total && now - m_last < std::chrono::milliseconds(100)) return;
    m_last = now;
    constexpr std::size_t k_width = 30;
    const std::size_t filled = total == 0 ? k_width : done * k_width / total;
    const double seconds = std::chrono::duration<double>(now - m_start).count();
    const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
    std::fputs(fmt::format("\r[{}{}] {}/{} commits, {:.0f}/s", std::string(filled, '#'),
                           std::string(k_width - filled, '.'), done, total, rate)
                   .c_str(),
               stderr);
    if (done == total) std::fputs("\n", stderr);
  }

 private:
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point m_last{};
};

ExitCode run_audit(const AuditCliOptions& o, const Globals& g) {
  audit::AuditOptions options;
  options.range = o.range;
  options.first_parent = o.first_parent;
  if (!o.since.empty()) {
    auto since = audit::parse_since(o.since);
    if (!since) {
      std::fputs(fmt::format("ledgergate: error: {}\n", since.error().message).c_str(), stderr);
      return ExitCode::error;
    }
    options.since = *since;
  }
  if (isatty(fileno(stderr)) == 1 && !o.no_progress) {
    auto bar = std::make_shared<ProgressBar>();
    options.progress = [bar](std::size_t done, std::size_t total) { (*bar)(done, total); };
  }
  auto repo = git::Repository::open(g.repo.empty() ? "." : g.repo, true);
  if (!repo) {
    std::fputs(fmt::format("ledgergate: error: {}\n", repo.error().message).c_str(), stderr);
    return ExitCode::error;
  }
  auto report = audit::audit_history(*repo, options);
  if (!report) {
    std::fputs(fmt::format("ledgergate: error: {}\n", report.error().message).c_str(), stderr);
    return ExitCode::error;
  }
  std::fputs((o.format == "json" ? render_json(*report) : render_text(*report)).c_str(), stdout);
  return report->failed() ? ExitCode::fail : ExitCode::pass;
}

}  // namespace

void setup_audit(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<AuditCliOptions>();
  CLI::App* cmd = app.add_subcommand("audit", "Audit a ledger's history: drift per commit and cross-commit rules");
  cmd->add_option("range", opts->range, "A..B or a revision (default: all of HEAD's history)");
  cmd->add_option("--since", opts->since, "Skip commits older than DATE (YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z)");
  cmd->add_flag("--first-parent", opts->first_parent, "Follow only the first parent of merges");
  cmd->add_option("--format", opts->format, "Output: text (grouped by commit) or json")
      ->check(CLI::IsMember({"text", "json"}));
  auto* progress = cmd->add_flag("--progress", opts->progress, "Show a progress bar on stderr (default on a TTY)");
  cmd->add_flag("--no-progress", opts->no_progress, "Never show the progress bar")->excludes(progress);
  cmd->callback([opts, &globals] { globals.exit_code = run_audit(*opts, globals); });
}

}  // namespace lg::cli
