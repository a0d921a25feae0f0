// `ledgergate audit [RANGE] [--since DATE] [--first-parent] [--format text|json]
// [--progress|--no-progress]`: walk a ledger's history, print what entered and
// left at which commit, exit 0 clean / 1 violations / 2 cannot judge.
#include <fmt/format.h>
#include <malloc.h>
#include <unistd.h>

#include <cctype>
#include <thread>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>

#include "commands.hpp"
#include "ledgergate/util/version.hpp"
#include "ledgergate/audit/audit.hpp"
#include "ledgergate/report/format.hpp"
#include "ledgergate/rules/registry.hpp"

namespace lg::cli {
namespace {

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

// FNV-1a over what drift matches a finding by: stable across line shifts.
std::uint64_t drift_hash(const diag::Finding& f) {
  std::uint64_t h = 1469598103934665603ULL;
  for (std::string_view part : {std::string_view(f.rule), std::string_view(f.location.path), std::string_view(f.message)}) {
    for (char ch : part) {
      h ^= static_cast<unsigned char>(ch);
      h *= 1099511628211ULL;
    }
    h ^= 0xff;
    h *= 1099511628211ULL;
  }
  return h;
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

// A repository-relative path as a URI reference: RFC 3986's unreserved
// characters and '/' as they are, every other byte percent-encoded.
std::string uri_of(std::string_view path) {
  std::string out;
  for (char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += ch;
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string_view sarif_level(diag::Severity s) {
  switch (s) {
    case diag::Severity::error: return "error";
    case diag::Severity::warning: return "warning";
    case diag::Severity::info: return "note";
  }
  return "note";
}

// SARIF 2.1.0: one run; the driver lists the registry's rules that results
// name (in order of first use), each result carries its rule, level,
// message, location (a region only when the line is known), a fingerprint
// of what drift matches findings by (rule, path, message), and where it
// entered and left in its properties.
std::string render_sarif(const audit::AuditReport& report) {
  std::vector<const rules::RuleInfo*> used;
  std::map<std::string, std::size_t, std::less<>> index;
  for (const audit::AuditFinding& a : report.findings) {
    if (index.count(a.finding.rule) != 0) continue;
    const rules::RuleInfo* info = rules::find_rule(a.finding.rule);
    if (!info) continue;
    index.emplace(a.finding.rule, used.size());
    used.push_back(info);
  }
  std::string out =
      "{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", \"version\": \"2.1.0\", \"runs\": [{\n"
      "  \"tool\": {\"driver\": {\"name\": \"ledgergate\", \"version\": \"" + std::string(util::k_version) + "\", \"rules\": [";
  for (std::size_t i = 0; i < used.size(); ++i) {
    const rules::RuleInfo& r = *used[i];
    out += fmt::format(
        "{}\n    {{\"id\": {}, \"shortDescription\": {{\"text\": {}}}{}, "
        "\"defaultConfiguration\": {{\"level\": \"{}\"}}, \"properties\": {{\"profile\": {}, \"spec\": {}}}}}",
        i == 0 ? "" : ",", report::json_string(r.id), report::json_string(r.summary),
        r.detail.empty() ? std::string()
                         : fmt::format(", \"fullDescription\": {{\"text\": {}}}", report::json_string(r.detail)),
        sarif_level(r.severity), report::json_string(r.profile), report::json_string(r.ref));
  }
  out += used.empty() ? "]}},\n  \"results\": [" : "\n  ]}},\n  \"results\": [";
  bool first = true;
  for (const audit::AuditFinding& a : report.findings) {
    const diag::Finding& f = a.finding;
    std::string location;
    if (!f.location.path.empty()) {
      location = fmt::format(", \"locations\": [{{\"physicalLocation\": {{\"artifactLocation\": {{\"uri\": {}}}{}}}}}]",
                             report::json_string(uri_of(f.location.path)),
                             f.location.line > 0 ? fmt::format(", \"region\": {{\"startLine\": {}}}", f.location.line)
                                                 : std::string());
    }
    const auto rule = index.find(f.rule);
    out += fmt::format(
        "{}\n    {{\"ruleId\": {}{}, \"level\": \"{}\", \"message\": {{\"text\": {}}}{}, "
        "\"partialFingerprints\": {{\"ledgergateDrift/v1\": \"{:016x}\"}}, "
        "\"properties\": {{\"introduced_in\": {}, \"fixed_in\": {}, \"before_range\": {}}}}}",
        first ? "" : ",", report::json_string(f.rule),
        rule == index.end() ? std::string() : fmt::format(", \"ruleIndex\": {}", rule->second), sarif_level(f.severity),
        report::json_string(f.message), location, drift_hash(f), report::json_string(a.introduced_in),
        a.fixed_in ? report::json_string(*a.fixed_in) : "null", a.before_range ? "true" : "false");
    first = false;
  }
  out += first ? "]\n}]}\n" : "\n  ]\n}]}\n";
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
  options.incremental = !o.full;
  options.verify = o.verify;
  options.cache_dir = o.cache;
  const unsigned jobs = o.jobs != 0 ? o.jobs : std::thread::hardware_concurrency() >= 2 ? 2u : 1u;
  options.pipeline = jobs >= 2;
  if (!o.since.empty()) {
    auto since = audit::parse_since(o.since);
    if (!since) {
      std::fputs(fmt::format("ledgergate: error: {}\n", since.error().message).c_str(), stderr);
      return ExitCode::error;
    }
    options.since = *since;
  }
  if ((o.progress || isatty(fileno(stderr)) == 1) && !o.no_progress) {
    auto bar = std::make_shared<ProgressBar>();
    options.progress = [bar](std::size_t done, std::size_t total) { (*bar)(done, total); };
  }
  // The walk reads each commit and tree about once, so libgit2's object
  // cache buys nothing (off: measured faster as well as smaller), and the
  // pack windows it maps (by default the whole pack, resident as it is read)
  // are capped at 32 MiB in 8 MiB windows: smaller limits remap windows all
  // the time, and with the read-ahead thread every munmap is a cross-core
  // TLB shootdown (2 MiB / 12 MiB: 6.3 s instead of 4.0 s at 2,000 projects
  // × 20,000 commits, scripts/bench-audit). The read-ahead and the walk
  // allocate all the time: with main's single malloc arena they wait on its
  // lock (5.3 s); two arenas cost ~8 MB.
  // With --jobs 1 (one thread) smaller windows and one arena keep the peak
  // lower (90 MB instead of 111 MB there) for 1.6x the time.
  git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, static_cast<ssize_t>(0));
  if (options.pipeline) {
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, static_cast<std::size_t>(32) << 20);
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, static_cast<std::size_t>(8) << 20);
    mallopt(M_ARENA_MAX, 2);
  } else {
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, static_cast<std::size_t>(12) << 20);
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, static_cast<std::size_t>(2) << 20);
  }
  auto repo = git::Repository::open(g.repo.empty() ? "." : g.repo, true);
  if (!repo) {
    std::fputs(fmt::format("ledgergate: error: {}\n", repo.error().message).c_str(), stderr);
    return ExitCode::error;
  }
  auto report = audit::audit_history(*repo, options);
  {  // the report stands alone: its pack windows and freed memory go back before it is rendered
    git::Repository done = std::move(*repo);
  }
  malloc_trim(0);
  if (!report) {
    std::fputs(fmt::format("ledgergate: error: {}\n", report.error().message).c_str(), stderr);
    return ExitCode::error;
  }
  if (!report->cache_warning.empty()) {
    std::fputs(fmt::format("ledgergate: warning: {}\n", report->cache_warning).c_str(), stderr);
  }
  const std::string out = o.format == "json"    ? render_json(*report)
                          : o.format == "sarif" ? render_sarif(*report)
                                                : render_text(*report);
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
                  "Keep each commit's result in DIR (created when missing); a re-audit checks only new commits");
  cmd->add_option("--format", opts->format, "Output: text (grouped by commit), json or sarif (SARIF 2.1.0)")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
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
