// Era-R ("cortex-projects") rules over one parsed ledger and the
// projects.yaml rows (spec §4.3), plus the gap rules of §10 for this era.
#pragma once

#include <string>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/rules/projects_yaml.hpp"

namespace lg::rules {

// R-P01..R-P08, R-F01..R-F13 and the gap warnings for the ledger at `path`
// (`projects/<key>.md`), in the reference order.
void check_project_ledger(const ledger::ProjectLedger& ledger, const std::string& path,
                          const std::string& key, const ProjectsTable& rows, diag::FindingSink& sink);

// Findings about the bytes of any text file: invalid UTF-8, BOM, CR endings.
void check_text_input(const ledger::TextFacts& file, const std::string& path, diag::FindingSink& sink);

}  // namespace lg::rules
