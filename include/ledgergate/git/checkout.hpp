// What a writer needs to keep a checkout in step with a commit it made to
// the checked-out branch: the working trees that have a branch checked
// out, the blob id of bytes on disk, whether git would filter a path on
// checkout, and an index file edited in memory (IndexEdit). The caller
// holds the index's lock (index.lock) while it reads, edits and writes.
#pragma once

#include <sys/stat.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/result.hpp"

struct git_index;  // opaque: only src/git/ calls libgit2

namespace lg::git {

// A working tree: its folder and its own git directory (each with a trailing '/').
struct Checkout {
  std::string workdir;
  std::string git_dir;  // where its HEAD and index are (.git, or .git/worktrees/NAME)
};

// The working trees (the main one and every linked one) whose HEAD names
// `ref` ("refs/heads/main"), sorted by folder; none for a bare repository
// whose linked worktrees are elsewhere on other branches.
Result<std::vector<Checkout>> checkouts_of(const Repository& repo, const std::string& ref);

// The blob id git gives `bytes` (no object is written).
Result<ObjectId> blob_id(std::string_view bytes);

// Whether checking `path` out in `repo` runs a filter on its bytes (an
// end-of-line conversion, `ident`, a smudge filter named in .gitattributes),
// so the file on disk is not the blob's bytes.
Result<bool> has_checkout_filter(const Repository& repo, const std::string& path);

// An index file read into memory from `path`, edited, and written back to
// `path` (through libgit2's own `path`.lock). The caller opens a copy of the
// live index, whose index.lock it holds, and moves the copy into the lock.
class IndexEdit {
 public:
  static Result<IndexEdit> open(const std::string& path);

  struct Item {
    ObjectId id;
    unsigned mode = 0;
  };
  // The stage-0 entry at `path`; nullopt when there is none.
  std::optional<Item> stage0(const std::string& path) const;
  // Whether `path` has an unmerged entry (stage 1, 2 or 3).
  bool conflicted(const std::string& path) const;
  // Sets the stage-0 entry at `path` to the blob `id` with `mode`, its stat
  // data taken from `st` (the file written for it).
  Result<void> put(const std::string& path, const ObjectId& id, unsigned mode, const struct stat& st);
  // Writes the index back to the path it was read from.
  Result<void> write();

 private:
  struct Free {
    void operator()(git_index* index) const noexcept;
  };
  explicit IndexEdit(git_index* index) : m_index(index) {}
  std::unique_ptr<git_index, Free> m_index;
};

}  // namespace lg::git
