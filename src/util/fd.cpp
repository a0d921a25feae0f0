// open_dir_beneath: openat with O_NOFOLLOW, one component at a time.
#include "ledgergate/util/fd.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace lg::util {

std::pair<std::string_view, std::string_view> split_parent(std::string_view rel) {
  const std::size_t slash = rel.rfind('/');
  if (slash == std::string_view::npos) return {std::string_view{}, rel};
  return {rel.substr(0, slash), rel.substr(slash + 1)};
}

Result<Fd> open_dir_beneath(int dir, std::string_view rel, std::vector<std::string>* made) {
  Fd at(::fcntl(dir, F_DUPFD_CLOEXEC, 0));
  if (at.get() < 0) return make_error(ErrorKind::io, std::string("cannot open a folder: ") + std::strerror(errno));
  std::size_t start = 0;
  while (start < rel.size()) {
    const std::size_t slash = rel.find('/', start);
    const std::size_t end = slash == std::string_view::npos ? rel.size() : slash;
    const std::string part(rel.substr(start, end - start));
    const std::string so_far(rel.substr(0, end));
    if (part.empty() || part == "." || part == "..") {
      return make_error(ErrorKind::invalid_input, std::string(rel) + " is not a plain relative path");
    }
    constexpr int k_flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    int fd = ::openat(at.get(), part.c_str(), k_flags);
    if (fd < 0 && errno == ENOENT && made) {
      if (::mkdirat(at.get(), part.c_str(), 0755) == 0) {
        made->push_back(so_far);
      } else if (errno != EEXIST) {
        return make_error(ErrorKind::io, "cannot create " + so_far + ": " + std::strerror(errno));
      }
      fd = ::openat(at.get(), part.c_str(), k_flags);
    }
    if (fd < 0) {
      const int err = errno;
      struct stat st {};
      if ((err == ELOOP || err == ENOTDIR) && ::fstatat(at.get(), part.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISLNK(st.st_mode)) return make_error(ErrorKind::invalid_input, so_far + " is a symbolic link");
        return make_error(ErrorKind::io, so_far + " is not a directory");
      }
      if (err == ENOENT) return make_error(ErrorKind::not_found, so_far + " does not exist");
      return make_error(ErrorKind::io, "cannot open " + so_far + ": " + std::strerror(err));
    }
    at = Fd(fd);
    start = end + 1;
  }
  return at;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = EIO;  // no progress and no error: never spin
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace lg::util
