// Fd: a POSIX file descriptor closed when it goes out of scope (pipes of a
// spawned process, the files and directories a writer holds).
#pragma once

#include <unistd.h>

#include <utility>

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

}  // namespace lg::util
