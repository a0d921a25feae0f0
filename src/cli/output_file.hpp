// `-o/--output FILE` of every command that prints a report: what the
// command prints on stdout is kept aside and, once it has run, written to
// FILE through the one atomic writer (write/atomic_file.hpp). FILE is the
// whole report or is left as it was: a command that could not run (exit 2)
// and printed nothing leaves it untouched.
#pragma once

#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace lg::cli {

// Adds `-o/--output FILE` to `command`; giving it starts keeping stdout
// aside (before the command's callback runs).
void add_output_option(CLI::App* command, Globals& globals);

// Writes what was kept aside to `globals.output` (when the option was
// given) and gives stdout back; the exit code, an error when the file
// cannot be written.
ExitCode finish_output(const Globals& globals, ExitCode code);

}  // namespace lg::cli
