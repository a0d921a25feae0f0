// The language server's tree: a folder with the editor's buffers over it,
// checked incrementally (rules::ProjectsState in era R, whole otherwise).
#include "ledgergate/lsp/workspace.hpp"

#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/rules/check.hpp"

namespace lg::lsp {
namespace {

void paths_of(const std::vector<diag::Finding>& findings, std::set<std::string>& out) {
  for (const diag::Finding& f : findings) out.insert(f.location.path);
}

}  // namespace

Result<std::unique_ptr<Workspace>> Workspace::open(const std::string& root) {
  LG_TRY(auto base, git::open_directory_source(root));
  return std::unique_ptr<Workspace>(new Workspace(root, std::move(base)));
}

const std::string* Workspace::buffer(const std::string& path) const {
  auto it = m_buffers.find(path);
  return it == m_buffers.end() ? nullptr : &it->second;
}

void Workspace::change(const std::string& path, char status) {
  git::DiffEntry e;
  e.status = std::string(1, status);
  e.path = path;
  e.has_new = status != 'D';
  m_pending.push_back(std::move(e));
  if (path == policy::k_policy_path) m_whole = true;
  m_overlay_stale = true;
}

void Workspace::set_buffer(const std::string& path, std::optional<std::string> bytes) {
  const auto it = m_buffers.find(path);
  if (bytes && it != m_buffers.end() && it->second == *bytes) return;
  auto on_disk = m_base->stat(path);
  const bool disk = on_disk && *on_disk && (*on_disk)->kind != git::EntryKind::directory;
  const bool before = disk || it != m_buffers.end();
  if (bytes) {
    m_buffers[path] = std::move(*bytes);
  } else if (it != m_buffers.end()) {
    m_buffers.erase(it);
  } else {
    return;
  }
  const bool after = disk || m_buffers.count(path) != 0;
  change(path, !before ? 'A' : !after ? 'D' : 'M');
}

void Workspace::file_changed(const std::string& path, char status) {
  if (m_buffers.count(path)) return;  // the buffer is what the person sees
  change(path, status);
}

git::TreeSource& Workspace::tree() {
  if (m_overlay_stale || !m_overlay) {
    std::vector<write::FileEdit> edits;
    edits.reserve(m_buffers.size());
    for (const auto& [path, bytes] : m_buffers) edits.push_back(write::FileEdit{path, bytes});
    m_overlay = std::make_unique<write::OverlaySource>(*m_base, edits);
    m_overlay_stale = false;
  }
  return *m_overlay;
}

std::set<std::string> Workspace::paths() const {
  std::set<std::string> out;
  if (m_state) return m_state->paths();
  paths_of(m_findings, out);
  return out;
}

Result<std::set<std::string>> Workspace::check_whole() {
  ++m_whole_checks;
  std::set<std::string> touched = paths();
  git::TreeSource& overlay = tree();
  m_whole = false;
  m_pending.clear();
  m_state.reset();
  m_findings.clear();
  LG_TRY(policy::RepoPolicy policy, policy::load_policy(overlay));
  m_options = policy::check_options_for_own_tree(policy);
  LG_TRY(m_layout, ledger::detected_layout(overlay, m_options));
  if (rules::ProjectsState::applies(m_options, m_layout)) {
    auto state = std::make_unique<rules::ProjectsState>();
    if (auto built = state->rebuild(overlay, m_options, m_cache); !built) return built.error();
    m_state = std::move(state);
  } else {
    auto report = rules::check_tree(overlay, m_options, m_cache);
    if (report) {
      m_findings = std::move(report->findings);
    } else if (report.error().kind != ErrorKind::invalid_input) {
      return report.error();  // a tree without a ledger has nothing to say; a broken one does
    }
  }
  m_cache.trim();
  const std::set<std::string> now = paths();
  touched.insert(now.begin(), now.end());
  return touched;
}

Result<std::set<std::string>> Workspace::refresh() {
  if (m_whole) return check_whole();
  if (m_pending.empty()) return std::set<std::string>();
  if (!m_state) return check_whole();
  std::set<std::string> touched;
  LG_TRY(const bool followed, m_state->update(tree(), m_pending, m_cache, touched));
  if (!followed) return check_whole();
  for (const git::DiffEntry& e : m_pending) touched.insert(e.path);
  m_pending.clear();
  return touched;
}

std::vector<diag::Finding> Workspace::findings_at(const std::string& path) const {
  std::vector<diag::Finding> out;
  if (m_state) {
    out = m_state->findings_at(path);
    m_options.apply_severities(out);
    return out;
  }
  for (const diag::Finding& f : m_findings) {
    if (f.location.path == path) out.push_back(f);
  }
  return out;
}

}  // namespace lg::lsp
