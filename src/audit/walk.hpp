// The audit's walk: the commits of the range in commit order (topological,
// oldest first), each read once and kept small, and the trees the later
// passes open from them. Private to audit/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ledgergate/audit/audit.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::audit {

// What the walk keeps of each commit (20,000 of them at once: kept small;
// the summary is moved into the report when the commit is visited).
struct CommitFacts {
  git_oid id{};
  std::string summary;
  git_oid tree{};
  std::vector<git_oid> parents;
  long long time = 0;
  std::string hex() const { return git::oid_hex(id); }
};

// The commits `options` selects (range, first parent, since), oldest first.
// Errors: an unknown revision, A...B, a commit that cannot be read.
Result<std::vector<CommitFacts>> walk_history(const git::Repository& repo, const AuditOptions& options);

Result<CommitFacts> read_commit(const git::Repository& repo, const git_oid& id);
// The commit's whole message; "" when it cannot be read.
std::string full_message(const git::Repository& repo, const git_oid& id);

// Why a shallow clone cannot be audited, naming its first shallow commit.
std::string shallow_note(const git::Repository& repo);

// The tree of `commit`, for the checks and invariants.
Result<std::unique_ptr<git::TreeSource>> open_tree(const git::Repository& repo, const CommitFacts& commit);

// The 12-digit form reports use.
inline std::string short_id(const std::string& hex) { return hex.substr(0, 12); }

}  // namespace lg::audit
