// The land report as text (one line per step), as one JSON document, and
// as GitHub Actions output and step summary.
#include "ledgergate/report/land.hpp"

#include <fmt/format.h>

#include <vector>

#include "ledgergate/report/format.hpp"
#include "ledgergate/report/github.hpp"
#include "ledgergate/report/sarif.hpp"
#include "ledgergate/report/trial_merge.hpp"
#include "ledgergate/util/json.hpp"

namespace lg::report {
namespace {

using land::LandReport;
using land::Mode;
using land::Outcome;
using land::Step;

std::string_view mode_name(Mode m) { return m == Mode::merge ? "merge" : "audit"; }

std::string summary(const LandReport& r) {
  const std::string& b = r.options.branch;
  const std::string& into = r.options.into;
  switch (r.outcome) {
    case Outcome::landed: return fmt::format("landed: {} is in {} at {}", b, into, git::ObjectId::short_of(r.merge_commit));
    case Outcome::would_land: return fmt::format("would land: {} passes every check (audit mode)", b);
    case Outcome::already_in_main: return fmt::format("already in {}: {}", into, b);
    case Outcome::left_for_human: return fmt::format("left for a human: {}", b);
    case Outcome::gave_up: return fmt::format("gave up: {} is not in {} yet, land it again later", b, into);
    case Outcome::error: return fmt::format("could not land {}", b);
  }
  return "";
}

// How hard landing was (merge mode, once an attempt began): "2 attempts, waited 1.4s, in turn".
std::string pacing(const LandReport& r) {
  if (r.options.mode != Mode::merge || (r.attempts == 0 && r.waited_ms == 0)) return "";
  return fmt::format(" ({} attempt{}, waited {}{})", r.attempts, r.attempts == 1 ? "" : "s",
                     land::format_duration(land::Millis(r.waited_ms)), r.lease_taken ? ", in turn" : "");
}

// The step's details, as `trial-merge` words them: resolved paths, conflicts, code paths, semantic conflicts.
std::vector<std::string> detail_lines(const Step& s) {
  std::vector<std::string> out = resolved_lines(s.details.resolved);
  for (std::string& line : conflict_lines(s.details.conflicts)) out.push_back(std::move(line));
  for (const std::vector<std::string>& more : {code_lines(s.details.paths), semantic_lines(s.details.semantic)}) {
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

diag::Verdict verdict_of(const LandReport& r) {
  const int code = exit_code(r.outcome);
  return code == 0 ? diag::Verdict::pass : code == 1 ? diag::Verdict::fail : diag::Verdict::error;
}

std::string why_not(const LandReport& r) {
  const land::Step* decided = land::deciding_step(r);
  return decided ? summary(r) + ": " + decided->message : summary(r);
}

}  // namespace

std::string render_land_sarif(const LandReport& r) {
  SarifRun run;
  run.command = "land";
  run.exit_code = exit_code(r.outcome);
  if (run.exit_code == 2) run.error = why_not(r);
  std::vector<std::vector<diag::Finding>> merge_found;  // each step's conflicts, kept for the rendering
  merge_found.reserve(r.steps.size());
  for (const Step& s : r.steps) {
    merge_found.push_back(merge_findings(s.details.conflicts, s.details.semantic, s.details.paths));
    add_merge_results(run, merge_found.back(), s.findings, s.attribution, [&s](util::JsonWriter& w) {
      w.key("step").string(s.name).key("attempt").number(s.attempt);
    });
  }
  return render_sarif(run);
}

std::string render_land_text(const LandReport& r) {
  std::string out = fmt::format("land {} into {} on {} ({} mode)\n", r.options.branch, r.options.into,
                                r.options.remote, mode_name(r.options.mode));
  for (const Step& s : r.steps) {
    const std::string name = s.attempt > 0 ? fmt::format("{} [{}]", s.name, s.attempt) : s.name;
    out += fmt::format("{}: {}: {}\n", name, to_string(s.status), s.message);
    for (const std::string& d : detail_lines(s)) out += "  " + d + "\n";
    const std::string findings = render_text(shown_findings(s.findings, s.attribution), false);
    for (std::size_t pos = 0; pos < findings.size();) {
      const std::size_t end = findings.find('\n', pos);
      out += "  " + findings.substr(pos, end - pos) + "\n";
      pos = end == std::string::npos ? findings.size() : end + 1;
    }
    for (const std::string& line : change_lines(s.findings, s.attribution)) out += "  " + line + "\n";
  }
  out += summary(r) + pacing(r) + "\n";
  return out;
}

std::string render_land_json(const LandReport& r) {
  util::JsonWriter w;
  write_json_head(w, "land", verdict_of(r));
  w.key("outcome").string(to_string(r.outcome)).key("exit").number(exit_code(r.outcome));
  w.key("branch").string(r.options.branch).key("into").string(r.options.into);
  w.key("remote").string(r.options.remote).key("mode").string(mode_name(r.options.mode));
  w.key("head").string_or_null(r.head).key("main_before").string_or_null(r.main_before);
  w.key("main_after").string_or_null(r.main_after).key("merge_commit").string_or_null(r.merge_commit);
  w.key("attempts").number(r.attempts).key("waited_ms").number(r.waited_ms);
  w.key("lease_taken").boolean(r.lease_taken).key("branch_deleted").boolean(r.branch_deleted);
  w.key("steps").begin_array(util::JsonLayout::lines(2));
  for (const Step& s : r.steps) {
    w.begin_object().key("step").string(s.name).key("attempt").number(s.attempt);
    w.key("status").string(to_string(s.status)).key("message").string(s.message).key("details").begin_array();
    for (const std::string& d : detail_lines(s)) w.string(d);
    w.end_array().key("findings");
    write_findings(w, s.findings);
    if (!s.attribution.reference.empty()) {
      write_change_fields(w, s.findings, s.attribution);
      w.key("scope").string(scope_name(s.attribution));
    }
    w.end_object();
  }
  w.end_array().end_object();
  return w.str() + "\n";
}

std::string render_land_github(const LandReport& r) {
  std::string out = render_land_text(r);
  for (const Step& s : r.steps) out += render_github(shown_findings(s.findings, s.attribution));
  const int code = exit_code(r.outcome);
  if (code != 0) {
    const std::string why = why_not(r);
    out += fmt::format("::{} title={}::{}\n", code == 1 ? "warning" : "error",
                       github_escape_property("ledgergate land"), github_escape_data(why));
  }
  return out;
}

std::string render_land_markdown(const LandReport& r) {
  std::string out = fmt::format("### ledgergate land {} into {}: {}\n\n{}\n\n", markdown_cell(r.options.branch),
                                markdown_cell(r.options.into), to_string(r.outcome),
                                markdown_cell(summary(r) + pacing(r)));
  out += "| step | status | message |\n|---|---|---|\n";
  for (const Step& s : r.steps) {
    std::string message = s.message;
    for (const std::string& d : detail_lines(s)) message += "; " + d;
    for (const diag::Finding& f : shown_findings(s.findings, s.attribution)) {
      message += fmt::format("; {}:{}: {} [{}]", f.location.path, f.location.line, f.message, f.rule);
    }
    for (const std::string& line : change_lines(s.findings, s.attribution)) message += "; " + line;
    out += fmt::format("| {}{} | {} | {} |\n", s.name, s.attempt > 0 ? fmt::format(" [{}]", s.attempt) : "",
                       to_string(s.status), markdown_cell(message));
  }
  return out + "\n";
}

}  // namespace lg::report
