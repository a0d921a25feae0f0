// `audit --format html`: the audit report as a page a person scans. Three
// sections over the audit's own values (nothing re-judged here): the eras
// (where the detected profile changes between consecutive commits, and the
// audit's migration findings), the merges the audit re-ran as trial merges
// (clean, or what its findings say), and per project the timeline of every
// finding — introduced in which commit, fixed in which, or still present.
// The same head, style and volatile lines as the board's page.
#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <map>
#include <unordered_map>

#include "board_common.hpp"
#include "ledgergate/diag/severity_counts.hpp"
#include "ledgergate/report/board.hpp"

namespace lg::report {
namespace {

using namespace board_page;
using audit::AuditCommit;
using audit::AuditFinding;
using audit::AuditReport;

// The project a finding belongs to: the key of projects/<key>.md, the
// project folder of tasks/ and phases/ (archived or not); "" for the rest.
std::string project_of(std::string_view path) {
  if (path.starts_with("archive/")) path.remove_prefix(8);
  if (path.starts_with("projects/") && path.ends_with(".md") && path.find('/', 9) == std::string_view::npos) {
    return std::string(path.substr(9, path.size() - 12));
  }
  for (const std::string_view dir : {"tasks/", "phases/"}) {
    if (!path.starts_with(dir)) continue;
    const std::size_t end = path.find('/', dir.size());
    if (end != std::string_view::npos) return std::string(path.substr(dir.size(), end - dir.size()));
  }
  return "";
}

bool is_merge_rule(std::string_view rule) {
  return rule == "audit-merge-manual-resolution" || rule == "audit-ledger-merge-unclean" ||
         rule == "audit-not-checked";
}

class Timeline {
 public:
  Timeline(const AuditReport& r, const std::map<git::ObjectId, long long>& times) : m_report(r), m_times(times) {
    for (std::size_t i = 0; i < r.commits.size(); ++i) m_index.emplace(r.commits[i].id, i);
  }

  std::size_t index(const git::ObjectId& id) const {
    auto it = m_index.find(id);
    return it == m_index.end() ? m_report.commits.size() : it->second;
  }

  // "abc1234 (2026-09-01 10:00 UTC) “summary”" for a commit of the report.
  std::string commit(const git::ObjectId& id) const {
    std::string out = "<code>" + id.short_hex() + "</code>";
    if (auto t = m_times.find(id); t != m_times.end()) {
      std::tm tm{};
      const std::time_t secs = static_cast<std::time_t>(t->second);
      char buf[32];
      if (gmtime_r(&secs, &tm) != nullptr && std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm) > 0) {
        out += fmt::format(" {}", buf);
      }
    }
    const std::size_t i = index(id);
    if (i < m_report.commits.size() && !m_report.commits[i].summary.empty()) {
      out += " “" + html_escape(m_report.commits[i].summary) + "”";
    }
    return out;
  }

 private:
  const AuditReport& m_report;
  const std::map<git::ObjectId, long long>& m_times;
  std::unordered_map<git::ObjectId, std::size_t, git::ObjectIdHash> m_index;
};

std::string finding_text(const diag::Finding& f) {
  std::string where = html_escape(f.location.path);
  if (f.location.line > 0) where += fmt::format(":{}", f.location.line);
  return fmt::format("<span class=\"sev-{0}\">{0}</span>: {1}{2} <code>{3}</code>", diag::to_string(f.severity),
                     where.empty() ? "" : where + ": ", html_escape(f.message), html_escape(f.rule));
}

}  // namespace

std::string render_audit_html(const AuditReport& report, const std::map<git::ObjectId, long long>& times,
                              const PageStamp& stamp) {
  const Timeline t(report, times);
  std::string out = html_head("History audit — timeline", stamp, "ledgergate audit --format html");
  std::vector<diag::Finding> all;
  std::size_t fixed = 0;
  for (const AuditFinding& f : report.findings) {
    all.push_back(f.finding);
    if (f.fixed_in) ++fixed;
  }
  const diag::Verdict verdict = report.failed() ? diag::Verdict::fail : diag::Verdict::pass;
  out += "<header>\n<h1>History audit — timeline</h1>\n";
  out += fmt::format("{}{}</p>\n", k_board_banner_html, html_escape(stamp.updated));
  out += fmt::format(
      "<p>audit: <span class=\"verdict verdict-{}\">{}</span> · {} commit{} · {} finding{} ({}), {} fixed, {} still "
      "present</p>\n</header>\n<main>\n",
      diag::to_string(verdict), verdict == diag::Verdict::pass ? "clean" : "violations", report.commits.size(),
      report.commits.size() == 1 ? "" : "s", all.size(), all.size() == 1 ? "" : "s", severity_counts(all), fixed,
      all.size() - fixed);

  // Eras: profile changes between consecutive commits, and migration findings.
  out += "<section aria-labelledby=\"eras\">\n<h2 id=\"eras\">Eras and migrations</h2>\n";
  std::string eras;
  std::string previous;
  for (std::size_t i = 0; i < report.commits.size(); ++i) {
    const AuditCommit& c = report.commits[i];
    if (c.profile == previous) continue;
    eras += fmt::format("<li class=\"era\">{} — {} → <strong>{}</strong></li>\n", t.commit(c.id),
                        previous.empty() ? (i == 0 ? "start" : "no ledger") : html_escape(previous),
                        c.profile.empty() ? "no ledger" : html_escape(c.profile));
    previous = c.profile;
  }
  for (const AuditFinding& f : report.findings) {
    if (!f.finding.rule.starts_with("audit-migration") && !f.finding.rule.starts_with("audit-archive")) continue;
    eras += fmt::format("<li class=\"in\">{} — {}</li>\n", t.commit(f.introduced_in), finding_text(f.finding));
  }
  out += eras.empty() ? "<p class=\"quiet\">no commits</p>\n" : "<ul class=\"timeline\">\n" + eras + "</ul>\n";
  out += "</section>\n";

  // Merges: each merge commit was re-run as a trial merge.
  out += "<section aria-labelledby=\"merges\">\n<h2 id=\"merges\">Merges re-verified</h2>\n";
  std::string merges;
  for (const AuditCommit& c : report.commits) {
    if (!c.merge) continue;
    std::string said;
    for (const AuditFinding& f : report.findings) {
      if (f.introduced_in == c.id && is_merge_rule(f.finding.rule)) said += "<br>\n" + finding_text(f.finding);
    }
    merges += fmt::format("<li class=\"{}\">{} — {}{}</li>\n", said.empty() ? "out" : "in", t.commit(c.id),
                          said.empty() ? "<span class=\"verdict-pass\">re-verified: the trial merge agrees</span>"
                                       : "<span class=\"verdict-fail\">not as a clean merge would be</span>",
                          said);
  }
  out += merges.empty() ? "<p class=\"quiet\">no merge commits</p>\n" : "<ul class=\"timeline\">\n" + merges + "</ul>\n";
  out += "</section>\n";

  // Findings per project, oldest introduction first.
  std::map<std::string, std::vector<const AuditFinding*>> by_project;
  for (const AuditFinding& f : report.findings) {
    if (is_merge_rule(f.finding.rule)) continue;
    by_project[project_of(f.finding.location.path)].push_back(&f);
  }
  out += "<section aria-labelledby=\"projects\">\n<h2 id=\"projects\">Findings by project</h2>\n";
  if (by_project.empty()) out += "<p class=\"quiet\">no findings in the range</p>\n";
  for (auto& [project, list] : by_project) {
    std::stable_sort(list.begin(), list.end(), [&](const AuditFinding* x, const AuditFinding* y) {
      return t.index(x->introduced_in) < t.index(y->introduced_in);
    });
    const std::string id = project.empty() ? "tree" : "project-" + html_escape(project);
    out += fmt::format("<article class=\"card\" id=\"{0}\" aria-labelledby=\"{0}-title\">\n<h3 id=\"{0}-title\">{1}</h3>\n",
                       id, project.empty() ? "The rest of the tree" : html_escape(project));
    out += "<ul class=\"timeline\">\n";
    for (const AuditFinding* f : list) {
      out += fmt::format("<li class=\"{}\">{}<br>\nintroduced in {}{}<br>\n{}</li>\n", f->fixed_in ? "out" : "in",
                         finding_text(f->finding), t.commit(f->introduced_in),
                         f->before_range ? " (before the range)" : "",
                         f->fixed_in ? "fixed in " + t.commit(*f->fixed_in)
                                     : std::string("<strong>still present</strong> at the tip"));
    }
    out += "</ul>\n</article>\n";
  }
  out += "</section>\n</main>\n</body>\n</html>\n";
  return out;
}

}  // namespace lg::report
