// FNV-1a, 64-bit: a small hash whose values are stable across builds and
// machines, for fingerprints that are written out (the audit cache's
// checksums, SARIF's partialFingerprints).
#pragma once

#include <cstdint>
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

}  // namespace lg::util
