// FNV-1a, 64-bit: a small hash whose values are stable across builds and
// machines, for fingerprints that are written out (the audit cache's
// checksums, SARIF's partialFingerprints).
#pragma once

#include <bit>
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
// is no defence against a writer who means harm (nor is FNV-1a).
inline std::uint64_t hash64(std::string_view bytes) {
  constexpr std::uint64_t k1 = 0x9E3779B97F4A7C15ULL;
  constexpr std::uint64_t k2 = 0xC2B2AE3D27D4EB4FULL;
  const auto word = [](const char* p, std::size_t n) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
    return w;
  };
  const auto mix = [](std::uint64_t h, std::uint64_t w) { return std::rotl(h ^ std::rotl(w * k2, 31) * k1, 27) * k1 + 0x52DCE729; };
  std::uint64_t h = 0x27D4EB2F165667C5ULL ^ (static_cast<std::uint64_t>(bytes.size()) * k1);
  const char* p = bytes.data();
  std::size_t n = bytes.size();
  for (; n >= 8; p += 8, n -= 8) h = mix(h, word(p, 8));
  if (n > 0) h = mix(h, word(p, n));
  h ^= h >> 33;
  h *= k2;
  h ^= h >> 29;
  h *= k1;
  h ^= h >> 32;
  return h;
}

}  // namespace lg::util
