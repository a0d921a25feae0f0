// The committer identity for the commits ledgergate writes (write_commit),
// as git chooses it: GIT_COMMITTER_NAME / _EMAIL / _DATE from the
// environment first, then user.name / user.email from the repository's
// configuration. Private to src/git/.
#pragma once

#include "libgit2.hpp"

namespace lg::git {

// Errors: no identity configured, or an unreadable GIT_COMMITTER_DATE.
Result<SignaturePtr> committer_signature(const Repository& repo);

}  // namespace lg::git
