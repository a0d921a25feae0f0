// The loose-object guard: libgit2 1.5 loops forever inflating a truncated
// loose object (libgit2#7342) and writes out of bounds for one whose header
// declares too small a size (libgit2#7177). guard_loose_reads puts a check in
// front of the loose backend's read and read_header entry points of `repo`'s
// object database: the object's file (if it is loose in the repository's own
// objects folder) is inflated here, its header first, then its body into a
// buffer of the stated size and never past it; its hash is checked too, on
// a whole read and a header read alike (libgit2's strict hash verification
// is off: packed objects are not re-hashed). A loose object the guard
// leaves to libgit2 (an alternate's, a push quarantine's) is hashed after
// libgit2's read. A header read of an object stating more than
// k_max_blob_bytes stops at the header, so a small file that inflates to
// gigabytes is refused for its size at the cost of its first bytes; a bad
// object is an ODB error naming it.
#pragma once

#include <git2.h>

namespace lg::git {

int guard_loose_reads(git_repository* repo);

// Whether the object `id` is in `odb` and intact, as cheaply as a cached
// verdict's check of its objects can afford (confirm_objects): a loose one
// in a guarded folder by a header read (its file inflated and hashed), a
// packed or in-memory one by its backend's `exists` (the pack's index).
// 0, GIT_ENOTFOUND, or an error with its message set.
int confirm_object(git_odb* odb, const git_oid* id);

}  // namespace lg::git
