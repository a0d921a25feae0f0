// Branches and refs: name validation, look-ups, and the compare-and-swap
// update that moves a ref only from the tip the caller saw.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::git {

// Whether `name` is a valid full ref name ("refs/heads/x").
bool is_valid_ref_name(const std::string& name);
// Whether `name` is a valid remote name.
bool is_valid_remote_name(const std::string& name);

// The id `ref` (a full name) points at; nullopt when it does not resolve.
std::optional<ObjectId> ref_target(const Repository& repo, const std::string& ref);

struct LocalBranch {
  std::string ref_name;         // the full name ("refs/heads/x")
  std::optional<ObjectId> tip;  // none for a symbolic ref
  bool checked_out = false;     // in some working tree (a direct ref only)
};

// The local branch `name` (short, or "refs/heads/..." in full); nullopt
// when there is none.
std::optional<LocalBranch> find_local_branch(const Repository& repo, const std::string& name);

// The branch HEAD names (`main` for "ref: refs/heads/main"), unborn or not;
// nullopt when HEAD is detached or names no branch.
std::optional<std::string> head_branch(const Repository& repo);

// The short names of the repository's branches, remote-tracking branches
// and tags ("main", "origin/main", "v1.0"), sorted; what a shell completes
// for a revision.
std::vector<std::string> ref_short_names(const Repository& repo);

// Moves `ref` to `to` if it still points at `expected`, logging `log_message`
// in its reflog. False (nothing written) when the ref moved meanwhile or
// another writer holds its lock for longer than a second (a shorter hold is
// waited out, as git's core.filesRefLockTimeout does).
// Errors: the update fails otherwise.
Result<bool> update_ref_if(const Repository& repo, const std::string& ref, const ObjectId& to, const ObjectId& expected,
                           const std::string& log_message);

}  // namespace lg::git
