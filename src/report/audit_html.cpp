// `audit --format html`: the audit report as a page a person looks at
// before reading it. A chart first: the findings open at each commit,
// stacked by rule family, with the migrations and the re-verified merges
// marked; then a table of rules (introduced, fixed, still open); then the
// findings grouped by rule, each group collapsed (<details>), each finding
// linking to the commit that introduced it. The chart is inline SVG drawn
// here (no script, no external asset); its labels are HTML around it, so
// they keep their size when the drawing stretches to the window's width.
// Nothing is re-judged here, and nothing depends on the clock: the same
// report gives the same bytes but for the page's volatile lines.
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

// The drawing's coordinates (stretched to the figure's box): the plot over
// k_plot_height, the merge ticks in the band below it.
constexpr int k_width = 1000;
constexpr int k_plot_height = 280;
constexpr int k_height = 300;
// At most this many columns: a longer history is sampled at the last commit of each.
constexpr std::size_t k_columns = 500;
// The families drawn in their own colour (the most findings first); the rest are "other".
constexpr std::size_t k_colours = 8;

// The chart's style, after the board's (board_html.cpp).
constexpr std::string_view k_chart_style = R"(<style>
.chart{margin:0}.plot{position:relative;height:16rem;margin-left:3.5rem;border-left:1px solid var(--line);border-bottom:1px solid var(--line)}
.plot svg{display:block;width:100%;height:100%}.plot .grid{stroke:var(--line)}
.ytick{position:absolute;left:-3.5rem;width:3.2rem;text-align:right;font-size:.8rem;color:var(--muted);transform:translateY(-50%)}
.xaxis{display:flex;justify-content:space-between;margin-left:3.5rem;font-size:.8rem;color:var(--muted)}
.legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.5rem 0 0;padding:0;list-style:none;font-size:.9rem}
.legend li{margin:0}.sw{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;vertical-align:-.05rem}
.f0{fill:#4e79a7;background:#4e79a7}.f1{fill:#f28e2b;background:#f28e2b}.f2{fill:#59a14f;background:#59a14f}
.f3{fill:#e15759;background:#e15759}.f4{fill:#b07aa1;background:#b07aa1}.f5{fill:#76b7b2;background:#76b7b2}
.f6{fill:#edc948;background:#edc948}.f7{fill:#9c755f;background:#9c755f}.f8{fill:#bab0ac;background:#bab0ac}
.mig{stroke:var(--link);stroke-dasharray:6 4}.merge-ok{stroke:var(--ok)}.merge-bad{stroke:var(--bad)}
.sw.mig{background:var(--link)}.sw.merge-ok{background:var(--ok)}.sw.merge-bad{background:var(--bad)}
.table-wrap{overflow-x:auto}table.rules{border-collapse:collapse;width:100%;font-size:.95rem}
.rules th,.rules td{padding:.25rem .5rem;border-bottom:1px solid var(--line);text-align:left;overflow-wrap:anywhere}
.rules .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
@media (max-width:40rem){.rules .fam{display:none}.rules th,.rules td{padding:.25rem}}
details{border:1px solid var(--line);border-radius:.5rem;margin:.5rem 0;padding:.25rem .75rem;background:var(--card)}
summary{cursor:pointer;overflow-wrap:anywhere}
</style>
)";

// A rule's family in the chart: the first word of its id ("projects",
// "ledger", "pt", ...); the audit's own rules by their first two words
// ("audit-run", "audit-archive", ...), which name the record they guard.
std::string family_of(std::string_view rule) {
  std::size_t end = rule.find('-');
  if (end != std::string_view::npos && rule.substr(0, end) == "audit") end = rule.find('-', end + 1);
  return std::string(rule.substr(0, end));
}

bool is_merge_rule(std::string_view rule) {
  return rule == "audit-merge-manual-resolution" || rule == "audit-ledger-merge-unclean" ||
         rule == "audit-not-checked";
}

std::string plural(std::size_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

class Commits {
 public:
  Commits(const AuditReport& r, std::string_view home) : m_report(r), m_home(home) {
    for (std::size_t i = 0; i < r.commits.size(); ++i) m_index.emplace(r.commits[i].id, i);
  }

  // The commit's position, oldest first; commits.size() for one outside the report.
  std::size_t index(const git::ObjectId& id) const {
    auto it = m_index.find(id);
    return it == m_index.end() ? m_report.commits.size() : it->second;
  }

  // "2026-09-01 10:00 UTC" for a commit of the report, "" when unknown.
  std::string date(std::size_t i, const char* format = "%Y-%m-%d %H:%M UTC") const {
    if (i >= m_report.commits.size() || m_report.commits[i].time == 0) return "";
    std::tm tm{};
    const auto secs = static_cast<std::time_t>(m_report.commits[i].time);
    char buf[32];
    if (gmtime_r(&secs, &tm) == nullptr || std::strftime(buf, sizeof buf, format, &tm) == 0) return "";
    return buf;
  }

  // "<a href=…/commit/HEX><code>abc1234</code></a> 2026-09-01 10:00 UTC “summary”":
  // linked to the commit on the project's home when there is one.
  std::string commit(const git::ObjectId& id) const {
    std::string out = "<code>" + id.short_hex() + "</code>";
    if (!m_home.empty()) {
      out = "<a href=\"" + html_escape(m_home) + "/commit/" + id.hex() + "\">" + out + "</a>";
    } else {
      out = "<span title=\"" + id.hex() + "\">" + out + "</span>";
    }
    const std::size_t i = index(id);
    if (const std::string when = date(i); !when.empty()) out += " " + when;
    if (i < m_report.commits.size() && !m_report.commits[i].summary.empty()) {
      out += " “" + html_escape(m_report.commits[i].summary) + "”";
    }
    return out;
  }

 private:
  const AuditReport& m_report;
  std::string_view m_home;
  std::unordered_map<git::ObjectId, std::size_t, git::ObjectIdHash> m_index;
};

std::string finding_text(const diag::Finding& f) {
  std::string where = html_escape(f.location.path);
  if (f.location.line > 0) where += fmt::format(":{}", f.location.line);
  return fmt::format("<span class=\"sev-{0}\">{0}</span>: {1}{2} <code>{3}</code>", diag::to_string(f.severity),
                     where.empty() ? "" : where + ": ", html_escape(f.message), html_escape(f.rule));
}

// The findings open at each commit, per family: +1 from the introducing
// commit (the first commit for one present before the range), -1 from the
// fixing one.
struct OpenCounts {
  std::vector<std::string> families;           // drawn bottom up: the most findings first, "other" last
  std::vector<std::vector<std::size_t>> open;  // [family][commit]
  std::size_t peak = 0;                        // the most findings open at one commit
};

OpenCounts open_counts(const AuditReport& report, const Commits& commits) {
  const std::size_t n = report.commits.size();
  std::map<std::string, std::vector<long long>> delta;  // family → per-commit change (n + 1 slots)
  std::map<std::string, std::size_t> total;
  for (const AuditFinding& f : report.findings) {
    const std::string family = family_of(f.finding.rule);
    auto& d = delta.try_emplace(family, n + 1, 0).first->second;
    d[f.before_range ? 0 : std::min(commits.index(f.introduced_in), n)] += 1;
    if (f.fixed_in) d[std::min(commits.index(*f.fixed_in), n)] -= 1;
    ++total[family];
  }
  std::vector<std::string> order;
  for (const auto& [family, count] : total) order.push_back(family);
  std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
    return total[a] > total[b];
  });
  OpenCounts out;
  std::vector<long long> other(n + 1, 0);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::vector<long long>& d = delta[order[k]];
    if (k + 1 < k_colours || order.size() == k_colours) {
      out.families.push_back(order[k]);
      std::vector<std::size_t> series(n);
      long long running = 0;
      for (std::size_t i = 0; i < n; ++i) series[i] = static_cast<std::size_t>(std::max(0LL, running += d[i]));
      out.open.push_back(std::move(series));
    } else {
      for (std::size_t i = 0; i <= n; ++i) other[i] += d[i];
    }
  }
  if (order.size() > k_colours) {
    out.families.push_back("other");
    std::vector<std::size_t> series(n);
    long long running = 0;
    for (std::size_t i = 0; i < n; ++i) series[i] = static_cast<std::size_t>(std::max(0LL, running += other[i]));
    out.open.push_back(std::move(series));
  }
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t sum = 0;
    for (const auto& series : out.open) sum += series[i];
    out.peak = std::max(out.peak, sum);
  }
  return out;
}

// The y axis's top: the peak rounded up to 1, 2 or 5 times a power of ten (4 at least).
std::size_t axis_top(std::size_t peak) {
  std::size_t step = 1;
  while (true) {
    for (const std::size_t m : {std::size_t{1}, std::size_t{2}, std::size_t{5}}) {
      if (m * step * 4 >= peak && m * step * 4 >= 4) return m * step * 4;
    }
    step *= 10;
  }
}

// The x coordinate of commit i of n.
std::string x_of(std::size_t i, std::size_t n) {
  return n <= 1 ? "500" : fmt::format("{:.1f}", static_cast<double>(i) * k_width / static_cast<double>(n - 1));
}
std::string y_of(std::size_t value, std::size_t top) {
  return fmt::format("{:.1f}", k_plot_height - static_cast<double>(value) * k_plot_height / static_cast<double>(top));
}

// The stacked areas: family k's band runs from the sum of the families below
// it to that sum plus its own count, sampled at k_columns commits at most.
std::string stacked_areas(const OpenCounts& counts, std::size_t n, std::size_t top) {
  std::vector<std::size_t> at;  // the commits sampled: the last of each column
  const std::size_t columns = std::min(n, k_columns);
  for (std::size_t c = 0; c < columns; ++c) at.push_back(columns == n ? c : (c + 1) * n / columns - 1);
  std::vector<std::size_t> below(at.size(), 0);
  std::string out;
  for (std::size_t k = 0; k < counts.families.size(); ++k) {
    std::vector<std::size_t> upper(at.size());
    for (std::size_t j = 0; j < at.size(); ++j) upper[j] = below[j] + counts.open[k][at[j]];
    std::string points;
    for (std::size_t j = 0; j < at.size(); ++j) points += x_of(at[j], n) + "," + y_of(upper[j], top) + " ";
    for (std::size_t j = at.size(); j-- > 0;) points += x_of(at[j], n) + "," + y_of(below[j], top) + " ";
    if (!points.empty()) points.pop_back();
    const std::size_t last = n == 0 ? 0 : counts.open[k][n - 1];
    out += fmt::format("<polygon class=\"f{}\" points=\"{}\"><title>{}: {} open at the tip</title></polygon>\n",
                       std::min(k, k_colours), points, html_escape(counts.families[k]), last);
    below = std::move(upper);
  }
  return out;
}

// The migrations (a change of the detected profile between consecutive
// commits, or a commit the audit's migration rules judged) and the merges
// (re-verified clean, or not), as the commits' indexes.
struct Markers {
  std::vector<std::size_t> migrations, merges_clean, merges_not;
};

Markers markers(const AuditReport& report, const Commits& commits) {
  Markers m;
  std::vector<bool> migration(report.commits.size(), false), merge_bad(report.commits.size(), false);
  for (std::size_t i = 1; i < report.commits.size(); ++i) {
    if (report.commits[i].profile != report.commits[i - 1].profile) migration[i] = true;
  }
  for (const AuditFinding& f : report.findings) {
    const std::size_t i = commits.index(f.introduced_in);
    if (i >= report.commits.size()) continue;
    if (f.finding.rule.starts_with("audit-migration")) migration[i] = true;
    if (is_merge_rule(f.finding.rule)) merge_bad[i] = true;
  }
  for (std::size_t i = 0; i < report.commits.size(); ++i) {
    if (migration[i]) m.migrations.push_back(i);
    if (report.commits[i].merge) (merge_bad[i] ? m.merges_not : m.merges_clean).push_back(i);
  }
  return m;
}

std::string marker_lines(const Markers& m, const Commits& commits, const AuditReport& report) {
  const std::size_t n = report.commits.size();
  std::string out;
  const auto line = [&](std::size_t i, std::string_view cls, int y1, int y2, std::string_view what) {
    out += fmt::format(
        "<line class=\"{0}\" x1=\"{1}\" x2=\"{1}\" y1=\"{2}\" y2=\"{3}\" vector-effect=\"non-scaling-stroke\" "
        "stroke-width=\"2\"><title>{4} {5} {6}</title></line>\n",
        cls, x_of(i, n), y1, y2, what, report.commits[i].id.short_hex(), commits.date(i));
  };
  for (const std::size_t i : m.migrations) line(i, "mig", 0, k_plot_height, "migration at");
  for (const std::size_t i : m.merges_clean) line(i, "merge-ok", k_plot_height + 4, k_height, "merge re-verified:");
  for (const std::size_t i : m.merges_not) line(i, "merge-bad", k_plot_height + 4, k_height, "merge not clean:");
  return out;
}

std::string chart(const AuditReport& report, const Commits& commits) {
  const std::size_t n = report.commits.size();
  const OpenCounts counts = open_counts(report, commits);
  const std::size_t top = axis_top(counts.peak);
  const Markers m = markers(report, commits);
  std::size_t at_tip = 0;
  for (const auto& series : counts.open) at_tip += n == 0 ? 0 : series[n - 1];
  std::string out = "<section aria-labelledby=\"chart\">\n<h2 id=\"chart\">Open findings over the history</h2>\n";
  out += "<figure class=\"chart\" id=\"timeline\">\n<div class=\"plot\">\n";
  for (std::size_t q = 0; q <= 4; ++q) {
    // The plot's share of the drawing's height, the merge band below it.
    const double at = (4.0 - static_cast<double>(q)) / 4.0 * 100.0 * k_plot_height / k_height;
    out += fmt::format("<span class=\"ytick\" style=\"top:{:.1f}%\">{}</span>\n", at, top * q / 4);
  }
  out += fmt::format(
      "<svg viewBox=\"0 0 {} {}\" preserveAspectRatio=\"none\" role=\"img\" aria-labelledby=\"chart-title\">\n"
      "<title id=\"chart-title\">Findings open at each of {} ({} at the most, {} at the tip), stacked by rule "
      "family</title>\n",
      k_width, k_height, plural(n, "commit"), counts.peak, at_tip);
  for (std::size_t q = 1; q < 4; ++q) {
    const std::string y = y_of(top * q / 4, top);
    out += fmt::format("<line class=\"grid\" x1=\"0\" x2=\"{}\" y1=\"{}\" y2=\"{}\" vector-effect=\"non-scaling-stroke\"/>\n",
                       k_width, y, y);
  }
  out += stacked_areas(counts, n, top);
  out += marker_lines(m, commits, report);
  out += "</svg>\n</div>\n";
  out += fmt::format("<div class=\"xaxis\"><span>{}</span><span>{}</span></div>\n",
                     n == 0 ? "" : commits.date(0, "%Y-%m-%d"), n == 0 ? "" : commits.date(n - 1, "%Y-%m-%d"));
  out += "<figcaption>\n<ul class=\"legend\">\n";
  for (std::size_t k = 0; k < counts.families.size(); ++k) {
    out += fmt::format("<li><span class=\"sw f{}\"></span>{}</li>\n", std::min(k, k_colours),
                       html_escape(counts.families[k]));
  }
  out += fmt::format("<li><span class=\"sw mig\"></span>{}</li>\n", plural(m.migrations.size(), "migration"));
  out += fmt::format("<li><span class=\"sw merge-ok\"></span>{} re-verified clean</li>\n",
                     plural(m.merges_clean.size(), "merge"));
  out += fmt::format("<li><span class=\"sw merge-bad\"></span>{} not clean</li>\n",
                     plural(m.merges_not.size(), "merge"));
  out += "</ul>\n</figcaption>\n</figure>\n</section>\n";
  return out;
}

// Per rule id (in id order): the findings, oldest introduction first.
using ByRule = std::map<std::string, std::vector<const AuditFinding*>>;

ByRule by_rule(const AuditReport& report, const Commits& commits) {
  ByRule out;
  for (const AuditFinding& f : report.findings) out[f.finding.rule].push_back(&f);
  for (auto& [rule, list] : out) {
    std::stable_sort(list.begin(), list.end(), [&](const AuditFinding* x, const AuditFinding* y) {
      return commits.index(x->introduced_in) < commits.index(y->introduced_in);
    });
  }
  return out;
}

std::size_t fixed_count(const std::vector<const AuditFinding*>& list) {
  return static_cast<std::size_t>(std::count_if(list.begin(), list.end(), [](const AuditFinding* f) {
    return f->fixed_in.has_value();
  }));
}

std::string rule_table(const ByRule& rules) {
  std::string out = "<section aria-labelledby=\"rules-title\">\n<h2 id=\"rules-title\">Rules</h2>\n";
  if (rules.empty()) return out + "<p class=\"quiet\">no findings in the range</p>\n</section>\n";
  out += "<div class=\"table-wrap\">\n<table class=\"rules\" id=\"rules\">\n<thead><tr><th scope=\"col\">rule</th>"
         "<th scope=\"col\" class=\"fam\">family</th><th scope=\"col\" class=\"num\">introduced</th><th scope=\"col\" "
         "class=\"num\">fixed</th><th scope=\"col\" class=\"num\">still open</th></tr></thead>\n<tbody>\n";
  std::size_t all = 0, fixed = 0;
  for (const auto& [rule, list] : rules) {
    const std::size_t f = fixed_count(list);
    all += list.size();
    fixed += f;
    out += fmt::format(
        "<tr data-rule=\"{0}\"><th scope=\"row\"><a href=\"#rule-{0}\"><code>{0}</code></a></th><td class=\"fam\">{1}</td>"
        "<td class=\"num\">{2}</td><td class=\"num\">{3}</td><td class=\"num\">{4}</td></tr>\n",
        html_escape(rule), html_escape(family_of(rule)), list.size(), f, list.size() - f);
  }
  out += fmt::format(
      "</tbody>\n<tfoot><tr><th scope=\"row\">all rules</th><td class=\"fam\"></td><td class=\"num\">{}</td><td "
      "class=\"num\">{}</td><td class=\"num\">{}</td></tr></tfoot>\n</table>\n</div>\n</section>\n",
      all, fixed, all - fixed);
  return out;
}

std::string findings_by_rule(const ByRule& rules, const Commits& commits) {
  std::string out = "<section aria-labelledby=\"findings\">\n<h2 id=\"findings\">Findings by rule</h2>\n";
  if (rules.empty()) out += "<p class=\"quiet\">no findings in the range</p>\n";
  for (const auto& [rule, list] : rules) {
    const std::size_t fixed = fixed_count(list);
    out += fmt::format("<details id=\"rule-{}\">\n<summary><code>{}</code> — {}, {} still open</summary>\n",
                       html_escape(rule), html_escape(rule), plural(list.size(), "finding"), list.size() - fixed);
    out += "<ul class=\"timeline\">\n";
    for (const AuditFinding* f : list) {
      out += fmt::format("<li class=\"{}\">{}<br>\nintroduced in {}{}<br>\n{}</li>\n", f->fixed_in ? "out" : "in",
                         finding_text(f->finding), commits.commit(f->introduced_in),
                         f->before_range ? " (before the range)" : "",
                         f->fixed_in ? "fixed in " + commits.commit(*f->fixed_in)
                                     : std::string("<strong>still open</strong> at the tip"));
    }
    out += "</ul>\n</details>\n";
  }
  return out + "</section>\n";
}

// The eras (profile changes and migration findings) and the merges, each
// merge collapsed with what the audit said of it.
std::string eras_and_merges(const AuditReport& report, const Commits& commits) {
  std::string eras;
  std::string previous;
  for (std::size_t i = 0; i < report.commits.size(); ++i) {
    const AuditCommit& c = report.commits[i];
    if (c.profile == previous) continue;
    eras += fmt::format("<li class=\"era\">{} — {} → <strong>{}</strong></li>\n", commits.commit(c.id),
                        previous.empty() ? (i == 0 ? "start" : "no ledger") : html_escape(previous),
                        c.profile.empty() ? "no ledger" : html_escape(c.profile));
    previous = c.profile;
  }
  for (const AuditFinding& f : report.findings) {
    if (!f.finding.rule.starts_with("audit-migration")) continue;
    eras += fmt::format("<li class=\"in\">{} — {}</li>\n", commits.commit(f.introduced_in), finding_text(f.finding));
  }
  std::string out = "<section aria-labelledby=\"eras\">\n<h2 id=\"eras\">Eras and merges</h2>\n";
  out += eras.empty() ? "<p class=\"quiet\">no commits</p>\n" : "<ul class=\"timeline\">\n" + eras + "</ul>\n";
  std::string merges;
  std::size_t count = 0, clean = 0;
  for (const AuditCommit& c : report.commits) {
    if (!c.merge) continue;
    ++count;
    std::string said;
    for (const AuditFinding& f : report.findings) {
      if (f.introduced_in == c.id && is_merge_rule(f.finding.rule)) said += "<br>\n" + finding_text(f.finding);
    }
    if (said.empty()) ++clean;
    merges += fmt::format("<li class=\"{}\">{} — {}{}</li>\n", said.empty() ? "out" : "in", commits.commit(c.id),
                          said.empty() ? "<span class=\"verdict-pass\">re-verified: the trial merge agrees</span>"
                                       : "<span class=\"verdict-fail\">not as a clean merge would be</span>",
                          said);
  }
  if (count == 0) return out + "<p class=\"quiet\">no merge commits</p>\n</section>\n";
  out += fmt::format("<details id=\"merges\">\n<summary>{} re-run as trial merges: {} clean, {} not</summary>\n",
                     plural(count, "merge"), clean, count - clean);
  return out + "<ul class=\"timeline\">\n" + merges + "</ul>\n</details>\n</section>\n";
}

}  // namespace

std::string render_audit_html(const AuditReport& report, std::string_view home, const PageStamp& stamp) {
  const Commits commits(report, home);
  std::string out = html_head("History audit", stamp, "ledgergate audit --format html", k_chart_style);
  std::vector<diag::Finding> all;
  std::size_t fixed = 0;
  for (const AuditFinding& f : report.findings) {
    all.push_back(f.finding);
    if (f.fixed_in) ++fixed;
  }
  const diag::Verdict verdict = report.failed() ? diag::Verdict::fail : diag::Verdict::pass;
  out += "<header>\n<h1>History audit</h1>\n";
  out += fmt::format("{}{}</p>\n", k_board_banner_html, html_escape(stamp.updated));
  out += fmt::format(
      "<p>audit: <span class=\"verdict verdict-{}\">{}</span> · {} · {} ({}), {} fixed, {} still open</p>\n"
      "<nav><a href=\"#chart\">chart</a> · <a href=\"#rules-title\">rules</a> · <a href=\"#findings\">findings</a> · "
      "<a href=\"#eras\">eras and merges</a></nav>\n</header>\n<main>\n",
      diag::to_string(verdict), verdict == diag::Verdict::pass ? "clean" : "violations",
      plural(report.commits.size(), "commit"), plural(all.size(), "finding"), severity_counts(all), fixed,
      all.size() - fixed);
  const ByRule rules = by_rule(report, commits);
  out += chart(report, commits);
  out += rule_table(rules);
  out += findings_by_rule(rules, commits);
  out += eras_and_merges(report, commits);
  out += "</main>\n</body>\n</html>\n";
  return out;
}

}  // namespace lg::report
