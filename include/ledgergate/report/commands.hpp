// The text outputs of the smaller commands: `rules` and `explain` (the
// registry), `hooks install|uninstall|status` and a hook's judgement,
// `renumber`'s plan and refusal. Pure functions; the CLI prints.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/hooks/install.hpp"
#include "ledgergate/hooks/run.hpp"
#include "ledgergate/merge/renumber.hpp"
#include "ledgergate/rules/registry.hpp"

namespace lg::report {

// One "id label severity summary" row per rule; with a profile, only its
// rules and the input rules, labelled as that profile names them.
std::string render_rules_list(std::string_view profile);
// "id (label; profile P; default severity S)", the summary and the rationale.
std::string render_rule_explain(const rules::RuleInfo& rule);
// docs/rules.md: every rule of the catalogue, one section each, headed by
// its id (GitHub's anchor for `## ID` is `#ID`: the SARIF helpUri points
// there).
std::string render_rules_markdown();
// What a rule's help says after its summary, as `explain` prints it (text)
// and docs/rules.md does (markdown): the rationale, the bad and the good
// example, the fix. SARIF's `help` of the rule.
std::string rule_help_text(const rules::RuleInfo& rule);
std::string rule_help_markdown(const rules::RuleInfo& rule);

// "hooks directory: DIR", the line `hooks install|uninstall|status` start with.
std::string render_hooks_dir(std::string_view dir);
// "NAME: installed|chained (kept as NAME.ledgergate-orig)|...": what install or uninstall did.
std::string render_hook_change(const hooks::HookChange& change);
// "NAME: not installed|another hook (not ledgergate's)|installed: runs BINARY (runs ... first)",
// and when BINARY is gone, what the shim runs instead (PATH's) or that it refuses.
std::string render_hook_status(const hooks::HookStatus& status);

// `init`: "started a PROFILE ledger in DIR" and each file written; the
// next steps; the refusal ("ledgergate: init: refused: WHY, nothing written").
std::string render_init_written(std::string_view dir, std::string_view profile, const std::vector<std::string>& files);
std::string render_init_next();
std::string render_init_refusal(std::string_view why);

// "ledgergate HOOK: SUBJECT: pass|fail|cannot judge", the notes, the findings.
std::string render_judgement(std::string_view hook, const hooks::Judgement& j);

// "renumber OLD → NEW on LABEL" and each file the plan writes.
std::string render_renumber_plan(const merge::RenumberPlan& plan, std::string_view label);
// "renumber OLD: refused, nothing written: WHY" and the findings it would add.
std::string render_renumber_refusal(const merge::RenumberPlan& plan);

}  // namespace lg::report
