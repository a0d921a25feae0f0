// The open-requirements rules (spec/open-requirements.md): `orl-*` on one
// version of a ledger file, `orl-h-*` between two versions of it.
#pragma once

#include <string>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/ledger/open_requirements.hpp"

namespace lg::rules {

// Every single-version rule on one parsed file at `path`.
void check_open_requirements(const ledger::OpenRequirements& doc, const std::string& path, diag::FindingSink& sink);

// Every cross-version rule: `after` is the next version of `before` on the
// same path (a missing file is an empty ledger). Findings locate `after`.
// A version that failed to parse is not compared (its orl-yaml speaks).
void check_open_requirements_history(const ledger::OpenRequirements& before, const ledger::OpenRequirements& after,
                                     const std::string& path, diag::FindingSink& sink);

// True when `because` text carries a citation: a backticked construct, a URL,
// an issue or PR reference, a file path, or a dated search.
bool orl_because_cited(std::string_view because);

}  // namespace lg::rules
