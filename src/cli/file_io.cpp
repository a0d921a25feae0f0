// Reading and atomically replacing one file (cli/file_io.hpp).
#include "file_io.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "errors.hpp"
#include "ledgergate/write/atomic_file.hpp"

namespace lg::cli {

// The file's bytes; "" when it does not exist; nullopt (after saying why) when unreadable.
std::optional<std::string> read_file_bytes(const std::string& path, bool& exists) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {  // an ifstream opens a folder and reads nothing
    exists = true;
    report_error(Error{ErrorKind::io, fmt::format("cannot read {}: it is a directory", path)});
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  exists = in.is_open();
  if (!exists) {
    if (errno == ENOENT) return std::string();
    report_error(Error{ErrorKind::io, fmt::format("cannot read {}: {}", path, std::strerror(errno))});
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    report_error(Error{ErrorKind::io, "cannot read " + path});
    return std::nullopt;
  }
  return ss.str();
}

// The write module's atomic writer; its error printed here.
bool write_atomically(const std::string& path, const std::string& text, write::Durability durability) {
  auto written = write::write_file_atomically(path, text, durability);
  if (!written) print_error(written.error().message);
  return written.has_value();
}

}  // namespace lg::cli
