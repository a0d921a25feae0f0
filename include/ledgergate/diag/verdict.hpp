// The one verdict every judgement ends in (a check, a hook, a report):
// pass, fail, or error — could not run or cannot judge (exit 2).
#pragma once

#include <string_view>

namespace lg::diag {

enum class Verdict { pass, fail, error };

// "pass", "fail", "error": the JSON API's and the summaries' spelling.
std::string_view to_string(Verdict v);

}  // namespace lg::diag
