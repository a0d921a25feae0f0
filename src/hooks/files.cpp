// The hooks module's shared file operations (files.hpp).
#include "files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "ledgergate/util/fd.hpp"

namespace lg::hooks::files {

Error io_error(const std::string& what) {
  return make_error(ErrorKind::io, what + ": " + std::strerror(errno));
}

Result<FileInfo> probe(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return FileInfo{};
    return io_error("reading " + path);
  }
  return FileInfo{true, S_ISLNK(st.st_mode), S_ISDIR(st.st_mode), st.st_mode & 07777};
}

Result<std::string> read_bytes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error("reading " + path);
  std::string out;
  std::array<char, 8192> buf{};
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const Error e = io_error("reading " + path);
      ::close(fd);
      return e;
    }
    if (n == 0) break;
    out.append(buf.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

Result<void> write_all(int fd, std::string_view data, const std::string& path) {
  if (!util::write_all(fd, data)) return io_error("writing " + path);
  return {};
}

Result<void> write_atomic(const std::string& path, std::string_view data, mode_t mode) {
  const std::size_t slash = path.rfind('/');
  std::string tmp = path.substr(0, slash + 1) + "." + path.substr(slash + 1) + ".ledgergate-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return io_error("creating a temporary file in " + path.substr(0, slash + 1));
  Result<void> written = write_all(fd, data, tmp);
  if (written && ::fchmod(fd, mode) != 0) written = io_error("setting the mode of " + tmp);
  if (written && ::fsync(fd) != 0) written = io_error("writing " + tmp);
  if (::close(fd) != 0 && written) written = io_error("writing " + tmp);
  if (written && ::rename(tmp.c_str(), path.c_str()) != 0) written = io_error("renaming into " + path);
  if (!written) ::unlink(tmp.c_str());
  return written;
}

Result<void> make_dirs(const std::string& dir) {
  for (std::size_t slash = dir.find('/', 1); slash != std::string::npos; slash = dir.find('/', slash + 1)) {
    const std::string part = dir.substr(0, slash);
    if (::mkdir(part.c_str(), 0777) != 0 && errno != EEXIST) return io_error("creating " + part);
  }
  return {};
}

namespace {

bool needs_quotes(std::string_view s) {
  for (const char c : s) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
                       c == '.' || c == '_' || c == '-' || c == '+';
    if (!plain) return true;
  }
  return s.empty();
}

}  // namespace

std::string shell_quote(std::string_view s) {
  if (!needs_quotes(s)) return std::string(s);
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shell_unquote(std::string_view word) {
  std::string out;
  bool quoted = false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    const char c = word[i];
    if (c == '\'') {
      quoted = !quoted;
    } else if (c == '\\' && !quoted && i + 1 < word.size()) {
      out += word[++i];
    } else {
      out += c;
    }
  }
  return out;
}

bool is_executable(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  return ::access(path.c_str(), X_OK) == 0;
}

std::string find_on_path(std::string_view name) {
  const char* env = std::getenv("PATH");
  const std::string_view dirs = env != nullptr ? env : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t colon = dirs.find(':', start);
    if (colon == std::string_view::npos) colon = dirs.size();
    std::string dir(dirs.substr(start, colon - start));
    start = colon + 1;
    if (dir.empty()) dir = ".";  // an empty entry is the current folder, as the shell reads it
    const std::string candidate = dir + "/" + std::string(name);
    if (is_executable(candidate)) return candidate;
  }
  return "";
}

}  // namespace lg::hooks::files
