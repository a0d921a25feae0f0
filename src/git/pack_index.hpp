// The pack indexes of an objects folder (objects/pack/pack-*.idx, version
// 2), mapped read-only (util::FileBytes), to ask whether many objects are
// present at once (confirm_objects). libgit2 answers one id at a time through its backends,
// about 1,280 instructions an id (the backends' loop, the pack's lock and
// its checks); a lookup here is the fanout table and a binary search.
//
// Only a positive answer is used: an id listed in a pack index whose pack
// file is there is present, as libgit2's own `exists` says from the same
// index. An id not found here (a loose object, an alternate's, a pack
// added since, an index this reader declines) is asked of libgit2.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/util/file_bytes.hpp"

namespace lg::git {

class PackIndexes {
 public:
  // The indexes of `objects_dir`'s packs (a path ending in "objects"): each
  // "pack/pack-*.idx" beside its ".pack" that reads as a version 2 index
  // (magic, version, a fanout table that never decreases, a size that fits
  // its count). Others, and an unreadable folder, are skipped.
  static PackIndexes open(const std::string& objects_dir);

  // Whether an index lists `id`. Not for two threads at once (it keeps
  // which index answered last).
  bool contains(const ObjectId& id) const;
  // Says no id below `id` will be asked again (ids asked in ascending
  // order): each index's id table before `id`'s first-byte bucket is given
  // back to the system as the sweep passes it (util::PagesBehind). 20,000
  // ids asked of a 290,000-object index touch every page of its 5.8 MB id
  // table; so they are not all held at once.
  void passed(const ObjectId& id);
  std::size_t size() const { return m_indexes.size(); }

 private:
  struct Index {
    std::shared_ptr<const util::FileBytes> file;  // mapped, or read when small
    std::uint32_t count = 0;
    // The fanout table, copied: every look-up reads it, and read where it
    // lies it would keep the file's first pages (and the large folio they
    // are in) resident through a sweep.
    std::array<std::uint32_t, 256> fanout{};
    util::PagesBehind behind{nullptr};
  };
  static bool lists(const Index& index, const ObjectId& id);

  std::vector<Index> m_indexes;
  mutable std::size_t m_last = 0;  // the index that listed the last id found
};

}  // namespace lg::git
