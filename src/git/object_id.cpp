// ObjectId's hex forms.
#include "ledgergate/git/object_id.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace lg::git {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<ObjectId> ObjectId::from_hex(std::string_view hex) {
  if (hex.size() != k_hex_size) return std::nullopt;
  ObjectId id;
  for (std::size_t i = 0; i < k_raw_size; ++i) {
    const int hi = hex_value(hex[2 * i]);
    const int lo = hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    id.m_bytes[i] = static_cast<unsigned char>(hi * 16 + lo);
  }
  return id;
}

std::string ObjectId::hex() const {
  std::string out;
  append_hex(out);
  return out;
}

void ObjectId::append_hex(std::string& out) const {
  char hex[k_hex_size];
  write_hex(hex);
  out.append(hex, k_hex_size);
}

void ObjectId::write_hex(char* out) const {
  // Two digits a byte, from a table of all 256.
  static constexpr auto k_pairs = [] {
    constexpr char digits[] = "0123456789abcdef";
    std::array<char, 512> t{};
    for (std::size_t b = 0; b < 256; ++b) {
      t[2 * b] = digits[b >> 4];
      t[2 * b + 1] = digits[b & 0xf];
    }
    return t;
  }();
  for (std::size_t i = 0; i < k_raw_size; ++i) std::memcpy(out + 2 * i, &k_pairs[2 * std::size_t{m_bytes[i]}], 2);
}

bool ObjectId::is_zero() const {
  return std::all_of(m_bytes.begin(), m_bytes.end(), [](unsigned char b) { return b == 0; });
}

}  // namespace lg::git
