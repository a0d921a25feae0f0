// The projects pass's memo (projects_memo.hpp).
#include "projects_memo.hpp"

#include <cstdint>

namespace lg::rules {

namespace {

constexpr unsigned k_last_kind = static_cast<unsigned>(git::EntryKind::directory);
constexpr char k_record = 'r';
constexpr char k_end = 'e';
// What an empty findings list encodes to (cache::Encoder::findings).
constexpr std::string_view k_no_findings = "1:0";

void put32(std::string& out, std::size_t n) {
  for (int shift = 0; shift < 32; shift += 8) out += static_cast<char>((n >> shift) & 0xff);
}

// A length-prefixed part at `at` of `in`, advancing `at`; false when it does not fit.
bool get_part(std::string_view in, std::size_t& at, std::string_view& out) {
  if (in.size() - at < 4) return false;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data() + at);
  const std::size_t size = std::size_t{p[0]} | std::size_t{p[1]} << 8 | std::size_t{p[2]} << 16 | std::size_t{p[3]} << 24;
  at += 4;
  if (in.size() - at < size) return false;
  out = in.substr(at, size);
  at += size;
  return true;
}

std::string encode_findings(std::span<const diag::Finding> findings) {
  cache::Encoder e;
  e.number(static_cast<long long>(findings.size()));
  for (const diag::Finding& f : findings) e.finding(f);
  return e.take();
}

void encode_record(std::string& out, std::string_view name, git::EntryKind kind, std::string_view id,
                   std::string_view inputs, std::span<const diag::Finding> findings) {
  out += k_record;
  put32(out, name.size());
  out += name;
  out += static_cast<char>(kind);
  put32(out, id.size());
  out += id;
  put32(out, inputs.size());
  out += inputs;
  if (findings.empty()) {
    put32(out, k_no_findings.size());
    out += k_no_findings;
  } else {
    const std::string encoded = encode_findings(findings);
    put32(out, encoded.size());
    out += encoded;
  }
}

}  // namespace

bool MemoRecord::decode_findings() {
  findings.clear();
  if (encoded_findings == k_no_findings) return true;
  cache::Decoder d(encoded_findings);
  findings = d.findings();
  if (d.ok() && d.at_end()) return true;
  findings.clear();
  return false;
}

MemoReader::MemoReader(std::string_view payload) : m_d(payload) {
  m_yaml_id = m_d.field_view();
  m_yaml_findings = m_d.findings();
}

std::size_t MemoReader::decode_record(std::string_view in, MemoRecord& out) {
  std::size_t at = 0;
  if (!get_part(in, at, out.name) || in.size() - at < 1) return 0;
  const auto k = static_cast<unsigned char>(in[at++]);
  if (k > k_last_kind) return 0;
  out.kind = static_cast<git::EntryKind>(k);
  if (!get_part(in, at, out.id) || !get_part(in, at, out.inputs) || !get_part(in, at, out.encoded_findings)) return 0;
  if (!out.id.empty() && out.id.size() != git::ObjectId::k_raw_size) return 0;
  return at;
}

bool MemoReader::next(MemoRecord& out) {
  if (m_records_done || !m_d.ok()) return false;
  const std::string_view in = m_d.rest();
  if (in.empty() || (in[0] != k_record && in[0] != k_end)) {
    m_d.fail();
    return false;
  }
  if (in[0] == k_end) {
    m_d.skip(1);
    m_records_done = true;
    return false;
  }
  const std::size_t size = decode_record(in.substr(1), out);
  if (size == 0) {
    m_d.fail();
    return false;
  }
  out.encoded = in.substr(0, 1 + size);
  m_d.skip(1 + size);
  return true;
}

bool MemoReader::read_record(std::string_view encoded, MemoRecord& out) {
  if (encoded.empty() || encoded[0] != k_record) return false;
  if (decode_record(encoded.substr(1), out) + 1 != encoded.size() || !out.decode_findings()) return false;
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
  cache::Encoder e;
  e.field(yaml_id);
  e.findings(yaml_findings);
  block() += e.text();
}

std::string& MemoWriter::block() {
  if (m_blocks.empty() || m_blocks.back().size() >= k_block) {
    m_blocks.emplace_back().reserve(k_block);
  }
  return m_blocks.back();
}

void MemoWriter::add(std::string_view name, git::EntryKind kind, std::string_view id, std::string_view inputs,
                     std::span<const diag::Finding> findings) {
  encode_record(block(), name, kind, id, inputs, findings);
}

std::string MemoWriter::finish(const std::vector<diag::Finding>& active) {
  std::string& last = block();
  last += k_end;
  cache::Encoder e;
  e.findings(active);
  last += e.text();
  if (m_blocks.size() == 1) return std::move(m_blocks.front());
  std::size_t size = 0;
  for (const std::string& b : m_blocks) size += b.size();
  std::string out;
  out.reserve(size);
  for (std::string& b : m_blocks) {
    out += b;
    std::string().swap(b);
  }
  m_blocks.clear();
  return out;
}

std::string MemoWriter::record(std::string_view name, git::EntryKind kind, std::string_view id,
                               std::string_view inputs, std::span<const diag::Finding> findings) {
  std::string out;
  encode_record(out, name, kind, id, inputs, findings);
  return out;
}

}  // namespace lg::rules
