// The CLI's own error and warning lines, and the usage hint.
#include "errors.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace lg::cli {

void print_error(std::string_view message) {
  std::fputs(fmt::format("ledgergate: error: {}\n", message).c_str(), stderr);
}

void print_warning(std::string_view message) {
  std::fputs(fmt::format("ledgergate: warning: {}\n", message).c_str(), stderr);
}

void print_usage_hint() { std::fputs("Run 'ledgergate --help' for usage.\n", stderr); }

ExitCode report_error(const Error& e) {
  print_error(e.message);
  return ExitCode::error;
}

}  // namespace lg::cli
