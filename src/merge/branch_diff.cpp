// A branch's changes as classifier input, and the projects.yaml birth rule.
#include "ledgergate/merge/branch_diff.hpp"

#include <algorithm>
#include <map>

#include "ledgergate/git/diff.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/policy/policy_file.hpp"

namespace lg::merge {
namespace {

policy::FileKind file_kind(const git::DiffEntry& e) {
  if (!e.has_new) return policy::FileKind::none;
  switch (e.new_kind) {
    case git::EntryKind::executable: return policy::FileKind::executable;
    case git::EntryKind::symlink: return policy::FileKind::symlink;
    case git::EntryKind::submodule: return policy::FileKind::submodule;
    default: return policy::FileKind::file;
  }
}

bool same_row(const rules::ProjectRow& a, const rules::ProjectRow& b) {
  std::vector<rules::ProjectFields::value_type> fa(a.fields.begin(), a.fields.end());
  std::vector<rules::ProjectFields::value_type> fb(b.fields.begin(), b.fields.end());
  std::sort(fa.begin(), fa.end());
  std::sort(fb.begin(), fb.end());
  return fa == fb;
}

}  // namespace

Result<std::vector<policy::Change>> tree_changes(const git::Repository& repo, const git::ObjectId& from,
                                                 const git::ObjectId& to) {
  LG_TRY(auto entries, git::diff_trees(repo, &from, &to));
  std::vector<policy::Change> changes;
  for (const git::DiffEntry& e : entries) {
    if (!e.old_path.empty() && e.status[0] == 'R') changes.push_back({"D", e.old_path, policy::FileKind::none});
    changes.push_back({e.status, e.path, file_kind(e)});
  }
  return changes;
}

Result<bool> is_birth(git::TreeSource& base, git::TreeSource& head, const std::vector<policy::Change>& changes,
                      rules::CheckCache& cache) {
  LG_TRY(auto base_rows, rules::projects_table(base, cache));
  LG_TRY(auto head_rows, rules::projects_table(head, cache));
  if (!base_rows || !head_rows) return false;
  for (const rules::ProjectRow& row : base_rows->rows) {
    const rules::ProjectRow* now = head_rows->find(row.key);
    if (!now || !same_row(row, *now)) return false;
  }
  if (head_rows->rows.size() <= base_rows->rows.size()) return false;
  for (const rules::ProjectRow& row : head_rows->rows) {
    if (base_rows->find(row.key)) continue;
    const std::string path = ledger::project_ledger_path(row.key);
    const bool added = std::any_of(changes.begin(), changes.end(),
                                   [&](const policy::Change& c) { return c.path == path && c.status == "A"; });
    if (!added) return false;
    LG_TRY(auto text, git::read_regular_file(head, path));
    if (!text) return false;
    const auto ledger = ledger::parse_project_ledger(*text);
    const ledger::HeaderField* project = ledger.header_field("Project");
    if (!project || project->value != row.key) return false;
  }
  return true;
}

namespace {

// The diff from one merge base to `head`, classified, and whether its
// projects.yaml change is a birth (false when it has none).
struct OneBase {
  policy::Classification classification;
  bool birth = false;
};
Result<OneBase> classify_from(const git::Repository& repo, const git::ObjectId& merge_base, const git::ObjectId& head,
                              const policy::RepoPolicy& pol, rules::CheckCache& cache,
                              const std::vector<policy::Change>* known_changes) {
  LG_TRY(git::ObjectId from, repo.commit_tree(merge_base));
  std::vector<policy::Change> computed;
  if (!known_changes) {
    LG_TRY(computed, tree_changes(repo, from, head));
  }
  const std::vector<policy::Change>& changes = known_changes ? *known_changes : computed;
  OneBase out;
  const bool yaml = std::any_of(changes.begin(), changes.end(),
                                [](const policy::Change& c) { return ledger::is_projects_yaml(c.path); });
  if (yaml && pol.paths.birth_exception) {
    LG_TRY(auto base_tree, git::open_tree_source(repo, from, "merge-base"));
    LG_TRY(auto head_tree, git::open_tree_source(repo, head, "HEAD"));
    LG_TRY(out.birth, is_birth(*base_tree, *head_tree, changes, cache));
  }
  out.classification = policy::classify_changes(pol.paths, changes, out.birth);
  return out;
}

bool changes_projects_yaml(const policy::Classification& c) {
  return std::any_of(c.paths.begin(), c.paths.end(), [](const policy::Classified& p) { return ledger::is_projects_yaml(p.path); });
}

}  // namespace

Result<policy::Classification> classify_from_bases(const git::Repository& repo, const std::vector<git::ObjectId>& bases,
                                                   const git::ObjectId& head, const policy::RepoPolicy& pol,
                                                   rules::CheckCache& cache, bool& birth,
                                                   const std::vector<policy::Change>* first_changes) {
  LG_TRY(OneBase first, classify_from(repo, bases.front(), head, pol, cache, first_changes));
  birth = first.birth;
  if (bases.size() == 1) return std::move(first.classification);
  // Several bases: the union, a path code when it is code from any base; a
  // birth only when every base whose projects.yaml differs says so.
  bool any_yaml = changes_projects_yaml(first.classification);
  bool every_birth = !any_yaml || first.birth;
  std::map<std::string, policy::Classified> by_path;
  policy::Classification out;
  out.policy = first.classification.policy;
  auto add = [&by_path](policy::Classification& c) {
    for (policy::Classified& p : c.paths) {
      auto it = by_path.find(p.path);
      if (it == by_path.end()) {
        by_path.emplace(p.path, std::move(p));
      } else if (it->second.cls != policy::PathClass::code && p.cls == policy::PathClass::code) {
        it->second = std::move(p);
      }
    }
  };
  add(first.classification);
  for (std::size_t i = 1; i < bases.size(); ++i) {
    LG_TRY(OneBase next, classify_from(repo, bases[i], head, pol, cache, nullptr));
    if (changes_projects_yaml(next.classification)) {
      any_yaml = true;
      every_birth = every_birth && next.birth;
    }
    add(next.classification);
  }
  birth = any_yaml && every_birth;
  for (auto& [path, p] : by_path) out.paths.push_back(std::move(p));
  return out;
}

Result<policy::Classification> classify_branch(const git::Repository& repo, const git::ObjectId& base,
                                               const git::ObjectId& head, std::string_view profile) {
  LG_TRY(std::vector<git::ObjectId> bases, git::merge_bases(repo, base, head));
  LG_TRY(git::ObjectId to, repo.commit_tree(head));
  LG_TRY(git::ObjectId target, repo.commit_tree(base));
  LG_TRY(auto target_tree, git::open_tree_source(repo, target, "BASE"));
  LG_TRY(policy::RepoPolicy pol, policy::load_policy(*target_tree, profile));
  rules::CheckCache yaml_cache;
  bool birth = false;
  return classify_from_bases(repo, bases, to, pol, yaml_cache, birth);
}

}  // namespace lg::merge
