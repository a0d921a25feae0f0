// `check`: take the tree's profile (pinned, detected by the caller, or
// detected here; ledger/profile.hpp), read its ledger files from a tree
// source, run the profile's rules in the reference order, and return the
// findings. Parses are cached by blob id in a CheckCache (check_cache.hpp),
// so checking many trees that share files costs only what differs.
#pragma once

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/ledger/check_options.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/rules/check_cache.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::ledger {
struct ProjectLedger;
struct PtFile;
}

namespace lg::rules {

struct ProjectsTable;

// The check's options are the ledger-level value a policy yields.
using ledger::CheckOptions;

struct CheckReport {
  std::string profile;  // the profile checked, with its sub-era where it has them ("cortex-tasks@t2")
  ledger::Profile checked;  // the profile checked, typed (open-requirements beside is in `profile`)
  std::vector<diag::Finding> findings;
  // With the persistent cache: the blobs the findings stand on (a cached
  // verdict confirms them before it is used; docs/cache.md).
  std::vector<git::ObjectId> covered;
  bool cannot_judge() const;  // some input could not be read
  bool failed() const;        // some finding is an error
};


// Checks `tree`. Errors: an unreadable tree, an unknown or unsupported
// profile, or a tree with no ledger. Open-requirements files (the glob) are
// checked beside a Cortex ledger (profile "cortex-projects+open-requirements")
// or alone (profile "open-requirements").
Result<CheckReport> check_tree(git::TreeSource& tree, const CheckOptions& options, CheckCache& cache);

// projects.yaml's rows in `tree`, validated at most once per blob through
// `cache` (the check of a tree holding the same blob reuses it); null when
// the file is absent, not a regular file, or not a clean mapping.
Result<std::shared_ptr<const ProjectsTable>> projects_table(git::TreeSource& tree, CheckCache& cache);

// The cortex-projects pass in its steps, for a caller that re-runs only the
// steps whose inputs changed (the history audit). check_tree runs them in
// this order — projects.yaml, ledger file names, each ledger, active rows
// without a ledger — and each returns what that step of check_tree reports,
// in the same order, before severity overrides.
struct ProjectsStepLedger {  // a projects/<key>.md file with a well-formed name
  std::string path;
  git::Entry entry;
  // The key: the path without "projects/" and ".md" (no string of its own).
  std::string_view key() const {
    constexpr std::size_t dir = ledger::k_projects_dir.size() + 1;
    return std::string_view(path).substr(dir, path.size() - dir - 3);
  }
};
struct ProjectsStepYaml {
  std::shared_ptr<const ProjectsTable> table;  // never null (empty when absent or broken)
  std::vector<diag::Finding> findings;
};
struct ProjectsStepNames {
  std::vector<ProjectsStepLedger> ledgers;  // sorted by path
  std::vector<diag::Finding> findings;      // file names, files that are not ledgers
};
Result<ProjectsStepYaml> projects_step_yaml(git::TreeSource& tree, CheckCache& cache);
// projects.yaml's row inputs alone (rules::projects_yaml_row_inputs: each
// row's key, line, status and partition; no finding), for a caller that
// needs the rows of a file it does not judge; `findings` is empty. From
// the facts pack when the tree has a persistent cache holding the blob's
// rows (a check of it kept them), else read.
Result<ProjectsStepYaml> projects_step_yaml_rows(git::TreeSource& tree, CheckCache& cache);
Result<ProjectsStepNames> projects_step_names(git::TreeSource& tree, CheckCache& cache);
// One finding list per ledger, in order (parses land in cache.ledgers).
std::vector<std::vector<diag::Finding>> projects_step_ledgers(git::TreeSource& tree,
                                                              const std::vector<ProjectsStepLedger>& ledgers,
                                                              const ProjectsTable& rows, CheckCache& cache);
// `keys`: the ledgers of readable kind.
std::vector<diag::Finding> projects_step_active_rows(const ProjectsTable& rows,
                                                     const std::unordered_set<std::string>& keys);
// All a ledger's findings read from projects.yaml for `key`, as one string:
// equal strings, equal findings (given the same blob at the same path).
std::string projects_step_row_inputs(const ProjectsTable& rows, std::string_view key);
// The same inputs from `tree`'s projects.yaml: from the persistent cache's
// facts when the tree has ids and the cache holds its blob, else read and
// checked (the facts then kept).
Result<std::string> projects_row_inputs(git::TreeSource& tree, std::string_view key, CheckCache& cache);
// The one-row table (indexed) that check_project_ledger reads for `key`,
// rebuilt from its row inputs: it judges `key`'s ledger as the whole table does.
ProjectsTable projects_table_from_inputs(std::string_view key, std::string_view inputs);

// What the file-name step makes of one entry of projects/ (by name): a
// ledger, a name that is not a bare key's (ledger-file-name), a file the
// check does not read (input-unchecked-file, every file below a directory),
// or AGENTS.md / TEMPLATE.md, skipped.
enum class ProjectsEntryRole { ledger, bad_name, unchecked, skipped };
ProjectsEntryRole projects_entry_role(std::string_view name);
// The step's findings for one entry (`entry.name` its name in projects/):
// the file-name findings, then the unchecked ones, as the step reports them
// (all the first kind of every entry, in listing order, then the second).
struct ProjectsStepEntry {
  ProjectsEntryRole role = ProjectsEntryRole::skipped;
  std::vector<diag::Finding> names;
  std::vector<diag::Finding> unchecked;
};
Result<ProjectsStepEntry> projects_step_entry(git::TreeSource& tree, const git::Entry& entry, CheckCache& cache);

// The paths of `tree` matching `glob` (walked recursively, `.git` skipped),
// sorted by bytes; directories are walked, every other kind is listed.
Result<std::vector<std::string>> find_open_requirements(git::TreeSource& tree, std::string_view glob,
                                                        CheckCache* cache = nullptr);

// The cross-version rules (orl-h-*) between each open-requirements file of
// `before` and the same path in `after` (a missing file is an empty ledger;
// a file `after` moved, by change.hpp's moved_files, is compared with its
// old path's version). Findings locate `after`'s files. With `changes`
// (the diff from `before` to `after`, renames found or not), only the
// files it names are compared and neither tree is walked: a file the same
// in both has no history finding, so the findings are the same.
Result<std::vector<diag::Finding>> check_open_requirements_between(
    git::TreeSource& before, git::TreeSource& after, const CheckOptions& options, CheckCache* cache = nullptr,
    const std::vector<git::DiffEntry>* changes = nullptr);

}  // namespace lg::rules
