// The committer identity for the commits ledgergate writes, as git chooses
// it: GIT_COMMITTER_NAME / _EMAIL / _DATE from the environment first, then
// user.name / user.email from the repository's configuration.
#pragma once

#include <memory>

#include "ledgergate/git/repository.hpp"

namespace lg::git {

using SignaturePtr = Owned<git_signature, git_signature_free>;

// Errors: no identity configured, or an unreadable GIT_COMMITTER_DATE.
Result<SignaturePtr> committer_signature(const Repository& repo);

}  // namespace lg::git
