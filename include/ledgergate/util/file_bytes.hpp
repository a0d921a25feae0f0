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
#include <cstdint>
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

  // Lets the system take back the mapped pages that lie wholly inside
  // `part` (a part of bytes()): they leave this process's resident set and
  // stay in the page cache, and a later read of them faults them back in,
  // the same bytes (the file is never rewritten in place, above). A read
  // file's bytes stay as they are. For a reader done with most of a big
  // file, so that what it passed is not held to its end.
  void give_back(std::string_view part) const;

 private:
  FileBytes() = default;

  void* m_map = nullptr;    // the mapping (of m_view's size), when mapped
  std::string m_copy;       // the bytes, when read
  std::string_view m_view;  // the mapping or m_copy
};

// Gives a file's mapped pages back behind a reader that goes front to back
// through it: the pages before where it has come to, each time a step's
// worth of them have gathered, and all of them at finish(). The reader
// holds a few hundred KB of the file at a time, not the whole file.
class PagesBehind {
 public:
  static constexpr std::size_t k_step = 256 * 1024;

  // `file` may be null or a read (not mapped) file: then nothing is done.
  // The file must outlive the calls below.
  explicit PagesBehind(const FileBytes* file);
  // The reader has come to `at`, a place in the file's bytes; what lies
  // before it may be given back. Any other `at` (null, as a decoder's view
  // is once it failed; outside the file; behind what was given back) is
  // ignored.
  void passed(const char* at) {
    const auto a = reinterpret_cast<std::uintptr_t>(at);
    if (m_file && a >= m_done + 2 * k_step && a <= m_end) give_back_to(a);
  }
  void finish();

 private:
  void give_back_to(std::uintptr_t at);

  const FileBytes* m_file = nullptr;
  std::uintptr_t m_done = 0;  // pages before this (a page's start) are given back
  std::uintptr_t m_end = 0;   // the end of the file's bytes
};

}  // namespace lg::util
