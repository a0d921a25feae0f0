// A tree of many cortex-projects ledgers with findings, and findings
// written out whole: the tests that a check's findings do not depend on how
// many threads read the ledgers.
#pragma once

#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/rules/threads.hpp"
#include "support/fixture_tree.hpp"

namespace lg::test {

// `n` era-R ledgers p0 ... p<n-1> (120 are enough for a check to read and
// parse them on several threads), every seventh one's `Issue:` bad, and
// their active rows in projects.yaml.
inline FileMap many_ledgers(int n = 120) {
  FileMap files;
  std::string yaml;
  for (int i = 0; i < n; ++i) {
    const std::string key = "p" + std::to_string(i);
    yaml += key + ":\n  remote: none\n  local_path: /tmp/x\n  ral_root: /tmp/y\n  mirror: none\n  sync_cli: s\n"
                  "  sync_verbs: [pull]\n  ledger: L.md\n  assistant: none\n  witness_file: w\n  partition: both\n"
                  "  status: active\n";
    files["projects/" + key + ".md"] =
        "# " + key + " \u2014 a project\n\nProject: " + key + "\nIssue: " + (i % 7 == 0 ? "bad" : "none") +
        "\n\n## Now\n\nx\n\n## Runs\n\n## Log\n\n- 2026-09-01 \u2014 note \u2014 opened\n";
  }
  files["projects.yaml"] = yaml;
  return files;
}

// Each finding whole (rule, severity, revision, path, line, message, state,
// whether it leaves the tree unjudged), one a line, in order.
inline std::string whole_findings(const std::vector<diag::Finding>& findings) {
  std::string out;
  for (const diag::Finding& f : findings) {
    out += f.rule + '|' + std::to_string(static_cast<int>(f.severity)) + '|' + f.location.rev + '|' +
           f.location.path + ':' + std::to_string(f.location.line) + '|' + f.message + '|' +
           std::to_string(static_cast<int>(f.state)) + (f.cannot_judge ? "|unjudged" : "") + '\n';
  }
  return out;
}

// Sets the check's thread count for its lifetime (then the default again).
class CheckThreads {
 public:
  explicit CheckThreads(unsigned threads) { rules::set_check_threads(threads); }
  CheckThreads(const CheckThreads&) = delete;
  CheckThreads& operator=(const CheckThreads&) = delete;
  ~CheckThreads() { rules::set_check_threads(0); }
};

}  // namespace lg::test
