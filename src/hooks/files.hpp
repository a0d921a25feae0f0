// The file operations the hooks module's installers share (hook shims and the
// merge driver's attributes block): what sits at a path, whole-file reads,
// atomic writes (a temporary file beside, renamed into place), parent
// folders, and the POSIX shell quoting of the binary's path. Private to
// src/hooks/.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "ledgergate/util/result.hpp"

namespace lg::hooks::files {

// An I/O error: `what` and strerror(errno).
Error io_error(const std::string& what);

// What sits at a path, without following a symlink.
struct FileInfo {
  bool exists = false;
  bool symlink = false;
  bool directory = false;
  mode_t mode = 0;
};
Result<FileInfo> probe(const std::string& path);

Result<std::string> read_bytes(const std::string& path);
Result<void> write_all(int fd, std::string_view data, const std::string& path);
// Writes `data` with `mode` to a temporary file beside `path` and renames it
// over `path`: readers see the old file or the new one, never a part.
Result<void> write_atomic(const std::string& path, std::string_view data, mode_t mode);
// Creates every folder of `dir` (an absolute path ending in '/') that is missing.
Result<void> make_dirs(const std::string& dir);

// `s` as one POSIX shell word: unchanged when it is plain, else single-quoted.
std::string shell_quote(std::string_view s);
// The inverse of shell_quote for the words it writes (single quotes, `'\''`).
std::string shell_unquote(std::string_view word);

// True when `path` names an executable regular file (following symlinks).
bool is_executable(const std::string& path);
// The first executable `name` in the folders of $PATH, as the shell's
// `command -v` finds it; "" when none.
std::string find_on_path(std::string_view name);

}  // namespace lg::hooks::files
