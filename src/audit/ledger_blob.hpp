// Ledger versions read by blob id, parsed once for a commit's check and its
// cross-commit invariants. Internal to the audit.
#pragma once

#include <memory>
#include <string>

#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::audit {

using LedgerPtr = std::shared_ptr<const ledger::ProjectLedger>;

// A ledger version read by its raw blob id and parsed in full. Errors: a
// missing object, a blob over git::k_max_blob_bytes.
Result<LedgerPtr> read_ledger_blob(const git::Repository& repo, const git::ObjectId& id);

// Whether `e` brings a new version of a project ledger file (modified or
// added): the versions a commit's check and invariants parse.
bool is_new_ledger_version(const git::DiffEntry& e);

}  // namespace lg::audit
