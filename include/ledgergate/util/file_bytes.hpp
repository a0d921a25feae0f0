// FileBytes: a whole regular file's bytes, read once and held read-only.
// A file of 64 KiB or more is mapped from the page cache (MAP_PRIVATE,
// PROT_READ) rather than copied into fresh memory: the pages are the page
// cache's, filled in 16 at a time by the kernel's fault-around, so reading
// the 2.9 MB facts pack or a 2.2 MB index costs a few hundred minor faults
// fewer than a buffer the size of the file, and no copy (git reads its
// index the same way). Smaller files, and any a mapping is refused for, are
// read into a string. The files read so are replaced by rename, never
// rewritten in place (git's index and lock files, ledgergate's cache
// entries), so a mapping keeps the bytes of the file that was opened.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace lg::util {

class FileBytes {
 public:
  // The file at `path`, or null with `error` set to the errno of the open,
  // stat or read that failed (ENOENT for a missing file; EISDIR, EINVAL for
  // what is not a regular file, EFBIG past `max_size` bytes).
  static std::shared_ptr<const FileBytes> read(const std::string& path, int& error,
                                               std::size_t max_size = static_cast<std::size_t>(-1));

  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;
  ~FileBytes();

  std::string_view bytes() const { return m_view; }
  bool mapped() const { return m_map != nullptr; }

 private:
  FileBytes() = default;

  void* m_map = nullptr;    // the mapping (of m_view's size), when mapped
  std::string m_copy;       // the bytes, when read
  std::string_view m_view;  // the mapping or m_copy
};

}  // namespace lg::util
