// `--format github`: the step summary file GitHub Actions names in
// $GITHUB_STEP_SUMMARY (appended to, as GitHub documents).
#pragma once

#include <string>

namespace lg::cli {

// Appends `markdown` to $GITHUB_STEP_SUMMARY when it is set; a file that
// cannot be written is reported on stderr and does not change the verdict.
void append_step_summary(const std::string& markdown);

}  // namespace lg::cli
