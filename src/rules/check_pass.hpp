// One check of one tree as its steps see it (check.cpp drives them): the
// tree, the parse cache, the findings so far, the persistent cache when on,
// and the blobs the findings stand on. The steps: the cortex-projects pass
// (projects_pass.cpp, projects_memo_pass.cpp, on projects_step.hpp), the
// era P/T/P1 pass (era_step.cpp) and the open-requirements pass and glob
// walk (orl_step.cpp). Internal to rules/.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/ledger/text_file.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/cortex_projects.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "check_store.hpp"

namespace lg::rules {

struct CheckCache::ProjectsYamlResult {
  ProjectsTable table;
  std::vector<diag::Finding> findings;
};

namespace steps {

using ledger::k_projects_yaml;

class LedgerReadAhead;  // projects_step.hpp

struct Pass {
  git::TreeSource& tree;
  CheckCache& cache;
  diag::CollectingSink sink;
  std::vector<std::string> orl_files = {};  // open-requirements files (the glob's matches)
  std::string_view sub = {};                // the profile's sub-era ("" = the newest / none)
  CheckCache::Persistent* persistent = nullptr;  // the persistent cache; null when off
  // The blobs whose content the findings stand on, read or not (a whole
  // verdict keeps them), and of those the ones the persistent cache
  // answered for without a read: confirmed present and intact before its
  // answer is used (TreeSource::confirm; docs/cache.md).
  std::vector<git::ObjectId> covered = {};
  std::vector<git::ObjectId> vouched = {};
  // projects/'s first ledgers, being read on the other cores since before
  // the tree scan (check.cpp); null when not started.
  LedgerReadAhead* ahead = nullptr;
};

inline void cover(Pass& pass, const std::optional<git::ObjectId>& id) {
  if (id && pass.persistent) pass.covered.push_back(*id);
}
inline void vouch(Pass& pass, const git::ObjectId& id) {
  pass.covered.push_back(id);
  pass.vouched.push_back(id);
}

inline bool is_readable_kind(git::EntryKind k) { return k == git::EntryKind::file || k == git::EntryKind::executable; }

inline bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The findings reported since the sink held `before`.
inline std::span<const diag::Finding> reported_since(const Pass& pass, std::size_t before) {
  return std::span<const diag::Finding>(pass.sink.findings()).subspan(before);
}

void report_not_a_file(Pass& pass, const std::string& path, git::EntryKind kind);
// Reads a file, reporting unreadable input as a finding; nullopt then.
std::optional<std::string> read_or_report(Pass& pass, const std::string& path, const git::Entry& entry);

// Validates projects.yaml's text (nullopt = absent) with one era's rules.
using ProjectsValidator = std::function<ProjectsTable(std::optional<std::string_view>, diag::FindingSink&)>;
ProjectsTable validate_newest(std::optional<std::string_view> text, diag::FindingSink& sink);
// The validated projects.yaml of the pass's tree (shared, never copied: a
// history audit checks thousands of trees holding the same blob). `era_key`
// tells the cache which era's `validate` judged the blob ("" = the newest);
// with `newest_answers`, the newest era's result (every field of each row,
// the same findings: projects_table's) answers as well.
std::shared_ptr<const CheckCache::ProjectsYamlResult> check_projects_file(
    Pass& pass, const std::string& era_key = {}, const ProjectsValidator& validate = validate_newest,
    bool newest_answers = false);
// check_projects_file of the newest era, its rows holding every field or,
// when the cache's budget says so (Budget::full_rows), only their inputs.
std::shared_ptr<const CheckCache::ProjectsYamlResult> check_newest_projects_file(Pass& pass);

// ---- the passes ----

// cortex-projects (projects_pass.cpp): projects.yaml, file names, each
// ledger (sorted), then active rows without a ledger.
Result<void> check_cortex_projects(Pass& pass);
// cortex-phases and cortex-tasks (era_step.cpp): projects.yaml, the phase or
// task and ruling files found recursively, P1's batches.
Result<void> check_cortex_era(Pass& pass, ledger::Layout layout);
// open-requirements (orl_step.cpp): every file the glob named, in path order.
Result<void> check_orl(Pass& pass);

// One walk finds both: the files the open-requirements glob matches, and
// writers' temporary files (rule input-writer-temp-file), wherever they are
// (orl_step.cpp).
struct TreeScan {
  std::vector<std::string> orl_files;
  std::vector<std::string> temp_files;
  std::size_t trees_read = 0;  // the walk's directories not answered by a memo
};
Result<TreeScan> scan_tree(git::TreeSource& tree, std::string_view glob, CheckCache* cache,
                           CheckCache::Persistent* persistent);
// The input-writer-temp-file finding of each of the scan's temporary files.
std::vector<diag::Finding> writer_temp_findings(const std::vector<std::string>& paths);

}  // namespace steps
}  // namespace lg::rules
