// Merges judged against the trial merge of their parents.
#include "merge_judge.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/rules/registry.hpp"

namespace lg::audit {

namespace {

// How the tree of a merge differs from the clean merge of its parents.
std::string manual_resolution(const merge::TrialMergeReport& report) {
  if (report.merge.conflicts.empty()) return "its tree differs from the clean merge of its parents";
  return fmt::format("the merge of its parents conflicts in {} path{} (first: {})", report.merge.conflicts.size(),
                     report.merge.conflicts.size() == 1 ? "" : "s", report.merge.conflicts.front().path);
}

// Why a trial merge that does not pass would not land, "; "-joined.
std::string why_unclean(const merge::TrialMergeReport& report) {
  std::vector<std::string> why;
  if (!report.merge.conflicts.empty()) why.push_back("the merge conflicts");
  if (report.classification.code_count() > 0) {
    std::string first;
    for (const policy::Classified& p : report.classification.paths) {
      if (p.cls == policy::PathClass::code) {
        first = p.path;
        break;
      }
    }
    why.push_back(fmt::format("{} non-ledger path{} (first: {})", report.classification.code_count(),
                              report.classification.code_count() == 1 ? "" : "s", first));
  }
  if (!report.semantic.empty()) why.push_back(report.semantic.front().message);
  const auto errors = std::count_if(report.findings.begin(), report.findings.end(), [&](const diag::Finding& f) {
    return diag::blocks(f, report.attribution.gate);
  });
  if (errors > 0) {
    why.push_back(fmt::format("the merged tree has {} check error{}{}", errors, errors == 1 ? "" : "s",
                              report.attribution.gate == diag::Gate::all ? "" : " its first parent does not have"));
  }
  if (why.empty()) why.push_back("the trial merge does not pass");
  std::string joined;
  for (const std::string& w : why) joined += (joined.empty() ? "" : "; ") + w;
  return joined;
}

}  // namespace

Result<void> MergeJudge::judge(const CommitFacts& c, Events& events) {
  if (!m_trial) {
    auto trial = git::TrialRepo::open(m_repo);
    if (!trial) return trial.error().with_context("cannot judge: merge " + c.hex());
    m_trial.emplace(std::move(*trial));
  }
  const bool by_job = made_by_ledger_merge(full_message(m_repo, c.id));
  merge::TrialMergeOptions trial_options;
  trial_options.check = by_job;
  auto report = merge::trial_merge(m_repo, *m_trial, c.parents[0], c.parents[1], trial_options);
  if (!report) {
    events.add(rules::make_finding("audit-not-checked", "", 0, "merge not judged: " + report.error().message,
                                   diag::PeerForm::none));
    return {};
  }
  if (report->nothing_to_merge) return {};
  if (!report->merge.conflicts.empty() || report->merge.tree != c.tree) {
    events.add(rules::make_finding("audit-merge-manual-resolution", "", 0,
                                   "manual resolution: " + manual_resolution(*report), diag::PeerForm::none));
  }
  if (by_job && !report->pass()) {
    events.add(rules::make_finding("audit-ledger-merge-unclean", "", 0,
                                   "made by the ledger-merge job but not landable: " + why_unclean(*report),
                                   diag::PeerForm::none));
  }
  return {};
}

}  // namespace lg::audit
