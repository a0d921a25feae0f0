// Renderings of a land report (lg::land): one line per step (text), one
// JSON document (an API: fields only ever added), GitHub Actions output
// and the step summary. Pure functions; the CLI prints.
#pragma once

#include <string>

#include "ledgergate/land/land.hpp"

namespace lg::report {

std::string render_land_text(const land::LandReport& report);
std::string render_land_json(const land::LandReport& report);
// SARIF 2.1.0 (report/sarif's writer): every step's findings; a land that
// could not run (exit 2) records why in the invocation.
std::string render_land_sarif(const land::LandReport& report);
// GitHub Actions: the text report, then one annotation per finding and one
// for a verdict other than pass (`--format github`).
std::string render_land_github(const land::LandReport& report);
// The markdown for $GITHUB_STEP_SUMMARY: the outcome and a table of the steps.
std::string render_land_markdown(const land::LandReport& report);

}  // namespace lg::report
