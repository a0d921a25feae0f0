// Ledger versions read by blob id, for the audit's invariants and its
// incremental check.
#include "ledger_blob.hpp"

#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/ledger/profile.hpp"

namespace lg::audit {

Result<LedgerPtr> read_ledger_blob(const git::Repository& repo, const git::ObjectId& id) {
  auto bytes = git::read_blob(repo, id);
  if (!bytes) return bytes.error().with_context("reading blob " + id.hex());
  if (bytes->size() > git::k_max_blob_bytes) {
    return make_error(ErrorKind::invalid_input, std::to_string(bytes->size()) + " bytes is over the " +
                                                    std::to_string(git::k_max_blob_bytes) + "-byte limit");
  }
  return std::make_shared<const ledger::ProjectLedger>(ledger::parse_project_ledger(*bytes));
}

bool is_new_ledger_version(const git::DiffEntry& e) {
  return (e.status == "M" || e.status == "A") && ledger::is_project_ledger_path(e.path) && e.new_id &&
         (e.new_kind == git::EntryKind::file || e.new_kind == git::EntryKind::executable);
}

}  // namespace lg::audit
