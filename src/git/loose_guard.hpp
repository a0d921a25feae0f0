// The loose-object guard: libgit2 1.5 loops forever inflating a truncated
// loose object (libgit2#7342) and writes out of bounds for one whose header
// declares too small a size (libgit2#7177). guard_loose_reads puts a check in
// front of the loose backend's read and read_header entry points of `repo`'s
// object database: the object's file (if it is loose in the repository's own
// objects folder) is inflated here, bounded, and its header and size
// checked before libgit2 reads it, and its hash too before a header read
// (libgit2 hashes a whole read itself: strict hash verification); a bad one
// is an ODB error naming it.
#pragma once

#include <git2.h>

namespace lg::git {

int guard_loose_reads(git_repository* repo);

}  // namespace lg::git
