// FileBytes (file_bytes.hpp): a file mapped from the page cache, or read.
#include "ledgergate/util/file_bytes.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

#include "ledgergate/util/fd.hpp"

namespace lg::util {

namespace {

// Below this a file is read: a mapping costs two system calls and a
// page-table set-up that a page or two of copying does not.
constexpr std::size_t k_map_from = 64 * 1024;

}  // namespace

FileBytes::~FileBytes() {
  if (m_map) ::munmap(m_map, m_view.size());
}

std::shared_ptr<const FileBytes> FileBytes::read(const std::string& path, int& error, std::size_t max_size) {
  error = 0;
  // O_NONBLOCK: a FIFO at the path must not block the open (it is refused
  // below); on a regular file it changes nothing.
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) {
    error = errno;
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    error = errno;
    return nullptr;
  }
  if (!S_ISREG(st.st_mode)) {
    error = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    return nullptr;
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size > max_size) {
    error = EFBIG;
    return nullptr;
  }
  std::shared_ptr<FileBytes> out(new FileBytes());
  if (size >= k_map_from) {
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (map != MAP_FAILED) {
      out->m_map = map;
      out->m_view = std::string_view(static_cast<const char*>(map), size);
      return out;
    }
  }
  // Read what fstat measured: a file that shrank or grew while it was read
  // is not the one measured (EAGAIN).
  std::string& copy = out->m_copy;
  copy.resize(size);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd.get(), copy.data() + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = errno;
      return nullptr;
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  ssize_t more = 0;
  char extra = 0;
  do {
    more = ::read(fd.get(), &extra, 1);
  } while (more < 0 && errno == EINTR);
  if (more < 0) {
    error = errno;
    return nullptr;
  }
  if (done != size || more != 0) {
    error = EAGAIN;
    return nullptr;
  }
  out->m_view = copy;
  return out;
}

namespace {

std::uintptr_t page_size() {
  static const auto size = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

void FileBytes::give_back(std::string_view part) const {
  if (!m_map || part.empty()) return;
  const std::uintptr_t page = page_size();
  const auto base = reinterpret_cast<std::uintptr_t>(m_map);
  const std::uintptr_t end = base + m_view.size();
  const auto start = reinterpret_cast<std::uintptr_t>(part.data());
  const std::uintptr_t at = std::max(start, base);
  const std::uintptr_t to = std::min(start + part.size(), end);
  if (to <= at) return;
  // Whole pages only: a page `part` shares with bytes outside it stays,
  // except the mapping's last, whose tail past the file is no one's.
  const std::uintptr_t from = (at + page - 1) & ~(page - 1);
  const std::uintptr_t until = to == end ? (to + page - 1) & ~(page - 1) : to & ~(page - 1);
  // Advice only: a failure leaves the pages resident, nothing else.
  if (from < until) ::madvise(reinterpret_cast<void*>(from), until - from, MADV_DONTNEED);
}

PagesBehind::PagesBehind(const FileBytes* file) {
  if (file == nullptr || !file->mapped()) return;
  m_file = file;
  const std::string_view all = file->bytes();
  m_done = reinterpret_cast<std::uintptr_t>(all.data());  // the mapping's start: a page's
  m_end = m_done + all.size();
}

void PagesBehind::give_back_to(std::uintptr_t at) {
  // Up to the start of the page a step behind `at` (a reader may look back
  // a little: a record's start).
  const std::uintptr_t until = (at - k_step) & ~(page_size() - 1);
  if (until <= m_done) return;
  m_file->give_back({reinterpret_cast<const char*>(m_done), static_cast<std::size_t>(until - m_done)});
  m_done = until;
}

void PagesBehind::finish() {
  if (!m_file || m_done >= m_end) return;
  m_file->give_back({reinterpret_cast<const char*>(m_done), static_cast<std::size_t>(m_end - m_done)});
  m_done = m_end;
}

}  // namespace lg::util
