// The one SARIF 2.1.0 writer (report/sarif.hpp): a log of one run.
#include "ledgergate/report/sarif.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "ledgergate/diag/baseline.hpp"
#include "ledgergate/report/commands.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/quote.hpp"
#include "ledgergate/util/version.hpp"

namespace lg::report {
namespace {

// A repository-relative path as a relative URI reference: RFC 3986's
// unreserved characters and '/' as they are, every other byte
// percent-encoded; a leading '/' and "." / ".." segments are dropped (GitHub
// refuses absolute URIs and ones that climb out of the checkout).
std::string uri_of(std::string_view path) {
  std::string clean;
  for (std::size_t pos = 0; pos <= path.size();) {
    const std::size_t slash = std::min(path.find('/', pos), path.size());
    const std::string_view segment = path.substr(pos, slash - pos);
    if (!segment.empty() && segment != "." && segment != "..") {
      if (!clean.empty()) clean += '/';
      clean += segment;
    }
    pos = slash + 1;
  }
  return util::percent_encode_path(clean);
}

std::string_view sarif_level(diag::Severity s) {
  switch (s) {
    case diag::Severity::error: return "error";
    case diag::Severity::warning: return "warning";
    case diag::Severity::info: return "note";
  }
  return "note";
}

// The rules the results name, in order of first use, and each one's index.
struct UsedRules {
  std::vector<std::string> ids;
  std::map<std::string, std::size_t, std::less<>> index;
};

UsedRules used_rules(const std::vector<SarifResult>& results, std::size_t limit) {
  UsedRules used;
  for (std::size_t i = 0; i < results.size() && i < limit; ++i) {
    const std::string& id = results[i].finding->rule;
    if (used.index.emplace(id, used.ids.size()).second) used.ids.push_back(id);
  }
  return used;
}

// `text` without the blank lines and indentation it starts with and the line ends it finishes with.
std::string trimmed(std::string_view text) {
  const std::size_t start = text.find_first_not_of(" \n");
  const std::size_t end = text.find_last_not_of(" \n");
  return start == std::string_view::npos ? std::string() : std::string(text.substr(start, end - start + 1));
}

void write_rule(util::JsonWriter& w, std::string_view id) {
  const diag::RuleInfo* r = rules::find_rule(id);
  const std::string summary = r ? std::string(r->summary) : std::string(id);
  const std::string detail = r ? std::string(r->detail) : std::string();
  const std::string uri = rule_help_uri(id);
  w.begin_object().key("id").string(id);
  w.key("shortDescription").begin_object().key("text").string(summary).end_object();
  // GitHub requires a fullDescription (GH2012): the rationale, else the summary again.
  w.key("fullDescription").begin_object().key("text").string(detail.empty() ? summary : detail).end_object();
  // The help is what `explain` says after the summary: why, the examples, the fix.
  std::string text = r ? trimmed(rule_help_text(*r)) : std::string();
  std::string markdown = r ? trimmed(rule_help_markdown(*r)) : std::string();
  if (text.empty()) text = markdown = summary;
  markdown += uri.empty() ? fmt::format("\n\n`ledgergate explain {}`", id)
                          : fmt::format("\n\nSee [`{}`]({}) (`ledgergate explain {}`).", id, uri, id);
  w.key("help").begin_object().key("text").string(text).key("markdown").string(markdown).end_object();
  if (!uri.empty()) w.key("helpUri").string(uri);
  w.key("defaultConfiguration").begin_object();
  w.key("level").string(sarif_level(r ? r->severity : diag::Severity::error)).end_object();
  w.key("properties").begin_object().key("profile").string(r ? r->profile : "").key("spec").string(r ? r->ref : "");
  w.end_object().end_object();
}

// SARIF's baselineState: "absent" for a fixed finding, else the finding's
// state as JSON spells it ("new", "unchanged"; "" unjudged).
std::string_view baseline_state(const SarifResult& res) { return res.fixed ? "absent" : state_name(res.finding->state); }

// A result's `fixes`: the one fix, a change per file, each edit a replacement
// (1-based lines, columns in UTF-16 code units: SARIF's default columnKind).
void write_fixes(util::JsonWriter& w, const fix::Fix& f) {
  w.key("fixes").begin_array().begin_object();
  w.key("description").begin_object().key("text").string(f.title).end_object();
  w.key("artifactChanges").begin_array();
  for (std::size_t i = 0; i < f.edits.size();) {
    const std::string& path = f.edits[i].path;
    w.begin_object().key("artifactLocation").begin_object().key("uri").string(uri_of(path));
    w.key("uriBaseId").string("%SRCROOT%").end_object().key("replacements").begin_array();
    for (; i < f.edits.size() && f.edits[i].path == path; ++i) {
      const fix::Edit& e = f.edits[i];
      w.begin_object().key("deletedRegion").begin_object();
      w.key("startLine").number(e.from.line + 1).key("startColumn").number(e.from.utf16 + 1);
      w.key("endLine").number(e.to.line + 1).key("endColumn").number(e.to.utf16 + 1).end_object();
      w.key("insertedContent").begin_object().key("text").string(e.text).end_object().end_object();
    }
    w.end_array().end_object();
  }
  w.end_array().end_object().end_array();
}

void write_result(util::JsonWriter& w, const SarifRun& run, const SarifResult& res, const UsedRules& used) {
  const diag::Finding& f = *res.finding;
  w.begin_object().key("ruleId").string(f.rule).key("ruleIndex").number(used.index.find(f.rule)->second);
  // A fixed finding is a rule that now passes there (SARIF: kind "pass", level "none").
  if (res.fixed) w.key("kind").string("pass");
  w.key("level").string(res.fixed ? "none" : sarif_level(f.severity));
  const diag::RuleInfo* info = rules::find_rule(f.rule);
  std::string text = !f.message.empty() ? f.message : info ? std::string(info->summary) : f.rule;
  if (res.fixed) text = "fixed by this change: " + text;
  w.key("message").begin_object().key("text").string(text).end_object();
  // Every result is located: one without a path sits on the ledger's root file.
  const std::string uri = uri_of(f.location.path.empty() ? run.root_file : f.location.path);
  w.key("locations").begin_array().begin_object().key("physicalLocation").begin_object();
  w.key("artifactLocation").begin_object().key("uri").string(uri.empty() ? run.root_file : uri);
  w.key("uriBaseId").string("%SRCROOT%").end_object();
  w.key("region").begin_object().key("startLine").number(f.location.line > 0 ? f.location.line : 1);
  if (f.location.line > 0 && f.location.column > 0) w.key("startColumn").number(f.location.column);
  w.end_object().end_object().end_object().end_array();
  w.key("partialFingerprints").begin_object().key("ledgergate/v1").string(diag::fingerprint(f)).end_object();
  if (const std::string_view state = baseline_state(res); !state.empty()) w.key("baselineState").string(state);
  if (res.fix) write_fixes(w, *res.fix);
  if (res.suppressed) {
    w.key("suppressions").begin_array().begin_object().key("kind").string("external");
    w.key("justification").string("in the baseline (--baseline)").end_object().end_array();
  }
  w.key("properties").begin_object().key("rev").string(f.location.rev);
  if (f.location.path.empty()) w.key("whole_tree").boolean(true);
  if (res.properties) res.properties(w);
  w.end_object().end_object();
}

void write_log(util::JsonWriter& w, const SarifRun& run) {
  const std::size_t shown = std::min(run.results.size(), k_sarif_max_results);
  const UsedRules used = used_rules(run.results, shown);
  w.begin_object().key("$schema").string("https://json.schemastore.org/sarif-2.1.0.json").key("version").string("2.1.0");
  w.key("runs").begin_array().begin_object(util::JsonLayout::lines(2));
  w.key("tool").begin_object().key("driver").begin_object();
  w.key("name").string("ledgergate").key("version").string(util::k_version);
  w.key("semanticVersion").string(util::k_version);
  if (!rules_doc_url().empty()) w.key("informationUri").string(rules_doc_url());
  w.key("rules").begin_array(util::JsonLayout::lines(4));
  for (const std::string& id : used.ids) write_rule(w, id);
  w.end_array().end_object().end_object();
  w.key("automationDetails").begin_object().key("id").string("ledgergate/" + run.command + "/").end_object();
  w.key("invocations").begin_array().begin_object().key("executionSuccessful").boolean(run.error.empty());
  w.key("exitCode").number(run.exit_code);
  if (!run.error.empty()) {
    w.key("toolExecutionNotifications").begin_array().begin_object().key("level").string("error");
    w.key("message").begin_object().key("text").string(run.error).end_object();
    w.key("descriptor").begin_object().key("id").string("ledgergate-could-not-run").end_object();
    w.end_object().end_array();
  }
  w.end_object().end_array();
  w.key("results").begin_array(util::JsonLayout::lines(4));
  for (std::size_t i = 0; i < shown; ++i) write_result(w, run, run.results[i], used);
  w.end_array();
  if (shown < run.results.size()) {
    w.key("properties").begin_object().key("results_left_out").number(run.results.size() - shown).end_object();
  }
  w.end_object().end_array().end_object();
}

}  // namespace

std::string_view rules_doc_url() {
  // The build's repository, a CMake cache variable (src/CMakeLists.txt).
  static const std::string url = [] {
    std::string base = LEDGERGATE_REPOSITORY_URL;
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base.empty() ? base : base + "/blob/main/docs/rules.md";
  }();
  return url;
}

std::string rule_help_uri(std::string_view rule_id) {
  if (rules_doc_url().empty()) return {};
  std::string anchor;
  for (char c : rule_id) anchor += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return fmt::format("{}#{}", rules_doc_url(), anchor);
}

void add_change_results(SarifRun& run, const std::vector<diag::Finding>& findings, const diag::Attribution& change,
                        const std::function<void(util::JsonWriter&)>& properties) {
  for (const diag::Finding& f : findings) run.results.push_back(SarifResult{&f, false, false, properties});
  for (const diag::Finding& f : change.fixed) run.results.push_back(SarifResult{&f, false, true, properties});
  for (const diag::Finding& f : change.suppressed) run.results.push_back(SarifResult{&f, true, false, properties});
}

std::string render_sarif(const SarifRun& run) {
  util::JsonWriter w;
  write_log(w, run);
  return w.str() + "\n";
}

std::string render_check_sarif(const std::vector<diag::Finding>& findings, const std::vector<diag::Finding>& suppressed,
                               const JsonHeader& header) {
  SarifRun run;
  run.command = "check";
  run.exit_code = header.verdict == diag::Verdict::pass ? 0 : header.verdict == diag::Verdict::fail ? 1 : 2;
  // The machine formats carry each finding's fix: results[i] is findings[i] in both layouts.
  const auto fix_of = [&](std::size_t i) -> const fix::Fix* {
    return header.fixes && i < header.fixes->size() && (*header.fixes)[i] ? &*(*header.fixes)[i] : nullptr;
  };
  if (header.change) {
    add_change_results(run, findings, *header.change);
    for (std::size_t i = 0; i < findings.size(); ++i) run.results[i].fix = fix_of(i);
    return render_sarif(run);
  }
  for (std::size_t i = 0; i < findings.size(); ++i) {
    run.results.push_back(SarifResult{&findings[i], false, false, {}, fix_of(i)});
  }
  for (const diag::Finding& f : suppressed) run.results.push_back(SarifResult{&f, true, false, {}});
  return render_sarif(run);
}

std::string render_sarif_error(std::string_view command, std::string_view message) {
  SarifRun run;
  run.command = std::string(command);
  run.exit_code = 2;
  run.error = std::string(message);
  return render_sarif(run);
}

}  // namespace lg::report
