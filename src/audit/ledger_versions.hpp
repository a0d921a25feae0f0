// The ledger versions of the commit being judged, shared by its passes: the
// versions its diff changed are parsed once, by the read-ahead or here, for
// the check (a compact copy into the check's cache) and the invariants (the
// full parse of a ledger edited in place). Private to audit/.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ledger_blob.hpp"
#include "read_ahead.hpp"
#include "ledgergate/rules/check.hpp"

namespace lg::audit {

class LedgerVersions {
 public:
  explicit LedgerVersions(const git::Repository& repo) : m_repo(repo) {}

  // A new commit: the last one's versions are dropped; `ahead` (may be
  // null) parses the versions `blobs` names, each taken once.
  void begin_commit(ReadAhead* ahead, std::vector<std::shared_ptr<ReadAhead::Blob>> blobs);
  // The versions `diff` brings, parsed and put in `cache` (compact) unless
  // it holds them already; a version that cannot be read is left for the
  // check, which reads it again and reports what is wrong.
  void parse_changed(const std::vector<git::DiffEntry>& diff, const std::string& rev, rules::CheckCache& cache);
  // The version with blob id `id`: this commit's parse, else read.
  Result<LedgerPtr> get(const git::ObjectId& id, const std::string& rev, const std::string& path);
  // The version with blob id `id`, read (by the read-ahead or here).
  Result<LedgerPtr> parse(const git::ObjectId& id, const std::string& rev, const std::string& path);

 private:
  const git::Repository& m_repo;
  ReadAhead* m_ahead = nullptr;
  std::unordered_map<git::ObjectId, LedgerPtr, git::ObjectIdHash> m_fresh;  // this commit's edited ledger versions, by blob id
  // The ledger versions this commit changed, by blob id, each taken once:
  // parsed by the read-ahead, or claimed and parsed here.
  std::unordered_map<git::ObjectId, std::shared_ptr<ReadAhead::Blob>, git::ObjectIdHash> m_prefetched;
};

}  // namespace lg::audit
