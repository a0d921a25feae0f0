#include "ledgergate/git/pack_pages.hpp"

#include <cstdio>
#include <cstring>
#include <string_view>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace lg::git {

namespace {

// Whether a /proc/self/maps path names a pack: ".../objects/pack/<name>.pack".
bool is_pack_path(std::string_view path) {
  constexpr std::string_view k_dir = "/objects/pack/", k_ext = ".pack";
  if (path.size() < k_ext.size() || path.substr(path.size() - k_ext.size()) != k_ext) return false;
  const std::size_t slash = path.rfind('/');
  return slash != std::string_view::npos && slash + 1 >= k_dir.size() &&
         path.substr(slash + 1 - k_dir.size(), k_dir.size()) == k_dir;
}

}  // namespace

std::size_t drop_pack_pages() {
#if defined(__linux__)
  std::FILE* maps = std::fopen("/proc/self/maps", "re");
  if (!maps) return 0;
  std::size_t advised = 0;
  char line[4096];
  while (std::fgets(line, sizeof line, maps)) {
    std::string_view text(line);
    if (!text.empty() && text.back() == '\n') {
      text.remove_suffix(1);
    } else if (!std::feof(maps)) {  // a longer line than any path we need: skip its rest
      int c = 0;
      while ((c = std::fgetc(maps)) != EOF && c != '\n') {
      }
      continue;
    }
    // "start-end perms offset dev inode   path"; the path starts at the first '/'.
    const std::size_t path_at = text.find('/');
    if (path_at == std::string_view::npos || !is_pack_path(text.substr(path_at))) continue;
    unsigned long start = 0, end = 0;
    if (std::sscanf(line, "%lx-%lx", &start, &end) != 2 || end <= start) continue;
    if (madvise(reinterpret_cast<void*>(start), end - start, MADV_DONTNEED) == 0) advised += end - start;
  }
  std::fclose(maps);
  return advised;
#else
  return 0;
#endif
}

}  // namespace lg::git
