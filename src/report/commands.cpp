// The registry listings, the hooks' installation and judgements, and a
// renumber plan as text.
#include "ledgergate/report/commands.hpp"

#include <fmt/format.h>

#include <variant>
#include <vector>

#include "ledgergate/diag/rule_examples.hpp"
#include "ledgergate/report/format.hpp"
#include "ledgergate/report/trial_merge.hpp"
#include "ledgergate/util/quote.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::report {
namespace {

std::string_view judgement_name(diag::Verdict v) {
  return v == diag::Verdict::error ? "cannot judge" : diag::to_string(v);
}

std::string subject_name(const hooks::Subject& s) {
  return s.remote ? fmt::format("{} -> {} {}", s.name, *s.remote, s.remote_ref) : s.name;
}

std::string target_name(const hooks::PushTarget& t) {
  return t.old_tip ? fmt::format("{} on {} ({})", t.ref, t.remote, t.old_tip->short_hex()) : t.ref;
}

// The lines of a trial merge a pre-push hook judged, as `trial-merge` words them.
std::vector<std::string> merged_lines(const hooks::MergedInto& m) {
  const merge::TrialMergeReport& r = m.report;
  // (A target named by its old tip already shows the commit merged into.)
  std::vector<std::string> out = {m.target.old_tip ? fmt::format("merged into {} in memory", target_name(m.target))
                                                   : fmt::format("merged into {} ({}) in memory", target_name(m.target),
                                                                 m.base.short_hex())};
  auto add = [&](const std::vector<std::string>& lines) { out.insert(out.end(), lines.begin(), lines.end()); };
  add(resolved_lines(r.resolved));
  add(conflict_lines(r.merge.conflicts));
  add(code_lines(r.classification.paths));
  if (r.merge.conflicts.empty()) {
    const bool code = r.classification.code_count() != 0;
    out.push_back(diff_line(r) + (code ? " (push with --no-verify if that is meant)" : ""));
  }
  add(semantic_lines(r.semantic));
  if (m.cannot_judge) out.push_back("cannot judge the merged tree");
  return out;
}

struct NoteLines {
  std::vector<std::string> operator()(const hooks::CheckFailed& c) const {
    if (c.cannot_judge) return {fmt::format("cannot judge {}: some ledger input could not be read", c.what)};
    return {fmt::format("{} fails check", c.what)};
  }
  std::vector<std::string> operator()(const hooks::RefDeleted& d) const {
    if (d.main) return {"deletes main: not judged here (receive.denyDeletes guards deletions)"};
    return {"deletes the remote ref: nothing to judge"};
  }
  std::vector<std::string> operator()(const hooks::TargetMissing& t) const {
    return {fmt::format("no {} and the remote ref's tip is not here: nothing to trial-merge into, the pushed tree "
                        "is checked",
                        t.target.ref)};
  }
  std::vector<std::string> operator()(const hooks::PolicyFrom& p) const {
    if (p.where.empty()) {
      return {"policy: the built-in one (neither the remote's tip nor a branch the push does not carry is here; "
              "the pushed commits' own is never read)"};
    }
    return {fmt::format("policy: .ledgergate.yaml of {}", p.where)};
  }
  std::vector<std::string> operator()(const hooks::CheckedAgainst& c) const {
    return {fmt::format("checked against {}", c.reference)};
  }
  std::vector<std::string> operator()(const hooks::AlreadyIn& a) const {
    return {fmt::format("already in {}", target_name(a.target))};
  }
  std::vector<std::string> operator()(const hooks::MergedInto& m) const { return merged_lines(m); }
  std::vector<std::string> operator()(const hooks::NotProtected& n) const {
    return {fmt::format("{} is not a protected branch (protected: {}): the pushed tree is checked, not trial-merged",
                        n.remote_ref, util::join(n.protected_branches, ", "))};
  }
  std::vector<std::string> operator()(const hooks::FrozenChange& f) const {
    return {fmt::format("frozen path changed: {} ({}{})", util::quote_path(f.path), f.status,
                        f.renamed_to.empty() ? "" : " -> " + util::quote_path(f.renamed_to))};
  }
};

}  // namespace

std::string render_rules_list(std::string_view profile) {
  std::string out;
  for (const rules::RuleInfo& r : rules::all_rules()) {
    if (!profile.empty() && !rules::in_profile(r, profile) && r.profile != "input") continue;
    const std::string_view label = profile.empty() ? r.ref : rules::label_in(r, profile);
    out += fmt::format("{:<34} {:<6} {:<8} {:<9} {}\n", r.id, label, diag::to_string(r.severity),
                       diag::to_string(r.fix.kind), r.summary);
  }
  return out;
}

namespace {
// An example line made visible: invalid UTF-8 as U+FFFD, a CR as `\r` and a
// byte-order mark as <U+FEFF> (the examples of input-* rules hold them).
std::string visible(std::string_view line) {
  std::string out;
  for (const char c : util::sanitize_utf8(line)) {
    if (c == '\r') out += "\\r";
    else out += c;
  }
  for (std::size_t at = out.find("\xEF\xBB\xBF"); at != std::string::npos; at = out.find("\xEF\xBB\xBF", at)) {
    out.replace(at, 3, "<U+FEFF>");
  }
  return out;
}

// The lines of an example text, each behind `indent` ("(nothing)" for none).
std::string example_lines(std::string_view text, std::string_view indent) {
  if (text.empty()) return fmt::format("{}(nothing)\n", indent);
  std::string out;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    out += fmt::format("{}{}\n", indent, visible(text.substr(0, nl)));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

// A history rule's example is a before → after pair: the bad text is what a
// later commit wrote over the good one.
struct ExampleLabels {
  std::string_view bad, good;
};
ExampleLabels example_labels(const diag::RuleExample& e) {
  const bool history = e.kind != diag::ExampleKind::described && e.kind != diag::ExampleKind::history &&
                       (e.id.starts_with("audit-") || e.id.starts_with("orl-h-"));
  return history ? ExampleLabels{"Bad, after", "Good, before"} : ExampleLabels{"Bad", "Good"};
}

// Where an example applies: "in PATH (an edit of the SKELETON ledger)".
std::string example_place(const diag::RuleExample& e) {
  if (e.kind == diag::ExampleKind::described) return fmt::format("described, about {}; not a single edit", e.path);
  if (e.kind == diag::ExampleKind::history) {
    return fmt::format("a history: main starts at a commit of the {} ledger, then these steps; {}", e.skeleton,
                       e.id.starts_with("merge-") ? "`trial-merge main topic`" : "`audit` of main");
  }
  if (e.kind == diag::ExampleKind::symlink) {
    return fmt::format("{} made a symlink to this target in the {} ledger", e.path, e.skeleton);
  }
  if (e.kind == diag::ExampleKind::remove_file) return fmt::format("{} removed from the {} ledger", e.path, e.skeleton);
  return e.good.empty() ? fmt::format("{} added to the {} ledger", e.path, e.skeleton)
                        : fmt::format("in {} of the {} ledger", e.path, e.skeleton);
}
}  // namespace

namespace {
// The fix column in words: "Automatic fix (certain, ...): delete the byte-order mark."
std::string automatic_fix(const rules::RuleInfo& r) {
  switch (r.fix.kind) {
    case diag::FixKind::certain: return fmt::format("Automatic fix (certain, `ledgergate fix`): {}.", r.fix.what);
    case diag::FixKind::suggested:
      return fmt::format("Automatic fix (suggested, `ledgergate fix --rule {}`): {}.", r.id, r.fix.what);
    case diag::FixKind::none:
    case diag::FixKind::undeclared: break;
  }
  return fmt::format("Automatic fix: none ({}).", r.fix.what);
}
}  // namespace

std::string rule_help_text(const rules::RuleInfo& r) {
  std::string out;
  if (!r.detail.empty()) out += fmt::format("\n  {}\n", r.detail);
  if (const auto e = diag::find_rule_example(r.id)) {
    const ExampleLabels l = example_labels(*e);
    out += fmt::format("\n  {} ({}):\n", l.bad, example_place(*e));
    out += example_lines(e->bad, "    ");
    out += e->good.empty() && e->kind == diag::ExampleKind::edit ? fmt::format("  {}: no such file\n", l.good)
                           : fmt::format("  {}:\n", l.good) + example_lines(e->good, "    ");
    out += fmt::format("\n  Fix: {}\n", e->fix);
  }
  out += fmt::format("\n  {}\n", automatic_fix(r));
  return out;
}

std::string render_rule_explain(const rules::RuleInfo& r) {
  return fmt::format("{} ({}; profile {}; default severity {})\n  {}\n", r.id, r.ref.empty() ? "ledgergate" : r.ref,
                     r.profile, diag::to_string(r.severity), r.summary) +
         rule_help_text(r);
}

namespace {
// A markdown table cell: a `|` in the text would end it.
std::string table_cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}
}  // namespace

std::string render_rules_markdown() {
  std::string out =
      "# Rules\n\n"
      "Every rule ledgergate checks, from its catalogue (`include/ledgergate/diag/rule_table.hpp`). This file is\n"
      "generated by `ledgergate rules --format markdown`; a test fails when it is out of date.\n"
      "A label such as `R-F07` is the rule's number in the reference's spec; `G-`\n"
      "labels are the reference's known gaps that ledgergate closes. Severities are\n"
      "defaults: a policy file (`docs/policy.md`) can change them.\n\n"
      "The fix column says what `ledgergate fix` does (docs/fix.md): `certain` fixes are\n"
      "applied, `suggested` ones only when named with `--rule`, `none` are a human's call.\n\n"
      "| rule | label | profiles | severity | fix | summary |\n|---|---|---|---|---|---|\n";
  for (const rules::RuleInfo& r : rules::all_rules()) {
    out += fmt::format("| [{0}](#{0}) | {1} | {2} | {3} | {4} | {5} |\n", r.id, r.ref, r.profile,
                       diag::to_string(r.severity), diag::to_string(r.fix.kind), table_cell(r.summary));
  }
  for (const rules::RuleInfo& r : rules::all_rules()) {
    out += fmt::format("\n## {}\n\n", r.id);
    out += fmt::format("{} · profiles: {} · default severity: {}\n\n", r.ref.empty() ? "ledgergate's own" : r.ref,
                       r.profile, diag::to_string(r.severity));
    out += std::string(r.summary) + ".\n";
    out += rule_help_markdown(r);
  }
  return out;
}

std::string rule_help_markdown(const rules::RuleInfo& r) {
  std::string out;
  if (!r.detail.empty()) out += "\n" + std::string(r.detail) + "\n";
  if (const auto e = diag::find_rule_example(r.id)) {
    const ExampleLabels l = example_labels(*e);
    out += fmt::format("\n{} ({}):\n\n```text\n{}```\n\n", l.bad, example_place(*e), example_lines(e->bad, ""));
    out += e->good.empty() && e->kind == diag::ExampleKind::edit ? fmt::format("{}: no such file.\n", l.good)
                           : fmt::format("{}:\n\n```text\n{}```\n", l.good, example_lines(e->good, ""));
    out += fmt::format("\nFix: {}\n", e->fix);
  }
  out += fmt::format("\n{}\n", automatic_fix(r));
  return out;
}

std::string render_hooks_dir(std::string_view dir) { return fmt::format("hooks directory: {}\n", dir); }

std::string render_hook_change(const hooks::HookChange& change) {
  std::string line = fmt::format("{}: {}", change.name, to_string(change.action));
  if (change.action == hooks::Action::chained) line += fmt::format(" (kept as {}{})", change.name, hooks::k_original_suffix);
  return line + "\n";
}

std::string render_hook_status(const hooks::HookStatus& status) {
  std::string line;
  switch (status.state) {
    case hooks::HookState::absent: line = "not installed"; break;
    case hooks::HookState::foreign: line = "another hook (not ledgergate's)"; break;
    case hooks::HookState::ours:
      line = fmt::format("installed: runs {}", status.binary);
      if (status.chained) line += fmt::format(" (runs {}{} first)", status.name, hooks::k_original_suffix);
      if (!status.binary.starts_with('/')) {
        line += status.fallback.empty() ? std::string("; none is on PATH: the hook refuses; install ledgergate")
                                        : fmt::format(" from PATH: {}", status.fallback);
      } else if (!status.binary_runs && !status.fallback.empty()) {
        line += fmt::format("; {} is gone: the hook runs {} (from PATH) instead; `ledgergate hooks install` records it",
                            status.binary, status.fallback);
      } else if (!status.binary_runs) {
        line += fmt::format("; {} is gone and no ledgergate is on PATH: the hook refuses; install ledgergate, "
                            "or run `ledgergate hooks install` again",
                            status.binary);
      }
      break;
  }
  return fmt::format("{}: {}\n", status.name, line);
}

std::string render_judgement(std::string_view hook, const hooks::Judgement& j) {
  std::string out = fmt::format("ledgergate {}: {}: {}\n", hook, subject_name(j.subject), judgement_name(j.verdict));
  for (const hooks::Note& note : j.notes) {
    for (const std::string& line : std::visit(NoteLines{}, note)) out += "  " + line + "\n";
  }
  out += render_text(shown_findings(j.findings, j.attribution), false);
  for (const std::string& line : change_lines(j.findings, j.attribution)) out += "  " + line + "\n";
  return out;
}

std::string render_renumber_plan(const merge::RenumberPlan& plan, std::string_view label) {
  std::string out = fmt::format("renumber {} \xE2\x86\x92 {} on {}\n", plan.old_id, plan.new_id, label);
  for (const merge::FileEdit& e : plan.edits) {
    if (!e.text) continue;
    const std::string kinds = e.kinds.empty() ? std::string() : "  (" + util::join(e.kinds, ", ") + ")";
    if (e.path == plan.new_path && plan.new_path != plan.old_path) {
      out += fmt::format("  {} \xE2\x86\x92 {}{}\n", util::quote_path(plan.old_path), util::quote_path(plan.new_path),
                         kinds);
    } else {
      out += fmt::format("  {}{}\n", util::quote_path(e.path), kinds);
    }
  }
  return out;
}

std::string render_renumber_refusal(const merge::RenumberPlan& plan) {
  return fmt::format("renumber {}: refused, nothing written: {}\n", plan.old_id, plan.refusal) +
         render_text(plan.added_findings, false);
}

std::string render_init_written(std::string_view dir, std::string_view profile, const std::vector<std::string>& files) {
  std::string out = fmt::format("started a {} ledger in {}\n", profile, util::quote_path(dir));
  for (const std::string& f : files) out += "  wrote " + util::quote_path(f) + "\n";
  return out;
}

std::string render_init_next() {
  return "next: add a row to projects.yaml (a person's change), then `ledgergate project new KEY --summary \"...\"`;\n"
         "      `ledgergate check` judges the ledger, and the hooks judge every commit\n";
}

std::string render_init_refusal(std::string_view why) {
  return fmt::format("ledgergate: init: refused, nothing written: {}\n", util::escape_controls(why));
}

}  // namespace lg::report
