// The one atomic writer of a single file: the new content written and
// synced in the staging area (src/write/staging.hpp: the git directory,
// when the file lies in a working tree; else a temporary file beside it,
// where no git looks), renamed over the file (its permission bits kept),
// and the folder synced so the rename survives a crash (unless the caller
// asks for no sync: Durability). The writer verbs'
// directory writes (apply_to_directory) use the same transactions, and
// every CLI command that writes a file (`req`, `merge-file`, `board --out`,
// `--write-baseline`, `__docs`) goes through this one.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ledgergate/git/work_tree.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::write {

// Whether the write waits for the disk: `synced` (the default) syncs the new
// content and the folder, so that the rename survives a crash; `unsynced`
// is as atomic for every reader but leaves the flush to the system, as git
// does with the files it writes for a merge driver (merge-file: git reads
// its result back at once, and it is git's temporary file).
enum class Durability { synced, unsynced };

// Replaces `path` with `bytes`, or leaves it as it was. A missing folder is
// not created (a mistyped path must not make directories): the error names
// it. A symbolic link at `path` is refused, neither followed nor replaced.
// Errors name `path`, never the temporary file.
Result<void> write_file_atomically(const std::string& path, std::string_view bytes,
                                   Durability durability = Durability::synced);

// The same, for a caller that has already discovered the repository from
// `path`'s folder (git::discover_work_tree of it; nullopt: none there): the
// staging area is chosen from `discovered` rather than by opening the
// repository again (merge-file, which git runs at the working tree's top
// with OURS there, has just read the policy from it).
Result<void> write_file_atomically(const std::string& path, std::string_view bytes, Durability durability,
                                   const std::optional<git::WorkTree>& discovered);

}  // namespace lg::write
