// OverlaySource: the base's listing with the overlaid files merged in.
#include "ledgergate/write/overlay.hpp"

#include <algorithm>

namespace lg::write {

namespace {

std::string_view parent_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

std::string_view name_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string join(std::string_view dir, std::string_view name) {
  return dir.empty() ? std::string(name) : std::string(dir) + "/" + std::string(name);
}

// Whether `path` lies strictly below directory `dir` ("" is the root).
bool below(std::string_view path, std::string_view dir) {
  if (dir.empty()) return true;
  return path.size() > dir.size() && path.starts_with(dir) && path[dir.size()] == '/';
}

}  // namespace

OverlaySource::OverlaySource(git::TreeSource& base, const std::vector<FileEdit>& edits) : m_base(base) {
  for (const FileEdit& e : edits) m_files.insert_or_assign(e.path, e.bytes);
}

bool OverlaySource::touches(std::string_view dir) const {
  return std::any_of(m_files.begin(), m_files.end(), [&](const auto& f) { return below(f.first, dir); });
}

// The entry an overlaid file, or a directory holding one, has at `path`;
// nullopt when the overlay says nothing about `path`.
Result<std::optional<git::Entry>> OverlaySource::overlaid_entry(std::string_view path) {
  if (m_files.contains(path)) {
    // An executable stays executable; anything else becomes a regular file.
    LG_TRY(auto was, m_base.stat(path));
    const auto kind = was && was->kind == git::EntryKind::executable ? git::EntryKind::executable : git::EntryKind::file;
    return std::optional<git::Entry>(git::Entry{std::string(name_of(path)), kind, std::nullopt});
  }
  if (touches(path)) return std::optional<git::Entry>(git::Entry{std::string(name_of(path)), git::EntryKind::directory, std::nullopt});
  return std::optional<git::Entry>();
}

Result<std::optional<std::vector<git::Entry>>> OverlaySource::list(std::string_view dir) {
  LG_TRY(auto listed, m_base.list(dir));
  if (!touches(dir)) return listed;
  LG_TRY(auto here, overlaid_entry(dir));
  if (!dir.empty() && here && here->kind != git::EntryKind::directory) return std::optional<std::vector<git::Entry>>();
  std::vector<git::Entry> entries = listed ? std::move(*listed) : std::vector<git::Entry>{};
  // The names the overlay puts in `dir`: its files there and the first
  // component of those deeper.
  std::vector<std::string> names;
  for (const auto& [path, bytes] : m_files) {
    if (!below(path, dir)) continue;
    const std::string_view rest = std::string_view(path).substr(dir.empty() ? 0 : dir.size() + 1);
    names.emplace_back(rest.substr(0, rest.find('/')));
  }
  for (const std::string& name : names) {
    LG_TRY(auto entry, overlaid_entry(join(dir, name)));
    auto it = std::find_if(entries.begin(), entries.end(), [&](const git::Entry& e) { return e.name == name; });
    if (it != entries.end()) {
      *it = std::move(*entry);
    } else {
      entries.push_back(std::move(*entry));
    }
  }
  std::sort(entries.begin(), entries.end(), [](const git::Entry& a, const git::Entry& b) { return a.name < b.name; });
  return std::optional<std::vector<git::Entry>>(std::move(entries));
}

Result<std::optional<std::vector<git::Entry>>> OverlaySource::list_entry(std::string_view dir, const git::Entry& entry) {
  if (touches(dir)) return list(dir);
  return m_base.list_entry(dir, entry);
}

git::Entry OverlaySource::root_entry() const {
  if (m_files.empty()) return m_base.root_entry();
  return git::Entry{"", git::EntryKind::directory, std::nullopt};
}

Result<bool> OverlaySource::for_each_child(std::string_view dir, const git::Entry& entry, const ChildFn& fn) {
  if (!touches(dir)) return m_base.for_each_child(dir, entry, fn);
  return TreeSource::for_each_child(dir, entry, fn);
}

Result<std::optional<git::Entry>> OverlaySource::stat(std::string_view path) {
  LG_TRY(auto entry, overlaid_entry(path));
  if (entry) return entry;
  // Below an overlaid file there is nothing, whatever the base holds there.
  for (std::string_view up = parent_of(path); !up.empty(); up = parent_of(up)) {
    if (m_files.contains(up)) return std::optional<git::Entry>();
  }
  return m_base.stat(path);
}

Result<std::string> OverlaySource::read(std::string_view path, const git::Entry& entry) {
  if (auto it = m_files.find(path); it != m_files.end()) return it->second;
  return m_base.read(path, entry);
}

}  // namespace lg::write
