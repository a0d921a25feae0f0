// Renderings of a trial merge (lg::merge::trial_merge): the text people read
// and one JSON document (the verdict, the merge, the classification, the
// semantic conflicts and the merged tree's findings). Pure functions.
#pragma once

#include <string>
#include <string_view>

#include "ledgergate/merge/trial_merge.hpp"

namespace lg::report {

// `base` and `head` are the revisions as the user named them; `merge_only`
// (--no-check) stops after the merge's own lines.
std::string render_trial_merge_text(const merge::TrialMergeReport& r, std::string_view base, std::string_view head,
                                    bool merge_only);
std::string render_trial_merge_json(const merge::TrialMergeReport& r);

}  // namespace lg::report
