#include "own_binary.hpp"

#include <unistd.h>

#include <array>

namespace lg::cli {

Result<std::string> own_binary() {
  std::array<char, 4096> buf{};
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size());
  if (n <= 0 || static_cast<std::size_t>(n) == buf.size()) {
    return make_error(ErrorKind::io, "cannot find the ledgergate binary (/proc/self/exe)");
  }
  return std::string(buf.data(), static_cast<std::size_t>(n));
}

}  // namespace lg::cli
