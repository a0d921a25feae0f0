// The projects pass's memo (docs/cache.md): what the last cortex-projects
// pass found, entry by entry, in listing order, for the projects.yaml blob
// it checked against. A ledger's findings are a function of its path, kind,
// blob and projects.yaml row (the facts pack's key says the same), so a
// later pass over a tree with the same projects.yaml walks its listing and
// the memo side by side: an entry whose name, kind and blob are the memo's
// has the memo's findings, and only the entries that differ are read. The
// memo is read where it lies, record by record, and nothing is built per
// ledger: a pre-commit hook on a 20,000-ledger tree compares 20,000 names
// and ids and reads the one staged ledger.
//
// Payload: the projects.yaml blob id and its findings (cache/codec.hpp
// fields); the records, each a byte 'r' and then, in binary (lengths as
// 32-bit little-endian numbers), its name, kind, raw id, row inputs and
// encoded findings — a record is read in a few dozen instructions, where
// codec fields cost hundreds, and its findings are decoded only when used;
// a byte 'e'; the active-row findings. The journal — what later passes
// found that the memo lacks, until it is folded into a new memo — has the
// same layout, with no findings of its own.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/cache/codec.hpp"
#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/tree_source.hpp"

namespace lg::rules {

// One entry of projects/ as a pass judged it.
struct MemoRecord {
  std::string_view name;
  git::EntryKind kind = git::EntryKind::file;
  std::string_view id;      // the blob's 20 raw bytes ("" when the source gave none)
  std::string_view inputs;  // projects_step_row_inputs of the entry's key
  std::string_view encoded_findings;
  std::string_view encoded;  // the record as stored (what a rewrite copies)
  // Its findings, once decode_findings() (or read_record) decoded them.
  std::vector<diag::Finding> findings;

  // Decodes encoded_findings into findings; false when they do not decode exactly.
  bool decode_findings();

  // Whether `entry` is this record's entry (name, kind and blob).
  bool matches(const git::EntryView& entry) const {
    return entry.name == name && entry.kind == kind && entry.has_id && entry.id.raw() == id;
  }
};

// Reads a payload in order. Any malformed field turns it not-ok for good:
// the caller then drops everything it took from it.
class MemoReader {
 public:
  // Reads the head: the projects.yaml id and findings.
  explicit MemoReader(std::string_view payload);
  bool ok() const { return m_d.ok(); }
  std::string_view yaml_id() const { return m_yaml_id; }
  const std::vector<diag::Finding>& yaml_findings() const { return m_yaml_findings; }
  // The next record into `out`; false after the last one (see ok()).
  bool next(MemoRecord& out);
  // Where in the payload the next record starts.
  const char* position() const { return m_d.rest().data(); }
  // After the last record: the active-row findings; ok() after it only
  // when the payload ends there.
  std::vector<diag::Finding> active();

  // One record encoded on its own (MemoWriter::record); false when it is not exactly one.
  static bool read_record(std::string_view encoded, MemoRecord& out);

 private:
  // A record at the start of `in` (after its 'r'); its size, 0 when malformed.
  static std::size_t decode_record(std::string_view in, MemoRecord& out);

  cache::Decoder m_d;
  std::string_view m_yaml_id;
  std::vector<diag::Finding> m_yaml_findings;
  bool m_records_done = false;
};

// Writes a payload: the head, records in listing order, the active-row findings.
//
// The payload grows in blocks of k_block bytes, each reserved whole: a
// block that large is mapped on its own (main's M_MMAP_THRESHOLD), so only
// its written pages are resident and a freed one goes back at once. One
// string grown by doubling held up to twice its bytes, and both its old and
// new buffers while it grew: at 20,000 ledgers the pass's memo is 1.5 MB,
// and its last growth was the peak of a check writing an empty persistent
// cache (41.2-41.4 -> 39.6-39.8 MB, 2-core Intel Xeon VM).
class MemoWriter {
 public:
  static constexpr std::size_t k_block = std::size_t{2} << 20;

  MemoWriter(std::string_view yaml_id, const std::vector<diag::Finding>& yaml_findings);
  void add(std::string_view name, git::EntryKind kind, std::string_view id, std::string_view inputs,
           std::span<const diag::Finding> findings);
  void add_encoded(std::string_view record) { block() += record; }
  // The payload: the one block as it is, else the blocks joined, each let
  // go once copied.
  std::string finish(const std::vector<diag::Finding>& active);

  // One record, encoded on its own (a journal's).
  static std::string record(std::string_view name, git::EntryKind kind, std::string_view id,
                            std::string_view inputs, std::span<const diag::Finding> findings);

 private:
  // The block to append to: the last, or a new one once it is full. A
  // record goes whole into one block (one longer than k_block grows it).
  std::string& block();

  std::vector<std::string> m_blocks;
};

}  // namespace lg::rules
