// Ledger versions read by blob id, parsed once for a commit's check and its
// cross-commit invariants. Internal to the audit.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "ledgergate/git/libgit2.hpp"  // libgit2 directly, until audit moves onto lg::git
#include "ledgergate/git/repository.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::audit {

using LedgerPtr = std::shared_ptr<const ledger::ProjectLedger>;

// A ledger version read by blob id and parsed in full. Errors: a missing
// object, a blob over git::k_max_blob_bytes.
Result<LedgerPtr> read_ledger_blob(git_repository* repo, const std::string& raw_id);

}  // namespace lg::audit
