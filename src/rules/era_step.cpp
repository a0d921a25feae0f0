// The era P and T pass (check_pass.hpp): projects.yaml with the era's
// reader, the phase or task files and the ruling files found recursively
// (phases/ or tasks/, rulings/), and P1's batch records and reviews
// (batches/).
#include <algorithm>

#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/rules/cortex_eras.hpp"
#include "ledgergate/rules/cortex_p1.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/assert.hpp"
#include "check_pass.hpp"

namespace lg::rules::steps {

namespace {

// Every `*.md` path below `dir` (recursively, as `**/*.md`: directories named
// *.md are listed too), with its entry.
Result<void> collect_md(Pass& pass, const std::string& dir, std::vector<std::pair<std::string, git::Entry>>& out) {
  LG_TRY(auto below, git::list_recursive(pass.tree, dir));
  for (auto& [path, entry] : below) {
    if (ends_with(path, ".md")) out.emplace_back(std::move(path), std::move(entry));
  }
  return {};
}

std::shared_ptr<const ledger::PtFile> load_pt_file(Pass& pass, const std::string& path, const git::Entry& entry) {
  const std::optional<git::ObjectId>& id = entry.content_id;
  cover(pass, id);
  if (id) {
    if (auto hit = pass.cache.pt_files().find(*id)) return hit;
  }
  auto bytes = read_or_report(pass, path, entry);
  if (!bytes) return nullptr;
  auto parsed = std::make_shared<const ledger::PtFile>(ledger::parse_pt_file(*bytes));
  if (id) pass.cache.pt_files().keep(*id, parsed);
  return parsed;
}

// The files below `dir` in Python Path order; those `wanted` by path grammar
// and regular are read (others are reported or left to the path rules).
Result<std::vector<PtTreeFile>> load_pt_dir(Pass& pass, const std::string& dir,
                                            bool (*wanted)(std::string_view path, std::string_view dir),
                                            std::string_view era_dir) {
  std::vector<std::pair<std::string, git::Entry>> found;
  LG_TRY(bool present, git::is_directory(pass.tree, dir));
  if (present) {
    if (auto r = collect_md(pass, dir, found); !r) return r.error();
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return path_less(a.first, b.first); });
  std::vector<PtTreeFile> out;
  for (auto& [path, entry] : found) {
    if (path == "rulings/AGENTS.md") continue;
    PtTreeFile f{path, nullptr};
    if (!is_readable_kind(entry.kind)) {
      report_not_a_file(pass, path, entry.kind);
    } else if (wanted(path, era_dir)) {
      f.file = load_pt_file(pass, path, entry);
    }
    out.push_back(std::move(f));
  }
  return out;
}

bool is_target_path(std::string_view path, std::string_view dir) { return ledger::match_pt_path(path, dir).has_value(); }
bool is_ruling_file(std::string_view path, std::string_view) { return ledger::match_ruling_path(path).has_value(); }

Result<bool> is_regular_file(git::TreeSource& tree, std::string_view path) {
  LG_TRY(auto e, tree.stat(path));
  return e && is_readable_kind(e->kind);
}

// P1 batch records (`batches/*.md`) or reviews (`batches/reviews/*.md`),
// non-recursive, AGENTS.md excluded, decoded.
Result<std::vector<P1BatchFile>> load_batch_files(Pass& pass, const std::string& dir) {
  LG_TRY(auto entries, pass.tree.list(dir));
  std::vector<P1BatchFile> out;
  if (!entries) return out;
  std::sort(entries->begin(), entries->end(), [](const git::Entry& a, const git::Entry& b) { return a.name < b.name; });
  for (const git::Entry& e : *entries) {
    if (!ends_with(e.name, ".md") || e.name == "AGENTS.md") continue;
    const std::string path = dir + "/" + e.name;
    if (!is_readable_kind(e.kind)) {
      report_not_a_file(pass, path, e.kind);
      continue;
    }
    cover(pass, e.content_id);
    auto bytes = read_or_report(pass, path, e);
    if (!bytes) continue;
    ledger::TextFile file = ledger::decode_text(*bytes);
    check_text_input(file.facts, path, pass.sink);
    out.push_back(P1BatchFile{path, std::move(file.text)});
  }
  return out;
}

Result<void> check_p1_batch_files(Pass& pass, const PtEra& era, const PtTree& tree) {
  LG_TRY(auto records, load_batch_files(pass, "batches"));
  LG_TRY(auto reviews, load_batch_files(pass, "batches/reviews"));
  const auto exists = [&pass](std::string_view path) {
    auto r = is_regular_file(pass.tree, path);
    return r && *r;
  };
  check_p1_batches(records, reviews, p1_phases(era, tree), exists, era.p1_sub, pass.sink);
  return {};
}

// projects.yaml with the era's reader: P1's restricted subset, else PyYAML's.
std::shared_ptr<const CheckCache::ProjectsYamlResult> check_era_projects_file(Pass& pass, const PtEra& era) {
  const std::string key = std::string(1, '\0') + std::string(era.name);
  if (era.p1) {
    return check_projects_file(pass, key, [&era](std::optional<std::string_view> text, diag::FindingSink& sink) {
      return check_projects_yaml_p1(text, era.p1_sub, sink, std::string(k_projects_yaml));
    });
  }
  return check_projects_file(pass, key, [&era](std::optional<std::string_view> text, diag::FindingSink& sink) {
    return check_projects_yaml(text, era.yaml, sink, std::string(k_projects_yaml));
  });
}

}  // namespace

Result<void> check_cortex_era(Pass& pass, ledger::Layout layout) {
  const PtEra* era = find_pt_era(layout, pass.sub);
  LEDGERGATE_ASSERT(era != nullptr);
  const auto projects = check_era_projects_file(pass, *era);
  PtTree tree;
  tree.rows = &projects->table;
  LG_TRY(tree.targets, load_pt_dir(pass, std::string(era->dir), is_target_path, era->dir));
  LG_TRY(tree.rulings, load_pt_dir(pass, std::string(ledger::k_rulings_dir), is_ruling_file, era->dir));
  tree.is_file = [&pass](std::string_view path) {
    auto r = is_regular_file(pass.tree, path);
    return r && *r;
  };
  check_pt_tree(*era, tree, pass.sink);
  if (era->p1) return check_p1_batch_files(pass, *era, tree);
  return {};
}


}  // namespace lg::rules::steps
