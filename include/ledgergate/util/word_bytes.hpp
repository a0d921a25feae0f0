// Eight bytes of text tested at once (a word read with memcpy): each
// result holds 0x80 exactly in the bytes the test holds for, and 0 in the
// others (no carry crosses a byte), so results combine with | and & and a
// word with none is passed over whole. For the scans of every text read
// (ledger::decode_text's control characters, the YAML reader's input
// check). And the big-endian numbers git's files hold.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace lg::util {

inline constexpr std::uint64_t k_byte_ones = 0x0101010101010101ULL;
inline constexpr std::uint64_t k_byte_highs = 0x8080808080808080ULL;

// 0x80 in each byte of `word` below `bound` (at most 0x80).
constexpr std::uint64_t bytes_below(std::uint64_t word, unsigned bound) {
  constexpr std::uint64_t k_low7 = 0x7F7F7F7F7F7F7F7FULL;
  return ~(((word & k_low7) + (0x80 - bound) * k_byte_ones) | word) & k_byte_highs;
}

// 0x80 in each byte of `word` equal to `byte`.
constexpr std::uint64_t bytes_equal(std::uint64_t word, unsigned char byte) {
  return bytes_below(word ^ (byte * k_byte_ones), 1);
}

// The big-endian number the four or eight bytes at `p` hold: git's index
// and pack-index fields, and an object id's first eight bytes (ordered as
// the ids are, byte by byte).
inline std::uint32_t load_be32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
}
inline std::uint64_t load_be64(const unsigned char* p) {
  std::uint64_t w = 0;
  std::memcpy(&w, p, sizeof w);
  if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap64(w);
  return w;
}

}  // namespace lg::util
