// GitHub Actions workflow commands and the step summary.
#include "ledgergate/report/github.hpp"

#include <fmt/format.h>

#include "ledgergate/diag/severity_counts.hpp"
#include "ledgergate/util/quote.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::report {
namespace {

// The workflow-command escapes (the runner decodes %25 %0D %0A, and %3A %2C
// in a property); every other control byte (ESC: a colour or a cursor move
// in a log viewed in a terminal), a C1 control and a byte that is not UTF-8
// is C-escaped as text first (util::escape_controls).
std::string escape(std::string_view s, bool property) {
  std::string out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = s.find_first_of("\r\n", start);
    for (const char c : util::escape_controls(s.substr(start, end == std::string_view::npos ? s.npos : end - start))) {
      switch (c) {
        case '%': out += "%25"; break;
        case ':': out += property ? "%3A" : ":"; break;
        case ',': out += property ? "%2C" : ","; break;
        default: out += c;
      }
    }
    if (end == std::string_view::npos) break;
    out += s[end] == '\r' ? "%0D" : "%0A";
    start = end + 1;
  }
  return out;
}

std::string_view command_of(diag::Severity s) {
  switch (s) {
    case diag::Severity::error: return "error";
    case diag::Severity::warning: return "warning";
    case diag::Severity::info: return "notice";
  }
  return "error";
}

}  // namespace

std::string github_escape_data(std::string_view s) { return escape(s, false); }
std::string github_escape_property(std::string_view s) { return escape(s, true); }

std::string render_github(const std::vector<diag::Finding>& findings) {
  std::string out;
  for (const diag::Finding& f : findings) {
    std::string props;
    if (!f.location.path.empty()) props += "file=" + github_escape_property(f.location.path);
    if (f.location.line > 0) props += fmt::format("{}line={}", props.empty() ? "" : ",", f.location.line);
    if (f.location.column > 0) props += fmt::format(",col={}", f.location.column);
    props += (props.empty() ? "title=" : ",title=") + github_escape_property(f.rule);
    const std::string where = f.location.rev.empty() ? "" : f.location.rev + ": ";
    out += fmt::format("::{} {}::{}\n", command_of(f.severity), props, github_escape_data(where + f.message));
  }
  return out;
}

std::string markdown_cell(std::string_view raw) {
  const std::string s = util::sanitize_utf8(raw);
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '|': out += "\\|"; break;
      case '\n':
      case '\r': out += ' '; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string render_github_summary(const std::vector<diag::Finding>& findings, const JsonHeader& header,
                                  std::string_view title) {
  const diag::SeverityCounts n = diag::count_severities(findings);
  std::string out = fmt::format("### {}: {}\n\n", markdown_cell(title), to_string(header.verdict));
  if (!header.rev.empty() || !header.profile.empty()) {
    out += fmt::format("`{}`{}: ", markdown_cell(header.rev.empty() ? "-" : header.rev),
                       header.profile.empty() ? "" : " (" + markdown_cell(header.profile) + ")");
  }
  out += fmt::format("{} error(s), {} warning(s), {} finding(s) in all\n", n.errors, n.warnings, findings.size());
  if (findings.empty()) return out + "\n";
  out += "\n| severity | location | rule | message |\n|---|---|---|---|\n";
  for (const diag::Finding& f : findings) {
    std::string where = f.location.rev.empty() ? "" : f.location.rev + ":";
    where += f.location.path;
    if (f.location.line > 0) where += fmt::format(":{}", f.location.line);
    out += fmt::format("| {} | {} | `{}` | {} |\n", diag::to_string(f.severity), markdown_cell(where),
                       markdown_cell(f.rule), markdown_cell(f.message));
  }
  return out + "\n";
}

}  // namespace lg::report
