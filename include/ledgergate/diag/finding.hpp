// Findings: what the checker reports, as values with a location and a rule
// id. A finding is never an exception and never printed below the CLI.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lg::diag {

enum class Severity { info, warning, error };
std::string_view to_string(Severity s);
// Returns false if `name` is not one of info|warning|error.
bool parse_severity(std::string_view name, Severity& out);

struct Location {
  std::string rev;   // "" for the working tree or a plain folder
  std::string path;  // repository-relative POSIX path
  int line = 0;      // 1-based; 0 = unknown / whole file
  int column = 0;    // 1-based; 0 = unknown
};

// How the reference checker (`--format cortex`) spells a finding.
enum class PeerForm {
  none,            // ledgergate's own finding: not part of the reference output
  path_message,    // "{path}: {message}"
  path_line_message,  // "{path}:{line}: {message}"
};

// Whether the change under judgement brought a finding (docs/baseline.md,
// "Judging a change"): a command that judges a change (a hook, trial-merge,
// land, `check --against`) sets it by matching the finding against the
// reference tree's (diag::attribute); a whole-tree judgement leaves it unjudged.
enum class FindingState {
  unjudged,      // no reference: the finding counts as it is
  introduced,    // not on the reference tree (JSON and SARIF: "new")
  pre_existing,  // the same finding is on the reference tree ("unchanged")
};

struct Finding {
  std::string rule;  // stable kebab-case id
  Severity severity = Severity::error;
  Location location;
  std::string message;  // text without the leading path
  PeerForm peer = PeerForm::none;
  bool cannot_judge = false;  // the input could not be read: the verdict is "could not run"
  FindingState state = FindingState::unjudged;
};

// The line the reference checker prints for `f` (without "  - "), as raw
// as the reference prints it: a renderer escapes it for its output
// (util::escape_cortex for `--format cortex`).
std::string peer_text(const Finding& f);

// Whether two findings say the same: every field but the revision and the
// state (what a finding is, wherever and however it was judged).
bool same_finding(const Finding& a, const Finding& b);
bool same_findings(const std::vector<Finding>& a, const std::vector<Finding>& b);

class FindingSink {
 public:
  virtual ~FindingSink() = default;
  virtual void report(Finding finding) = 0;
};

class CollectingSink final : public FindingSink {
 public:
  void report(Finding finding) override { m_findings.push_back(std::move(finding)); }
  const std::vector<Finding>& findings() const { return m_findings; }
  std::vector<Finding> take() { return std::move(m_findings); }
  // Drops what was reported after the first `size` findings.
  void truncate(std::size_t size) {
    if (size < m_findings.size()) m_findings.resize(size);
  }

 private:
  std::vector<Finding> m_findings;
};

}  // namespace lg::diag
