// Man pages and shell completions, rendered from a plain description of the
// command line (CliCommand) that the CLI builds by walking its own CLI11
// definitions (src/cli/cmd_docs.cpp): the pages and completions are made from
// the same options and descriptions `--help` prints, so they cannot drift.
// Pure functions; the CLI prints or writes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lg::report {

struct CliOption {
  std::vector<std::string> names;    // "-C", "--repo" (empty for a positional)
  std::string positional;            // a positional's name
  std::string value;                 // "DIR", "TEXT" ("" for a flag)
  std::string description;
  std::vector<std::string> choices;  // the values a member check accepts
  bool required = false;
  bool repeatable = false;
};

struct CliCommand {
  std::vector<std::string> path;  // {"ledgergate", "hooks", "install"}
  std::string description;
  std::vector<CliOption> options;      // flags and options, in definition order
  std::vector<CliOption> positionals;  // in order
  std::vector<CliCommand> subcommands;
};

// An example command line and the output it prints (report/cli_examples.hpp
// takes them from the README).
struct CliExample {
  std::string command;              // the command line, without the prompt
  std::vector<std::string> output;  // the lines it prints
};

// "ledgergate-hooks-install": a command's page name, its path joined by '-'.
std::string man_page_name(const CliCommand& cmd);

// The roff page (man(7)) of `cmd`: NAME, SYNOPSIS, DESCRIPTION, OPTIONS,
// COMMANDS (its subcommands, each with a pointer to its own page), EXIT
// STATUS, EXAMPLES (when `examples` holds any) and SEE ALSO. `version` goes in
// the footer; `global` are the root's options, listed on every page as
// accepted after the command too.
std::string render_man_page(const CliCommand& cmd, const std::vector<CliOption>& global, std::string_view version,
                            const std::vector<CliExample>& examples = {});

// Completion scripts for the whole tree under `root`: bash (a `complete -F`
// function, for bash-completion's completions/ folder), zsh (a `#compdef`
// function) and fish (`complete -c` lines).
std::string render_bash_completion(const CliCommand& root);
std::string render_zsh_completion(const CliCommand& root);
std::string render_fish_completion(const CliCommand& root);
// What `__complete KIND` prints for the scripts above: one word a line.
std::string render_completion_words(const std::vector<std::string>& words);

}  // namespace lg::report
