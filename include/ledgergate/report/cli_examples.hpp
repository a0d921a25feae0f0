// The man pages' EXAMPLES, taken from the README's ```console blocks (the
// examples tests/readme-examples runs and compares), so a page shows only
// what a reader can run and see. Pure functions; the CLI reads the README.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/report/cli_docs.hpp"

namespace lg::report {

// Every `$ ` line of the ```console blocks of `markdown` whose command runs
// the tool (its first word is `tool`), with the output lines under it (up to
// the next `$ ` line or the end of the block), in order.
std::vector<CliExample> console_examples(std::string_view markdown, std::string_view tool);

// The examples `cmd`'s page shows: those whose command words (the leading
// words of the command line that look like command names) start with the
// command's path. The root's page shows them all.
std::vector<CliExample> examples_for(const CliCommand& cmd, const std::vector<CliExample>& all);

}  // namespace lg::report
