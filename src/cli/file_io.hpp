// Reading and atomically replacing one file, for the commands that edit a
// file in place (`req`, `merge-file`). Failures are printed here.
#pragma once

#include <optional>
#include <string>

namespace lg::cli {

// The file's bytes; "" when it does not exist (`exists` false); nullopt
// (after saying why) when unreadable.
std::optional<std::string> read_file_bytes(const std::string& path, bool& exists);

// Writes `text` beside `path` and renames it over `path`; false (after saying why) on failure.
bool write_atomically(const std::string& path, const std::string& text);

}  // namespace lg::cli
