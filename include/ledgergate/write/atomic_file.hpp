// The one atomic file writer: a synced temporary file beside the target
// (the existing file's permission bits kept), renamed over it, and the
// folder synced so the rename survives a crash. The writer verbs'
// directory writes (apply_to_directory) and every CLI command that writes a
// file (`req`, `merge-file`, `board --out`, `--write-baseline`, `__docs`)
// go through it.
#pragma once

#include <string>
#include <string_view>

#include "ledgergate/util/result.hpp"

namespace lg::write {

// Replaces `path` with `bytes`, or leaves it as it was. A missing folder is
// not created (a mistyped path must not make directories): the error names
// it. Errors name `path`, never the temporary file.
Result<void> write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace lg::write
