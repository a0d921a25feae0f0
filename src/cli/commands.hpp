// One setup function per subcommand; each registers its options and a
// callback that stores the command's exit code in `exit_code`.
#pragma once

#include <CLI/CLI.hpp>

#include "exit_code.hpp"

namespace lg::cli {

struct Globals {
  std::string repo;  // --repo DIR ("" = discover from the current directory)
  std::string color = "auto";  // --color auto|always|never (terminal.hpp)
  std::string output;          // -o FILE: the command's report (stdout) written there atomically
  std::vector<std::string> operands;  // the `-- PATH...` of a command that takes them
  ExitCode exit_code = ExitCode::pass;
};

void setup_check(CLI::App& app, Globals& globals);
void setup_classify(CLI::App& app, Globals& globals);
void setup_trial_merge(CLI::App& app, Globals& globals);
void setup_land(CLI::App& app, Globals& globals);
void setup_rules(CLI::App& app, Globals& globals);
void setup_explain(CLI::App& app, Globals& globals);
void setup_req(CLI::App& app, Globals& globals);
void setup_hooks(CLI::App& app, Globals& globals);
void setup_audit(CLI::App& app, Globals& globals);
void setup_renumber(CLI::App& app, Globals& globals);
void setup_merge_file(CLI::App& app, Globals& globals);
void setup_merge_driver(CLI::App& app, Globals& globals);
void setup_project(CLI::App& app, Globals& globals);
void setup_board(CLI::App& app, Globals& globals);
void setup_recover(CLI::App& app, Globals& globals);
void setup_fix(CLI::App& app, Globals& globals);
void setup_lsp(CLI::App& app, Globals& globals);
void setup_init(CLI::App& app, Globals& globals);
// Hidden: `__docs DIR` writes the man pages and completions (cmd_docs.cpp).
void setup_docs(CLI::App& app, Globals& globals);

}  // namespace lg::cli
