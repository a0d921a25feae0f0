// The board as `dashboard.md`: a heading, the banner, the check and the
// check-in, one card per active project in the reference's issue-block
// shape (spec §8.4 `issue`: status line, Now, Runs, Last N), then the other
// rows one line each; a project index under the heading. Ledger text is
// markdown-escaped, the Now, run and log texts through the inline markdown
// (board_common.hpp); run ids sit in code spans (a backtick in one falls
// back to escaped text).
#include <fmt/format.h>

#include <tuple>

#include "board_common.hpp"
#include "ledgergate/report/board.hpp"

namespace lg::report {
namespace {

using namespace board_page;

std::string code_span(std::string_view s) {
  if (s.find('`') != std::string_view::npos || s.empty()) return md_escape(s);
  return "`" + std::string(s) + "`";
}

std::string link(std::string_view text, const std::string& target) {
  return "[" + md_escape(text) + "](" + target + ")";
}

// Lines of one paragraph joined by CommonMark hard breaks (a trailing backslash).
std::string paragraph(const std::vector<std::string>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += inline_md(lines[i]);
    out += i + 1 < lines.size() ? "\\\n" : "\n";
  }
  return out;
}

// A card's heading text (its anchor is GitHub's of it).
std::string card_heading(const board::Card& c) {
  return c.summary.empty() ? c.key : c.key + " — " + c.summary;
}

// The project index: the active keys linking to their cards, the other
// rows' keys to their sections.
void project_index(std::string& out, const board::Board& b) {
  if (!b.active.empty()) {
    out += "- **Active:**";
    for (std::size_t i = 0; i < b.active.size(); ++i) {
      out += (i > 0 ? " · " : " ") + link(b.active[i].key, "#" + heading_anchor(card_heading(b.active[i])));
    }
    out += "\n";
  }
  for (const auto& [section, anchor, rows] : {std::tuple{"Dormant and planned", "dormant-and-planned", &b.resting},
                                               std::tuple{"Retired", "retired", &b.retired}}) {
    if (rows->empty()) continue;
    out += fmt::format("- **[{}](#{}):**", section, anchor);
    for (std::size_t i = 0; i < rows->size(); ++i) out += (i > 0 ? " · " : " ") + md_escape((*rows)[i].key);
    out += "\n";
  }
  if (!b.active.empty() || !b.resting.empty() || !b.retired.empty()) out += "\n";
  if (!b.as_of.empty()) {
    out += fmt::format("A run open or running for more than {} days before {} (the newest date in the ledger) is "
                       "marked **stale**.\n\n",
                       b.stale_days, md_escape(b.as_of));
  }
}

void card(std::string& out, const board::Board& b, const board::Card& c) {
  out += "### " + md_escape(c.key);
  if (!c.summary.empty()) out += " — " + md_escape(c.summary);
  out += "\n\n_" + md_escape(c.status);
  if (!c.partition.empty()) out += " · " + md_escape(c.partition);
  if (c.has_ledger) {
    out += " · ledger: " + link(c.path, file_link(b, c.path));
  } else {
    out += " · no ledger: " + md_escape(c.path) + " is missing";
  }
  if (!c.issue.empty() && c.issue != "none") {
    const std::string target = issue_link(b, c.issue);
    out += " · issue: " + (target.empty() ? md_escape(c.issue) : link(c.issue, target));
  }
  if (!c.updated.empty()) out += " · updated " + md_escape(c.updated);
  out += "_\n\n**Now**\n\n";
  const auto now = paragraphs(c.now);
  if (now.empty()) out += "_(nothing yet)_\n";
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (i > 0) out += "\n";
    out += paragraph(now[i]);
  }
  out += "\n**Runs**\n\n";
  if (c.runs.empty()) out += "_nothing on the cluster_\n";
  for (const board::Run& run : c.runs) {
    const ledger::RunLine& r = run.line;
    out += fmt::format("- {} — {} — {} — {}{} — {}\n", code_span(r.ident), md_escape(r.state), md_escape(r.partition),
                       md_escape(r.date), run.stale ? fmt::format(" **stale: {} days**", *run.age_days) : "",
                       inline_md(r.text));
  }
  out += fmt::format("\n**Last {}**", board::k_log_window);
  if (c.log_total > c.log.size()) out += fmt::format(" (of {})", c.log_total);
  out += "\n\n";
  if (c.log.empty()) out += "_empty_\n";
  for (const ledger::LogEntry& e : c.log) {
    out += fmt::format("- {} — *{}* — {}\n", md_escape(e.date), md_escape(e.kind), inline_md(e.text));
  }
  out += "\n";
}

void listed(std::string& out, const board::Board& b, const std::vector<board::Listed>& rows, bool with_status) {
  for (const board::Listed& l : rows) {
    out += "- " + (l.path.empty() ? "**" + md_escape(l.key) + "**" : link(l.key, file_link(b, l.path)));
    if (with_status) out += " — " + md_escape(l.status);
    if (!l.summary.empty()) out += " — " + md_escape(l.summary);
    out += "\n";
  }
  if (rows.empty()) out += "_none_\n";
  out += "\n";
}

}  // namespace

std::string render_board_md(const board::Board& b, const PageStamp& stamp) {
  std::string out;
  out += fmt::format("{}{} from the ledger — do not edit; re-render with `ledgergate board --out dashboard.md` -->\n",
                     k_board_generated_prefix, stamp.generator);
  out += "# " + md_escape(page_title(b)) + "\n\n";
  out += fmt::format("{}{}_\n\n", k_board_banner_md, stamp.updated);
  out += fmt::format("**check: {}** · {} · {}\n\n", verdict_word(b.verdict), severity_counts(b.findings),
                     project_counts(b));
  project_index(out, b);

  out += "## Check-in\n\n";
  switch (b.checkin.state) {
    case board::Checkin::State::absent: out += "never checked in (no `checkin.yaml`)\n\n"; break;
    case board::Checkin::State::ok: out += "refreshed " + md_escape(b.checkin.stamp) + "\n\n"; break;
    case board::Checkin::State::unreadable: out += "warning: " + md_escape(board::k_checkin_problem) + "\n\n"; break;
  }

  out += fmt::format("## Check\n\n**{}** ({}) — {}\n\n", verdict_word(b.verdict), md_escape(b.profile),
                     severity_counts(b.findings));
  for (const diag::Finding& f : b.findings) {
    std::string where = f.location.path;
    if (f.location.line > 0) where += fmt::format(":{}", f.location.line);
    out += "- " + md_escape(diag::to_string(f.severity)) + ": ";
    if (!f.location.path.empty()) out += link(where, file_link(b, f.location.path, f.location.line)) + ": ";
    out += md_escape(f.message) + " " + code_span(f.rule) + "\n";
  }
  if (!b.findings.empty()) out += "\n";

  out += "## Active projects\n\n";
  if (b.active.empty()) out += "_none_\n\n";
  for (const board::Card& c : b.active) card(out, b, c);
  out += "## Dormant and planned\n\n";
  listed(out, b, b.resting, true);
  out += "## Retired\n\n";
  listed(out, b, b.retired, false);
  if (b.home) out += "Home: <" + *b.home + "> (read from " + md_escape(b.home_source) + ")\n";
  // One newline at the end, none doubled.
  while (out.size() >= 2 && out.ends_with("\n\n")) out.pop_back();
  return out;
}

}  // namespace lg::report
