// What the other modules read of a commit (its tree, parents, times, names
// and message), how commits relate, and the one commit writer. Errors of
// the lookups carry libgit2's message (a missing commit is
// ErrorKind::not_found); callers add what they were doing.
#pragma once

#include <string>
#include <vector>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::git {

struct CommitInfo {
  ObjectId id;
  ObjectId tree;
  std::vector<ObjectId> parents;  // in order: the first parent first
  long long time = 0;             // committer time, seconds since the epoch
  std::string summary;  // the first paragraph of the message, on one line
};

Result<CommitInfo> read_commit(const Repository& repo, const ObjectId& id);
// The whole message, as written (trailing newline included).
Result<std::string> commit_message(const Repository& repo, const ObjectId& id);

// The commit `id` names, through annotated tags. Errors name the id
// ("reading <hex>", "<hex> is not a commit").
Result<ObjectId> peel_to_commit(const Repository& repo, const ObjectId& id);
// Whether `commit` has `ancestor` among its ancestors (not itself).
Result<bool> is_descendant_of(const Repository& repo, const ObjectId& commit, const ObjectId& ancestor);

// Writes a commit of `tree` (which must be in `repo`) over `parents` with
// `message`; author and committer are committer_signature(repo). Moves no
// ref. Errors: no committer identity (usage), unreadable objects.
Result<ObjectId> write_commit(const Repository& repo, const ObjectId& tree, const std::vector<ObjectId>& parents,
                              const std::string& message);

}  // namespace lg::git
