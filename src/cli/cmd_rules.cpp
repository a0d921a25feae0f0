// `ledgergate rules` lists the registry; `ledgergate explain ID` shows one row.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "ledgergate/rules/registry.hpp"

namespace lg::cli {

void setup_rules(CLI::App& app, Globals& globals) {
  auto profile = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("rules", "List every rule: id, spec label, default severity, summary");
  cmd->add_option("--profile", *profile, "Only the rules of this profile (and the input rules)");
  cmd->callback([profile, &globals] {
    std::string out;
    for (const rules::RuleInfo& r : rules::all_rules()) {
      if (!profile->empty() && !rules::in_profile(r, *profile) && r.profile != "input") continue;
      const std::string_view label = profile->empty() ? r.ref : rules::label_in(r, *profile);
      out += fmt::format("{:<34} {:<6} {:<8} {}\n", r.id, label, diag::to_string(r.severity), r.summary);
    }
    std::fputs(out.c_str(), stdout);
    globals.exit_code = ExitCode::pass;
  });
}

void setup_explain(CLI::App& app, Globals& globals) {
  auto id = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("explain", "Explain one rule, by id or spec label (e.g. R-F07)");
  cmd->add_option("id", *id, "Rule id or spec label")->required();
  cmd->callback([id, &globals] {
    const rules::RuleInfo* r = rules::find_rule(*id);
    if (!r) {
      std::fputs(fmt::format("ledgergate: error: unknown rule '{}' (see `ledgergate rules`)\n", *id).c_str(), stderr);
      globals.exit_code = ExitCode::error;
      return;
    }
    std::string out = fmt::format("{} ({}; profile {}; default severity {})\n  {}\n", r->id,
                                  r->ref.empty() ? "ledgergate" : r->ref, r->profile,
                                  diag::to_string(r->severity), r->summary);
    if (!r->detail.empty()) out += fmt::format("\n  {}\n", r->detail);
    std::fputs(out.c_str(), stdout);
    globals.exit_code = ExitCode::pass;
  });
}

}  // namespace lg::cli
