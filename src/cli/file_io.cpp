// Reading and atomically replacing one file (cli/file_io.hpp).
#include "file_io.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "errors.hpp"

namespace lg::cli {

// The file's bytes; "" when it does not exist; nullopt (after saying why) when unreadable.
std::optional<std::string> read_file_bytes(const std::string& path, bool& exists) {
  std::ifstream in(path, std::ios::binary);
  exists = in.is_open();
  if (!exists) {
    if (errno == ENOENT) return std::string();
    print_error(fmt::format("cannot read {}: {}", path, std::strerror(errno)));
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    print_error("cannot read " + path);
    return std::nullopt;
  }
  return ss.str();
}

// Writes `text` beside `path` and renames it over `path`.
bool write_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".ledgergate-tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) {
    // Name the file asked for, not the temporary one beside it; a missing
    // folder is not created (a mistyped path must not make directories).
    const int err = errno;
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (err == ENOENT && !folder.empty() && !std::filesystem::is_directory(folder, ec)) {
      print_error(fmt::format("cannot write {}: the folder {} does not exist", path, folder.string()));
    } else {
      print_error(fmt::format("cannot write {}: {}", path, std::strerror(err)));
    }
    return false;
  }
  const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool flushed = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  const bool closed = std::fclose(f) == 0;
  if (!wrote || !flushed || !closed || std::rename(tmp.c_str(), path.c_str()) != 0) {
    print_error(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace lg::cli
