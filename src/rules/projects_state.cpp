// The incremental era-R check: per-step and per-ledger findings, updated
// from a commit's diff.
#include "ledgergate/rules/projects_state.hpp"

#include <algorithm>

#include "ledgergate/ledger/open_requirements.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/util/temp_name.hpp"
#include "ledgergate/util/text.hpp"
#include "check_pass.hpp"

namespace lg::rules {

namespace {


bool same_entry(const git::Entry& a, const git::Entry& b) { return a.kind == b.kind && a.content_id == b.content_id; }

void append_at(const std::vector<diag::Finding>& from, const std::string& path, std::vector<diag::Finding>& out) {
  for (const diag::Finding& f : from) {
    if (f.location.path == path) out.push_back(f);
  }
}

}  // namespace

bool ProjectsState::applies(const rules::CheckOptions& options, ledger::Layout layout) {
  if (options.profile == "auto") return layout == ledger::Layout::cortex_projects;
  const auto pinned = ledger::parse_profile(options.profile);
  return pinned && *pinned == ledger::newest_profile(ledger::Layout::cortex_projects);
}

void ProjectsState::paths_of(const std::vector<diag::Finding>& findings, std::set<std::string>& out) {
  for (const diag::Finding& f : findings) out.insert(f.location.path);
}

void ProjectsState::check_ledgers(git::TreeSource& tree, const std::vector<LedgerState*>& states,
                                  rules::CheckCache& cache) {
  std::vector<rules::ProjectsStepLedger> list;
  list.reserve(states.size());
  for (const LedgerState* state : states) list.push_back(state->file);
  std::vector<std::vector<diag::Finding>> found = rules::projects_step_ledgers(tree, list, *m_yaml.table, cache);
  for (std::size_t i = 0; i < list.size(); ++i) {
    LedgerState& state = *states[i];
    state.findings = std::move(found[i]);
    state.row_inputs = rules::projects_step_row_inputs(*m_yaml.table, list[i].key());
    state.judged = true;
  }
  // The findings are kept per ledger: the parses are not needed again, and
  // a history holds many versions of every ledger.
  cache.drop_ledgers();
}

void ProjectsState::check_active_rows() {
  std::unordered_set<std::string> keys;
  m_ledgers.for_each([&](const LedgerState& state) {
    const git::EntryKind k = state.file.entry.kind;
    if (k == git::EntryKind::file || k == git::EntryKind::executable) keys.emplace(state.file.key());
  });
  m_active = rules::projects_step_active_rows(*m_yaml.table, keys);
}

Result<rules::ProjectsStepNames> ProjectsState::start(git::TreeSource& tree, const rules::CheckOptions& options,
                                                      rules::CheckCache& cache, bool judge_yaml) {
  m_options = options;
  m_profile = checked().name();
  if (judge_yaml) {
    LG_TRY(m_yaml, rules::projects_step_yaml(tree, cache));
  } else {
    LG_TRY(m_yaml, rules::projects_step_yaml_rows(tree, cache));
  }
  m_yaml_judged = judge_yaml;
  LG_TRY(rules::ProjectsStepNames names, rules::projects_step_names(tree, cache));
  m_names = std::move(names.findings);
  m_ledgers.clear();
  m_orl.clear();
  m_temp.clear();
  return names;
}

Result<void> ProjectsState::rebuild(git::TreeSource& tree, const rules::CheckOptions& options,
                                    rules::CheckCache& cache) {
  LG_TRY(rules::ProjectsStepNames names, start(tree, options, cache, true));
  std::vector<LedgerState> states(names.ledgers.size());
  std::vector<LedgerState*> all;
  all.reserve(states.size());
  for (std::size_t i = 0; i < states.size(); ++i) {
    states[i].file = std::move(names.ledgers[i]);
    all.push_back(&states[i]);
  }
  check_ledgers(tree, all, cache);
  m_ledgers.assign(std::move(states));
  check_active_rows();
  LG_TRY(steps::TreeScan scan, steps::scan_tree(tree, options.open_requirements_glob, &cache, nullptr));
  if (scan.orl_files.empty()) {
    m_temp = steps::writer_temp_findings(scan.temp_files);
  } else {  // check_tree's open-requirements check reports the temporary files too (last, as a whole check does)
    rules::CheckOptions orl = options;
    orl.profile = ledger::layout_name(ledger::Layout::open_requirements);
    orl.severities.clear();
    LG_TRY(rules::CheckReport report, rules::check_tree(tree, orl, cache));
    m_orl = std::move(report.findings);
    m_profile += "+" + report.profile;
  }
  return {};
}

Result<void> ProjectsState::rebuild_unjudged(git::TreeSource& tree, const rules::CheckOptions& options,
                                             rules::CheckCache& cache) {
  LG_TRY(rules::ProjectsStepNames names, start(tree, options, cache, false));
  std::vector<LedgerState> states(names.ledgers.size());
  for (std::size_t i = 0; i < states.size(); ++i) {
    states[i].row_inputs = rules::projects_step_row_inputs(*m_yaml.table, names.ledgers[i].key());
    states[i].file = std::move(names.ledgers[i]);
  }
  m_ledgers.assign(std::move(states));
  check_active_rows();
  return {};
}

Result<void> ProjectsState::judge(git::TreeSource& tree, const std::set<std::string>& paths,
                                  rules::CheckCache& cache) {
  if (!m_yaml_judged && paths.count(std::string(ledger::k_projects_yaml)) != 0) {
    LG_TRY(m_yaml, rules::projects_step_yaml(tree, cache));  // the same table, with its findings
    m_yaml_judged = true;
  }
  std::vector<LedgerState*> states;
  for (const std::string& path : paths) {
    const LedgerState* state = m_ledgers.find(path);
    if (state && !state->judged) states.push_back(m_ledgers.edit(path));
  }
  if (!states.empty()) check_ledgers(tree, states, cache);
  m_ledgers.settle();
  return {};
}

Result<bool> ProjectsState::update(git::TreeSource& tree, const std::vector<git::DiffEntry>& changes,
                                   rules::CheckCache& cache, std::set<std::string>& touched) {
  const std::string& glob = m_options.open_requirements_glob;
  // Paths whose change this class does not follow: the layout (profile
  // detection), open-requirements files (the policy is the caller's).
  const std::string_view tasks = ledger::era_dir(ledger::Layout::cortex_tasks);
  const std::string_view phases = ledger::era_dir(ledger::Layout::cortex_phases);
  // A writer's temporary file anywhere (rule input-writer-temp-file): the
  // state holds those rebuild() found, a change to them is not followed.
  const auto unfollowed = [&](const std::string& p) {
    return p == ledger::k_projects_dir || p == tasks || p == phases || util::is_under(p, tasks) ||
           util::is_under(p, phases) || ledger::orl_glob_match(glob, p) ||
           util::is_writer_temp_name(std::string_view(p).substr(p.rfind('/') + 1));
  };
  bool yaml = false, names = false;
  std::set<std::string> modified;  // ledgers whose blob or mode changed in place
  std::map<std::string, std::pair<git::EntryKind, std::optional<git::ObjectId>>> kinds;  // their new kinds and blob ids
  for (const git::DiffEntry& e : changes) {
    if (unfollowed(e.path) || (!e.old_path.empty() && unfollowed(e.old_path))) return false;
    if (!e.old_path.empty()) {  // a rename: its old path is gone
      if (e.old_path == ledger::k_projects_yaml) return false;
      if (util::is_under(e.old_path, ledger::k_projects_dir)) names = true;
    }
    if (e.path == ledger::k_projects_yaml) {
      if (e.status != "M") return false;  // added, deleted, or no longer a file: the profile may change
      yaml = true;
      continue;
    }
    if (!util::is_under(e.path, ledger::k_projects_dir)) continue;
    if (e.status == "M" && e.path.find('/', 9) == std::string::npos) {
      if (m_ledgers.contains(e.path)) {
        modified.insert(e.path);
        kinds[e.path] = {e.new_kind, e.new_id};
      }
      continue;  // a file that is not a ledger: its name says all its findings
    }
    names = true;
  }
  std::set<std::string> dirty;
  if (yaml) {
    LG_TRY(m_yaml, rules::projects_step_yaml(tree, cache));
    m_yaml_judged = true;
    cache.drop_projects_yaml();  // kept in m_yaml; one table per version would pile up
    touched.insert(std::string(ledger::k_projects_yaml));
  }
  if (names) {
    LG_TRY(auto dir, tree.stat("projects"));
    if (!dir || dir->kind != git::EntryKind::directory) return false;
    LG_TRY(rules::ProjectsStepNames listed, rules::projects_step_names(tree, cache));
    paths_of(m_names, touched);
    paths_of(listed.findings, touched);
    m_names = std::move(listed.findings);
    // Only what the listing changes is written: ledgers gone, and those
    // new or with another entry (the others stay shared with the states
    // this one was copied from).
    std::vector<std::string_view> now;
    now.reserve(listed.ledgers.size());
    for (const rules::ProjectsStepLedger& lf : listed.ledgers) now.push_back(lf.path);
    std::sort(now.begin(), now.end());
    std::vector<std::string> gone;
    m_ledgers.for_each([&](const LedgerState& state) {
      if (!std::binary_search(now.begin(), now.end(), std::string_view(state.file.path))) {
        gone.push_back(state.file.path);
      }
    });
    now.clear();  // views into listed.ledgers, moved from below
    for (const std::string& path : gone) {
      touched.insert(path);
      m_ledgers.erase(path);
    }
    for (rules::ProjectsStepLedger& lf : listed.ledgers) {
      const LedgerState* kept = m_ledgers.find(lf.path);
      if (kept && same_entry(kept->file.entry, lf.entry)) continue;
      dirty.insert(lf.path);
      LedgerState state;
      state.file = std::move(lf);
      m_ledgers.put(std::move(state));
    }
  }
  for (const std::string& path : modified) {
    LedgerState* state = m_ledgers.edit(path);
    if (!state) continue;
    git::Entry& entry = state->file.entry;
    entry.kind = kinds.at(path).first;
    entry.content_id = kinds.at(path).second;
    dirty.insert(path);
  }
  if (yaml) {
    m_ledgers.for_each([&](const LedgerState& state) {
      if (rules::projects_step_row_inputs(*m_yaml.table, state.file.key()) != state.row_inputs) {
        dirty.insert(state.file.path);
      }
    });
  }
  std::vector<LedgerState*> states;
  for (const std::string& path : dirty) {
    if (LedgerState* state = m_ledgers.edit(path)) states.push_back(state);
  }
  if (!states.empty()) check_ledgers(tree, states, cache);
  touched.insert(dirty.begin(), dirty.end());
  if (yaml || names) {
    check_active_rows();
    touched.insert(std::string(ledger::k_projects_yaml));
  }
  m_ledgers.settle();
  return true;
}

// Each step's findings in check_tree's order: projects.yaml, the file
// names, each ledger (only `ledger`'s when given), the active rows, the
// open-requirements files, the temporary files.
template <class Visit>
void ProjectsState::each_list(Visit visit, const std::string* ledger) const {
  visit(m_yaml.findings);
  visit(m_names);
  if (ledger) {
    if (const LedgerState* state = m_ledgers.find(*ledger)) visit(state->findings);
  } else {
    m_ledgers.for_each([&](const LedgerState& state) { visit(state.findings); });
  }
  visit(m_active);
  visit(m_orl);
  visit(m_temp);
}

std::vector<diag::Finding> ProjectsState::findings() const {
  std::vector<diag::Finding> out;
  each_list([&](const std::vector<diag::Finding>& list) { out.insert(out.end(), list.begin(), list.end()); });
  return out;
}

std::vector<diag::Finding> ProjectsState::findings_at(const std::string& path) const {
  std::vector<diag::Finding> out;
  each_list([&](const std::vector<diag::Finding>& list) { append_at(list, path, out); }, &path);
  return out;
}

std::vector<diag::Finding> ProjectsState::findings_in(const std::set<std::string>& paths) const {
  std::vector<diag::Finding> out;
  each_list([&](const std::vector<diag::Finding>& list) {
    for (const diag::Finding& f : list) {
      if (paths.count(f.location.path) != 0) out.push_back(f);
    }
  });
  return out;
}

std::set<std::string> ProjectsState::paths() const {
  std::set<std::string> out;
  each_list([&](const std::vector<diag::Finding>& list) { paths_of(list, out); });
  return out;
}

}  // namespace lg::rules
