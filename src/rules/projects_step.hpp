// The pieces of the cortex-projects pass (projects_step.cpp): projects/'s
// listing, a ledger's check, the active-row check and projects.yaml as the
// ledger pass reads it (its facts from the persistent cache, or the file).
// The pass itself is projects_pass.cpp and, from the projects memo,
// projects_memo_pass.cpp. Internal to rules/.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "check_pass.hpp"

namespace lg::rules::steps {

using LedgerFile = ProjectsStepLedger;

// "projects/<name>", appended to `out`.
inline void append_ledger_path(std::string& out, std::string_view name) {
  out.append(ledger::k_projects_dir).append(1, '/').append(name);
}
std::string ledger_path(std::string_view name);

// projects/ as listed, and which of its entries are ledgers (a well-formed
// name), in listing order: a ledger is its entry until a path is needed
// (no string per ledger for the thousands the facts pack answers).
struct LedgerListing {
  git::Listing listed;                 // projects/, as views
  std::vector<std::uint32_t> ledgers;  // indices into listed

  git::EntryView entry(std::size_t i) const { return listed[ledgers[i]]; }
  std::string_view key(std::size_t i) const {
    const std::string_view name = entry(i).name;
    return name.substr(0, name.size() - 3);
  }
  LedgerFile file(std::size_t i) const { return LedgerFile{ledger_path(entry(i).name), entry(i).entry()}; }
};

// Lists projects/, reporting the names that are not ledgers' (and the files
// below it `check` does not read).
Result<LedgerListing> list_ledger_entries(Pass& pass);

// Reads and parses the ledgers the parse cache lacks on every core, each
// worker with its own repository handle (libgit2 handles are not shared
// between threads). What a worker cannot read is left to the sequential
// path, which reports it; sources without thread readers (folders, the
// index) skip this. Started `behind`, the calling thread is not a worker: it
// goes on with other work of the pass (the projects.yaml validation) on its
// own handle until finish(), which keeps the parses in the cache (the
// workers touch nothing of the pass but their readers).
class LedgerPrefetch {
 public:
  LedgerPrefetch(Pass& pass, std::span<const LedgerFile> ledgers, bool behind = false);
  LedgerPrefetch(const LedgerPrefetch&) = delete;
  LedgerPrefetch& operator=(const LedgerPrefetch&) = delete;
  ~LedgerPrefetch();

  // Waits for the workers and keeps what they parsed; returns the ids kept.
  std::vector<git::ObjectId> finish();

 private:
  void work(unsigned reader);
  void join();
  void clear();

  Pass& m_pass;
  std::vector<const LedgerFile*> m_todo;
  std::vector<git::TreeSource::BlobReader> m_readers;
  std::vector<std::shared_ptr<const ledger::ProjectLedger>> m_parsed;
  std::atomic<std::size_t> m_next{0};
  std::vector<std::thread> m_threads;
};
// LedgerPrefetch, waited for at once.
void prefetch_ledgers(Pass& pass, std::span<const LedgerFile> ledgers);

// projects/'s first chunk of ledgers (k_ledger_chunk) read and parsed on
// the other cores while the calling thread goes on (the tree scan,
// projects.yaml's validation). Without the persistent cache only: with it,
// most ledgers are never read.
class LedgerReadAhead {
 public:
  explicit LedgerReadAhead(Pass& pass);
  // Waits for the workers (their repository handles closed) and keeps
  // their parses.
  void wait();
  // wait(), then the ids kept.
  std::vector<git::ObjectId> finish();

 private:
  std::vector<LedgerFile> m_first;  // the prefetch points into it
  std::unique_ptr<LedgerPrefetch> m_prefetch;
  std::vector<git::ObjectId> m_kept;
};
// One ledger of the cortex-projects pass: its kind, its text, its rules.
void check_ledger_file(Pass& pass, const LedgerFile& lf, const ProjectsTable& rows);

// The ledgers are read, parsed and checked in chunks; once the cache holds
// more ledger parses than its budget, a chunk's new parses are dropped after
// it is checked: a 20,000-ledger tree is never held parsed all at once
// (80 MB), while a 2,000-ledger one stays cached for the next check of an
// audit or a trial merge.
inline constexpr std::size_t k_ledger_chunk = 1024;

void report_active_row(diag::FindingSink& sink, std::string_view key, int line);
bool is_active(const ProjectRow& row);

// `has(key)`: whether the tree has a ledger (of readable kind) for key.
template <class HasLedger>
void report_active_without_ledger(diag::FindingSink& sink, const ProjectsTable& rows, const HasLedger& has) {
  for (const ProjectRow& row : rows.rows) {
    if (is_active(row) && !has(row.key)) report_active_row(sink, row.key, row.line);
  }
}

// The keys of the ledgers a pass found, as views of its listing: sorted
// once, then searched (no set of 20,000 strings).
class LedgerKeys {
 public:
  void add(std::string_view key) { m_keys.push_back(key); }
  void seal() {
    if (!std::is_sorted(m_keys.begin(), m_keys.end())) std::sort(m_keys.begin(), m_keys.end());
  }
  bool operator()(std::string_view key) const { return std::binary_search(m_keys.begin(), m_keys.end(), key); }

 private:
  std::vector<std::string_view> m_keys;
};

// The readable ledgers' keys of a listing, sealed.
LedgerKeys keys_of(const LedgerListing& listing);

// The table check_project_ledger needs for the ledger `key`: its one row
// rebuilt from the row's inputs (projects_step_row_inputs: the row's
// presence, `status` and `partition`, all that rule reads), into `out`;
// false when the inputs are not of that form (the caller parses the file).
bool table_from_inputs(std::string_view key, std::string_view inputs, ProjectsTable& out);

// projects.yaml for the ledger pass: its facts from the persistent cache
// when it holds the blob (a ledger the cache lacks is then checked against
// its row rebuilt from the facts: the file is not parsed), else checked as
// without a cache (and its facts kept).
class ProjectsYamlInput {
 public:
  // `report`: whether its findings go to the pass's sink (not when the
  // memo already reported them).
  explicit ProjectsYamlInput(Pass& pass, bool report = true);
  // The blob's id ("" when the persistent cache is off or it has none) and its findings.
  const std::string& id() const { return m_id; }
  const std::vector<diag::Finding>& findings() const { return m_facts ? m_facts->findings : m_parsed->findings; }
  const ProjectsTable& table();
  // The table the ledger `key` is checked against: without the parse, its
  // one row rebuilt from the cached row inputs (all check_project_ledger
  // reads: the row's presence, `status` and `partition`).
  const ProjectsTable& table_for(std::string_view key);
  // Appends the row inputs of `key` (projects_step_row_inputs) to `out`.
  void append_row_inputs(std::string& out, std::string_view key);
  void report_active_without_ledger(const LedgerKeys& has);

 private:
  Pass& m_pass;
  std::string m_id;  // the blob's id, when the persistent cache may hold it
  std::shared_ptr<const CheckCache::ProjectsYamlResult> m_parsed;
  std::shared_ptr<const YamlFacts> m_facts;
  ProjectsTable m_one;  // table_for's
};

// The cortex-projects pass from the projects memo (projects_memo_pass.cpp);
// false, with nothing reported, when the memo cannot answer: the caller
// runs the pass in full (projects_pass.cpp).
Result<bool> check_projects_by_memo(Pass& pass);

}  // namespace lg::rules::steps
