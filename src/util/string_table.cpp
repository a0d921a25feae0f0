#include "ledgergate/util/string_table.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "ledgergate/util/varint.hpp"

namespace lg::util {

std::string_view StringTable::key_of(const Slot& s) const {
  const std::uint32_t ref = s.ref - 1;
  const std::string& block = m_blocks[ref >> 16];
  std::size_t at = ref & 0xffffu;
  const std::size_t size = varint_at(block.data(), at);
  return {block.data() + at, size};
}

std::size_t StringTable::probe(std::string_view key) const {
  const std::size_t mask = m_slots.size() - 1;
  for (std::size_t i = std::hash<std::string_view>{}(key) & mask;; i = (i + 1) & mask) {
    const Slot& s = m_slots[i];
    if (s.ref == 0 || key_of(s) == key) return i;
  }
}

std::optional<std::uint32_t> StringTable::find(std::string_view key) const {
  if (m_slots.empty()) return std::nullopt;
  const Slot& s = m_slots[probe(key)];
  if (s.ref == 0) return std::nullopt;
  return s.value;
}

bool StringTable::insert(std::string_view key, std::uint32_t value) {
  if ((m_size + 1) * 10 > m_slots.size() * 7) grow();
  Slot& s = m_slots[probe(key)];
  if (s.ref != 0) return false;
  const std::size_t record = varint_size(key.size()) + key.size();
  // A key starts within the first 64 KiB of its block (the slot has 16
  // bits for it): a record that does not fit the last block's room, or
  // would start past that, opens a block (one longer than a block, its own).
  if (m_blocks.empty() || m_blocks.back().size() > 0xffffu ||
      m_blocks.back().capacity() - m_blocks.back().size() < record) {
    if (m_blocks.size() >= 0xffffu) throw std::length_error("StringTable: more than 4 GiB of keys");
    m_blocks.emplace_back().reserve(std::max(k_block, record));
  }
  std::string& block = m_blocks.back();
  s = Slot{1 + static_cast<std::uint32_t>((m_blocks.size() - 1) << 16 | block.size()), value};
  append_varint(block, key.size());
  block.append(key);
  ++m_size;
  return true;
}

bool StringTable::assign(std::string_view key, std::uint32_t value) {
  if (m_slots.empty()) return false;
  Slot& s = m_slots[probe(key)];
  if (s.ref == 0) return false;
  s.value = value;
  return true;
}

void StringTable::grow() {
  std::vector<Slot> old = std::move(m_slots);
  m_slots.assign(old.empty() ? 64 : old.size() * 2, Slot{});
  for (const Slot& s : old) {
    if (s.ref != 0) m_slots[probe(key_of(s))] = s;
  }
}

std::size_t StringTable::memory() const {
  std::size_t bytes = m_slots.capacity() * sizeof(Slot);
  for (const std::string& b : m_blocks) bytes += b.capacity();
  return bytes;
}

void StringTable::clear() {
  m_blocks.clear();
  m_blocks.shrink_to_fit();
  m_slots.clear();
  m_slots.shrink_to_fit();
  m_size = 0;
}

}  // namespace lg::util
