// The board as `dashboard.html`: one self-contained page (inline CSS, no
// script, no external asset), readable on a phone (viewport meta, cards in
// CSS columns that pack them without holes and fall to one column on a
// narrow window), accessible (lang, landmarks, one h1,
// h2 per section, h3 per card, text colours at 4.5:1 or better on their
// backgrounds) in a light and a dark scheme (prefers-color-scheme). The
// content and order are board_md's; every ledger text is HTML-escaped, the
// Now, run and log texts through the inline markdown (board_common.hpp).
#include <fmt/format.h>

#include "board_common.hpp"
#include "ledgergate/report/board.hpp"

namespace lg::report {
namespace {

using namespace board_page;

// The page's style, shared with the audit timeline (audit_html.cpp).
constexpr std::string_view k_style = R"(<style>
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#57606a;--card:#f6f8fa;--line:#d0d7de;--link:#0550ae;--ok:#116329;--bad:#a40e26;--warn:#7d4e00}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--card:#161b22;--line:#3d444d;--link:#58a6ff;--ok:#3fb950;--bad:#ff7b72;--warn:#d29922}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header,main,footer{max-width:80rem;margin:0 auto;padding:.5rem 1rem}
h1{font-size:1.6rem;margin:.5rem 0 .2rem}h2{font-size:1.25rem;margin:1.25rem 0 .5rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:0 0 .25rem;overflow-wrap:anywhere}h4{font-size:.95rem;margin:.75rem 0 .25rem}
a{color:var(--link)}code{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace}
.updated,.meta,.quiet{color:var(--muted)}.meta{font-size:.9rem;margin:0}
.cards{columns:24rem auto;column-gap:1rem}.cards>.card{break-inside:avoid;margin:0 0 1rem}
.card{display:flow-root;background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:.75rem 1rem;overflow-wrap:anywhere}
.index{font-size:.95rem;margin:.25rem 0}.index a{white-space:nowrap}
.stale{font-weight:700;color:var(--bad)}
.card p{margin:.25rem 0}ul{margin:.25rem 0;padding-left:1.25rem}li{margin:.15rem 0;overflow-wrap:anywhere}
.verdict-pass{color:var(--ok)}.verdict-fail,.sev-error{color:var(--bad)}.verdict-error,.sev-warning{color:var(--warn)}
.verdict{font-weight:700}.kind{font-style:italic}
.timeline li{list-style:none;border-left:3px solid var(--line);padding-left:.6rem;margin-left:-1.25rem}
.timeline .in{border-left-color:var(--bad)}.timeline .out{border-left-color:var(--ok)}.timeline .merge,.timeline .era{border-left-color:var(--link)}
</style>
)";

std::string a(std::string_view text, const std::string& href) {
  return "<a href=\"" + html_escape(href) + "\">" + html_escape(text) + "</a>";
}

std::string verdict_span(diag::Verdict v) {
  return fmt::format("<span class=\"verdict verdict-{}\">{}</span>", diag::to_string(v), verdict_word(v));
}

void card(std::string& out, const board::Board& b, const board::Card& c) {
  const std::string id = "project-" + html_escape(c.key);
  out += "<article class=\"card\" id=\"" + id + "\" aria-labelledby=\"" + id + "-title\">\n";
  out += "<h3 id=\"" + id + "-title\">" + html_escape(c.key);
  if (!c.summary.empty()) out += " — " + html_escape(c.summary);
  out += "</h3>\n<p class=\"meta\">" + html_escape(c.status);
  if (!c.partition.empty()) out += " · " + html_escape(c.partition);
  if (c.has_ledger) {
    out += " · ledger: " + a(c.path, file_link(b, c.path));
  } else {
    out += " · <span class=\"sev-error\">no ledger: " + html_escape(c.path) + " is missing</span>";
  }
  if (!c.issue.empty() && c.issue != "none") {
    const std::string target = issue_link(b, c.issue);
    out += " · issue: " + (target.empty() ? html_escape(c.issue) : a(c.issue, target));
  }
  if (!c.updated.empty()) out += " · updated " + html_escape(c.updated);
  out += "</p>\n<h4>Now</h4>\n";
  const auto now = paragraphs(c.now);
  if (now.empty()) out += "<p class=\"quiet\">(nothing yet)</p>\n";
  for (const auto& lines : now) {
    out += "<p>";
    for (std::size_t i = 0; i < lines.size(); ++i) out += (i > 0 ? "<br>\n" : "") + inline_html(lines[i]);
    out += "</p>\n";
  }
  out += "<h4>Runs</h4>\n";
  if (c.runs.empty()) {
    out += "<p class=\"quiet\">nothing on the cluster</p>\n";
  } else {
    out += "<ul class=\"runs\">\n";
    for (const board::Run& run : c.runs) {
      const ledger::RunLine& r = run.line;
      out += fmt::format("<li><code>{}</code> — <strong>{}</strong> — {} — {}{} — {}</li>\n", html_escape(r.ident),
                         html_escape(r.state), html_escape(r.partition), html_escape(r.date),
                         run.stale ? fmt::format(" <span class=\"stale\">stale: {} days</span>", *run.age_days) : "",
                         inline_html(r.text));
    }
    out += "</ul>\n";
  }
  out += fmt::format("<h4>Last {}", board::k_log_window);
  if (c.log_total > c.log.size()) out += fmt::format(" <span class=\"quiet\">(of {})</span>", c.log_total);
  out += "</h4>\n";
  if (c.log.empty()) {
    out += "<p class=\"quiet\">empty</p>\n";
  } else {
    out += "<ul class=\"log\">\n";
    for (const ledger::LogEntry& e : c.log) {
      out += fmt::format("<li>{} — <span class=\"kind\">{}</span> — {}</li>\n", html_escape(e.date),
                         html_escape(e.kind), inline_html(e.text));
    }
    out += "</ul>\n";
  }
  out += "</article>\n";
}

void listed(std::string& out, const board::Board& b, const std::vector<board::Listed>& rows, bool with_status) {
  if (rows.empty()) {
    out += "<p class=\"quiet\">none</p>\n";
    return;
  }
  out += "<ul class=\"listed\">\n";
  for (const board::Listed& l : rows) {
    out += "<li id=\"project-" + html_escape(l.key) + "\">" + (l.path.empty() ? "<strong>" + html_escape(l.key) + "</strong>" : a(l.key, file_link(b, l.path)));
    if (with_status) out += " — " + html_escape(l.status);
    if (!l.summary.empty()) out += " — " + html_escape(l.summary);
    out += "</li>\n";
  }
  out += "</ul>\n";
}

// The project index: every row's key linking to its card or line, by section.
void project_index(std::string& out, const board::Board& b) {
  out += "<nav class=\"index\" aria-label=\"projects\">\n";
  const auto keys = [&](std::string_view section, std::string_view anchor, const auto& rows) {
    if (rows.empty()) return;
    out += fmt::format("<p><a href=\"#{}\">{}</a>:", anchor, section);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      out += fmt::format("{} <a href=\"#project-{}\">{}</a>", i > 0 ? " ·" : "", html_escape(rows[i].key),
                         html_escape(rows[i].key));
    }
    out += "</p>\n";
  };
  keys("Active", "active", b.active);
  keys("Dormant and planned", "resting", b.resting);
  keys("Retired", "retired", b.retired);
  if (!b.as_of.empty()) {
    out += fmt::format(
        "<p class=\"quiet\">A run open or running for more than {} days before {} (the newest date in the "
        "ledger) is marked <span class=\"stale\">stale</span>.</p>\n",
        b.stale_days, html_escape(b.as_of));
  }
  out += "</nav>\n";
}

}  // namespace

namespace board_page {

std::string html_head(std::string_view title, const PageStamp& stamp, std::string_view command,
                      std::string_view extra_style) {
  std::string out = "<!doctype html>\n";
  out += fmt::format("{}{} from the ledger — do not edit; re-render with `{}` -->\n", k_board_generated_prefix,
                     stamp.generator, command);
  out += "<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<meta name=\"color-scheme\" content=\"light dark\">\n";
  out += "<title>" + html_escape(title) + "</title>\n";
  out += k_style;
  out += extra_style;
  out += "</head>\n<body>\n";
  return out;
}

}  // namespace board_page

std::string render_board_html(const board::Board& b, const PageStamp& stamp) {
  const std::string title = page_title(b);
  std::string out = html_head(title, stamp, "ledgergate board --out dashboard.html");
  out += "<header>\n<h1>" + html_escape(title) + "</h1>\n";
  out += fmt::format("{}{}</p>\n", k_board_banner_html, html_escape(stamp.updated));
  out += fmt::format("<p>check: {} · {} · {}</p>\n", verdict_span(b.verdict), severity_counts(b.findings),
                     project_counts(b));
  project_index(out, b);
  out += "</header>\n<main>\n";

  out += "<section aria-labelledby=\"checkin\">\n<h2 id=\"checkin\">Check-in</h2>\n";
  switch (b.checkin.state) {
    case board::Checkin::State::absent: out += "<p>never checked in (no <code>checkin.yaml</code>)</p>\n"; break;
    case board::Checkin::State::ok: out += "<p>refreshed " + html_escape(b.checkin.stamp) + "</p>\n"; break;
    case board::Checkin::State::unreadable:
      out += "<p class=\"sev-warning\">warning: " + html_escape(board::k_checkin_problem) + "</p>\n";
      break;
  }
  out += "</section>\n";

  out += fmt::format("<section aria-labelledby=\"check\">\n<h2 id=\"check\">Check</h2>\n<p>{} ({}) — {}</p>\n",
                     verdict_span(b.verdict), html_escape(b.profile), severity_counts(b.findings));
  if (!b.findings.empty()) {
    out += "<ul class=\"findings\">\n";
    for (const diag::Finding& f : b.findings) {
      std::string where = f.location.path;
      if (f.location.line > 0) where += fmt::format(":{}", f.location.line);
      out += fmt::format("<li><span class=\"sev-{0}\">{0}</span>: ", diag::to_string(f.severity));
      if (!f.location.path.empty()) out += a(where, file_link(b, f.location.path, f.location.line)) + ": ";
      out += html_escape(f.message) + " <code>" + html_escape(f.rule) + "</code></li>\n";
    }
    out += "</ul>\n";
  }
  out += "</section>\n";

  out += "<section aria-labelledby=\"active\">\n<h2 id=\"active\">Active projects</h2>\n";
  if (b.active.empty()) {
    out += "<p class=\"quiet\">none</p>\n";
  } else {
    out += "<div class=\"cards\">\n";
    for (const board::Card& c : b.active) card(out, b, c);
    out += "</div>\n";
  }
  out += "</section>\n";
  out += "<section aria-labelledby=\"resting\">\n<h2 id=\"resting\">Dormant and planned</h2>\n";
  listed(out, b, b.resting, true);
  out += "</section>\n<section aria-labelledby=\"retired\">\n<h2 id=\"retired\">Retired</h2>\n";
  listed(out, b, b.retired, false);
  out += "</section>\n</main>\n";
  if (b.home) {
    out += "<footer>\n<p class=\"quiet\">Home: " + a(*b.home, *b.home) + " (read from " +
           html_escape(b.home_source) + ")</p>\n</footer>\n";
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace lg::report
