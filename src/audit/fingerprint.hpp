// What compare_ledgers reads of a ledger version, kept per ledger path
// between commits and so kept small (2,000 ledgers' logs at once): per run
// its ident and line; per log entry its line and hashes of its date and kind
// and of its text (with the text's size). A rebuilt version takes the texts,
// dates and kinds themselves from the version after it. Private to audit/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ledger_blob.hpp"

namespace lg::audit {

struct Fingerprint {
  struct Entry {
    std::uint64_t head = 0;  // date and kind
    std::uint64_t hash = 0;  // text
    std::uint32_t size = 0;
    int line = 0;
  };
  struct Run {
    std::string ident;
    int line = 0;
  };
  std::vector<Entry> log;
  std::vector<Run> runs;
};

Fingerprint fingerprint(const ledger::ProjectLedger& full);

// The version `fp` describes, when `after` only prepended log entries to
// it: its entries are then `after`'s last ones (equal hashes and sizes), at
// their old lines. nullptr otherwise: the caller reads the old version. The
// rebuilt runs carry only what compare_ledgers reads of an old version's
// runs: ident and line.
LedgerPtr rebuild_before(const Fingerprint& fp, const ledger::ProjectLedger& after);

}  // namespace lg::audit
