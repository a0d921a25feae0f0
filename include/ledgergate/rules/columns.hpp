// A finding's column where its rule gave only a line: the column of what the
// line holds, the key or item the finding is about (its first character
// after the indentation and a list's "- "). Findings that carry a column
// keep it; a finding on a blank line, without a line, or on a file the tree
// cannot give (or read), keeps 0 (unknown): a column never fails a check.
#pragma once

#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/tree_source.hpp"

namespace lg::rules {

// The column (1-based, in code points) of the content of `line`: 0 when the
// line is blank.
int content_column(std::string_view line);

// Sets the column of each finding of `tree` (their paths its paths) that has
// a line and no column.
void locate_columns(git::TreeSource& tree, std::vector<diag::Finding>& findings);

}  // namespace lg::rules
