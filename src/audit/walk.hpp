// The audit's walk: the commits of the range in commit order (topological,
// oldest first), each read once and kept small, and the trees the later
// passes open from them. Private to audit/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ledgergate/audit/audit.hpp"
#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::audit {

// What the walk keeps of each commit (20,000 of them at once: kept small;
// the summary is moved into the report when the commit is visited).
struct CommitFacts {
  git::ObjectId id;
  std::string summary;
  git::ObjectId tree;
  std::vector<git::ObjectId> parents;
  long long time = 0;
  std::string hex() const { return id.hex(); }
};

// The commits `options` selects (range, first parent, since), oldest first.
// Errors: an unknown revision, A...B, a commit that cannot be read.
Result<std::vector<CommitFacts>> walk_history(const git::Repository& repo, const AuditOptions& options);

Result<CommitFacts> commit_facts(const git::Repository& repo, const git::ObjectId& id);
// The commit's whole message; "" when it cannot be read.
std::string full_message(const git::Repository& repo, const git::ObjectId& id);

// Why a shallow clone cannot be audited, naming its first shallow commit.
std::string shallow_note(const git::Repository& repo);

// The tree of `commit`, for the checks and invariants.
Result<std::unique_ptr<git::TreeSource>> open_tree(const git::Repository& repo, const CommitFacts& commit);

}  // namespace lg::audit
