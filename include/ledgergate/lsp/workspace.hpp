// What the language server checks: a folder (the repository's working tree)
// with the editor's unsaved buffers laid over it (write::OverlaySource), so
// the cross-file rules see what the person sees. The check is incremental:
// an era-R tree keeps rules::ProjectsState (per-ledger and per-step
// findings) and a change re-runs only the steps it can affect — a ledger's
// buffer re-checks that ledger, projects.yaml's re-checks the ledgers whose
// row inputs it changed and the active rows, a ledger created or deleted the
// file names. Any other layout (eras P and T, open-requirements files alone)
// is checked whole on each change; so is an era-R tree after its policy file
// or an open-requirements file changed. Never writes.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/ledger/check_options.hpp"
#include "ledgergate/rules/check_cache.hpp"
#include "ledgergate/rules/projects_state.hpp"
#include "ledgergate/util/result.hpp"
#include "ledgergate/write/overlay.hpp"

namespace lg::lsp {

class Workspace {
 public:
  // The folder `root` (absolute). Errors: not a directory.
  static Result<std::unique_ptr<Workspace>> open(const std::string& root);

  const std::string& root() const { return m_root; }
  // Lays the editor's buffer over `path` (repository-relative), or takes it
  // away (nullopt: the file on disk counts again).
  void set_buffer(const std::string& path, std::optional<std::string> bytes);
  // The buffer laid over `path`, or nullptr.
  const std::string* buffer(const std::string& path) const;
  // The file at `path` changed on disk, as the editor's file watcher says:
  // 'A' created, 'M' changed, 'D' deleted (a path with a buffer keeps it).
  void file_changed(const std::string& path, char status);
  // Re-checks what the changes since the last call can affect; returns the
  // paths whose findings may have changed (every path, after a whole check).
  Result<std::set<std::string>> refresh();
  // The findings at `path`, severities applied (as of the last refresh).
  std::vector<diag::Finding> findings_at(const std::string& path) const;
  // The tree as the person sees it: the folder with the buffers over it.
  git::TreeSource& tree();
  // The check's options (the policy file's, as of the last refresh).
  const ledger::CheckOptions& options() const { return m_options; }
  // The layout the last refresh checked (none: no ledger here).
  ledger::Layout layout() const { return m_layout; }
  // How many refreshes re-checked the whole tree (a test's window on incrementality).
  int whole_checks() const { return m_whole_checks; }

 private:
  explicit Workspace(std::string root, std::unique_ptr<git::TreeSource> base)
      : m_root(std::move(root)), m_base(std::move(base)) {}
  Result<std::set<std::string>> check_whole();
  std::set<std::string> paths() const;  // every path holding a finding
  void change(const std::string& path, char status);

  std::string m_root;
  std::unique_ptr<git::TreeSource> m_base;
  std::map<std::string, std::string> m_buffers;  // path → the buffer's bytes
  std::unique_ptr<write::OverlaySource> m_overlay;
  bool m_overlay_stale = true;
  std::vector<git::DiffEntry> m_pending;  // changes since the last refresh
  bool m_whole = true;                    // the next refresh checks the whole tree
  ledger::CheckOptions m_options;
  ledger::Layout m_layout = ledger::Layout::none;
  rules::CheckCache m_cache;
  std::unique_ptr<rules::ProjectsState> m_state;  // era R
  std::vector<diag::Finding> m_findings;          // any other layout: the whole check's
  int m_whole_checks = 0;
};

}  // namespace lg::lsp
