// `ledgergate rules` lists the registry; `ledgergate explain ID` shows one row with its
// bad and good example and the fix.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "errors.hpp"
#include "ledgergate/report/commands.hpp"

namespace lg::cli {

void setup_rules(CLI::App& app, Globals& globals) {
  auto profile = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("text");
  CLI::App* cmd = app.add_subcommand("rules", "List every rule: id, spec label, default severity, summary");
  cmd->add_option("--profile", *profile, "Only the rules of this profile (and the input rules)");
  cmd->add_option("--format", *format, "text (one line per rule) or markdown (docs/rules.md, every rule in full)")
      ->check(CLI::IsMember({"text", "markdown"}));
  cmd->callback([profile, format, &globals] {
    if (*format == "markdown" && !profile->empty()) {
      throw CLI::ValidationError("--format", "markdown lists every rule: it takes no --profile");
    }
    const std::string out = *format == "markdown" ? report::render_rules_markdown() : report::render_rules_list(*profile);
    std::fputs(out.c_str(), stdout);
    globals.exit_code = ExitCode::pass;
  });
}

void setup_explain(CLI::App& app, Globals& globals) {
  auto id = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "explain", "Explain one rule (by id or spec label, e.g. R-F07): why, a bad and a good example, the fix");
  cmd->add_option("id", *id, "Rule id or spec label")->type_name("RULE")->required();
  cmd->callback([id, &globals] {
    const rules::RuleInfo* r = rules::find_rule(*id);
    if (!r) {
      print_error(fmt::format("unknown rule '{}' (see `ledgergate rules`)", *id));
      globals.exit_code = ExitCode::error;
      return;
    }
    std::fputs(report::render_rule_explain(*r).c_str(), stdout);
    globals.exit_code = ExitCode::pass;
  });
}

}  // namespace lg::cli
