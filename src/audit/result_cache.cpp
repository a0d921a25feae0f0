// The per-commit result cache on the persistent store: the fields of a
// CachedCommit in the cache's codec.
#include "result_cache.hpp"

#include <fmt/format.h>

#include <limits>

#include "ledgergate/cache/codec.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/hash.hpp"
#include "ledgergate/util/version.hpp"

namespace lg::audit {

namespace {

constexpr std::string_view k_kind = "audit";

}  // namespace

std::string cache_fingerprint(bool first_parent) {
  std::string text = "ledgergate " + std::string(util::k_version);
  for (const rules::RuleInfo& r : rules::all_rules()) {
    text += fmt::format("\n{} {} {}", r.id, static_cast<int>(r.severity), r.profile);
  }
  text += first_parent ? "\nfirst-parent" : "\nall-parents";
  return fmt::format("{:016x}", util::fnv1a(text));
}

ResultCache ResultCache::in_folder(std::string dir, std::string fingerprint) {
  const cache::Budget unbounded{std::numeric_limits<std::size_t>::max(), std::numeric_limits<std::uint64_t>::max()};
  return ResultCache(cache::Store(std::move(dir), unbounded), std::move(fingerprint), false);
}

ResultCache ResultCache::in_repository(const std::string& common_dir, std::string fingerprint) {
  // A commit's entry is small (its changed findings): a long history fits.
  return ResultCache(cache::Store(cache::Store::dir_for(common_dir), cache::Budget{100000, 256ull << 20}),
                     std::move(fingerprint), true);
}

std::optional<CachedCommit> ResultCache::load(const std::string& commit) const {
  cache::Store::Lookup got = m_store.get(k_kind, key_of(commit));
  if (got.note) cache::add_note(std::move(*got.note));
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
    cache::add_note("cache entry " + m_store.path_of(k_kind, key_of(commit)) + " ignored (malformed); it is rebuilt");
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
  if (m_store.put(k_kind, key_of(commit), w.text()) || m_quiet) return {};
  return make_error(ErrorKind::io, "audit cache: cannot write into " + m_store.dir());
}

}  // namespace lg::audit
