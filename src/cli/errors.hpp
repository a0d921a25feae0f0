// What the CLI says about itself on stderr, spelled in one place:
// `ledgergate: error: ...`, `ledgergate: warning: ...` and the usage hint.
#pragma once

#include <string_view>

#include "exit_code.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::cli {

void print_error(std::string_view message);
void print_warning(std::string_view message);
// "Run 'ledgergate --help' for usage.", after a command line that does not parse.
void print_usage_hint();

// Prints `e` and returns the exit code of a command that could not run.
ExitCode report_error(const Error& e);

}  // namespace lg::cli
