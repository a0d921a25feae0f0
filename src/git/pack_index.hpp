// The pack indexes of an objects folder (objects/pack/pack-*.idx, version
// 2), mapped read-only, to ask whether many objects are present at once
// (confirm_objects). libgit2 answers one id at a time through its backends,
// about 1,280 instructions an id (the backends' loop, the pack's lock and
// its checks); a lookup here is the fanout table and a binary search.
//
// Only a positive answer is used: an id listed in a pack index whose pack
// file is there is present, as libgit2's own `exists` says from the same
// index. An id not found here (a loose object, an alternate's, a pack
// added since, an index this reader declines) is asked of libgit2.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ledgergate/git/object_id.hpp"

namespace lg::git {

class PackIndexes {
 public:
  // The indexes of `objects_dir`'s packs (a path ending in "objects"): each
  // "pack/pack-*.idx" beside its ".pack" that reads as a version 2 index
  // (magic, version, a fanout table that never decreases, a size that fits
  // its count). Others, and an unreadable folder, are skipped.
  static PackIndexes open(const std::string& objects_dir);

  PackIndexes() = default;
  PackIndexes(PackIndexes&& o) noexcept;
  PackIndexes& operator=(PackIndexes&& o) noexcept;
  PackIndexes(const PackIndexes&) = delete;
  PackIndexes& operator=(const PackIndexes&) = delete;
  ~PackIndexes();

  // Whether an index lists `id`. Not for two threads at once (it keeps
  // which index answered last).
  bool contains(const ObjectId& id) const;
  std::size_t size() const { return m_indexes.size(); }

 private:
  struct Index {
    const unsigned char* map = nullptr;  // the whole file, mapped
    std::size_t length = 0;
    std::uint32_t count = 0;
  };
  static bool lists(const Index& index, const ObjectId& id);
  void unmap();

  std::vector<Index> m_indexes;
  mutable std::size_t m_last = 0;  // the index that listed the last id found
};

}  // namespace lg::git
