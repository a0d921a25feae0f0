// FNV-1a, 64-bit: a small hash whose values are stable across builds and
// machines, for fingerprints that are written out (the audit cache's
// checksums, SARIF's partialFingerprints).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace lg::util {

class Fnv1a {
 public:
  void add(std::string_view bytes) {
    for (char c : bytes) add_byte(static_cast<unsigned char>(c));
  }
  void add_byte(unsigned char b) {
    m_value ^= b;
    m_value *= 1099511628211ULL;
  }
  std::uint64_t value() const { return m_value; }

 private:
  std::uint64_t m_value = 1469598103934665603ULL;
};

inline std::uint64_t fnv1a(std::string_view bytes) {
  Fnv1a h;
  h.add(bytes);
  return h.value();
}

// A checksum of large payloads (the persistent cache's entries): eight
// bytes a step, stable across builds and machines (words read little-endian),
// about eight times faster than FNV-1a's byte a step. It detects damage; it
// is no defence against a writer who means harm (nor is FNV-1a). Hash64
// takes the bytes in pieces (a cache entry's header, then its payload,
// never copied together), given their whole length first; hash64 is the
// same over one piece.
namespace hash64_detail {
inline constexpr std::uint64_t k1 = 0x9E3779B97F4A7C15ULL;
inline constexpr std::uint64_t k2 = 0xC2B2AE3D27D4EB4FULL;
inline std::uint64_t seed(std::size_t total) { return 0x27D4EB2F165667C5ULL ^ (static_cast<std::uint64_t>(total) * k1); }
inline std::uint64_t word(const char* p, std::size_t n) {
  std::uint64_t w = 0;
  std::memcpy(&w, p, n);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  return w;
}
inline std::uint64_t mix(std::uint64_t h, std::uint64_t w) {
  return std::rotl(h ^ std::rotl(w * k2, 31) * k1, 27) * k1 + 0x52DCE729;
}
inline std::uint64_t finish(std::uint64_t h) {
  h ^= h >> 33;
  h *= k2;
  h ^= h >> 29;
  h *= k1;
  h ^= h >> 32;
  return h;
}
}  // namespace hash64_detail

class Hash64 {
 public:
  explicit Hash64(std::size_t total) : m_h(hash64_detail::seed(total)) {}
  void add(std::string_view bytes) {
    using namespace hash64_detail;
    const char* p = bytes.data();
    std::size_t n = bytes.size();
    if (m_pending > 0) {
      const std::size_t take = std::min(n, 8 - m_pending);
      std::memcpy(m_word + m_pending, p, take);
      m_pending += take;
      p += take;
      n -= take;
      if (m_pending < 8) return;
      m_h = mix(m_h, word(m_word, 8));
      m_pending = 0;
    }
    for (; n >= 8; p += 8, n -= 8) m_h = mix(m_h, word(p, 8));
    std::memcpy(m_word, p, n);
    m_pending = n;
  }
  std::uint64_t value() const {
    using namespace hash64_detail;
    return finish(m_pending > 0 ? mix(m_h, word(m_word, m_pending)) : m_h);
  }

 private:
  std::uint64_t m_h;
  char m_word[8] = {};
  std::size_t m_pending = 0;
};

// Hash64 over one piece, without its buffer of a partial word (the facts
// pack's row tables hash every key: a third faster this way on short keys).
inline std::uint64_t hash64(std::string_view bytes) {
  using namespace hash64_detail;
  std::uint64_t h = seed(bytes.size());
  const char* p = bytes.data();
  std::size_t n = bytes.size();
  for (; n >= 8; p += 8, n -= 8) h = mix(h, word(p, 8));
  if (n > 0) h = mix(h, word(p, n));
  return finish(h);
}

}  // namespace lg::util
