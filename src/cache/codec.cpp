// The cache's payload encoding (codec.hpp).
#include "ledgergate/cache/codec.hpp"

#include <algorithm>

#include "ledgergate/diag/rule_table.hpp"

namespace lg::cache {

void Encoder::field(std::string_view s) {
  m_out += std::to_string(s.size());
  m_out += ':';
  m_out += s;
  spill();
}

void Encoder::raw(std::string_view encoded) {
  if (m_sink && encoded.size() >= k_piece) {
    flush();
    m_sink(encoded);
    return;
  }
  m_out += encoded;
  spill();
}

void Encoder::flush() {
  if (!m_sink || m_out.empty()) return;
  m_sink(m_out);
  m_out.clear();
}

void Encoder::number(long long n) { field(std::to_string(n)); }

void Encoder::finding(const diag::Finding& f) {
  field(f.rule);
  number(static_cast<int>(f.severity));
  field(f.location.rev);
  field(f.location.path);
  number(f.location.line);
  number(f.location.column);
  field(f.message);
  number(static_cast<int>(f.peer));
  number(f.cannot_judge ? 1 : 0);
}

void Encoder::findings(const std::vector<diag::Finding>& list) {
  number(static_cast<long long>(list.size()));
  for (const diag::Finding& f : list) finding(f);
}

std::string_view Decoder::field_view() {
  if (!m_ok) return {};
  // The length: 1 to 12 digits, then ':' (read in one pass: no search first).
  const std::size_t limit = std::min<std::size_t>(m_in.size(), 13);
  std::size_t size = 0;
  std::size_t colon = 0;
  for (; colon < limit && m_in[colon] != ':'; ++colon) {
    const char c = m_in[colon];
    if (c < '0' || c > '9') {
      fail();
      return {};
    }
    size = size * 10 + static_cast<std::size_t>(c - '0');
  }
  if (colon == 0 || colon == limit || m_in.size() - colon - 1 < size) {
    fail();
    return {};
  }
  const std::string_view out = m_in.substr(colon + 1, size);
  m_in.remove_prefix(colon + 1 + size);
  return out;
}

std::string Decoder::field() { return std::string(field_view()); }

long long Decoder::number(long long lo, long long hi) {
  const std::string_view text = field_view();
  if (!m_ok || text.empty() || text.size() > 12) {
    fail();
    return 0;
  }
  const bool negative = text[0] == '-';
  if (negative && text.size() == 1) {
    fail();
    return 0;
  }
  long long n = 0;
  for (std::size_t i = negative ? 1 : 0; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') {
      fail();
      return 0;
    }
    n = n * 10 + (text[i] - '0');
  }
  if (negative) n = -n;
  if (n < lo || n > hi) {
    fail();
    return 0;
  }
  return n;
}

diag::Finding Decoder::finding() {
  diag::Finding f;
  f.rule = field();
  f.severity = static_cast<diag::Severity>(number(0, 2));
  f.location.rev = field();
  f.location.path = field();
  f.location.line = static_cast<int>(number(0, (1LL << 31) - 1));
  f.location.column = static_cast<int>(number(0, (1LL << 31) - 1));
  f.message = field();
  f.peer = static_cast<diag::PeerForm>(number(0, 2));
  f.cannot_judge = number(0, 1) == 1;
  if (m_ok && diag::find_rule(f.rule) == nullptr) fail();  // a rule this build does not know
  return f;
}

std::vector<diag::Finding> Decoder::findings() {
  const long long n = number(0, 1 << 24);
  std::vector<diag::Finding> out;
  if (m_ok) out.reserve(static_cast<std::size_t>(std::min<long long>(n, 1024)));
  for (long long i = 0; m_ok && i < n; ++i) out.push_back(finding());
  return out;
}

}  // namespace lg::cache
