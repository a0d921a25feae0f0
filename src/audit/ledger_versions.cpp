// One commit's ledger versions, parsed once for its check and invariants.
#include "ledger_versions.hpp"

#include "ledgergate/ledger/project_ledger.hpp"

namespace lg::audit {

void LedgerVersions::begin_commit(ReadAhead* ahead, std::vector<std::shared_ptr<ReadAhead::Blob>> blobs) {
  m_fresh.clear();
  m_prefetched.clear();
  m_ahead = ahead;
  for (std::shared_ptr<ReadAhead::Blob>& blob : blobs) m_prefetched.emplace(blob->id, std::move(blob));
}

Result<LedgerPtr> LedgerVersions::parse(const git::ObjectId& id, const std::string& rev, const std::string& path) {
  if (auto it = m_prefetched.find(id); it != m_prefetched.end()) {
    std::shared_ptr<ReadAhead::Blob> blob = std::move(it->second);
    m_prefetched.erase(it);
    if (LedgerPtr ledger = m_ahead->claim(*blob)) return ledger;
  }
  auto parsed = read_ledger_blob(m_repo, id);
  if (!parsed) return parsed.error().with_context("cannot judge: " + rev + ":" + path);
  return parsed;
}

Result<LedgerPtr> LedgerVersions::get(const git::ObjectId& id, const std::string& rev, const std::string& path) {
  if (auto it = m_fresh.find(id); it != m_fresh.end()) return it->second;
  return parse(id, rev, path);
}

// An added ledger's full parse is dropped at once (a commit may add
// thousands); an edited one's is kept for compare_versions.
void LedgerVersions::parse_changed(const std::vector<git::DiffEntry>& diff, const std::string& rev,
                                   rules::CheckCache& cache) {
  for (const git::DiffEntry& e : diff) {
    if (!is_new_ledger_version(e) || cache.ledgers().contains(*e.new_id)) continue;
    LedgerPtr full;
    if (auto fresh = m_fresh.find(*e.new_id); fresh != m_fresh.end()) {
      full = fresh->second;
    } else {
      auto parsed = parse(*e.new_id, rev, e.path);
      if (!parsed) continue;  // the check reads it again and reports what is wrong
      full = std::move(*parsed);
      if (e.status == "M") m_fresh.emplace(*e.new_id, full);
    }
    auto compact = std::make_shared<ledger::ProjectLedger>(*full);
    compact->compact();
    cache.ledgers().keep(*e.new_id, std::move(compact));
  }
}

}  // namespace lg::audit
