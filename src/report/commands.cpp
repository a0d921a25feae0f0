// The registry listings, the hooks' installation and judgements, and a
// renumber plan as text.
#include "ledgergate/report/commands.hpp"

#include <fmt/format.h>

#include "ledgergate/report/format.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::report {
namespace {

std::string_view judgement_name(diag::Verdict v) {
  switch (v) {
    case diag::Verdict::pass: return "pass";
    case diag::Verdict::fail: return "fail";
    case diag::Verdict::error: return "cannot judge";
  }
  return "?";
}

}  // namespace

std::string render_rules_list(std::string_view profile) {
  std::string out;
  for (const rules::RuleInfo& r : rules::all_rules()) {
    if (!profile.empty() && !rules::in_profile(r, profile) && r.profile != "input") continue;
    const std::string_view label = profile.empty() ? r.ref : rules::label_in(r, profile);
    out += fmt::format("{:<34} {:<6} {:<8} {}\n", r.id, label, diag::to_string(r.severity), r.summary);
  }
  return out;
}

std::string render_rule_explain(const rules::RuleInfo& r) {
  std::string out = fmt::format("{} ({}; profile {}; default severity {})\n  {}\n", r.id,
                                r.ref.empty() ? "ledgergate" : r.ref, r.profile, diag::to_string(r.severity),
                                r.summary);
  if (!r.detail.empty()) out += fmt::format("\n  {}\n", r.detail);
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
      line = fmt::format("installed: {}", status.command);
      if (status.chained) line += fmt::format(" (runs {}{} first)", status.name, hooks::k_original_suffix);
      break;
  }
  return fmt::format("{}: {}\n", status.name, line);
}

std::string render_judgement(std::string_view hook, const hooks::Judgement& j) {
  std::string out = fmt::format("ledgergate {}: {}: {}\n", hook, j.subject, judgement_name(j.verdict));
  for (const std::string& note : j.notes) out += "  " + note + "\n";
  return out + render_text(j.findings, false);
}

std::string render_renumber_plan(const merge::RenumberPlan& plan, std::string_view label) {
  std::string out = fmt::format("renumber {} \xE2\x86\x92 {} on {}\n", plan.old_id, plan.new_id, label);
  for (const merge::FileEdit& e : plan.edits) {
    if (!e.text) continue;
    const std::string kinds = e.kinds.empty() ? std::string() : "  (" + util::join(e.kinds, ", ") + ")";
    if (e.path == plan.new_path && plan.new_path != plan.old_path) {
      out += fmt::format("  {} \xE2\x86\x92 {}{}\n", plan.old_path, plan.new_path, kinds);
    } else {
      out += fmt::format("  {}{}\n", e.path, kinds);
    }
  }
  return out;
}

std::string render_renumber_refusal(const merge::RenumberPlan& plan) {
  return fmt::format("renumber {}: refused, nothing written: {}\n", plan.old_id, plan.refusal) +
         render_text(plan.added_findings, false);
}

}  // namespace lg::report
