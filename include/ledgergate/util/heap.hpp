// The process heap's free pages given back to the system.
#pragma once

namespace lg::util {

// Gives the heap's free pages back to the system (glibc's malloc_trim;
// nothing elsewhere). For a step that freed much (libgit2's pack caches,
// some 10 MB at 20,000 projects) before one whose threads allocate from
// malloc arenas of their own: the main heap would keep the freed pages
// resident beside theirs, and both count in the peak. Taking the pages
// again costs their faults (2 ms of a 54 ms trial merge at 20,000 projects
// that the CI cache answers), so it is for steps that allocate much after.
void give_back_freed_heap();

}  // namespace lg::util
