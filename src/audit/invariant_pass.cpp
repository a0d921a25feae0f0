// One commit's cross-commit invariants, against its first parent.
#include "invariant_pass.hpp"

#include <fmt/format.h>

#include <set>

#include "ledgergate/audit/invariants.hpp"
#include "ledgergate/ledger/open_requirements.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::audit {

namespace {

Result<std::optional<ledger::ProjectLedger>> parse_at(git::TreeSource& tree, const std::string& path) {
  auto bytes = git::read_regular_file(tree, path);
  if (!bytes) return bytes.error().with_context("cannot judge: " + tree.rev() + ":" + path);
  if (!*bytes) return std::optional<ledger::ProjectLedger>();
  return std::optional<ledger::ProjectLedger>(ledger::parse_project_ledger(**bytes));
}

bool is_rename(const git::DiffEntry& e) { return e.status[0] == 'R'; }
const std::string& old_path_of(const git::DiffEntry& e) { return is_rename(e) ? e.old_path : e.path; }

}  // namespace

// What the checks of one commit's entries share.
struct InvariantPass::Step {
  const CommitFacts& commit;
  const CommitFacts& parent;
  git::TreeSource& before;
  git::TreeSource& after;
  bool had_archive = false;
  bool projects_era = false;
  std::set<std::string> deleted;  // the paths the commit deleted
  Events& events;
};

void InvariantPass::give_back(const std::vector<std::string>& deleted_ruling_ids) {
  m_pt_history.deleted_ruling_ids.insert(deleted_ruling_ids.begin(), deleted_ruling_ids.end());
}

Result<void> InvariantPass::run(const CommitFacts& c, git::TreeSource& tree, const ledger::Profile& profile,
                                const rules::CheckOptions& options, const CommitFacts& parent,
                                const std::vector<git::DiffEntry>& changes, Events& events) {
  if (changes.empty()) return {};
  LG_TRY(auto before, open_tree(m_repo, parent));
  Step step{c, parent, *before, tree, false, profile.layout == ledger::Layout::cortex_projects, {}, events};
  LG_TRY(step.had_archive, git::is_directory(*before, "archive"));
  for (const git::DiffEntry& e : changes) {
    if (e.status == "D") step.deleted.insert(e.path);
  }
  bool orl_changed = false;
  for (const git::DiffEntry& e : changes) {
    if (ledger::orl_glob_match(options.open_requirements_glob, e.path) ||
        (is_rename(e) && ledger::orl_glob_match(options.open_requirements_glob, e.old_path))) {
      orl_changed = true;
    }
    if (auto r = archive(step, e); !r) return r.error();
    if (auto r = ledger_edit(step, e); !r) return r.error();
  }
  LG_TRY(ledger::Layout before_layout, ledger::detect_layout(*before));
  LG_TRY(auto pt_events, pt_commit_events(*before, tree, before_layout, profile, changes, m_pt_history));
  for (diag::Finding& f : pt_events) events.add(std::move(f));
  if (orl_changed) {
    auto found = rules::check_open_requirements_between(*before, tree, options, nullptr, &changes);
    if (!found) return found.error().with_context("cannot judge: commit " + c.hex());
    for (diag::Finding& f : *found) events.add(std::move(f));
  }
  return {};
}

// archive/ never changes once created; a move into it keeps its content.
Result<void> InvariantPass::archive(const Step& step, const git::DiffEntry& e) {
  const bool renamed = is_rename(e);
  const bool new_in_archive = util::is_under(e.path, "archive");
  const bool old_in_archive = util::is_under(old_path_of(e), "archive");
  bool moved_edited = false;
  if (new_in_archive && !old_in_archive && (renamed || e.status == "A")) {
    // A move into archive/: by rename detection, or a delete of the same relative path.
    const std::string from = renamed ? e.old_path : e.path.substr(8);
    if (renamed || step.deleted.count(from) != 0) {
      LG_TRY(auto old_id, git::entry_id(step.before, from));
      LG_TRY(auto new_id, git::entry_id(step.after, e.path));
      if (old_id != new_id) {
        moved_edited = true;
        step.events.add(rules::make_finding("audit-archive-move-edited", e.path, 0,
                                            fmt::format("moved from {} into archive/ with changed content", from),
                                            diag::PeerForm::none));
      }
    }
  }
  if (step.had_archive && !moved_edited && (new_in_archive || old_in_archive)) {
    std::string what = e.status == "A"   ? "added"
                       : e.status == "D" ? "deleted"
                       : renamed         ? "renamed from " + e.old_path
                                         : "modified";
    step.events.add(rules::make_finding("audit-archive-changed", e.path, 0,
                                        fmt::format("{} after archive/ was created (archive/ never changes)", what),
                                        diag::PeerForm::none));
  }
  return {};
}

// Era R: a ledger edited in place, or renamed, keeps its history.
Result<void> InvariantPass::ledger_edit(const Step& step, const git::DiffEntry& e) {
  if (!step.projects_era) return {};
  if (e.status == "M" && ledger::is_project_ledger_path(e.path) && e.old_id && e.new_id) {
    // M keeps the kind of object: both versions are files, or neither is.
    if (e.new_kind == git::EntryKind::file || e.new_kind == git::EntryKind::executable) {
      return compare_versions(step, e);
    }
  } else if ((e.status == "M" || is_rename(e)) && ledger::is_project_ledger_path(e.path) &&
             ledger::is_project_ledger_path(old_path_of(e))) {
    LG_TRY(auto old_ledger, parse_at(step.before, old_path_of(e)));
    LG_TRY(auto new_ledger, parse_at(step.after, e.path));
    if (old_ledger && new_ledger) {
      for (diag::Finding& f : compare_ledgers(*old_ledger, *new_ledger, e.path)) step.events.add(std::move(f));
    }
  }
  return {};
}

// A ledger edited in place: its version after (this commit's) and before
// (rebuilt from the fingerprint seen last at that path, else read).
Result<void> InvariantPass::compare_versions(const Step& step, const git::DiffEntry& e) {
  LG_TRY(LedgerPtr after, m_versions.get(*e.new_id, step.commit.id.short_hex(), e.path));
  LedgerPtr before;
  if (auto it = m_seen.find(e.path); it != m_seen.end() && it->second.first == e.old_id) {
    before = rebuild_before(it->second.second, *after);
  }
  if (!before) {
    LG_TRY(before, m_versions.parse(*e.old_id, step.parent.id.short_hex(), e.path));
  }
  for (diag::Finding& f : compare_ledgers(*before, *after, e.path)) step.events.add(std::move(f));
  m_seen[e.path] = {*e.new_id, fingerprint(*after)};
  return {};
}

}  // namespace lg::audit
