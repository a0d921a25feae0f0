// The projects pass's memo (projects_memo.hpp).
#include "projects_memo.hpp"

namespace lg::rules {

namespace {

constexpr long long k_last_kind = static_cast<long long>(git::EntryKind::directory);

void encode_record(cache::Encoder& e, std::string_view name, git::EntryKind kind, std::string_view id,
                   std::string_view inputs, std::span<const diag::Finding> findings) {
  e.number(1);
  e.field(name);
  e.number(static_cast<long long>(kind));
  e.field(id);
  e.field(inputs);
  e.number(static_cast<long long>(findings.size()));
  for (const diag::Finding& f : findings) e.finding(f);
}

}  // namespace

MemoReader::MemoReader(std::string_view payload) : m_d(payload) {
  m_yaml_id = m_d.field_view();
  m_yaml_findings = m_d.findings();
}

// A record after its leading number 1; `out.encoded` is left to the caller.
bool MemoReader::decode_record(cache::Decoder& d, MemoRecord& out) {
  out.name = d.field_view();
  out.kind = static_cast<git::EntryKind>(d.number(0, k_last_kind));
  out.id = d.field_view();
  out.inputs = d.field_view();
  out.findings = d.findings();
  if (!d.ok() || (!out.id.empty() && out.id.size() != git::ObjectId::k_raw_size)) {
    d.fail();
    return false;
  }
  return true;
}

bool MemoReader::next(MemoRecord& out) {
  if (m_records_done || !m_d.ok()) return false;
  const std::string_view at = m_d.rest();
  if (m_d.number(0, 1) == 0) {
    m_records_done = true;
    return false;
  }
  if (!decode_record(m_d, out)) return false;
  out.encoded = at.substr(0, at.size() - m_d.rest().size());
  return true;
}

bool MemoReader::read_record(std::string_view encoded, MemoRecord& out) {
  cache::Decoder d(encoded);
  if (d.number(1, 1) != 1 || !decode_record(d, out) || !d.at_end()) return false;
  out.encoded = encoded;
  return true;
}

std::vector<diag::Finding> MemoReader::active() {
  MemoRecord skipped;
  while (next(skipped)) {
  }
  std::vector<diag::Finding> out = m_d.findings();
  if (!m_d.at_end()) m_d.fail();
  if (!m_d.ok()) out.clear();
  return out;
}

MemoWriter::MemoWriter(std::string_view yaml_id, const std::vector<diag::Finding>& yaml_findings) {
  m_e.field(yaml_id);
  m_e.findings(yaml_findings);
}

void MemoWriter::add(std::string_view name, git::EntryKind kind, std::string_view id, std::string_view inputs,
                     std::span<const diag::Finding> findings) {
  encode_record(m_e, name, kind, id, inputs, findings);
}

std::string MemoWriter::finish(const std::vector<diag::Finding>& active) {
  m_e.number(0);
  m_e.findings(active);
  return m_e.take();
}

std::string MemoWriter::record(std::string_view name, git::EntryKind kind, std::string_view id,
                               std::string_view inputs, std::span<const diag::Finding> findings) {
  cache::Encoder e;
  encode_record(e, name, kind, id, inputs, findings);
  return e.take();
}

}  // namespace lg::rules
