// A set of byte strings, each with a 32-bit value, in little memory: the
// strings lie back to back in 64 KiB blocks (one longer has a block of its
// own), each after its length (util/varint.hpp), and an open-addressing table
// of 8-byte slots finds them, at most 70% full. A look-up compares the
// bytes whole: two strings are the same key only when they are equal. A
// string of some 80 bytes costs about 95 bytes here against some 290 in an
// std::unordered_map<std::string, ...> with its node, its heap copy and
// its bucket (the check cache's findings memo at 20,000 ledgers: 5.8 MB).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lg::util {

class StringTable {
 public:
  // The value kept for `key`; nullopt when it has none.
  std::optional<std::uint32_t> find(std::string_view key) const;
  // Keeps `value` for `key` unless it has one already (then unchanged);
  // whether it was new.
  bool insert(std::string_view key, std::uint32_t value);
  // Sets the value of a kept key; false (nothing kept) when it has none.
  bool assign(std::string_view key, std::uint32_t value);
  std::size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }
  // The bytes held: the blocks' capacity and the slots.
  std::size_t memory() const;
  void clear();
  // Calls fn(key, value) for every key kept, in no particular order. The
  // views stay valid until clear(): a kept key's bytes never move.
  template <class Fn>
  void for_each(Fn&& fn) const {
    for (const Slot& s : m_slots) {
      if (s.ref != 0) fn(key_of(s), s.value);
    }
  }

 private:
  struct Slot {
    std::uint32_t ref = 0;  // 0: an empty slot; else 1 + (the block's index << 16 | where the key starts)
    std::uint32_t value = 0;
  };
  static constexpr std::size_t k_block = std::size_t{64} << 10;
  std::string_view key_of(const Slot& s) const;
  // The slot holding `key`, else the empty one where it would go.
  std::size_t probe(std::string_view key) const;
  void grow();

  std::vector<std::string> m_blocks;  // each reserved whole: appending never moves a key
  std::vector<Slot> m_slots;          // a power of two long, or empty
  std::size_t m_size = 0;
};

}  // namespace lg::util
