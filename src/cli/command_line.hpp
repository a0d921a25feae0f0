// The command line before CLI11 parses it: `help CMD...` becomes
// `CMD... --help`, and a word that names no command, or an option that the
// command (or the program) does not have, is an error that suggests the
// nearest real one.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace lg::cli {

// `ledgergate help [CMD...]` as `ledgergate [CMD...] --help`; other command
// lines unchanged. args[0] is the program.
std::vector<std::string> rewrite_help(std::vector<std::string> args);

// The command word of a line that asks for no help and no version (the
// first word that is neither an option of the program's own nor its
// value); nullopt otherwise. main sets up only that command then: the
// others' options are hundreds of CLI11 objects a hook need not build.
std::optional<std::string> named_command(const std::vector<std::string>& args);

// Whether a line asks for the version and nothing else (`--version`, no
// help, no command word): main then sets up no command at all.
bool asks_version_only(const std::vector<std::string>& args);

// The error when a command word names no command of the level it is read
// at ("unknown command 'chek' (did you mean 'check'?)"); nullopt when every
// command word names one.
std::optional<std::string> unknown_command(CLI::App& app, const std::vector<std::string>& args);

// The error for the first option that neither the command nor its parents
// define ("unknown option '--formt' for 'check' (did you mean
// '--format'?)"); nullopt when all are known (CLI11's own message stands).
std::optional<std::string> unknown_option(CLI::App& app, const std::vector<std::string>& args);

// Lets `command`'s own long options be shortened, as the reference's
// argparse lets its verbs' be (`--tod` for `--today`); see expand_option_prefixes.
void allow_option_prefixes(CLI::App* command);

// The command line with each shortened long option of a command that
// allows it written out in full: a `--prefix` (or `--prefix=value`) that
// is no option's whole name and begins exactly one long option of that
// command's own. Other words are unchanged.
std::vector<std::string> expand_option_prefixes(CLI::App& app, std::vector<std::string> args);

// Lets `command` take path operands after `--` (`check [REV] -- PATH...`):
// CLI11 would give the first of them to the command's REV positional.
void allow_path_operands(CLI::App* command);

// The words after the first `--` of a line whose command allows path
// operands, taken out of `args`; empty (and `args` unchanged) otherwise.
std::vector<std::string> take_path_operands(CLI::App& app, std::vector<std::string>& args);

// The commands a line names, as typed ("project log"; "" when none), for
// the usage hint to point at that command's own help.
std::string command_path(CLI::App& app, const std::vector<std::string>& args);

}  // namespace lg::cli
