// Text, cortex and JSON renderings of a list of findings.
#include "ledgergate/report/format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "ledgergate/diag/baseline.hpp"
#include "ledgergate/diag/severity_counts.hpp"
#include "ledgergate/report/fix.hpp"
#include "ledgergate/util/quote.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::report {

namespace {
std::string_view color_of(diag::Severity s) {
  switch (s) {
    case diag::Severity::error: return "\033[1;31m";
    case diag::Severity::warning: return "\033[1;35m";
    case diag::Severity::info: return "\033[1;36m";
  }
  return "";
}

// The reference's output lists drift, and drift is what fails: a finding
// is listed when it is an error, so DRIFT and exit 1 always go together. A
// reference finding the policy lowered to a warning or info is left out
// (the verdict passes, the output says OK); with the default severities
// every reference finding is an error and the output is the reference's.
bool in_cortex_output(const diag::Finding& f) { return f.severity == diag::Severity::error; }
}  // namespace

std::string render_text(const std::vector<diag::Finding>& findings, bool color, std::string_view base) {
  std::string out;
  for (const diag::Finding& f : findings) {
    if (!f.location.rev.empty()) {
      out += f.location.rev + ":" + util::quote_path(f.location.path);
    } else {
      out += util::quote_path(base.empty() || f.location.path.empty() ? f.location.path
                                                                      : std::string(base) + "/" + f.location.path);
    }
    if (f.location.line > 0) out += fmt::format(":{}", f.location.line);
    if (f.location.line > 0 && f.location.column > 0) out += fmt::format(":{}", f.location.column);
    const std::string_view sev = diag::to_string(f.severity);
    const std::string message = util::escape_controls(f.message);
    if (color) {
      out += fmt::format(": {}{}\033[0m: {} [{}]\n", color_of(f.severity), sev, message, f.rule);
    } else {
      out += fmt::format(": {}: {} [{}]\n", sev, message, f.rule);
    }
  }
  return out;
}

bool cortex_drift(const std::vector<diag::Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), in_cortex_output);
}

std::string render_cortex(const std::vector<diag::Finding>& findings) {
  if (!cortex_drift(findings)) return "cortex check: OK\n";
  std::string out = "cortex check: DRIFT\n";
  for (const diag::Finding& f : findings) {
    if (in_cortex_output(f)) out += "  - " + util::escape_cortex(diag::peer_text(f)) + "\n";
  }
  return out;
}

void write_finding_fields(util::JsonWriter& w, const diag::Finding& f) {
  w.key("rule").string(f.rule).key("severity").string(diag::to_string(f.severity));
  w.key("path").string(f.location.path).key("line").number(f.location.line);
  w.key("column").number(f.location.column).key("message").string(f.message);
  w.key("rev").string(f.location.rev).key("fingerprint").string(diag::fingerprint(f));
  if (f.state != diag::FindingState::unjudged) w.key("state").string(state_name(f.state));
}

std::string_view state_name(diag::FindingState s) {
  switch (s) {
    case diag::FindingState::unjudged: return "";
    case diag::FindingState::introduced: return "new";
    case diag::FindingState::pre_existing: return "unchanged";
  }
  return "";
}

namespace {
std::size_t count_state(const std::vector<diag::Finding>& findings, diag::FindingState state) {
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(), [state](const diag::Finding& f) { return f.state == state; }));
}
}  // namespace

void write_change_fields(util::JsonWriter& w, const std::vector<diag::Finding>& findings,
                         const diag::Attribution& change) {
  w.key("gate").string(diag::to_string(change.gate)).key("reference").string(change.reference);
  w.key("counts").begin_object();
  w.key("new").number(count_state(findings, diag::FindingState::introduced));
  w.key("unchanged");
  if (change.whole) {
    w.number(count_state(findings, diag::FindingState::pre_existing));
  } else {
    w.null();  // not counted: only the change was judged
  }
  w.key("fixed").number(change.fixed.size()).key("suppressed").number(change.suppressed.size());
  w.end_object().key("fixed");
  write_findings(w, change.fixed);
}

std::vector<diag::Finding> shown_findings(const std::vector<diag::Finding>& findings, const diag::Attribution& change) {
  std::vector<diag::Finding> out;
  for (const diag::Finding& f : findings) {
    if (change.gate == diag::Gate::all || f.state != diag::FindingState::pre_existing) out.push_back(f);
  }
  return out;
}

std::vector<std::string> change_lines(const std::vector<diag::Finding>& findings, const diag::Attribution& change) {
  std::vector<std::string> out;
  diag::SeverityCounts old;
  for (const diag::Finding& f : findings) {
    if (f.state == diag::FindingState::pre_existing) old.add(f.severity);
  }
  const std::string on = change.reference.empty() ? std::string() : " on " + change.reference;
  if (!change.whole) {
    out.push_back(fmt::format("only the change judged: the findings{} it leaves as they were are not counted", on));
  } else if (change.gate == diag::Gate::introduced && old.errors > 0) {
    out.push_back(fmt::format("{} pre-existing error(s){}{} (not introduced by this change; --gate all to fail on them)",
                              old.errors, old.warnings > 0 ? fmt::format(" and {} warning(s)", old.warnings) : "", on));
  } else if (change.gate == diag::Gate::introduced && old.warnings > 0) {
    out.push_back(fmt::format("{} pre-existing warning(s){} (not introduced by this change)", old.warnings, on));
  }
  if (!change.fixed.empty()) out.push_back(fmt::format("fixes {}", change.fixed.size()));
  if (!change.suppressed.empty()) {
    out.push_back(fmt::format("{} finding(s) in the baseline suppressed", change.suppressed.size()));
  }
  return out;
}

void write_findings(util::JsonWriter& w, const std::vector<diag::Finding>& findings, const FindingFixes* fixes) {
  w.begin_array(util::JsonLayout::lines(2));
  for (std::size_t i = 0; i < findings.size(); ++i) {
    w.begin_object();
    write_finding_fields(w, findings[i]);
    if (fixes && i < fixes->size() && (*fixes)[i]) write_fix(w.key("fix"), *(*fixes)[i]);
    w.end_object();
  }
  w.end_array();
}

void write_json_head(util::JsonWriter& w, std::string_view command, diag::Verdict verdict) {
  w.begin_object().key("schema").string(fmt::format("ledgergate-{}/{}", command, k_json_schema_version));
  w.key("verdict").string(diag::to_string(verdict));
}

std::string render_json_error(std::string_view command, std::string_view message) {
  util::JsonWriter w;
  write_json_head(w, command, diag::Verdict::error);
  w.key("error").begin_object().key("message").string(message).end_object().end_object();
  return w.str() + "\n";
}

std::string render_json(const std::vector<diag::Finding>& findings, const JsonHeader& header) {
  util::JsonWriter w;
  write_json_head(w, "check", header.verdict);
  w.key("profile").string(header.profile);
  w.key("rev").string(header.rev).key("suppressed").number(header.suppressed).key("findings");
  write_findings(w, findings, header.fixes);
  if (header.change) write_change_fields(w, findings, *header.change);
  w.end_object();
  return w.str() + "\n";
}

std::string render_change_notes(const std::vector<diag::Finding>& findings, const diag::Attribution& change) {
  std::string out;
  for (const std::string& line : change_lines(findings, change)) out += line + "\n";
  return out;
}

std::string render_check_summary(const std::vector<diag::Finding>& findings, const JsonHeader& header, bool color) {
  const diag::SeverityCounts n = diag::count_severities(findings);
  return fmt::format("ledgergate check {}: {} ({}): {} error(s), {} warning(s)\n",
                     header.rev.empty() ? "." : header.rev, render_verdict_word(header.verdict, color),
                     header.profile, n.errors, n.warnings);
}

std::string render_verdict_word(diag::Verdict verdict, bool color) {
  const std::string_view word = diag::to_string(verdict);
  if (!color) return std::string(word);
  const std::string_view sgr = verdict == diag::Verdict::pass   ? "\033[1;32m"
                               : verdict == diag::Verdict::fail ? "\033[1;31m"
                                                                : "\033[1;33m";
  return fmt::format("{}{}\033[0m", sgr, word);
}

std::string render_statistics(const std::vector<diag::Finding>& findings) {
  std::map<std::string_view, std::pair<std::size_t, diag::Severity>> counts;
  for (const diag::Finding& f : findings) {
    auto& [count, severity] = counts.try_emplace(f.rule, 0, f.severity).first->second;
    ++count;
    severity = std::max(severity, f.severity);
  }
  std::vector<std::pair<std::string_view, std::pair<std::size_t, diag::Severity>>> rows(counts.begin(), counts.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  std::size_t width = 1;
  for (const auto& row : rows) width = std::max(width, std::to_string(row.second.first).size());
  std::string out;
  for (const auto& [rule, row] : rows) {
    out += fmt::format("{:>{}}  {:<7}  {}\n", row.first, width, diag::to_string(row.second), rule);
  }
  return out;
}

std::string render_suppressed_note(std::size_t suppressed) {
  return fmt::format("ledgergate: {} finding(s) in the baseline suppressed\n", suppressed);
}

}  // namespace lg::report
