// The audit as a pass driver. The walk selects the commits (walk.hpp);
// then each commit, oldest first, is replayed from the result cache
// (result_cache.hpp) or judged by the passes in this order, each a unit
// beside this file that keeps its own state between commits:
//   1. tree changes: the diff from the first parent, the read-ahead's
//      (read_ahead.hpp) or computed (tree_changes.hpp);
//   2. ledger versions: the changed ledgers parsed once (ledger_versions.hpp);
//   3. check: from the first parent's state (the one held, or one kept while
//      the walk followed another line), else in full (commit_check.hpp);
//   4. invariants: the cross-commit events (invariant_pass.hpp);
//   5. drift: where findings entered and left (drift.hpp);
//   6. merge judging (merge_judge.hpp);
// and its result is stored in the cache.
#include "ledgergate/audit/audit.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "commit_check.hpp"
#include "drift.hpp"
#include "invariant_pass.hpp"
#include "ledger_versions.hpp"
#include "merge_judge.hpp"
#include "read_ahead.hpp"
#include "result_cache.hpp"
#include "tree_changes.hpp"
#include "walk.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/pack_pages.hpp"

namespace lg::audit {

bool AuditReport::failed() const {
  return std::any_of(findings.begin(), findings.end(),
                     [](const AuditFinding& f) { return f.finding.severity == diag::Severity::error; });
}

bool made_by_ledger_merge(std::string_view message) {
  for (std::string_view marker : {std::string_view("ledger-merge"), std::string_view("Landed by ledgergate land"),
                                  std::string_view("into _ledger_merge")}) {
    if (message.find(marker) != std::string_view::npos) return true;
  }
  return false;
}

Result<long long> parse_since(std::string_view date) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  const std::string text(date);
  char tail = '\0';
  const bool day_only = text.size() == 10 && std::sscanf(text.c_str(), "%4d-%2d-%2d", &y, &mo, &d) == 3;
  const bool with_time =
      !day_only && (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &s, &tail) == 7 ||
                    std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d%c", &y, &mo, &d, &h, &mi, &tail) == 6) &&
      tail == 'Z';
  if ((!day_only && !with_time) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) {
    return make_error(ErrorKind::usage, "--since '" + text + "' is not YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z");
  }
  // Days from the civil date (Howard Hinnant's algorithm), UTC.
  const long long yy = mo <= 2 ? y - 1 : y;
  const long long era = (yy >= 0 ? yy : yy - 399) / 400;
  const long long yoe = yy - era * 400;
  const long long doy = (153LL * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5 + d - 1;
  const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const long long days = era * 146097 + doe - 719468;
  return days * 86400 + h * 3600LL + mi * 60LL + s;
}

namespace {

std::vector<diag::Finding> findings_between(const AuditReport& report, std::size_t from, std::size_t to) {
  std::vector<diag::Finding> out;
  for (std::size_t i = from; i < to; ++i) out.push_back(report.findings[i].finding);
  return out;
}

class Audit {
 public:
  Audit(const git::Repository& repo, const AuditOptions& options)
      : m_repo(repo),
        m_options(options),
        m_trees(repo),
        m_versions(repo),
        m_check(options),
        m_invariants(repo, m_versions),
        m_merges(repo),
        m_drift(m_report.findings) {}

  Result<AuditReport> run() {
    if (m_repo.is_shallow()) return make_error(ErrorKind::not_found, shallow_note(m_repo));
    if (m_options.incremental && !m_options.cache_dir.empty()) {
      m_results.emplace(ResultCache::in_folder(m_options.cache_dir, m_options.first_parent));
    } else if (m_options.incremental && m_options.repository_cache && cache::enabled()) {
      m_results.emplace(ResultCache::in_repository(m_repo.common_dir(), m_options.first_parent));
    }
    LG_TRY(std::vector<CommitFacts> commits, walk_history(m_repo, m_options));
    m_report.commits.reserve(commits.size());
    m_check.plan(commits);
    if (!commits.empty() && !commits.front().parents.empty()) {
      if (auto r = baseline(commits.front()); !r) return r.error();
    }
    // The read-ahead reads `commits`: it ends before they do, errors included.
    struct EndReadAhead {
      std::unique_ptr<ReadAhead>& read_ahead;
      ~EndReadAhead() { read_ahead.reset(); }
    } end_read_ahead{m_read_ahead};
    if (m_options.pipeline && !m_options.verify && commits.size() > 1) {
      m_read_ahead = std::make_unique<ReadAhead>(m_repo.git_dir(), commits);
    }
    for (std::size_t i = 0; i < commits.size(); ++i) {
      if (auto r = visit(commits[i], i); !r) return r.error();
      if (m_read_much || i % k_drop_pages_every == 0) drop_pack_pages();
      if (m_options.progress) m_options.progress(i + 1, commits.size());
    }
    m_read_ahead.reset();
    m_drift.finish();
    m_report.full_checks = m_check.full_checks();
    return std::move(m_report);
  }

 private:
  // Every so many commits, and after a commit that read much (checked in
  // full, or a diff of many paths), the pack pages read so far are given
  // back (git/pack_pages.hpp), the read-ahead parked meanwhile: the walk's
  // peak memory no longer grows with the pack.
  static constexpr std::size_t k_drop_pages_every = 1000;
  static constexpr std::size_t k_many_changes = 256;
  void drop_pack_pages() {
    if (m_read_ahead) m_read_ahead->pause();
    git::drop_pack_pages();
    if (m_read_ahead) m_read_ahead->resume();
    m_read_much = false;
  }

  // The parent of the range's first commit, checked: its findings were
  // present before the range.
  Result<void> baseline(const CommitFacts& first) {
    LG_TRY(CommitFacts parent, commit_facts(m_repo, first.parents.front()));
    LG_TRY(auto tree, open_tree(m_repo, parent));
    LG_TRY(Checked checked, m_check.full(*tree, parent));
    m_drift.baseline(std::move(checked.findings), parent.id);
    return {};
  }

  bool parent_judged_last(const CommitFacts& c) const {
    return !c.parents.empty() && m_drift.last_judged() == c.parents.front();
  }

  Result<void> visit(CommitFacts& c, std::size_t index) {
    struct Visited {
      CommitCheck& check;
      const CommitFacts& c;
      ~Visited() { check.visited(c); }
    } visited{m_check, c};
    if (m_results) {
      LG_TRY(const bool replayed, replay(c));
      if (replayed) return {};
    }
    CachedCommit entry;
    if (auto r = judge(c, index, entry); !r) return r.error();
    if (m_results) {
      if (auto r = m_results->store(c.hex(), entry); !r && m_report.cache_warning.empty()) {
        m_report.cache_warning = r.error().message;
      }
    }
    return {};
  }

  // A commit's result from the cache: false when there is none, or when it
  // is a change from a first parent that is not the commit judged last.
  // The walk read the commit; its tree is confirmed present and intact
  // (git::confirm_objects) before the result stands for it.
  Result<bool> replay(CommitFacts& c) {
    std::optional<CachedCommit> entry = m_results->load(c.hex());
    if (!entry) return false;
    if (entry->delta && !parent_judged_last(c)) return false;
    const git::ObjectId tree[] = {c.tree};
    if (auto r = git::confirm_objects(m_repo, tree); !r) return r.error().with_context("the cached result of " + c.hex());
    m_report.commits.push_back(AuditCommit{c.id, std::move(c.summary), entry->profile, c.parents.size() > 1, c.time});
    for (diag::Finding& f : entry->events) m_report.findings.push_back(AuditFinding{std::move(f), c.id, std::nullopt, false});
    m_invariants.give_back(entry->deleted_ruling_ids);
    PathFindings changed;
    if (entry->delta) {
      changed = std::move(entry->findings);
    } else {
      std::vector<diag::Finding> all;
      for (auto& [path, list] : entry->findings) all.insert(all.end(), list.begin(), list.end());
      changed = m_drift.changed_paths(all);
    }
    m_drift.update_paths(std::move(changed), c.id);
    for (diag::Finding& f : entry->merge_events) {
      m_report.findings.push_back(AuditFinding{std::move(f), c.id, std::nullopt, false});
    }
    return true;
  }

  // Commit `c` judged by the passes; what the result cache keeps of it goes
  // to `entry`.
  Result<void> judge(CommitFacts& c, std::size_t index, CachedCommit& entry) {
    LG_TRY(auto tree, open_tree(m_repo, c));
    LG_TRY(std::optional<ParentStep> step, changes(c, index));
    ++m_report.commits_checked;
    if (step && m_check.has_state_of(step->parent.id)) {
      m_versions.parse_changed(step->diff, c.id.short_hex(), m_check.cache());
    }
    LG_TRY(Checked checked, check(c, *tree, step));
    m_report.commits.push_back(AuditCommit{c.id, std::move(c.summary), checked.profile, c.parents.size() > 1, c.time});
    entry.profile = checked.profile;
    Events events(m_report.findings, c.id, checked.options);
    const std::size_t events_from = m_report.findings.size();
    m_invariants.begin_commit();
    if (step && (c.parents.size() == 1 || m_options.first_parent)) {
      if (auto r = m_invariants.run(c, *tree, checked.checked, checked.options, step->parent, step->diff, events);
          !r) {
        return r.error();
      }
    }
    // The cached form of the check: a change from the first parent when that
    // was the commit judged last, else every finding.
    entry.delta = m_results && parent_judged_last(c);
    if (m_results) {
      entry.events = findings_between(m_report, events_from, m_report.findings.size());
      entry.deleted_ruling_ids = m_invariants.deleted_now();
      if (entry.delta) entry.findings = checked.changed;
    }
    if (m_options.incremental) {
      m_drift.update_paths(std::move(checked.changed), c.id);
    } else {
      m_drift.update(std::move(checked.findings), c.id);
    }
    if (m_results && !entry.delta) entry.findings = m_drift.standing();
    const std::size_t merge_from = m_report.findings.size();
    if (c.parents.size() > 1) {
      if (auto r = m_merges.judge(c, events); !r) return r.error();
    }
    if (m_results) entry.merge_events = findings_between(m_report, merge_from, m_report.findings.size());
    return {};
  }

  struct ParentStep {
    CommitFacts parent;
    std::vector<git::DiffEntry> diff;
  };

  // Pass 1: the first parent and the changes from it (nullopt: a root
  // commit), the read-ahead's when it made them; the ledger versions they
  // bring are taken from it too.
  Result<std::optional<ParentStep>> changes(const CommitFacts& c, std::size_t index) {
    std::optional<ReadAhead::Item> ahead;
    if (m_read_ahead) ahead = m_read_ahead->take(index);
    std::optional<ParentStep> step;
    if (c.parents.empty()) {
      m_versions.begin_commit(nullptr, {});
      return step;
    }
    step.emplace();
    if (ahead && ahead->ok) {
      step->parent = std::move(ahead->parent);
      step->diff = std::move(ahead->diff);
      m_versions.begin_commit(m_read_ahead.get(), std::move(ahead->blobs));
    } else {
      m_versions.begin_commit(nullptr, {});
      LG_TRY(step->parent, commit_facts(m_repo, c.parents.front()));
      LG_TRY(step->diff, commit_changes(m_repo, m_trees, c, step->parent, m_options.verify));
    }
    if (step->diff.size() >= k_many_changes) m_read_much = true;
    return step;
  }

  // Pass 3: `c` checked from its first parent's state, else in full.
  Result<Checked> check(const CommitFacts& c, git::TreeSource& tree, const std::optional<ParentStep>& step) {
    if (step) {
      LG_TRY(std::optional<Checked> incremental, m_check.incremental(c, tree, step->diff, m_drift));
      if (incremental) return std::move(*incremental);
    }
    LG_TRY(Checked checked, m_check.full(tree, c));
    m_read_much = true;
    if (m_options.incremental) checked.changed = m_drift.changed_paths(checked.findings);
    return checked;
  }

  const git::Repository& m_repo;
  const AuditOptions& m_options;
  AuditReport m_report;
  git::TreeDiffer m_trees;
  std::unique_ptr<ReadAhead> m_read_ahead;  // while walking (pipeline)
  LedgerVersions m_versions;
  CommitCheck m_check;
  InvariantPass m_invariants;
  MergeJudge m_merges;
  Drift m_drift;
  std::optional<ResultCache> m_results;  // --cache
  bool m_read_much = false;              // since the last drop_pack_pages()
};

}  // namespace

Result<AuditReport> audit_history(const git::Repository& repo, const AuditOptions& options) {
  Audit audit(repo, options);
  return audit.run();
}

}  // namespace lg::audit
