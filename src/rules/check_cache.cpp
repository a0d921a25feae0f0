// The check's parse cache and its budget.
#include "ledgergate/rules/check_cache.hpp"

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
  if (m_glob_walks.size() > m_budget.glob_walks) m_glob_walks.m_memo.clear();
  if (m_ledger_findings.size() > m_budget.ledger_findings) {
    m_ledger_findings.clear();
  }
}

}  // namespace lg::rules
