// Attributing a change's findings: one match (diag::attribute), first by
// path; only when some finding is new and some old one is gone are the
// paths they name looked up for moves, and the match made again.
#include "ledgergate/rules/change.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace lg::rules {
namespace {

std::string_view file_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The regular files among `paths` that `tree` holds, with their content ids
// (nullopt: absent, or not a regular file).
Result<std::map<std::string, std::optional<git::ObjectId>>> present(git::TreeSource& tree,
                                                                    const std::vector<std::string>& paths) {
  std::map<std::string, std::optional<git::ObjectId>> out;
  for (const std::string& path : paths) {
    LG_TRY(const auto entry, tree.stat(path));
    if (entry && (entry->kind == git::EntryKind::file || entry->kind == git::EntryKind::executable)) {
      out.emplace(path, entry->content_id);
    }
  }
  return out;
}

std::vector<std::string> paths_of(const std::vector<diag::Finding>& findings, bool (*keep)(const diag::Finding&)) {
  std::set<std::string> out;
  for (const diag::Finding& f : findings) {
    if (!f.location.path.empty() && keep(f)) out.insert(f.location.path);
  }
  return {out.begin(), out.end()};
}

}  // namespace

Result<std::vector<diag::PathMove>> moved_files(git::TreeSource& before, git::TreeSource& after,
                                                const std::vector<std::string>& gone,
                                                const std::vector<std::string>& arrived) {
  std::vector<diag::PathMove> moves;
  LG_TRY(const auto gone_before, present(before, gone));
  LG_TRY(const auto gone_after, present(after, gone));
  LG_TRY(const auto arrived_before, present(before, arrived));
  LG_TRY(const auto arrived_after, present(after, arrived));
  std::vector<std::pair<std::string, std::optional<git::ObjectId>>> from, to;
  for (const auto& [path, id] : gone_before) {
    if (!gone_after.count(path)) from.emplace_back(path, id);
  }
  for (const auto& [path, id] : arrived_after) {
    if (!arrived_before.count(path)) to.emplace_back(path, id);
  }
  std::set<std::string> moved_from, moved_to;
  auto pair = [&](const std::string& old_path, const std::string& new_path) {
    moved_from.insert(old_path);
    moved_to.insert(new_path);
    moves.push_back({old_path, new_path});
  };
  for (const auto& [old_path, old_id] : from) {  // the same content
    for (const auto& [new_path, new_id] : to) {
      if (old_id && old_id == new_id && !moved_to.count(new_path)) {
        pair(old_path, new_path);
        break;
      }
    }
  }
  // A file name left once among the sources and once among the destinations.
  std::map<std::string_view, std::pair<int, int>> names;
  for (const auto& [path, id] : from) {
    if (!moved_from.count(path)) ++names[file_name(path)].first;
  }
  for (const auto& [path, id] : to) {
    if (!moved_to.count(path)) ++names[file_name(path)].second;
  }
  for (const auto& [old_path, old_id] : from) {
    if (moved_from.count(old_path) || names[file_name(old_path)] != std::pair(1, 1)) continue;
    for (const auto& [new_path, new_id] : to) {
      if (!moved_to.count(new_path) && file_name(new_path) == file_name(old_path)) {
        pair(old_path, new_path);
        break;
      }
    }
  }
  return moves;
}

Result<std::vector<diag::Finding>> attribute_between(git::TreeSource& before, git::TreeSource& after,
                                                     std::vector<diag::Finding>& findings,
                                                     const std::vector<diag::Finding>& reference) {
  std::vector<diag::Finding> fixed = diag::attribute(findings, reference);
  const bool any_new = std::any_of(findings.begin(), findings.end(), [](const diag::Finding& f) {
    return f.state == diag::FindingState::introduced;
  });
  if (fixed.empty() || !any_new) return fixed;
  const std::vector<std::string> arrived = paths_of(findings, [](const diag::Finding& f) {
    return f.state == diag::FindingState::introduced;
  });
  const std::vector<std::string> gone = paths_of(fixed, [](const diag::Finding&) { return true; });
  LG_TRY(const std::vector<diag::PathMove> moves, moved_files(before, after, gone, arrived));
  if (moves.empty()) return fixed;
  return diag::attribute(findings, reference, moves);
}

Result<std::vector<diag::Finding>> attribute_check(git::TreeSource& before, git::TreeSource& after,
                                                   std::vector<diag::Finding>& findings, const CheckOptions& options,
                                                   CheckCache& cache) {
  LG_TRY(CheckReport reference, check_tree(before, options, cache));
  return attribute_between(before, after, findings, reference.findings);
}

}  // namespace lg::rules
