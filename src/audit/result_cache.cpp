// The per-commit result cache on the persistent store: the fields of a
// CachedCommit in the cache's codec.
#include "result_cache.hpp"

#include <limits>

#include "ledgergate/cache/codec.hpp"

namespace lg::audit {

constexpr cache::Kind k_kind = cache::Kind::audit_result;

ResultCache ResultCache::in_folder(std::string dir, bool first_parent) {
  const cache::Budget unbounded{std::numeric_limits<std::size_t>::max(), std::numeric_limits<std::uint64_t>::max()};
  return ResultCache(cache::Store(std::move(dir), unbounded), first_parent, false);
}

ResultCache ResultCache::in_repository(const std::string& common_dir, bool first_parent) {
  // A commit's entry is small (its changed findings): a long history fits.
  return ResultCache(cache::Store(cache::Store::dir_for(common_dir), cache::Budget{100000, 256ull << 20}),
                     first_parent, true);
}

std::optional<CachedCommit> ResultCache::load(const std::string& commit) const {
  const cache::Cache::Entry got = m_cache.get(k_kind, {commit, m_walk});
  if (!got.payload) return std::nullopt;
  cache::Decoder r(*got.payload);
  CachedCommit out;
  out.profile = r.field();
  out.events = r.findings();
  out.merge_events = r.findings();
  const long long ids = r.number(0, 1 << 24);
  for (long long i = 0; r.ok() && i < ids; ++i) out.deleted_ruling_ids.push_back(r.field());
  out.delta = r.number(0, 1) == 1;
  const long long paths = r.number(0, 1 << 24);
  for (long long i = 0; r.ok() && i < paths; ++i) {
    std::string path = r.field();
    out.findings[path] = r.findings();
  }
  if (!r.ok() || !r.at_end()) {
    m_cache.note_malformed(k_kind, {commit, m_walk});
    return std::nullopt;
  }
  return out;
}

Result<void> ResultCache::store(const std::string& commit, const CachedCommit& entry) const {
  cache::Encoder w;
  w.field(entry.profile);
  w.findings(entry.events);
  w.findings(entry.merge_events);
  w.number(static_cast<long long>(entry.deleted_ruling_ids.size()));
  for (const std::string& id : entry.deleted_ruling_ids) w.field(id);
  w.number(entry.delta ? 1 : 0);
  w.number(static_cast<long long>(entry.findings.size()));
  for (const auto& [path, list] : entry.findings) {
    w.field(path);
    w.findings(list);
  }
  if (m_cache.put(k_kind, {commit, m_walk}, w.text()) || m_quiet) return {};
  return make_error(ErrorKind::io, "audit cache: cannot write into " + m_cache.store().dir());
}

}  // namespace lg::audit
