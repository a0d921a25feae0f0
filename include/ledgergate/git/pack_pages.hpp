// The resident pages of the pack files libgit2 has mapped into this process.
//
// libgit2 reads packs through mmap'ed windows and, under its mapped limit,
// never unmaps them: a walk over a whole history ends with every page of the
// pack it touched resident (all of a 27 MB pack at 2,000 projects ×
// 20,000 commits). A smaller mapped limit bounds that, but at the price of
// unmapping and remapping windows all the time (1.6x the walk's time
// measured, each munmap a cross-core TLB shootdown). Dropping the pages
// every so often instead keeps the mappings and gives the memory back: the
// pages are clean and shared with the page cache, so a later read faults
// them back in from memory, not from disk.
#pragma once

#include <cstddef>

namespace lg::git {

// Drops the resident pages of every pack mapped in this process (a mapping
// of a file named `*.pack` in an `objects/pack/` folder), keeping the
// mappings, and returns how many bytes of mappings it advised. Linux only
// (0 elsewhere, or when /proc/self/maps cannot be read).
//
// The caller must know that no other thread is inside libgit2 meanwhile: a
// window libgit2 unmaps between our reading of /proc/self/maps and the
// madvise could be reused by anonymous memory, which MADV_DONTNEED zeroes.
std::size_t drop_pack_pages();

}  // namespace lg::git
