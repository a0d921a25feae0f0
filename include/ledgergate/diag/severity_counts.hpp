// How many findings of each severity a report holds: the tally behind every
// renderer's summary line.
#pragma once

#include <cstddef>
#include <vector>

#include "ledgergate/diag/finding.hpp"

namespace lg::diag {

struct SeverityCounts {
  std::size_t errors = 0, warnings = 0, infos = 0;
  void add(Severity s) { ++(s == Severity::error ? errors : s == Severity::warning ? warnings : infos); }
};

inline SeverityCounts count_severities(const std::vector<Finding>& findings) {
  SeverityCounts counts;
  for (const Finding& f : findings) counts.add(f.severity);
  return counts;
}

}  // namespace lg::diag
