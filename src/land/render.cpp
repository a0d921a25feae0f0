// The land report as text (one line per step) and as one JSON document.
#include <fmt/format.h>

#include "ledgergate/land/land.hpp"
#include "ledgergate/report/format.hpp"
#include "ledgergate/report/github.hpp"

namespace lg::land {
namespace {

std::string_view mode_name(Mode m) { return m == Mode::merge ? "merge" : "audit"; }

std::string summary(const LandReport& r) {
  const std::string& b = r.options.branch;
  const std::string& into = r.options.into;
  switch (r.outcome) {
    case Outcome::landed: return fmt::format("landed: {} is in {} at {}", b, into, r.merge_commit.substr(0, 12));
    case Outcome::would_land: return fmt::format("would land: {} passes every check (audit mode)", b);
    case Outcome::already_in_main: return fmt::format("already in {}: {}", into, b);
    case Outcome::left_for_human: return fmt::format("left for a human: {}", b);
    case Outcome::gave_up: return fmt::format("gave up: {} moved under every attempt", into);
    case Outcome::error: return fmt::format("could not land {}", b);
  }
  return "";
}

std::string json_or_null(const std::string& s) { return s.empty() ? "null" : report::json_string(s); }

std::string findings_json(const std::vector<diag::Finding>& findings) {
  std::string doc = report::render_json(findings, {});
  doc = doc.substr(doc.find("\"findings\": ") + 12);
  return doc.substr(0, doc.rfind('}'));
}

}  // namespace

std::string render_text(const LandReport& r) {
  std::string out = fmt::format("land {} into {} on {} ({} mode)\n", r.options.branch, r.options.into,
                                r.options.remote, mode_name(r.options.mode));
  for (const Step& s : r.steps) {
    const std::string name = s.attempt > 0 ? fmt::format("{} [{}]", s.name, s.attempt) : s.name;
    out += fmt::format("{}: {}: {}\n", name, to_string(s.status), s.message);
    for (const std::string& d : s.details) out += "  " + d + "\n";
    const std::string findings = report::render_text(s.findings, false);
    for (std::size_t pos = 0; pos < findings.size();) {
      const std::size_t end = findings.find('\n', pos);
      out += "  " + findings.substr(pos, end - pos) + "\n";
      pos = end == std::string::npos ? findings.size() : end + 1;
    }
  }
  out += summary(r) + "\n";
  return out;
}

std::string render_json(const LandReport& r) {
  std::string steps;
  for (const Step& s : r.steps) {
    std::string details;
    for (const std::string& d : s.details) details += (details.empty() ? "" : ", ") + report::json_string(d);
    steps += fmt::format(
        "{}{{\"step\": \"{}\", \"attempt\": {}, \"status\": \"{}\", \"message\": {}, \"details\": [{}], "
        "\"findings\": {}}}",
        steps.empty() ? "\n  " : ",\n  ", s.name, s.attempt, to_string(s.status), report::json_string(s.message),
        details, findings_json(s.findings));
  }
  return fmt::format(
      "{{\"outcome\": \"{}\", \"exit\": {}, \"branch\": {}, \"into\": {}, \"remote\": {}, \"mode\": \"{}\", "
      "\"head\": {}, \"main_before\": {}, \"main_after\": {}, \"merge_commit\": {}, \"attempts\": {}, "
      "\"branch_deleted\": {}, \"steps\": [{}{}]}}\n",
      to_string(r.outcome), exit_code(r.outcome), report::json_string(r.options.branch),
      report::json_string(r.options.into), report::json_string(r.options.remote), mode_name(r.options.mode),
      json_or_null(r.head), json_or_null(r.main_before), json_or_null(r.main_after), json_or_null(r.merge_commit),
      r.attempts, r.branch_deleted ? "true" : "false", steps, steps.empty() ? "" : "\n");
}

std::string render_github(const LandReport& r) {
  std::string out = render_text(r);
  for (const Step& s : r.steps) out += report::render_github(s.findings);
  const int code = exit_code(r.outcome);
  if (code != 0) {
    const std::string why = r.steps.empty() ? summary(r) : summary(r) + ": " + r.steps.back().message;
    out += fmt::format("::{} title={}::{}\n", code == 1 ? "warning" : "error",
                       report::github_escape_property("ledgergate land"), report::github_escape_data(why));
  }
  return out;
}

std::string render_markdown(const LandReport& r) {
  std::string out = fmt::format("### ledgergate land {} into {}: {}\n\n{}\n\n", report::markdown_cell(r.options.branch),
                                report::markdown_cell(r.options.into), to_string(r.outcome),
                                report::markdown_cell(summary(r)));
  out += "| step | status | message |\n|---|---|---|\n";
  for (const Step& s : r.steps) {
    std::string message = s.message;
    for (const std::string& d : s.details) message += "; " + d;
    for (const diag::Finding& f : s.findings) {
      message += fmt::format("; {}:{}: {} [{}]", f.location.path, f.location.line, f.message, f.rule);
    }
    out += fmt::format("| {}{} | {} | {} |\n", s.name, s.attempt > 0 ? fmt::format(" [{}]", s.attempt) : "",
                       to_string(s.status), report::markdown_cell(message));
  }
  return out + "\n";
}

}  // namespace lg::land
