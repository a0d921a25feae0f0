// Reading and atomically replacing one file, for the commands that edit a
// file in place (`req`, `merge-file`). Failures are printed here.
#pragma once

#include <optional>
#include <string>

#include "ledgergate/write/atomic_file.hpp"

namespace lg::cli {

// The file's bytes; "" when it does not exist (`exists` false); nullopt
// (after saying why, and printing the error document a --format json
// command is due: errors.hpp) when unreadable.
std::optional<std::string> read_file_bytes(const std::string& path, bool& exists);

// write::write_file_atomically (the one atomic writer); false (after saying why) on failure.
bool write_atomically(const std::string& path, const std::string& text,
                      write::Durability durability = write::Durability::synced);
// The same, with the repository the caller discovered from `path`'s folder
// (write::write_file_atomically's second form).
bool write_atomically(const std::string& path, const std::string& text, write::Durability durability,
                      const std::optional<git::WorkTree>& discovered);

}  // namespace lg::cli
