// The era-P/T events of one commit (spec §6.1, §6.2, §6.4).
#include "pt_history.hpp"

#include <fmt/format.h>

#include <deque>
#include <map>
#include <optional>

#include "ledgergate/audit/pt_invariants.hpp"
#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::audit {
namespace {

PtEraInfo era_info(const ledger::Profile& profile) {
  if (profile.layout == ledger::Layout::cortex_phases) {
    return PtEraInfo{util::starts_with(profile.sub, "p1"), "phase", "Phase"};
  }
  return PtEraInfo{false, "task", "Task"};
}

bool renamed(const git::DiffEntry& e) { return !e.status.empty() && e.status[0] == 'R'; }

diag::Finding finding(rules::RuleId rule, const std::string& path, std::string message) {
  return rules::make_finding(rule, path, 0, std::move(message), diag::PeerForm::none);
}

Result<std::optional<std::string>> read(git::TreeSource& tree, const std::string& path) {
  auto bytes = git::read_regular_file(tree, path);
  if (!bytes) return bytes.error().with_context("cannot judge: " + tree.rev() + ":" + path);
  return bytes;
}

class CommitEvents {
 public:
  CommitEvents(git::TreeSource& before, git::TreeSource& after, const std::vector<git::DiffEntry>& changes,
               PtHistory& history)
      : m_before(before), m_after(after), m_changes(changes), m_history(history) {}

  // A change of layout: the files that moved are moves, not edits, unless
  // their content changed beyond what the migration changes.
  Result<void> migration(ledger::Layout from, ledger::Layout to) {
    const std::string_view from_dir = ledger::era_dir(from);
    const std::string_view to_dir = ledger::era_dir(to);
    std::map<std::string, const git::DiffEntry*> deleted;
    for (const git::DiffEntry& e : m_changes) {
      if (e.status == "D") deleted.emplace(e.path, &e);
    }
    std::size_t moved = 0;
    for (const git::DiffEntry& e : m_changes) {
      std::string old_path;
      if (renamed(e)) {
        old_path = e.old_path;
      } else if (e.status == "A" && !from_dir.empty() && !to_dir.empty() && util::is_under(e.path, to_dir)) {
        const std::string candidate = std::string(from_dir) + e.path.substr(to_dir.size());
        if (deleted.count(candidate)) old_path = candidate;
      }
      if (!old_path.empty()) {
        ++moved;
        if (!from_dir.empty() && !to_dir.empty()) {
          if (auto r = compare_move(old_path, e.path); !r) return r.error();
        }
      } else if (e.status == "M" && ledger::match_ruling_path(e.path) && !to_dir.empty()) {
        if (auto r = compare_move(e.path, e.path); !r) return r.error();  // a ruling's head field renamed in place
      }
    }
    m_out.push_back(finding("audit-migration", "",
                            fmt::format("schema migration {} → {}: {} file{} moved; moves are not state edges",
                                        ledger::layout_name(from), ledger::layout_name(to), moved,
                                        moved == 1 ? "" : "s")));
    return {};
  }

  Result<void> era_commit(const ledger::Profile& profile) {
    const PtEraInfo era = era_info(profile);
    const std::string_view dir = ledger::era_dir(profile.layout);
    std::deque<ledger::PtFile> parses;
    std::vector<AddedRuling> added;
    for (const git::DiffEntry& e : m_changes) {
      if (e.status != "A") continue;
      const auto ruling = ledger::match_ruling_path(e.path);
      if (!ruling) continue;
      LG_TRY(auto bytes, read(m_after, e.path));
      if (!bytes) continue;
      parses.push_back(ledger::parse_pt_file(*bytes));
      added.push_back(AddedRuling{e.path, ruling->id, &parses.back()});
    }
    for (const git::DiffEntry& e : m_changes) {
      if (auto r = ruling_change(e); !r) return r.error();
      const std::string& old_path = renamed(e) ? e.old_path : e.path;
      const bool edited = e.status == "M" || (renamed(e) && ledger::match_pt_path(old_path, dir));
      if (!edited || !ledger::match_pt_path(e.path, dir)) continue;
      LG_TRY(auto old_bytes, read(m_before, old_path));
      LG_TRY(auto new_bytes, read(m_after, e.path));
      if (!old_bytes || !new_bytes) continue;  // a kind change: `check` reports the path
      const ledger::PtFile before = ledger::parse_pt_file(*old_bytes);
      const ledger::PtFile after = ledger::parse_pt_file(*new_bytes);
      for (diag::Finding& f : compare_pt_states(before, after, e.path, era, added)) m_out.push_back(std::move(f));
      for (diag::Finding& f : compare_pt_runs(before, after, e.path)) m_out.push_back(std::move(f));
    }
    return {};
  }

  std::vector<diag::Finding> take() { return std::move(m_out); }

 private:
  Result<void> compare_move(const std::string& old_path, const std::string& new_path) {
    LG_TRY(auto old_bytes, read(m_before, old_path));
    LG_TRY(auto new_bytes, read(m_after, new_path));
    if (!old_bytes || !new_bytes) return {};
    for (diag::Finding& f : compare_migrated(*old_bytes, *new_bytes, old_path, new_path)) m_out.push_back(std::move(f));
    return {};
  }

  // Ruling files are append-only and their ids are never reused (§6.1).
  Result<void> ruling_change(const git::DiffEntry& e) {
    const auto now = ledger::match_ruling_path(e.path);
    const auto was = renamed(e) ? ledger::match_ruling_path(e.old_path) : now;
    if (!now && !was) return {};
    if (e.status == "A") {
      if (m_history.deleted_ruling_ids.count(now->id)) {
        m_out.push_back(finding("audit-ruling-id-reused", e.path,
                                fmt::format("ruling id {} was used by an earlier ruling file, since deleted or "
                                            "renamed: ids are never reused",
                                            now->id)));
      }
      return {};
    }
    std::string what;
    if (e.status == "D") {
      what = "deleted";
    } else if (renamed(e)) {
      what = "renamed from " + e.old_path;
    } else if (e.status == "T") {
      what = "changed its kind";
    } else {
      what = "modified";
    }
    if (was && (e.status == "D" || renamed(e)) && m_history.deleted_ruling_ids.insert(was->id).second) {
      m_history.deleted_now.push_back(was->id);
    }
    m_out.push_back(finding("audit-ruling-changed", e.path,
                            fmt::format("ruling {} was {}: ruling files are append-only", (was ? was : now)->id, what)));
    return {};
  }

  git::TreeSource& m_before;
  git::TreeSource& m_after;
  const std::vector<git::DiffEntry>& m_changes;
  PtHistory& m_history;
  std::vector<diag::Finding> m_out;
};

}  // namespace

Result<std::vector<diag::Finding>> pt_commit_events(git::TreeSource& before, git::TreeSource& after,
                                                    ledger::Layout before_layout,
                                                    const ledger::Profile& after_profile,
                                                    const std::vector<git::DiffEntry>& changes, PtHistory& history) {
  CommitEvents events(before, after, changes, history);
  const ledger::Layout after_layout = after_profile.layout;
  if (before_layout != ledger::Layout::none && after_layout != ledger::Layout::none && before_layout != after_layout) {
    if (auto r = events.migration(before_layout, after_layout); !r) return r.error();
  } else if (!ledger::era_dir(after_layout).empty()) {
    if (auto r = events.era_commit(after_profile); !r) return r.error();
  }
  return events.take();
}

}  // namespace lg::audit
