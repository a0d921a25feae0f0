// A trial merge's report as text and as one JSON document.
#include "ledgergate/report/trial_merge.hpp"

#include <fmt/format.h>

#include "ledgergate/report/format.hpp"
#include "ledgergate/report/sarif.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/json.hpp"
#include "ledgergate/util/quote.hpp"

namespace lg::report {
namespace {

void write_classification(util::JsonWriter& w, const merge::TrialMergeReport& r) {
  w.begin_object().key("policy").string_or_null(r.classification.policy);
  for (const policy::PathClass cls : {policy::PathClass::ledger, policy::PathClass::code}) {
    w.key(cls == policy::PathClass::ledger ? "ledger" : "code").begin_array();
    for (const policy::Classified& p : r.classification.paths) {
      if (p.cls == cls) w.string(p.path);
    }
    w.end_array();
  }
  w.key("birth").boolean(r.birth).end_object();
}

}  // namespace

std::vector<std::string> conflict_lines(const std::vector<merge::Conflict>& conflicts) {
  std::vector<std::string> out;
  for (const merge::Conflict& c : conflicts) {
    std::string line = fmt::format("conflict ({}): {}", to_string(c.kind), util::quote_path(c.path));
    if (c.old_path) line += fmt::format(" (renamed from {})", util::quote_path(*c.old_path));
    out.push_back(std::move(line));
  }
  return out;
}

std::vector<std::string> resolved_lines(const std::vector<merge::ResolvedPath>& resolved) {
  std::vector<std::string> out;
  for (const merge::ResolvedPath& r : resolved) {
    // {"log_added", 2}, {"runs_added", 1}, {"runs_changed", 1} → "log: 2 added; runs: 1 added, 1 changed"
    std::string what, noun;
    for (const auto& [name, count] : r.records) {
      const std::size_t cut = name.rfind('_');
      const std::string this_noun = name.substr(0, cut);
      const std::string verb = cut == std::string::npos ? std::string() : " " + name.substr(cut + 1);
      what += this_noun != noun ? fmt::format("{}{}: ", what.empty() ? "" : "; ", this_noun) : std::string(", ");
      what += fmt::format("{}{}", count, verb);
      noun = this_noun;
    }
    out.push_back(fmt::format("resolved ({}): {} — {}", r.how, util::quote_path(r.path), what.empty() ? "no record changed" : what));
  }
  return out;
}

std::vector<std::string> code_lines(const std::vector<policy::Classified>& paths) {
  std::vector<std::string> out;
  for (const policy::Classified& p : paths) {
    if (p.cls == policy::PathClass::code) {
      out.push_back(fmt::format("code: {}  ({})", util::quote_path(p.path), util::escape_controls(p.reason)));
    }
  }
  return out;
}

std::string diff_line(const merge::TrialMergeReport& r) {
  const policy::Classification& c = r.classification;
  if (c.paths.empty()) return "diff: no changed paths";
  if (c.code_count()) return fmt::format("diff: {} of {} path(s) need a human", c.code_count(), c.paths.size());
  return fmt::format("diff: ledger-only, {} path(s){}", c.paths.size(), r.birth ? " (projects.yaml: a birth)" : "");
}

std::vector<std::string> semantic_lines(const std::vector<merge::SemanticConflict>& semantic) {
  std::vector<std::string> out;
  for (const merge::SemanticConflict& s : semantic) out.push_back(fmt::format("semantic ({}): {}", s.kind, util::escape_controls(s.message)));
  return out;
}

std::string render_trial_merge_text(const merge::TrialMergeReport& r, std::string_view base, std::string_view head,
                                    bool merge_only) {
  if (r.nothing_to_merge) return fmt::format("{} is already in {}: nothing to merge\nverdict: fail\n", head, base);
  std::string out = fmt::format("merge {} ({}) into {} ({}), merge base {}{}\n", head, r.head.short_hex(), base,
                                r.base.short_hex(), r.merge_base.short_hex(),
                                r.merge.full_merge ? " [rename-aware merge]" : "");
  if (r.merge_bases.size() > 1) {
    std::string ids;
    for (const git::ObjectId& id : r.merge_bases) ids += (ids.empty() ? "" : ", ") + id.short_hex();
    out += fmt::format("criss-cross: {} merge bases ({}); merged over their virtual base {} as git does; the "
                       "branch is classified from each merge base\n",
                       r.merge_bases.size(), ids, r.virtual_base ? r.virtual_base->short_hex() : std::string("?"));
  }
  if (r.merge.conflicts.empty() && r.resolved.empty()) {
    out += fmt::format("merged tree {}: no textual conflict\n", r.merge.tree.hex());
  } else if (r.merge.conflicts.empty()) {
    out += fmt::format("merged tree {}: {} textual conflict(s) resolved as records\n", r.merge.tree.hex(),
                       r.resolved.size());
  }
  for (const std::string& line : resolved_lines(r.resolved)) out += line + "\n";
  for (const std::string& line : conflict_lines(r.merge.conflicts)) out += line + "\n";
  if (merge_only) return out;
  for (const std::string& line : code_lines(r.classification.paths)) out += line + "\n";
  out += diff_line(r) + "\n";
  for (const std::string& line : semantic_lines(r.semantic)) out += line + "\n";
  out += render_text(shown_findings(r.findings, r.attribution), false);
  for (const std::string& line : change_lines(r.findings, r.attribution)) out += line + "\n";
  if (!r.checked) out += "check: not run (the merge has conflicts)\n";
  out += fmt::format("verdict: {}\n", r.pass() ? "pass" : "fail");
  return out;
}

diag::Verdict trial_merge_verdict(const merge::TrialMergeReport& r, bool pass) {
  if (r.cannot_judge()) return diag::Verdict::error;
  return pass ? diag::Verdict::pass : diag::Verdict::fail;
}

std::vector<diag::Finding> merge_findings(const std::vector<merge::Conflict>& conflicts,
                                          const std::vector<merge::SemanticConflict>& semantic,
                                          const std::vector<policy::Classified>& paths) {
  std::vector<diag::Finding> out;
  for (const merge::Conflict& c : conflicts) {
    std::string message = fmt::format("the trial merge conflicts here ({})", to_string(c.kind));
    if (c.old_path) message += fmt::format(", renamed from {}", util::quote_path(*c.old_path));
    out.push_back(rules::make_finding("merge-conflict", c.path, 0, std::move(message), diag::PeerForm::none));
  }
  for (const merge::SemanticConflict& s : semantic) {
    out.push_back(rules::make_finding("merge-semantic-conflict", s.path, 0, fmt::format("{} ({})", s.message, s.kind),
                                      diag::PeerForm::none));
  }
  for (const policy::Classified& p : paths) {
    if (p.cls != policy::PathClass::code) continue;
    out.push_back(rules::make_finding("merge-code-path", p.path, 0,
                                      fmt::format("the branch changes a path that is not ledger ({})", p.reason),
                                      diag::PeerForm::none));
  }
  for (diag::Finding& f : out) {
    f.location.rev = "merged";
    f.state = diag::FindingState::introduced;
  }
  return out;
}

void add_merge_results(SarifRun& run, const std::vector<diag::Finding>& merge_found,
                       const std::vector<diag::Finding>& check_found, const diag::Attribution& change,
                       const std::function<void(util::JsonWriter&)>& properties) {
  for (const diag::Finding& f : merge_found) run.results.push_back(SarifResult{&f, false, false, properties});
  add_change_results(run, check_found, change, properties);
}

std::string render_trial_merge_sarif(const merge::TrialMergeReport& r, diag::Verdict verdict) {
  SarifRun run;
  run.command = "trial-merge";
  run.exit_code = verdict == diag::Verdict::pass ? 0 : verdict == diag::Verdict::fail ? 1 : 2;
  if (verdict == diag::Verdict::error) run.error = "cannot judge the merged tree";
  const std::vector<diag::Finding> merge_found =
      merge_findings(r.merge.conflicts, r.semantic, r.classification.paths);
  add_merge_results(run, merge_found, r.findings, r.attribution, {});
  return render_sarif(run);
}

std::string render_trial_merge_json(const merge::TrialMergeReport& r, diag::Verdict verdict,
                                    const std::optional<git::ObjectId>& commit) {
  const bool clean = !r.nothing_to_merge && r.merge.conflicts.empty();
  util::JsonWriter w;
  write_json_head(w, "trial-merge", verdict);
  w.key("nothing_to_merge").boolean(r.nothing_to_merge);
  w.key("base").string(r.base.hex()).key("head").string(r.head.hex()).key("merge_base");
  r.nothing_to_merge ? w.null() : w.string(r.merge_base.hex());
  w.key("merge_bases").begin_array();  // all of them, in git's order ([] when there is nothing to merge)
  if (!r.nothing_to_merge) {
    for (const git::ObjectId& id : r.merge_bases) w.string(id.hex());
  }
  w.end_array().key("tree");
  clean ? w.string(r.merge.tree.hex()) : w.null();
  w.key("commit");  // the merge commit --commit wrote
  commit ? w.string(commit->hex()) : w.null();
  w.key("conflicts").begin_array();
  for (const merge::Conflict& c : r.merge.conflicts) {
    w.begin_object().key("path").string(c.path).key("kind").string(to_string(c.kind));
    if (c.old_path) w.key("old_path").string(*c.old_path);  // renames only: the shape of other conflicts is unchanged
    w.end_object();
  }
  w.end_array().key("resolved").begin_array();
  for (const merge::ResolvedPath& p : r.resolved) {
    w.begin_object().key("path").string(p.path).key("how").string(p.how).key("format").string(p.format);
    w.key("records").begin_object();
    for (const auto& [name, count] : p.records) w.key(name).number(count);
    w.end_object().end_object();
  }
  w.end_array().key("classification");
  write_classification(w, r);
  w.key("semantic").begin_array();
  for (const merge::SemanticConflict& s : r.semantic) {
    w.begin_object().key("kind").string(s.kind).key("path").string(s.path).key("message").string(s.message);
    w.end_object();
  }
  w.end_array().key("scope").string(scope_name(r.attribution)).key("findings");
  write_findings(w, r.findings);
  write_change_fields(w, r.findings, r.attribution);
  w.end_object();
  return w.str() + "\n";
}

}  // namespace lg::report
