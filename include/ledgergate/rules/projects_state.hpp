// The incremental era-R check: the cortex-projects pass's findings kept per
// step and per ledger, so the next tree (the audit's next commit, the
// language server's buffers after an edit) re-runs only the steps whose
// inputs its diff changed. A ledger's findings depend on
// its blob, its path and what its projects.yaml row says (presence, status,
// partition: rules::projects_step_row_inputs); projects.yaml's on its blob;
// the file-name step on projects/'s listing; the active-row step on
// projects.yaml and the set of ledgers. Open-requirements files are checked
// through check_tree's open-requirements profile, and writers' temporary
// files anywhere as check_tree reports them (input-writer-temp-file). The
// policy file is the caller's to watch: a change to it needs a rebuild (its
// severities and open-requirements glob are the options).
//
// A copy is cheap: the per-ledger entries are shared with the state copied
// from, and each state keeps only the ledgers changed since on its own
// (util::OverlayMap); a change to one state never shows in another.
#pragma once

#include <map>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/diff.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/util/overlay_map.hpp"

namespace lg::rules {

class ProjectsState {
 public:
  // Checks the whole tree (the cortex-projects profile, forced or detected).
  Result<void> rebuild(git::TreeSource& tree, const rules::CheckOptions& options, rules::CheckCache& cache);
  // The same without judging a single ledger or open-requirements file, nor
  // projects.yaml itself: its rows are read (projects_step_yaml_rows), the
  // file names and the active rows judged, and each ledger's findings and
  // projects.yaml's are left for judge(). For a caller that wants only
  // the findings at the paths a change touches (trial-merge --scope
  // change): findings_in() then, never findings(). The open-requirements
  // files are not looked for (the profile does not name them) and not
  // judged: update() refuses any change to them, so a state moved from
  // this one has the same, with the same findings.
  Result<void> rebuild_unjudged(git::TreeSource& tree, const rules::CheckOptions& options,
                                rules::CheckCache& cache);
  // Judges what among `paths` is not judged yet: ledgers, and projects.yaml
  // (`tree` being the state's tree). Errors: an unreadable projects.yaml.
  Result<void> judge(git::TreeSource& tree, const std::set<std::string>& paths, rules::CheckCache& cache);
  // Moves the state from the parent's tree to `tree`, `changes` being the
  // diff between them. False when the change is one this class does not
  // follow (the layout, open-requirements files, writers' temporary files):
  // rebuild then.
  // `touched` receives every path whose findings may have changed.
  Result<bool> update(git::TreeSource& tree, const std::vector<git::DiffEntry>& changes, rules::CheckCache& cache,
                      std::set<std::string>& touched);

  // Whether a check with `options` of a tree of `layout` is this class's:
  // era R, detected or pinned as the newest cortex-projects profile.
  static bool applies(const rules::CheckOptions& options, ledger::Layout layout);

  const std::string& profile() const { return m_profile; }  // as reports spell it
  // The profile checked, typed: cortex-projects, with no sub-era (R1 and R2 check alike).
  static ledger::Profile checked() { return ledger::newest_profile(ledger::Layout::cortex_projects); }
  const rules::CheckOptions& options() const { return m_options; }
  // All findings, in check_tree's order, before severity overrides.
  std::vector<diag::Finding> findings() const;
  // The findings at `path`, in check_tree's order, before severity overrides.
  std::vector<diag::Finding> findings_at(const std::string& path) const;
  // The findings at any of `paths`, in check_tree's order, before severity
  // overrides (their ledgers judged: judge()).
  std::vector<diag::Finding> findings_in(const std::set<std::string>& paths) const;
  // Every path holding a finding.
  std::set<std::string> paths() const;

 private:
  struct LedgerState {
    rules::ProjectsStepLedger file;
    std::string row_inputs;
    std::vector<diag::Finding> findings;
    bool judged = false;  // false: rebuild_unjudged() left it (row_inputs set, no findings)
  };
  struct PathOf {
    std::string_view operator()(const LedgerState& s) const { return s.file.path; }
  };
  // Judges each of `states` (their findings and row inputs set).
  void check_ledgers(git::TreeSource& tree, const std::vector<LedgerState*>& states, rules::CheckCache& cache);
  void check_active_rows();
  Result<rules::ProjectsStepNames> start(git::TreeSource& tree, const rules::CheckOptions& options,
                                         rules::CheckCache& cache, bool judge_yaml);
  static void paths_of(const std::vector<diag::Finding>& findings, std::set<std::string>& out);
  template <class Visit>
  void each_list(Visit visit, const std::string* ledger = nullptr) const;

  rules::CheckOptions m_options;
  std::string m_profile;
  rules::ProjectsStepYaml m_yaml;
  bool m_yaml_judged = true;  // false: m_yaml holds the table without its findings (rebuild_unjudged)
  std::vector<diag::Finding> m_names;           // the file-name step
  util::OverlayMap<LedgerState, PathOf> m_ledgers;  // by path (check_tree's order)
  std::vector<diag::Finding> m_active;          // active rows without a ledger
  std::vector<diag::Finding> m_orl;             // open-requirements files
  std::vector<diag::Finding> m_temp;            // writers' temporary files (rebuild(); none after rebuild_unjudged())
};

}  // namespace lg::rules
