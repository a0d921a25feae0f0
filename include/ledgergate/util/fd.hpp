// Fd: a POSIX file descriptor closed when it goes out of scope (pipes of a
// spawned process, the files and directories a writer holds), and the walk
// below a directory that follows no symbolic link (open_dir_beneath): how
// writers and the folder tree source stay inside the folder they were given.
#pragma once

#include <unistd.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ledgergate/util/result.hpp"

namespace lg::util {

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : m_fd(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& o) noexcept : m_fd(std::exchange(o.m_fd, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      m_fd = std::exchange(o.m_fd, -1);
    }
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return m_fd; }
  void reset() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
  }
  // Closes now and says whether close() succeeded: a write's last error can
  // surface there, which a close in the destructor would hide.
  bool close() { return ::close(std::exchange(m_fd, -1)) == 0; }

 private:
  int m_fd = -1;
};

// The directory `rel` ('/'-separated, relative; "" is `dir` itself) below
// the open directory `dir`, reached one component at a time with
// O_NOFOLLOW: a symbolic link anywhere on the way is refused, never
// followed, so nothing outside `dir` is reached (as openat2's
// RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS would). An empty, "." or ".."
// component is refused too. With `made`, a missing component is created
// (0755 less the umask) and its path relative to `dir` appended to `made`.
// Errors name the component: "P is a symbolic link" (invalid_input), "P
// does not exist" (not_found), "P is not a directory" and the rest (io).
Result<Fd> open_dir_beneath(int dir, std::string_view rel, std::vector<std::string>* made = nullptr);

// Writes all of `bytes` to `fd`, again after a signal (EINTR) or a short
// write; false on an error, errno saying which (the caller words it).
bool write_all(int fd, std::string_view bytes);

// The folder part of `rel` ("" for a name at the top) and its last component.
std::pair<std::string_view, std::string_view> split_parent(std::string_view rel);

}  // namespace lg::util
