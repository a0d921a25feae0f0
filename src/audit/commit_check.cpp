// One commit's check, in full or from its first parent's era-R state (the
// one held, or one parked while the walk followed another line).
#include "commit_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/policy/policy_file.hpp"

namespace lg::audit {

namespace {

// An input the walk cannot read (a missing object, a file over the size
// limit) stops the audit: exit 2. A ledger that is not UTF-8 was readable,
// so it stays an error finding of its commit.
bool unreadable(const diag::Finding& f) { return f.cannot_judge && f.rule != "input-not-utf8"; }

Result<void> refuse_unreadable(const std::vector<diag::Finding>& findings, const std::string& hex) {
  for (const diag::Finding& f : findings) {
    if (unreadable(f)) {
      return make_error(ErrorKind::not_found, "cannot judge: commit " + hex + ": " + f.location.path + ": " +
                                                  f.message);
    }
  }
  return {};
}

// Whether the era-R incremental check takes a tree of `layout` (detected)
// under `options`: the cortex-projects profile, detected or pinned without
// a sub-era.
bool touches_policy(const std::vector<git::DiffEntry>& diff) {
  return std::any_of(diff.begin(), diff.end(), [](const git::DiffEntry& e) {
    return e.path == policy::k_policy_path || e.old_path == policy::k_policy_path;
  });
}

// The state parked for `commit` in `parked` (a CommitCheck's), or its end.
template <class Parked>
auto find_parked(Parked& parked, const git::ObjectId& commit) {
  return std::find_if(parked.begin(), parked.end(), [&](const auto& p) { return p.first == commit; });
}

}  // namespace

CommitCheck::CommitCheck(const AuditOptions& options)
    : m_options(options), m_cache(rules::CheckCache::history_budget()) {}

void CommitCheck::plan(const std::vector<CommitFacts>& commits) {
  m_children_left.clear();
  for (const CommitFacts& c : commits) {
    if (!c.parents.empty()) ++m_children_left[c.parents.front()];
  }
}

void CommitCheck::visited(const CommitFacts& c) {
  if (c.parents.empty()) return;
  auto it = m_children_left.find(c.parents.front());
  if (it == m_children_left.end() || --it->second > 0) return;
  m_children_left.erase(it);
  m_parked.erase(std::remove_if(m_parked.begin(), m_parked.end(),
                                [&](const auto& parked) { return parked.first == c.parents.front(); }),
                 m_parked.end());
}

bool CommitCheck::has_state_of(const git::ObjectId& commit) const {
  if (m_projects && m_projects_commit == commit) return true;
  return find_parked(m_parked, commit) != m_parked.end();
}

std::size_t CommitCheck::children_left(const git::ObjectId& commit) const {
  auto it = m_children_left.find(commit);
  return it == m_children_left.end() ? 0 : it->second;
}

void CommitCheck::park(const git::ObjectId& commit, StatePtr state) {
  if (m_parked.size() == k_max_parked) m_parked.pop_front();
  m_parked.emplace_back(commit, std::move(state));
}

void CommitCheck::leave_state() {
  if (m_projects && children_left(m_projects_commit) > 0) park(m_projects_commit, std::move(m_projects));
  m_projects.reset();
}

// The child being judged is one of children_left(parent): the state goes to
// it, copied when another child is still to come.
CommitCheck::StatePtr CommitCheck::take_state(const git::ObjectId& parent) {
  const bool shared = children_left(parent) > 1;
  if (m_projects && m_projects_commit == parent) {
    if (shared) park(parent, std::make_unique<rules::ProjectsState>(*m_projects));
    return std::move(m_projects);
  }
  leave_state();
  auto it = find_parked(m_parked, parent);
  if (it == m_parked.end()) return nullptr;
  if (shared) return std::make_unique<rules::ProjectsState>(*it->second);
  StatePtr state = std::move(it->second);
  m_parked.erase(it);
  return state;
}

Result<Checked> CommitCheck::full(git::TreeSource& tree, const CommitFacts& commit) {
  const std::string hex = commit.hex();
  Checked out;
  leave_state();
  auto policy = policy::load_policy(tree);
  // The policy's loading detected the layout already: detected once per tree.
  out.options = policy ? policy::check_options_for_own_tree(*policy) : rules::CheckOptions{};
  auto layout = ledger::detected_layout(tree, out.options);
  if (!layout) return layout.error().with_context("cannot judge: commit " + hex);
  out.checked = ledger::Profile{*layout, {}};
  out.profile = out.checked.name();
  ++m_full_checks;
  if (m_options.incremental && rules::ProjectsState::applies(out.options, *layout)) {
    auto state = std::make_unique<rules::ProjectsState>();
    if (auto r = state->rebuild(tree, out.options, m_cache); !r) {
      return r.error().with_context("cannot judge: commit " + hex);
    }
    out.profile = state->profile();
    out.checked = rules::ProjectsState::checked();
    out.findings = state->findings();
    out.options.apply_severities(out.findings);
    if (auto lg_r = refuse_unreadable(out.findings, hex); !lg_r) return lg_r.error();
    m_projects = std::move(state);
    m_projects_commit = commit.id;
    m_cache.trim();
    return out;
  }
  auto report = rules::check_tree(tree, out.options, m_cache);
  m_cache.trim();
  if (!report) {
    if (report.error().kind == ErrorKind::invalid_input && report.error().message.rfind("no ledger found", 0) == 0) {
      return out;  // nothing to check yet (or any more)
    }
    return report.error().with_context("cannot judge: commit " + hex);
  }
  out.profile = report->profile;
  out.checked = report->checked;
  out.findings = std::move(report->findings);
  if (auto lg_r = refuse_unreadable(out.findings, hex); !lg_r) return lg_r.error();
  return out;
}

Result<std::optional<Checked>> CommitCheck::incremental(const CommitFacts& c, git::TreeSource& tree,
                                                        const std::vector<git::DiffEntry>& diff, const Drift& drift) {
  if (!m_options.incremental || c.parents.empty() || touches_policy(diff)) return std::optional<Checked>();
  StatePtr state = take_state(c.parents.front());
  if (!state) return std::optional<Checked>();
  std::set<std::string> touched;
  auto updated = state->update(tree, diff, m_cache, touched);
  if (!updated) return updated.error().with_context("cannot judge: commit " + c.hex());
  if (!*updated) return std::optional<Checked>();
  m_projects = std::move(state);
  m_projects_commit = c.id;
  Checked out;
  out.profile = m_projects->profile();
  out.checked = rules::ProjectsState::checked();
  out.options = m_projects->options();
  if (drift.last_judged() != c.parents.front()) {
    // Another line was judged last: the change from it is every path whose
    // findings differ, the state's whole list against the standing one.
    out.findings = m_projects->findings();
    out.options.apply_severities(out.findings);
    if (auto r = refuse_unreadable(out.findings, c.hex()); !r) return r.error();
    out.changed = drift.changed_paths(out.findings);
  } else {
    if (auto r = changed_at(touched, c, drift.standing(), out); !r) return r.error();
  }
  if (m_options.verify) {
    if (auto r = verify(c, tree); !r) return r.error();
  }
  return std::optional<Checked>(std::move(out));
}

// The findings at `touched` (severities applied) that differ from `standing`,
// into `out.changed`.
Result<void> CommitCheck::changed_at(const std::set<std::string>& touched, const CommitFacts& c,
                                     const PathFindings& standing, Checked& out) const {
  for (const std::string& path : touched) {
    std::vector<diag::Finding> list = m_projects->findings_at(path);
    out.options.apply_severities(list);
    if (auto lg_r = refuse_unreadable(list, c.hex()); !lg_r) return lg_r.error();
    auto it = standing.find(path);
    if (it == standing.end() ? list.empty() : same_findings(it->second, list)) continue;
    out.changed.emplace(path, std::move(list));
  }
  return {};
}

// The differential check: the incremental state against check_tree.
Result<void> CommitCheck::verify(const CommitFacts& c, git::TreeSource& tree) {
  rules::CheckCache cache;
  auto report = rules::check_tree(tree, m_projects->options(), cache);
  if (!report) return report.error().with_context("verify: commit " + c.hex());
  std::vector<diag::Finding> mine = m_projects->findings();
  m_projects->options().apply_severities(mine);
  if (report->profile != m_projects->profile()) {
    return make_error(ErrorKind::internal, "verify: commit " + c.hex() + ": profile " + m_projects->profile() +
                                               ", check_tree says " + report->profile);
  }
  for (std::size_t i = 0; i < std::max(mine.size(), report->findings.size()); ++i) {
    if (i < mine.size() && i < report->findings.size() && same_finding(mine[i], report->findings[i])) continue;
    return make_error(ErrorKind::internal,
                      fmt::format("verify: commit {}: finding {} differs: incremental '{}', check_tree '{}'", c.hex(),
                                  i, i < mine.size() ? describe(mine[i]) : "(none)",
                                  i < report->findings.size() ? describe(report->findings[i]) : "(none)"));
  }
  return {};
}

}  // namespace lg::audit
