// Renderings of a trial merge (lg::merge::trial_merge): the text people read
// and one JSON document (the verdict, the merge, the classification, the
// paths the record merge resolved, the semantic conflicts and the merged
// tree's findings). Pure functions.
#pragma once

#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "ledgergate/diag/verdict.hpp"

#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/report/sarif.hpp"

namespace lg::report {

// A trial merge's lines as people read them, shared by `trial-merge`, the
// hooks' judgements and `land`'s steps: "conflict (kind): path", "code:
// path  (reason)" (the code paths among `paths`), the diff summary
// ("ledger-only, N path(s)", "N of M path(s) need a human", ...), and
// "semantic (kind): message"; and a path the record merge resolved,
// "resolved (records): path — log: 2 added; runs: 1 added".
std::vector<std::string> conflict_lines(const std::vector<merge::Conflict>& conflicts);
std::vector<std::string> resolved_lines(const std::vector<merge::ResolvedPath>& resolved);
std::vector<std::string> code_lines(const std::vector<policy::Classified>& paths);
std::string diff_line(const merge::TrialMergeReport& r);
std::vector<std::string> semantic_lines(const std::vector<merge::SemanticConflict>& semantic);

// `base` and `head` are the revisions as the user named them; `merge_only`
// (--no-check) stops after the merge's own lines.
std::string render_trial_merge_text(const merge::TrialMergeReport& r, std::string_view base, std::string_view head,
                                    bool merge_only);
// `verdict`: the command's (pass, fail, or error when the merged tree cannot
// be judged); `commit`: the merge commit `--commit` wrote, if any.
std::string render_trial_merge_json(const merge::TrialMergeReport& r, diag::Verdict verdict,
                                    const std::optional<git::ObjectId>& commit = std::nullopt);
// The merge's own findings, located on their paths (rev "merged"), each
// introduced by the merge: each conflicted path a `merge-conflict` (its
// kind, and the base path of a rename, in the message), each semantic
// conflict a `merge-semantic-conflict`, each code path among `paths` a
// `merge-code-path` (its reason in the message). SARIF reports them before
// the check's.
std::vector<diag::Finding> merge_findings(const std::vector<merge::Conflict>& conflicts,
                                          const std::vector<merge::SemanticConflict>& semantic,
                                          const std::vector<policy::Classified>& paths = {});
// Appends `merge_found`, then `check_found` with what the change fixes and
// the baseline suppresses (add_change_results), to `run` as results with
// `properties` (they must outlive the run's rendering).
void add_merge_results(SarifRun& run, const std::vector<diag::Finding>& merge_found,
                       const std::vector<diag::Finding>& check_found, const diag::Attribution& change,
                       const std::function<void(util::JsonWriter&)>& properties);
// SARIF 2.1.0 (report/sarif's writer): the merge's findings (merge_findings)
// and the merged tree's, with their baselineState.
std::string render_trial_merge_sarif(const merge::TrialMergeReport& r, diag::Verdict verdict);
// The command's verdict: error when the merged tree cannot be judged, else
// pass or fail as `pass` says.
diag::Verdict trial_merge_verdict(const merge::TrialMergeReport& r, bool pass);

}  // namespace lg::report
