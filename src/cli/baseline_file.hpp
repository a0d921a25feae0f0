// Reading a baseline file (--baseline FILE) for `check` and `audit`.
#pragma once

#include <string>

#include "ledgergate/diag/baseline.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::cli {

// The baseline in `path`; an error names the file (missing, unreadable, or not a baseline).
Result<diag::Baseline> read_baseline(const std::string& path);

}  // namespace lg::cli
