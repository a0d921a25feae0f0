// Lengths in 7-bit bytes, the low bits first, the top bit set on every byte
// but the last: a length under 128 is one byte. The field lengths of a
// projects.yaml row (rules::ProjectFields) and util::StringTable's keys.
#pragma once

#include <cstddef>
#include <string>

namespace lg::util {

// The bytes append_varint writes for `n`.
constexpr std::size_t varint_size(std::size_t n) {
  std::size_t size = 1;
  for (; n >= 0x80; n >>= 7) ++size;
  return size;
}

inline void append_varint(std::string& out, std::size_t n) {
  do {
    out += static_cast<char>((n & 0x7Fu) | (n >= 0x80 ? 0x80u : 0u));
    n >>= 7;
  } while (n != 0);
}

// A length of 128 or more at `data + at`, its first byte `first` read.
inline std::size_t long_varint_at(const char* data, std::size_t& at, unsigned char first) {
  std::size_t n = first & 0x7Fu;
  for (unsigned shift = 7;; shift += 7) {
    const auto b = static_cast<unsigned char>(data[at++]);
    n |= static_cast<std::size_t>(b & 0x7Fu) << shift;
    if ((b & 0x80u) == 0) return n;
  }
}

// The length append_varint wrote at `data + at`; `at` moves past it. The
// bytes must hold it whole (what this process wrote).
inline std::size_t varint_at(const char* data, std::size_t& at) {
  const auto b = static_cast<unsigned char>(data[at++]);
  return b < 0x80 ? b : long_varint_at(data, at, b);
}

}  // namespace lg::util
