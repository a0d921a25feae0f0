// Drift: open findings by (rule, path, message), opened and fixed commit by
// commit.
#include "drift.hpp"

#include <set>

namespace lg::audit {

namespace {

std::string drift_key(const diag::Finding& f) {
  std::string key = f.rule;
  key += '\0';
  key += f.location.path;
  key += '\0';
  key += f.message;
  return key;
}

}  // namespace

void Drift::baseline(std::vector<diag::Finding> findings, const git::ObjectId& commit) {
  m_last_judged = commit;
  for (diag::Finding& f : findings) {
    f.location.rev = commit.short_hex();
    m_state[f.location.path].push_back(f);
    m_open[drift_key(f)].push_back(m_findings.size());
    m_findings.push_back(AuditFinding{std::move(f), commit, std::nullopt, true});
  }
}

// The findings seen at `commit`, by drift key: an open one takes its latest
// location, a new one is opened (introduced at `commit`).
void Drift::open_findings(Seen& now, const git::ObjectId& commit) {
  const std::string short_hex = commit.short_hex();
  for (auto& [key, list] : now) {
    std::vector<std::size_t>& open = m_open[key];
    for (std::size_t i = 0; i < list.size(); ++i) {
      diag::Finding& f = *list[i];
      f.location.rev = short_hex;
      if (i < open.size()) {
        m_findings[open[i]].finding.location = f.location;  // the latest line
      } else {
        open.push_back(m_findings.size());
        m_findings.push_back(AuditFinding{f, commit, std::nullopt, false});
      }
    }
  }
}

void Drift::update(std::vector<diag::Finding> findings, const git::ObjectId& commit) {
  Seen now;
  for (diag::Finding& f : findings) now[drift_key(f)].push_back(&f);
  for (auto it = m_open.begin(); it != m_open.end();) {
    auto found = now.find(it->first);
    const std::size_t keep = found == now.end() ? 0 : found->second.size();
    while (it->second.size() > keep) {
      m_findings[it->second.back()].fixed_in = commit;
      it->second.pop_back();
    }
    it = it->second.empty() ? m_open.erase(it) : std::next(it);
  }
  open_findings(now, commit);
  m_last_judged = commit;
}

// The same bookkeeping as update() over a full list, at the cost of what
// changed.
void Drift::update_paths(PathFindings changed, const git::ObjectId& commit) {
  Seen now;
  for (auto& [path, list] : changed) {
    for (diag::Finding& f : list) now[drift_key(f)].push_back(&f);
  }
  for (const auto& [path, list] : changed) {
    auto before = m_state.find(path);
    if (before == m_state.end()) continue;
    std::set<std::string> keys;
    for (const diag::Finding& f : before->second) keys.insert(drift_key(f));
    for (const std::string& key : keys) {
      auto it = m_open.find(key);
      if (it == m_open.end()) continue;
      auto found = now.find(key);
      const std::size_t keep = found == now.end() ? 0 : found->second.size();
      while (it->second.size() > keep) {
        AuditFinding& fixed = m_findings[it->second.back()];
        fixed.fixed_in = commit;
        fixed.finding.location.rev = m_last_judged.short_hex();  // seen last at the commit judged before
        it->second.pop_back();
      }
      if (it->second.empty()) m_open.erase(it);
    }
  }
  open_findings(now, commit);
  for (auto& [path, list] : changed) {
    if (list.empty()) {
      m_state.erase(path);
    } else {
      m_state[path] = std::move(list);
    }
  }
  m_last_judged = commit;
}

void Drift::finish() {
  for (const auto& [key, open] : m_open) {
    for (std::size_t index : open) m_findings[index].finding.location.rev = m_last_judged.short_hex();
  }
}

PathFindings Drift::changed_paths(const std::vector<diag::Finding>& all) const {
  PathFindings now = by_path(all);
  PathFindings out;
  for (auto& [path, list] : now) {
    auto it = m_state.find(path);
    if (it == m_state.end() || !same_findings(it->second, list)) out.emplace(path, std::move(list));
  }
  for (const auto& [path, list] : m_state) {
    if (now.count(path) == 0) out.emplace(path, std::vector<diag::Finding>{});
  }
  return out;
}

}  // namespace lg::audit
