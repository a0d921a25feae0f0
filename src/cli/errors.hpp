// What the CLI says about itself on stderr, spelled in one place:
// `ledgergate: error: ...`, `ledgergate: warning: ...` and the usage hint;
// and, for a command asked for a machine format (--format json | sarif),
// the one document on stdout that records an error (exit 2).
#pragma once

#include <string_view>

#include "exit_code.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::cli {

void print_error(std::string_view message);
void print_warning(std::string_view message);
// "Run 'ledgergate COMMAND --help' for usage.", after a command line that
// does not parse: the help of the command it names (`command`, "project
// log"), or the program's when it names none.
void print_usage_hint(std::string_view command = {});

// A command about to run in `format`: an error it reports (report_error,
// main's catch) is also printed on stdout as a document of that format
// ("json": {"schema", "verdict": "error", "error"}; "sarif": a log whose
// invocation failed) unless the command printed its document already.
void expect_error_document(std::string_view command, std::string_view format);
// The command printed its document: an error after it adds none.
void document_printed();
// Guesses the command and its --format from a command line that did not
// parse, so the error document is printed all the same.
void expect_error_document_from(int argc, const char* const* argv);
// Prints the error document, if one is due (once).
void print_error_document(std::string_view message);

// Prints `e` (and the error document, if due) and returns the exit code of a command that could not run.
ExitCode report_error(const Error& e);

}  // namespace lg::cli
