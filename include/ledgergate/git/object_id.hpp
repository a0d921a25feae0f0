// ObjectId: the one spelling of a git object id above lg::git. A 20-byte
// value (SHA-1) with hex and short forms, ordering and hashing; it names no
// libgit2 type, so modules above git/ never see one. git/ converts to and
// from libgit2's git_oid at its edge (src/git/oid.hpp).
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace lg::git {

class ObjectId {
 public:
  static constexpr std::size_t k_raw_size = 20;
  static constexpr std::size_t k_hex_size = 2 * k_raw_size;
  // The abbreviation ledgergate prints (git's --abbrev=12).
  static constexpr std::size_t k_short_size = 12;

  // The all-zero id: "no object" where git uses it (a ref created or deleted).
  constexpr ObjectId() = default;

  // From 40 hex digits (either case); nullopt otherwise.
  static std::optional<ObjectId> from_hex(std::string_view hex);
  // From 20 bytes the caller guarantees (libgit2's git_oid, a tree entry).
  static ObjectId from_bytes(const unsigned char* bytes) {
    ObjectId id;
    std::memcpy(id.m_bytes.data(), bytes, k_raw_size);
    return id;
  }

  std::string hex() const;
  // Appends the 40 hex digits to `out` (no string of its own).
  void append_hex(std::string& out) const;
  // Writes the 40 hex digits at `out` (no terminator).
  void write_hex(char* out) const;
  // The first `n` hex digits (default 12).
  std::string short_hex(std::size_t n = k_short_size) const { return hex().substr(0, n); }
  // The abbreviation of an id already spelled in hex (a report's field).
  static std::string short_of(std::string_view hex) { return std::string(hex.substr(0, k_short_size)); }
  // The 20 bytes as a string_view (stable while the ObjectId lives).
  std::string_view raw() const { return {reinterpret_cast<const char*>(m_bytes.data()), k_raw_size}; }
  const unsigned char* bytes() const { return m_bytes.data(); }
  bool is_zero() const;

  friend bool operator==(const ObjectId&, const ObjectId&) = default;
  friend std::strong_ordering operator<=>(const ObjectId&, const ObjectId&) = default;

 private:
  std::array<unsigned char, k_raw_size> m_bytes{};
};

// A hash for unordered containers: the id's first bytes are already uniform.
struct ObjectIdHash {
  std::size_t operator()(const ObjectId& id) const noexcept {
    std::size_t h = 0;
    std::memcpy(&h, id.bytes(), sizeof h);
    return h;
  }
};

}  // namespace lg::git

template <>
struct std::hash<lg::git::ObjectId> : lg::git::ObjectIdHash {};
