// The check's parse cache and its budget.
#include "ledgergate/rules/check_cache.hpp"

#include <cstdint>
#include <optional>

#include "check_store.hpp"

namespace lg::rules {

namespace {

template <class Map>
void trim_to(Map& map, std::size_t budget) {
  if (map.size() > budget) map.clear();
}

}  // namespace

CheckCache::Budget CheckCache::history_budget() {
  Budget b;  // ledgers: the default cap
  b.projects_yaml = 8;
  b.pt_files = 16384;
  b.open_requirements = 1024;
  b.glob_walks = 4096;
  return b;
}

CheckCache::Budget CheckCache::one_check_budget() {
  Budget b;
  b.glob_walks = 0;
  b.ledger_findings = 0;
  b.full_rows = false;
  return b;
}

CheckCache::LedgerFindings::Ptr CheckCache::LedgerFindings::find(std::string_view key) const {
  static const Ptr none = std::make_shared<const std::vector<diag::Finding>>();
  const std::optional<std::uint32_t> at = m_keys.find(key);
  if (!at) return nullptr;
  return *at == 0 ? none : m_lists[*at - 1];
}

void CheckCache::LedgerFindings::keep(std::string_view key, const git::ObjectId& blob, Ptr findings) {
  if (!m_keeps || m_keys.find(key)) return;
  std::uint32_t at = 0;
  if (findings && !findings->empty()) {
    m_lists.push_back(std::move(findings));
    at = static_cast<std::uint32_t>(m_lists.size());
  }
  m_keys.insert(key, at);
  m_blobs.insert(blob.raw(), 0);
}

void CheckCache::LedgerFindings::clear() {
  m_keys.clear();
  m_lists.clear();
  m_lists.shrink_to_fit();
  m_blobs.clear();
}

std::string_view CheckCache::GlobWalks::key_of(const QualifiedId& key) const {
  m_scratch.assign(key.id.raw());
  m_scratch += key.qualifier;
  return m_scratch;
}

CheckCache::GlobWalks::Ptr CheckCache::GlobWalks::find(const QualifiedId& key) const {
  static const Ptr none = std::make_shared<const std::vector<std::string>>();
  const std::optional<std::uint32_t> at = m_keys.find(key_of(key));
  if (!at || *at == 0) return nullptr;
  return *at == 1 ? none : m_lists[*at - 2];
}

void CheckCache::GlobWalks::keep(const QualifiedId& key, Ptr matches) {
  if (!m_keeps) return;
  const std::string_view k = key_of(key);
  const std::optional<std::uint32_t> at = m_keys.find(k);
  if (at && *at != 0) return;
  std::uint32_t value = 1;
  if (matches && !matches->empty()) {
    m_lists.push_back(std::move(matches));
    value = static_cast<std::uint32_t>(m_lists.size() + 1);
  }
  if (at) {
    m_keys.assign(k, value);
  } else {
    m_keys.insert(k, value);
  }
  ++m_size;
}

void CheckCache::GlobWalks::forget(const QualifiedId& key) {
  const std::string_view k = key_of(key);
  const std::optional<std::uint32_t> at = m_keys.find(k);
  if (!at || *at == 0) return;
  m_keys.assign(k, 0);  // a list it held stays in m_lists until clear()
  --m_size;
}

void CheckCache::GlobWalks::clear() {
  m_keys.clear();
  m_lists.clear();
  m_lists.shrink_to_fit();
  m_size = 0;
}

CheckCache::Budget CheckCache::judging_budget() {
  Budget b;
  b.full_rows = false;
  return b;
}

CheckCache::CheckCache() = default;
CheckCache::CheckCache(Budget budget) : m_budget(budget) {
  m_ledgers.m_keeps = budget.ledgers != 0;
  m_projects_yaml.m_keeps = budget.projects_yaml != 0;
  m_pt_files.m_keeps = budget.pt_files != 0;
  m_open_requirements.m_keeps = budget.open_requirements != 0;
  m_glob_walks.m_keeps = budget.glob_walks != 0;
  m_ledger_findings.m_keeps = budget.ledger_findings != 0;
}
CheckCache::~CheckCache() = default;

void CheckCache::flush_writes() {
  m_one_command = false;
  if (m_persistent) flush_deferred(*m_persistent);
}

void CheckCache::trim() {
  trim_to(m_ledgers.m_map, m_budget.ledgers);
  trim_to(m_projects_yaml.m_map, m_budget.projects_yaml);
  trim_to(m_pt_files.m_map, m_budget.pt_files);
  trim_to(m_open_requirements.m_map, m_budget.open_requirements);
  if (m_glob_walks.size() > m_budget.glob_walks) m_glob_walks.clear();
  if (m_ledger_findings.size() > m_budget.ledger_findings) {
    m_ledger_findings.clear();
  }
}

}  // namespace lg::rules
