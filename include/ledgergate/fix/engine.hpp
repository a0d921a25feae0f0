// `ledgergate fix` as a library: check the tree, ask each finding's fixer
// for its edits, apply those that do not overlap, check again, and repeat
// until nothing is left to fix. A round whose edits give a file a finding
// the tree did not have is taken back for that file; a fix found to do that
// on its own is refused (and named), so the fixed tree holds no finding the
// fix did not remove. The result is a writer verb's Change (fix_editor), so
// it is validated and written, or committed, as every verb's edit is
// (write/apply.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/fix/fix.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/ledger/check_options.hpp"
#include "ledgergate/util/result.hpp"
#include "ledgergate/write/edit.hpp"

namespace lg::fix {

struct FixOptions {
  ledger::CheckOptions check;       // the tree's policy settings (policy::check_options) and profile
  std::vector<std::string> rules;   // only these rules (certain or suggested); empty: every certain rule
  int max_rounds = 10;
};

struct AppliedFix {
  diag::Finding finding;  // what it fixed, as the tree before the round had it
  Fix fix;
};

struct RefusedFix {
  diag::Finding finding;  // what it would have fixed
  Fix fix;
  diag::Finding added;    // a finding the fixed tree would have had and the tree lacked
};

struct ChangedFile {
  std::string path;
  std::string before, after;  // the whole bytes
};

struct FixReport {
  std::string profile;                  // the profile checked
  std::vector<ChangedFile> files;       // path order
  std::vector<AppliedFix> applied;      // in the order they were applied
  std::vector<RefusedFix> refused;
  std::vector<diag::Finding> before;    // the tree's findings
  std::vector<diag::Finding> after;     // the fixed tree's findings
};

// Fixes `tree` in memory. Errors: the check's (an unreadable tree, no ledger).
Result<FixReport> fix_tree(git::TreeSource& tree, const FixOptions& options);

// fix_tree as a writer verb's editor: its Change holds the changed files and
// a one-line summary; `report` (when given) receives the whole report on
// every run (a retried commit runs it again).
write::Editor fix_editor(FixOptions options, FixReport* report = nullptr);

// The fix each finding offers (certain or suggested), computed on `tree`,
// where the findings were found: one entry per finding, in order.
Result<std::vector<std::optional<Fix>>> fixes_for(git::TreeSource& tree, const std::vector<diag::Finding>& findings);

// The findings of `now` that `before` lacks (compared by diag::fingerprint,
// each finding of `before` answering one of `now`).
std::vector<diag::Finding> new_findings(const std::vector<diag::Finding>& before, const std::vector<diag::Finding>& now);

}  // namespace lg::fix
