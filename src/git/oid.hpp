// The edge between ObjectId and libgit2's git_oid: private to git/.
#pragma once

#include <git2/oid.h>

#include "ledgergate/git/object_id.hpp"

namespace lg::git {

static_assert(sizeof(git_oid) == ObjectId::k_raw_size, "libgit2 built with another hash size");

inline ObjectId from_git(const git_oid& oid) { return ObjectId::from_bytes(oid.id); }
inline git_oid to_git(const ObjectId& id) {
  git_oid oid;
  std::memcpy(oid.id, id.bytes(), ObjectId::k_raw_size);
  return oid;
}

}  // namespace lg::git
