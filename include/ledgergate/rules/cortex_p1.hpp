// Era P1 (P1a, P1b, P1c) only: the restricted-subset reader of projects.yaml
// (spec §5.2: Y1-01..Y1-09 plus Y-01 and the finish-row rules Y-11..Y-17 in
// the P1 wording) and the batch records and reviews (spec §2.5, §2.6.5:
// P-B01..P-B08, P-V01..P-V10). The phase pass (rules/cortex_eras) calls these
// with what it loaded; they read no tree themselves.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/rules/projects_yaml.hpp"

namespace lg::rules {

enum class P1Sub { a, b, c };  // P1a, P1b, P1c

// §5.2: validates `text` (nullopt when projects.yaml is absent: Y-01) with
// the stdlib line loop of P1, reporting in line order; returns the rows kept
// (each finished row is in the table even when it had findings, as in P1).
ProjectsTable check_projects_yaml_p1(std::optional<std::string_view> text, P1Sub sub, diag::FindingSink& sink,
                                     const std::string& path = std::string(ledger::k_projects_yaml));

// What the batch rules need to know about one loaded phase file.
struct P1Phase {
  std::string stem;                     // the file stem (slug), e.g. "01_scope"
  std::vector<std::string> body_stems;  // job stems of its ## Runs lines
};

struct P1BatchFile {
  std::string rel;   // "batches/2026-09-01-pm.md" or "batches/reviews/2026-09-01-pm.md"
  std::string text;  // decoded (universal newlines applied)
};

// §2.6.5: every record (sorted path order) then every review (sorted path
// order). `phases` maps a loaded phase's rel path to its facts; `exists`
// answers whether a repository-relative path is a file (the record's
// `- review:` targets).
void check_p1_batches(const std::vector<P1BatchFile>& records, const std::vector<P1BatchFile>& reviews,
                      const std::map<std::string, P1Phase, std::less<>>& phases,
                      const std::function<bool(std::string_view)>& exists, P1Sub sub, diag::FindingSink& sink);

}  // namespace lg::rules
