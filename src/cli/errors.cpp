// The CLI's own error and warning lines, the usage hint, and the error
// document of the machine formats.
#include "errors.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "ledgergate/report/format.hpp"
#include "ledgergate/report/sarif.hpp"

namespace lg::cli {
namespace {

struct ErrorDocument {
  std::string command;
  std::string format;  // "json" or "sarif"; "" = none due
};

ErrorDocument& due() {
  static ErrorDocument d;
  return d;
}

}  // namespace

void print_error(std::string_view message) {
  std::fputs(fmt::format("ledgergate: error: {}\n", message).c_str(), stderr);
}

void print_warning(std::string_view message) {
  std::fputs(fmt::format("ledgergate: warning: {}\n", message).c_str(), stderr);
}

void print_usage_hint(std::string_view command) {
  const std::string path = command.empty() ? std::string() : std::string(command) + " ";
  std::fputs(fmt::format("Run 'ledgergate {}--help' for usage.\n", path).c_str(), stderr);
}

void expect_error_document(std::string_view command, std::string_view format) {
  due() = ErrorDocument{std::string(command), format == "json" || format == "sarif" ? std::string(format) : ""};
}

void document_printed() { due().format.clear(); }

void expect_error_document_from(int argc, const char* const* argv) {
  std::string command, format;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--repo") {
      ++i;  // its value
    } else if (arg == "--format" && i + 1 < argc) {
      format = argv[++i];
    } else if (arg.starts_with("--format=")) {
      format = arg.substr(9);
    } else if (command.empty() && !arg.starts_with("-")) {
      command = arg;
    }
  }
  if (!command.empty()) expect_error_document(command, format);
}

void print_error_document(std::string_view message) {
  const ErrorDocument d = due();
  if (d.format.empty()) return;
  document_printed();
  const std::string out = d.format == "json" ? report::render_json_error(d.command, message)
                                             : report::render_sarif_error(d.command, message);
  std::fputs(out.c_str(), stdout);
}

ExitCode report_error(const Error& e) {
  print_error(e.message);
  print_error_document(e.message);
  return ExitCode::error;
}

}  // namespace lg::cli
