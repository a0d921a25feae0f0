// The trial merge as a pass list: containment → merge base → BASE's policy →
// tree merge in memory → the record merge's retry of conflicted ledger paths
// → classification of the branch's diff (with the
// projects.yaml birth exception) → semantic detectors → check of the merged
// tree, judged against BASE's → check of the branch tip. Every object it
// creates stays in the trial
// repository's memory.
#include "ledgergate/merge/trial_merge.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "ledgergate/cache/cache.hpp"
#include "ledgergate/diag/baseline.hpp"
#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/merge/branch_diff.hpp"
#include "ledgergate/merge/change_scope.hpp"
#include "ledgergate/merge/record_merge.hpp"
#include "ledgergate/merge/verdict_cache.hpp"
#include "ledgergate/merge/virtual_base.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/rules/change.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/projects_state.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "ledgergate/ledger/open_requirements.hpp"
#include "ledgergate/ledger/text_file.hpp"
#include "ledgergate/util/heap.hpp"
#include "ledgergate/util/text.hpp"
#include "orl_semantic.hpp"
#include "ruling_semantic.hpp"

namespace lg::merge {

bool TrialMergeReport::cannot_judge() const {
  return std::any_of(findings.begin(), findings.end(), [](const diag::Finding& f) { return f.cannot_judge; });
}

bool TrialMergeReport::pass() const {
  return !nothing_to_merge && merge.conflicts.empty() && !classification.paths.empty() &&
         classification.code_count() == 0 && semantic.empty() && !diag::any_blocking(findings, attribution.gate);
}

namespace {

// The three versions of the trees the detectors compare.
struct Sides {
  explicit Sides(rules::CheckCache* shared) : cache(shared != nullptr ? *shared : own) {}
  std::unique_ptr<git::TreeSource> base, ours, theirs, merged;
  rules::CheckCache own{rules::CheckCache::judging_budget()};  // unless the caller shares its own (TrialMergeOptions::shared_cache)
  rules::CheckCache& cache;  // one parse per blob across the sides and the merged check
  std::string home;          // the persistent cache's common git dir ("": not used)
};

std::set<std::string> run_idents(const ledger::ProjectLedger& l) {
  std::set<std::string> out;
  for (const auto& r : l.runs) out.insert(r.ident);
  return out;
}

std::set<std::string> log_keys(const ledger::ProjectLedger& l) {
  std::set<std::string> out;
  for (const auto& e : l.log) out.insert(e.date + "\x1f" + e.kind + "\x1f" + e.text);
  return out;
}

std::size_t count_new(const std::set<std::string>& side, const std::set<std::string>& base) {
  return static_cast<std::size_t>(
      std::count_if(side.begin(), side.end(), [&](const std::string& k) { return base.count(k) == 0; }));
}

// One project ledger changed on both sides: the same run added twice, and log
// entries from both sides interleaved out of order in the merged file.
Result<void> detect_ledger(Sides& s, const std::string& path, std::vector<SemanticConflict>& out) {
  LG_TRY(auto b, git::read_regular_file(*s.base, path));
  LG_TRY(auto o, git::read_regular_file(*s.ours, path));
  LG_TRY(auto t, git::read_regular_file(*s.theirs, path));
  if (!o || !t) return {};
  const auto base = ledger::parse_project_ledger(b.value_or(""));
  const auto ours = ledger::parse_project_ledger(*o);
  const auto theirs = ledger::parse_project_ledger(*t);
  // The same run added on both sides as different lines: two submissions
  // under one job id (the same line added twice is one edit made twice).
  const auto base_runs = run_idents(base);
  for (const ledger::RunLine& t_run : theirs.runs) {
    if (base_runs.count(t_run.ident)) continue;
    for (const ledger::RunLine& o_run : ours.runs) {
      if (o_run.ident != t_run.ident || (o_run.state == t_run.state && o_run.partition == t_run.partition &&
                                         o_run.date == t_run.date && o_run.text == t_run.text)) {
        continue;
      }
      out.push_back({"run-added-twice", path,
                     "run " + t_run.ident + " is added on both sides of " + path + ": BASE line " +
                         std::to_string(o_run.line) + " (" + o_run.date + "), HEAD line " +
                         std::to_string(t_run.line) + " (" + t_run.date + ")"});
      break;
    }
  }
  const auto base_log = log_keys(base);
  if (count_new(log_keys(ours), base_log) == 0 || count_new(log_keys(theirs), base_log) == 0 || !s.merged) return {};
  LG_TRY(auto m, git::read_regular_file(*s.merged, path));
  if (!m) return {};
  const auto merged = ledger::parse_project_ledger(*m);
  for (std::size_t i = 1; i < merged.log.size(); ++i) {
    if (merged.log[i].date > merged.log[i - 1].date) {
      out.push_back({"log-interleaved", path,
                     "both sides (BASE and HEAD) prepended log entries to " + path +
                         ": the merged log is not newest-first at line " + std::to_string(merged.log[i].line)});
      break;
    }
  }
  return {};
}

// The keys a side's projects.yaml retires (verdict_cache.hpp's RetiredRows).
std::unordered_set<std::string> retired_keys(const RetiredRows& r) {
  std::unordered_set<std::string> out;
  for (const auto& [key, retired] : r.rows) {
    if (retired) out.insert(key);
  }
  return out;
}

// A row retired on one side while the other side adds runs to its ledger.
// The keys of the project ledgers HEAD adds runs to.
Result<std::set<std::string>> run_adding_keys(Sides& s, const std::vector<policy::Change>& changes) {
  std::set<std::string> keys;
  for (const policy::Change& c : changes) {
    if (c.status == "D" || !ledger::is_project_ledger_path(c.path)) continue;
    LG_TRY(auto before, git::read_regular_file(*s.base, c.path));
    LG_TRY(auto after, git::read_regular_file(*s.theirs, c.path));
    if (!after) continue;
    if (count_new(run_idents(ledger::parse_project_ledger(*after)),
                  run_idents(ledger::parse_project_ledger(before.value_or("")))) > 0) {
      keys.insert(std::string(ledger::project_ledger_key(c.path)));
    }
  }
  return keys;
}

Result<void> detect_retired(Sides& s, const std::set<std::string>& head_run_keys,
                            std::vector<SemanticConflict>& out) {
  const std::string yaml(ledger::k_projects_yaml);
  LG_TRY(auto b_id, git::entry_id(*s.base, yaml));
  LG_TRY(auto o_id, git::entry_id(*s.ours, yaml));
  LG_TRY(auto t_id, git::entry_id(*s.theirs, yaml));
  if (o_id == b_id && t_id == b_id) return {};  // no row changed status anywhere
  if (t_id == b_id && head_run_keys.empty()) return {};  // HEAD retired nothing and added no run
  LG_TRY(const RetiredRows ours_rows, retired_rows(*s.ours, s.cache, s.home));  // kept by blob: a lookup next time
  const auto ours = retired_keys(ours_rows);
  if (t_id == b_id) {
    // HEAD retired nothing: only a row BASE retired among those HEAD adds runs to can collide.
    const bool any = std::any_of(head_run_keys.begin(), head_run_keys.end(),
                                 [&](const std::string& k) { return ours.count(k) != 0; });
    if (!any) return {};
  }
  LG_TRY(const RetiredRows base_rows, retired_rows(*s.base, s.cache, s.home));
  LG_TRY(const RetiredRows theirs_rows, retired_rows(*s.theirs, s.cache, s.home));
  if (!base_rows.table) return {};
  const auto base = retired_keys(base_rows);
  const auto theirs = retired_keys(theirs_rows);
  for (const auto& [key, base_retired] : base_rows.rows) {
    const std::string path = ledger::project_ledger_path(key);
    const bool ours_retired = ours.count(key) != 0 && !base_retired;
    const bool theirs_retired = theirs.count(key) != 0 && !base_retired;
    if (ours_retired == theirs_retired) continue;
    git::TreeSource& adder = ours_retired ? *s.theirs : *s.ours;
    LG_TRY(auto before, git::read_regular_file(*s.base, path));
    LG_TRY(auto after, git::read_regular_file(adder, path));
    if (!after) continue;
    if (count_new(run_idents(ledger::parse_project_ledger(*after)),
                  run_idents(ledger::parse_project_ledger(before.value_or("")))) == 0) {
      continue;
    }
    out.push_back({"retired-with-new-runs", path,
                   key + " is retired on " + (ours_retired ? "BASE" : "HEAD") + " while " +
                       (ours_retired ? "HEAD" : "BASE") + " adds runs to " + path});
  }
  return {};
}

// Only paths the branch changed can conflict semantically; of those, the
// ledgers BASE changed too are compared three ways.
// An open-requirements file changed on both sides: the orl-m-* detectors.
Result<void> detect_orl(Sides& s, const std::string& path, std::vector<SemanticConflict>& out) {
  LG_TRY(auto b, git::read_regular_file(*s.base, path));
  LG_TRY(auto o, git::read_regular_file(*s.ours, path));
  LG_TRY(auto t, git::read_regular_file(*s.theirs, path));
  auto parse = [](const std::optional<std::string>& bytes) {
    return ledger::parse_open_requirements(ledger::decode_text(bytes.value_or("")).text);
  };
  for (SemanticConflict& c : detect_orl_conflicts(parse(b), parse(o), parse(t), path)) out.push_back(std::move(c));
  return {};
}

Result<std::vector<SemanticConflict>> detect_semantic(Sides& s, const std::vector<policy::Change>& changes,
                                                      const std::string& orl_glob) {
  std::vector<SemanticConflict> out;
  for (const policy::Change& c : changes) {
    if (c.status == "D" || !ledger::orl_glob_match(orl_glob, c.path)) continue;
    LG_TRY(auto b, git::entry_id(*s.base, c.path));
    LG_TRY(auto o, git::entry_id(*s.ours, c.path));
    if (o == b || !o) continue;  // BASE left it alone
    if (auto r = detect_orl(s, c.path, out); !r) return r.error();
  }
  for (const policy::Change& c : changes) {
    if (c.status == "D" || !ledger::is_project_ledger_path(c.path)) continue;
    LG_TRY(auto b, git::entry_id(*s.base, c.path));
    LG_TRY(auto o, git::entry_id(*s.ours, c.path));
    if (o == b || !o) continue;  // BASE left it alone
    if (auto r = detect_ledger(s, c.path, out); !r) return r.error();
  }
  LG_TRY(auto head_run_keys, run_adding_keys(s, changes));
  if (auto r = detect_retired(s, head_run_keys, out); !r) return r.error();
  return out;
}

// The three trees a merge reads: the merge base (or the virtual base), BASE, HEAD.
struct MergeTrees {
  git::ObjectId base, ours, theirs;
};

// One conflicted path merged again as records: when its three versions are
// regular files of a record format and every record merges, its bytes are
// written to the trial repository and the path's update is added; when some
// record does not merge, the path stays a conflict and `unmerged` names each
// such record (kind "record-conflict").
Result<std::optional<ResolvedPath>> retry_as_records(git::TrialRepo& trial, const MergeTrees& trees,
                                                     const policy::RepoPolicy& pol, const Conflict& c,
                                                     std::vector<git::TreeUpdate>& updates,
                                                     std::vector<SemanticConflict>& unmerged) {
  if (c.kind != ConflictKind::content) return std::optional<ResolvedPath>();
  const auto format = record_format_of(pol.layout(), c.path, pol.open_requirements_glob);
  if (!format) return std::optional<ResolvedPath>();
  std::string text[3];
  const git::ObjectId* sides[3] = {&trees.base, &trees.ours, &trees.theirs};
  for (int i = 0; i < 3; ++i) {
    LG_TRY(auto entry, git::tree_entry_at(trial.repo(), *sides[i], c.path));
    if (!entry || entry->mode != git::FileMode::blob) return std::optional<ResolvedPath>();
    LG_TRY(text[i], git::read_blob(trial.repo(), entry->id));
  }
  MergeLabels labels;  // the reasons name the sides as the report does
  labels.ours = "BASE";
  labels.theirs = "HEAD";
  labels.base = "the merge base";
  Result<RecordMerge> merged = merge_records(*format, text[0], text[1], text[2], labels);
  if (!merged && merged.error().kind == ErrorKind::invalid_input) return std::optional<ResolvedPath>();
  if (!merged) return merged.error().with_context("merging " + c.path + " as records");
  if (!merged->clean()) {
    for (const RecordConflict& r : merged->conflicts) {
      unmerged.push_back({"record-conflict", c.path, c.path + ": " + r.record + " — " + r.reason});
    }
    return std::optional<ResolvedPath>();
  }
  LG_TRY(const git::ObjectId blob, trial.write_blob(merged->bytes));
  updates.push_back({c.path, blob, git::FileMode::blob});
  return std::optional<ResolvedPath>(ResolvedPath{c.path, "records", std::string(to_string(*format)),
                                                  std::move(merged->records)});
}

// The record merge's retry of the tree merge's content conflicts on ledger
// paths: each one it resolves leaves the conflict list and its merged bytes
// go into the tree, so the tree is the merged tree once none is left. A
// rename-aware merge (libgit2's) writes no tree while conflicts remain, so
// its conflicts stay as they are.
Result<std::vector<ResolvedPath>> resolve_as_records(git::TrialRepo& trial, const MergeTrees& trees,
                                                     const policy::RepoPolicy& pol, TreeMerge& merge,
                                                     std::vector<SemanticConflict>& unmerged) {
  std::vector<ResolvedPath> resolved;
  if (merge.conflicts.empty() || merge.full_merge) return resolved;
  std::vector<git::TreeUpdate> updates;
  std::vector<Conflict> left;
  for (Conflict& c : merge.conflicts) {
    LG_TRY(std::optional<ResolvedPath> r, retry_as_records(trial, trees, pol, c, updates, unmerged));
    if (r) {
      resolved.push_back(std::move(*r));
    } else {
      left.push_back(std::move(c));
    }
  }
  if (!updates.empty()) {
    LG_TRY(merge.tree, git::update_tree(trial.repo(), merge.tree, updates));
  }
  merge.conflicts = std::move(left);
  return resolved;
}

Result<std::unique_ptr<git::TreeSource>> source(const git::Repository& repo, const git::ObjectId& tree,
                                                std::string label) {
  return git::open_tree_source(repo, tree, std::move(label));
}

// The branch tip's own check, which the merged tree's does not replace: the
// merge may resolve away what makes the tip fail (main finished the run the
// branch lists twice), and a merge must not hide a broken branch. The tip's
// error findings that neither BASE nor the merged tree has (by fingerprint:
// rule, path, message without its line numbers) are the branch's own: they
// are reported with rev "HEAD" and fail the merge. One BASE has too is
// BASE's (the merged check reports it where the merge keeps it). Under the
// gate `new`, one the merge base has too is not the branch's either: it was
// there when the branch started (BASE may have fixed it since, and the
// merged tree then has it no more), so a branch is never failed for a
// finding it did not bring.
// The findings of a branch tip that can fail a merge: errors, and what
// cannot be judged.
std::vector<diag::Finding> blocking(std::vector<diag::Finding> tip) {
  std::erase_if(tip, [](const diag::Finding& f) { return f.severity != diag::Severity::error && !f.cannot_judge; });
  return tip;
}

// Drops from `own` each finding `other` has too (by fingerprint).
void drop_known(std::vector<diag::Finding>& own, const std::vector<diag::Finding>& other) {
  if (own.empty()) return;
  std::unordered_set<std::string> known;
  for (const diag::Finding& f : other) known.insert(diag::fingerprint(f));
  std::erase_if(own, [&](const diag::Finding& f) { return known.count(diag::fingerprint(f)) != 0; });
}

// `own` reported as the branch tip's: rev HEAD, introduced.
void blame_tip(std::vector<diag::Finding>& own) {
  for (diag::Finding& f : own) {
    f.location.rev = "HEAD";
    f.state = diag::FindingState::introduced;
  }
}

Result<std::vector<diag::Finding>> branch_tip_findings(Sides& s, const rules::CheckOptions& check,
                                                       const std::vector<diag::Finding>& merged, diag::Gate gate) {
  LG_TRY(rules::CheckReport tip, rules::check_tree(*s.theirs, check, s.cache));
  std::vector<diag::Finding> out = blocking(std::move(tip.findings));
  if (out.empty()) return out;
  LG_TRY(rules::CheckReport on_base, rules::check_tree(*s.ours, check, s.cache));
  drop_known(out, on_base.findings);
  drop_known(out, merged);
  if (gate == diag::Gate::introduced && !out.empty()) {
    LG_TRY(rules::CheckReport on_merge_base, rules::check_tree(*s.base, check, s.cache));
    drop_known(out, on_merge_base.findings);
  }
  blame_tip(out);
  return out;
}

// The baseline (the options', else the one BASE's policy names) takes its
// findings out of `findings` into `a.suppressed`; `a.fixed` are BASE's.
Result<void> take_out_baseline(Sides& s, const policy::RepoPolicy& pol, const TrialMergeOptions& options,
                               std::vector<diag::Finding>& findings, diag::Attribution& a) {
  std::optional<diag::Baseline> baseline = options.baseline;
  if (!baseline) {
    LG_TRY(baseline, policy::load_baseline(*s.ours, pol));
  }
  if (baseline) a.suppressed = baseline->suppress(findings);
  for (diag::Finding& f : a.fixed) f.location.rev = "BASE";
  return {};
}

// The merged tree's findings judged against BASE's, checked the same way
// (usually one lookup in the persistent cache): what the branch brings is
// introduced, what BASE already held is pre-existing, what it removes is
// fixed. The cross-version findings (orl-h-*, the merged open-requirements
// files against the merge base) are matched against BASE's own since the
// merge base. Then the baseline's findings are taken out.
Result<void> judge_against_base(Sides& s, const policy::RepoPolicy& pol, const TrialMergeOptions& options,
                                const rules::CheckOptions& check, TrialMergeReport& report) {
  diag::Attribution& a = report.attribution;
  LG_TRY(a.fixed, rules::attribute_check(*s.ours, *s.merged, report.findings, check, s.cache));
  LG_TRY(auto history, rules::check_open_requirements_between(*s.base, *s.merged, check, &s.cache));
  if (!history.empty()) {
    LG_TRY(auto base_history, rules::check_open_requirements_between(*s.base, *s.ours, check, &s.cache));
    diag::attribute(history, base_history);
  }
  for (diag::Finding& f : history) report.findings.push_back(std::move(f));
  return take_out_baseline(s, pol, options, report.findings, a);
}

// The trees of one trial merge.
struct Trees {
  git::ObjectId merge_base, base, head, merged;
};

// --scope change: the merged tree judged where the merge changes it, not
// in full (change_scope.hpp). BASE's state is moved to the merged tree (and
// to the branch tip, and to the merge base when the tip needs it), and only
// the ledgers whose findings may differ — their blob, path or projects.yaml
// row changed — are judged, on both sides. The new and fixed findings, the
// tip's own and the verdict under the gate `new` are those of a whole
// check; the unchanged ones are not counted (Attribution::whole false).
// False, with nothing reported: the change is not one the state follows,
// and the caller judges the whole tree.
Result<bool> judge_change(Sides& s, git::TrialRepo& trial, const policy::RepoPolicy& pol,
                          const TrialMergeOptions& options, const rules::CheckOptions& check, const Trees& trees,
                          TrialMergeReport& report) {
  if (!ChangeScope::applies(report.attribution.gate, check, pol)) return false;
  LG_TRY(ChangeScope scope, ChangeScope::of(trial.repo(), *s.ours, trees.base, check, s.cache));
  std::set<std::string> touched;
  LG_TRY(std::optional<rules::ProjectsState> on_merged, scope.moved(*s.merged, trees.merged, touched));
  if (!on_merged) return false;
  std::set<std::string> tip_touched;
  std::optional<rules::ProjectsState> on_tip;
  if (trees.head != trees.merged) {
    LG_TRY(on_tip, scope.moved(*s.theirs, trees.head, tip_touched));
    if (!on_tip) return false;
  }
  // Nothing is written to `report` before the last fallback is ruled out.
  diag::Attribution a = report.attribution;
  a.whole = false;
  LG_TRY(std::vector<diag::Finding> findings, scope.at(*on_merged, *s.merged, touched));
  LG_TRY(const std::vector<diag::Finding> reference, scope.at_from(touched));
  LG_TRY(a.fixed, rules::attribute_between(*s.ours, *s.merged, findings, reference));
  if (auto r = take_out_baseline(s, pol, options, findings, a); !r) return r.error();
  for (diag::Finding& f : findings) f.location.rev = "merged";
  // The tip's own error findings, as branch_tip_findings finds them: a
  // fingerprint names its path, so only the paths the tip changes from BASE
  // can hold one that neither BASE, the merged tree nor the merge base has
  // (the merged tree's findings elsewhere than `touched` are BASE's).
  std::vector<diag::Finding> own;
  if (on_tip) {
    LG_TRY(own, scope.at(*on_tip, *s.theirs, tip_touched));
    own = blocking(std::move(own));
  }
  if (!own.empty()) {
    LG_TRY(const std::vector<diag::Finding> base_at_tip, scope.at_from(tip_touched));
    drop_known(own, base_at_tip);
    drop_known(own, findings);
  }
  if (!own.empty()) {  // the gate `new`: what the merge base had is not the branch's either
    std::set<std::string> mb_touched;
    LG_TRY(std::optional<rules::ProjectsState> on_mb, scope.moved(*s.base, trees.merge_base, mb_touched));
    if (!on_mb) return false;
    LG_TRY(const std::vector<diag::Finding> mb_at_tip, scope.at(*on_mb, *s.base, tip_touched));
    drop_known(own, mb_at_tip);
  }
  blame_tip(own);
  findings.insert(findings.end(), std::make_move_iterator(own.begin()), std::make_move_iterator(own.end()));
  report.profile = on_merged->profile();
  report.findings = std::move(findings);
  report.attribution = std::move(a);
  return true;
}

Result<TrialMergeReport> run_trial_merge(const git::Repository& repo, git::TrialRepo& trial, const git::ObjectId& base,
                                         const git::ObjectId& head, const TrialMergeOptions& options) {
  TrialMergeReport report;
  report.base = base;
  report.head = head;
  // All merge bases, in the order git lists them. With one, the merge is
  // the plain three-way merge over it. With several (a criss-cross history)
  // the merge is git's: over a virtual base, the merge bases merged
  // recursively as merge-ort does (virtual_base.hpp). The semantic
  // detectors and the orl-h-* history check read the branch's diff from the
  // FIRST merge base in git's order — the one `git diff BASE...HEAD` uses (it
  // warns "multiple merge bases, using ...") — never from the virtual base,
  // which is no commit the branch started from and may hold conflict
  // markers; the classification reads it from every merge base
  // (classify_from_bases). libgit2 finds the bases (the same set as git's);
  // git's order, a walk of its own, is needed only when there are several.
  LG_TRY(report.merge_bases, git::merge_bases(repo, base, head));
  if (report.merge_bases.size() > 1) {
    LG_TRY(report.merge_bases, merge_bases_git_order(trial, base, head));
  }
  report.merge_base = report.merge_bases.front();
  if (report.merge_bases.size() == 1 && report.merge_base == head) {
    report.nothing_to_merge = true;
    return report;
  }
  LG_TRY(git::ObjectId mb_tree, repo.commit_tree(report.merge_base));
  LG_TRY(git::ObjectId base_tree, repo.commit_tree(base));
  LG_TRY(git::ObjectId head_tree, repo.commit_tree(head));
  git::ObjectId merge_from = mb_tree;
  if (report.merge_bases.size() > 1) {
    LG_TRY(merge_from, virtual_merge_base(trial, report.merge_bases));
    report.virtual_base = merge_from;
  }
  Sides s(options.shared_cache);
  s.cache.serve_one_command();  // the checks below share their journal writes and their confirmations
  if (options.cache_report) s.home = repo.common_dir();
  LG_TRY(s.base, source(trial.repo(), mb_tree, "merge-base"));
  LG_TRY(s.ours, source(trial.repo(), base_tree, "BASE"));
  LG_TRY(s.theirs, source(trial.repo(), head_tree, "HEAD"));
  LG_TRY(auto pol, policy::load_policy(*s.ours, options.profile));
  report.attribution.gate = options.gate.value_or(pol.gate);
  report.attribution.reference = "BASE";
  if (report.virtual_base) {
    LG_TRY(report.merge, merge_trees_exact(trial, merge_from, base_tree, head_tree));
  } else {
    LG_TRY(report.merge, merge_trees(trial, merge_from, base_tree, head_tree));
  }
  std::vector<SemanticConflict> unmerged;  // the records that kept a ledger path conflicted
  if (options.ledger_merge.value_or(pol.merge) == policy::LedgerMerge::records) {
    LG_TRY(report.resolved, resolve_as_records(trial, {merge_from, base_tree, head_tree}, pol, report.merge, unmerged));
  }
  if (!options.check) {
    s.cache.flush_writes();
    return report;
  }

  LG_TRY(auto changes, cached_tree_changes(repo, mb_tree, head_tree, options.cache_report));
  LG_TRY(report.classification,
         classify_from_bases(repo, report.merge_bases, head_tree, pol, s.cache, report.birth, &changes));
  if (report.merge.conflicts.empty()) {
    LG_TRY(s.merged, source(trial.repo(), report.merge.tree, "merged"));
  }
  LG_TRY(report.semantic, detect_semantic(s, changes, pol.open_requirements_glob));
  report.semantic.insert(report.semantic.begin(), unmerged.begin(), unmerged.end());
  // The tasks and phases eras: the ruling detectors (id race, chain fork, dangling references).
  // BASE's layout, as load_policy detected it (or the pinned profile's).
  const ledger::Layout layout = pol.layout();
  if (layout == ledger::Layout::cortex_tasks || layout == ledger::Layout::cortex_phases) {
    LG_TRY(auto ours_changes, tree_changes(repo, mb_tree, base_tree));
    LG_TRY(auto rulings, detect_ruling_conflicts({*s.base, *s.ours, *s.theirs, ours_changes, changes, s.cache}));
    for (SemanticConflict& c : rulings) report.semantic.push_back(std::move(c));
  }
  if (!s.merged) {
    s.cache.flush_writes();
    return report;
  }
  // What reading has kept (libgit2's delta-base caches of the pack files,
  // filled by every side of each directory the merge and the detectors read:
  // some 12 MB at 20,000 projects) is let go before the merged tree's check,
  // whose projects.yaml parse is the run's peak, where the merge read a
  // directory that wide. Below that, what is kept is small and the checks
  // would read every tree again (at 2,000 projects, 15% of a trial merge's
  // instructions with the persistent cache warm).
  const rules::CheckOptions check = policy::check_options(pol);
  constexpr std::size_t k_release_from = 8192;  // entries of the widest directory merged
  if (report.merge.widest == 0 || report.merge.widest >= k_release_from) {
    if (auto r = trial.release_read_memory(repo, report.merge.tree); !r) return r.error();
    // Without the persistent cache the checks after read and parse every
    // ledger on threads of their own: the freed caches' pages go back first
    // (the whole trial merge at 20,000 projects 50.1-51.2 -> 48.7-49.4 MB,
    // the same time). With it, they are mostly answered from it and would
    // only fault the pages in again.
    if (!cache::enabled()) util::give_back_freed_heap();
  }
  if (options.scope == Scope::change) {
    LG_TRY(const bool judged, judge_change(s, trial, pol, options, check,
                                           Trees{mb_tree, base_tree, head_tree, report.merge.tree}, report));
    if (judged) {
      report.checked = true;
      s.cache.flush_writes();
      return report;
    }
  }
  LG_TRY(rules::CheckReport checked, rules::check_tree(*s.merged, check, s.cache));
  report.profile = checked.profile;
  report.findings = std::move(checked.findings);
  // What a cached report will confirm: the checked blobs the user's
  // repository holds (not those the merge wrote into memory). The check
  // found each in the trial repository: one the merge did not write came
  // from the user's object database.
  if (options.cache_report) {
    for (const git::ObjectId& id : checked.covered) {
      bool present = !trial.wrote(id);
      if (!present) {
        LG_TRY(present, git::has_object(repo, id));
      }
      if (present) report.covered.push_back(id);
    }
  }
  if (auto r = judge_against_base(s, pol, options, check, report); !r) return r.error();
  report.checked = true;
  for (diag::Finding& f : report.findings) f.location.rev = "merged";
  if (head_tree != report.merge.tree) {
    auto tip = branch_tip_findings(s, check, report.findings, report.attribution.gate);
    if (!tip) return tip.error().with_context("checking the branch tip");
    for (diag::Finding& f : *tip) report.findings.push_back(std::move(f));
  }
  s.cache.flush_writes();
  return report;
}

// A cached report stands for the two commits, their merge bases, their
// trees and the blobs its check read: each is confirmed present and intact
// (the commits read, the rest by git::confirm_objects)
// before the report is used; a missing or damaged one is an error (cannot
// judge), never the cached pass.
Result<void> confirm_cached(const git::Repository& repo, const TrialMergeReport& r) {
  std::vector<git::ObjectId> ids = r.covered;
  std::vector<git::ObjectId> commits{r.base, r.head};
  commits.insert(commits.end(), r.merge_bases.begin(), r.merge_bases.end());
  for (const git::ObjectId& commit : commits) {
    LG_TRY(const git::ObjectId tree, repo.commit_tree(commit));
    ids.push_back(tree);
  }
  return git::confirm_objects(repo, ids);
}

}  // namespace

Result<TrialMergeReport> trial_merge(const git::Repository& repo, git::TrialRepo& trial, const git::ObjectId& base,
                                     const git::ObjectId& head, const TrialMergeOptions& options) {
  std::optional<VerdictKey> key;
  // A report of the change alone stands on no list of the blobs it read
  // (`covered`): it is not kept, so a cached one is always a whole check's.
  if (options.cache_report && options.scope == Scope::tree) {
    LG_TRY(key, verdict_key(repo, base, head, options));
    if (key) {
      std::optional<TrialMergeReport> hit = load_report(*key);
      if (hit && hit->base == base && hit->head == head) {
        if (auto r = confirm_cached(repo, *hit); !r) return r.error().with_context("the cached trial merge");
        return std::move(*hit);
      }
    }
  }
  LG_TRY(TrialMergeReport report, run_trial_merge(repo, trial, base, head, options));
  if (key) keep_report(*key, report);
  return report;
}

}  // namespace lg::merge
