// Reading and atomically replacing one file (cli/file_io.hpp).
#include "file_io.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "errors.hpp"
#include "ledgergate/util/fd.hpp"
#include "ledgergate/write/atomic_file.hpp"

namespace lg::cli {

// The file's bytes; "" when it does not exist; nullopt (after saying why) when unreadable.
// Read with plain read(2) calls into one string of the file's size (a
// regular file's is known from fstat): no stream buffer, no second copy.
std::optional<std::string> read_file_bytes(const std::string& path, bool& exists) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {  // a folder opens, and reads nothing
    exists = true;
    report_error(Error{ErrorKind::io, fmt::format("cannot read {}: it is a directory", path)});
    return std::nullopt;
  }
  const util::Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  exists = fd.get() >= 0;
  if (!exists) {
    if (errno == ENOENT) return std::string();
    report_error(Error{ErrorKind::io, fmt::format("cannot read {}: {}", path, std::strerror(errno))});
    return std::nullopt;
  }
  // One byte past a regular file's size, so its end is seen by the first
  // read; a pipe or device (or a file that grew) reads on into more room.
  const bool sized = ::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode);
  std::string bytes(sized ? static_cast<std::size_t>(st.st_size) + 1 : 8192, '\0');
  std::size_t done = 0;
  for (;;) {
    if (done == bytes.size()) bytes.resize(bytes.size() * 2);
    const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      report_error(Error{ErrorKind::io, "cannot read " + path});
      return std::nullopt;
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

// The write module's atomic writer; its error printed here.
bool write_atomically(const std::string& path, const std::string& text, write::Durability durability) {
  auto written = write::write_file_atomically(path, text, durability);
  if (!written) print_error(written.error().message);
  return written.has_value();
}

bool write_atomically(const std::string& path, const std::string& text, write::Durability durability,
                      const std::optional<git::WorkTree>& discovered) {
  auto written = write::write_file_atomically(path, text, durability, discovered);
  if (!written) print_error(written.error().message);
  return written.has_value();
}

}  // namespace lg::cli
