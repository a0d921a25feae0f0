// What the CLI says about itself on stderr, spelled in one place:
// `ledgergate: error: ...` and `ledgergate: warning: ...`.
#pragma once

#include <string_view>

#include "exit_code.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::cli {

void print_error(std::string_view message);
void print_warning(std::string_view message);

// Prints `e` and returns the exit code of a command that could not run.
ExitCode report_error(const Error& e);

}  // namespace lg::cli
