// The cache's payload encoding: length-prefixed fields ("5:hello"), numbers
// as fields, findings as their fields in order. The decoder never trusts
// its input: any malformed field, out-of-range number or unknown rule id
// turns it not-ok and every later read returns empty values.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"

namespace lg::cache {

class Encoder {
 public:
  Encoder() = default;
  // An encoder that hands what it writes to `sink` in pieces of about
  // 64 KiB (a long raw() at once), holding no more: a payload of megabytes
  // (the facts pack) goes to its file, not into one string. flush() hands
  // over the rest; text() and take() then hold nothing.
  using Sink = std::function<void(std::string_view)>;
  explicit Encoder(Sink sink) : m_sink(std::move(sink)) {}

  void field(std::string_view s);
  void number(long long n);
  void finding(const diag::Finding& f);
  void findings(const std::vector<diag::Finding>& list);
  // Bytes another Encoder wrote (a field, or fields, kept as they were read).
  void raw(std::string_view encoded);
  void reserve(std::size_t bytes) { m_out.reserve(bytes); }
  void flush();
  const std::string& text() const { return m_out; }
  std::string take() { return std::move(m_out); }

 private:
  static constexpr std::size_t k_piece = std::size_t{64} << 10;
  void spill() {
    if (m_sink && m_out.size() >= k_piece) flush();
  }
  std::string m_out;
  Sink m_sink;
};

class Decoder {
 public:
  explicit Decoder(std::string_view in) : m_in(in) {}
  bool ok() const { return m_ok; }
  bool at_end() const { return m_in.empty(); }
  // What is left to read (empty when not ok).
  std::string_view rest() const { return m_ok ? m_in : std::string_view(); }
  std::string field();
  std::string_view field_view();  // a view into the input (empty when not ok)
  long long number(long long lo, long long hi);
  diag::Finding finding();
  std::vector<diag::Finding> findings();
  // Skips `n` bytes the caller has matched whole fields against (rest()).
  void skip(std::size_t n) {
    if (m_ok && n <= m_in.size()) {
      m_in.remove_prefix(n);
    } else {
      fail();
    }
  }
  void fail() { m_ok = false; }

 private:
  std::string_view m_in;
  bool m_ok = true;
};

}  // namespace lg::cache
