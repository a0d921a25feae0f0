// Ledger fingerprints, and the old version rebuilt from one.
#include "fingerprint.hpp"

#include <functional>
#include <string_view>

namespace lg::audit {

namespace {

std::uint64_t text_hash(std::string_view text) { return std::hash<std::string_view>{}(text); }
std::uint64_t head_hash(const ledger::LogEntry& e) { return text_hash(e.date) * 0x9E3779B97F4A7C15ULL ^ text_hash(e.kind); }

}  // namespace

Fingerprint fingerprint(const ledger::ProjectLedger& full) {
  Fingerprint fp;
  fp.runs.reserve(full.runs.size());
  for (const ledger::RunLine& r : full.runs) fp.runs.push_back({r.ident, r.line});
  fp.log.reserve(full.log.size());
  for (const ledger::LogEntry& e : full.log) {
    fp.log.push_back({head_hash(e), text_hash(e.text), static_cast<std::uint32_t>(e.text.size()), e.line});
  }
  return fp;
}

LedgerPtr rebuild_before(const Fingerprint& fp, const ledger::ProjectLedger& after) {
  if (after.log.size() < fp.log.size()) return nullptr;
  const std::size_t k = after.log.size() - fp.log.size();
  auto before = std::make_shared<ledger::ProjectLedger>();
  before->runs.reserve(fp.runs.size());
  for (const Fingerprint::Run& r : fp.runs) {
    ledger::RunLine run;
    run.ident = r.ident;
    run.line = r.line;
    before->runs.push_back(std::move(run));
  }
  before->log.reserve(fp.log.size());
  for (std::size_t i = 0; i < fp.log.size(); ++i) {
    const Fingerprint::Entry& old = fp.log[i];
    const ledger::LogEntry& now = after.log[k + i];
    if (old.size != now.text.size() || old.hash != text_hash(now.text) || old.head != head_hash(now)) {
      return nullptr;
    }
    before->log.push_back(ledger::LogEntry{now.date, now.kind, now.text, old.line});
  }
  return before;
}

}  // namespace lg::audit
