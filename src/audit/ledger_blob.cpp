// Ledger versions read by blob id, for the audit's invariants and its
// incremental check.
#include "ledger_blob.hpp"

#include "ledgergate/git/tree_source.hpp"

namespace lg::audit {

namespace {

// The blob with raw id `raw_id`, refused over the size limit.
Result<git::BlobPtr> lookup(git_repository* repo, const std::string& raw_id) {
  git_oid oid;
  git_oid_fromraw(&oid, reinterpret_cast<const unsigned char*>(raw_id.data()));
  git_blob* raw = nullptr;
  if (int rc = git_blob_lookup(&raw, repo, &oid); rc < 0) return git::libgit2_error(rc, "reading blob " + git::oid_hex(oid));
  git::BlobPtr blob(raw);
  const auto size = static_cast<std::size_t>(git_blob_rawsize(blob.get()));
  if (size > git::k_max_blob_bytes) {
    return make_error(ErrorKind::invalid_input, std::to_string(size) + " bytes is over the " +
                                                    std::to_string(git::k_max_blob_bytes) + "-byte limit");
  }
  return blob;
}

std::string_view bytes_of(const git::BlobPtr& blob) {
  return std::string_view(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                          static_cast<std::size_t>(git_blob_rawsize(blob.get())));
}

}  // namespace

Result<LedgerPtr> read_ledger_blob(git_repository* repo, const std::string& raw_id) {
  LG_TRY(git::BlobPtr blob, lookup(repo, raw_id));
  return std::make_shared<const ledger::ProjectLedger>(ledger::parse_project_ledger(bytes_of(blob)));
}

bool is_new_ledger_version(const git::DiffEntry& e) {
  return (e.status == "M" || e.status == "A") && ledger::is_project_ledger_path(e.path) && !e.new_id.empty() &&
         (e.new_kind == git::EntryKind::file || e.new_kind == git::EntryKind::executable);
}

}  // namespace lg::audit
