// GitHub Actions output: workflow commands that annotate files
// (`::error file=…,line=…,title=rule::message`) and a markdown summary for
// $GITHUB_STEP_SUMMARY (GitHub shows only 10 annotations per kind per step,
// so the summary carries the full list). Pure functions; the CLI prints.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/report/format.hpp"

namespace lg::report {

// A workflow command's message: `%`, CR and LF escaped (%25, %0D, %0A).
std::string github_escape_data(std::string_view s);
// A property value (file, title): the data escapes plus `:` (%3A) and `,` (%2C).
std::string github_escape_property(std::string_view s);

// One command per finding: ::error / ::warning / ::notice (for info), with
// file, line and col when known and the rule id as the title.
std::string render_github(const std::vector<diag::Finding>& findings);

// A markdown table of every finding under a heading naming the verdict.
std::string render_github_summary(const std::vector<diag::Finding>& findings, const JsonHeader& header,
                                  std::string_view title);

// Text for one markdown table cell: `|` escaped, line breaks as spaces, `<` `>` `&` as entities.
std::string markdown_cell(std::string_view s);

}  // namespace lg::report
