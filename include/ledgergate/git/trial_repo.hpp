// A second handle on the user's repository whose object database has an
// in-memory (mempack) backend at top priority: every object a trial merge
// writes lands in memory and vanishes with the handle. The user's objects,
// refs, index and working tree are never touched.
#pragma once

#include <string_view>
#include <vector>

#include "ledgergate/git/repository.hpp"

struct git_odb_backend;

namespace lg::git {

class TrialRepo {
 public:
  // Opens `repo` again with a mempack backend in front of its object database.
  static Result<TrialRepo> open(const Repository& repo);

  // Reads see the user's objects and the trial's; writes stay in memory.
  const Repository& repo() const { return m_repo; }

  // Writes a blob into memory; returns its id.
  Result<ObjectId> write_blob(std::string_view data);
  // Whether this handle's in-memory store holds `id` (a merge wrote it).
  bool wrote(const ObjectId& id) const;

  // Lets go of what reading has kept in memory, keeping the objects this
  // handle wrote that the tree `keep` reaches. libgit2 keeps, per pack file
  // and shared by every handle that has the pack open, a cache of up to
  // 16 MiB of inflated delta bases (a ledger directory of 20,000 entries is
  // a 1 MiB tree whose versions are deltas of one another), freed only when
  // no object database has the pack open; and each handle caches the
  // objects it parsed. So both handles' object databases are closed and
  // opened again from disk, with `keep`'s written objects copied into a new
  // in-memory store. Nothing is done (false) when `user`'s object database
  // is not the repository's own (own_object_database): it could not be
  // rebuilt. Reads see the same objects before and after; the trees of
  // 2 MiB or more each handle keeps (read once per command) stay.
  Result<bool> release_read_memory(const Repository& user, const ObjectId& keep);

  // Copies the tree `root` and everything below it that `target` lacks into
  // `target`'s object database (for `trial-merge --commit`, whose purpose is
  // to write). Subtrees `target` already has are not descended.
  Result<void> persist(const Repository& target, const ObjectId& root) const;

 private:
  explicit TrialRepo(Repository repo, git_odb_backend* in_memory) : m_repo(std::move(repo)), m_in_memory(in_memory) {}
  Repository m_repo;
  git_odb_backend* m_in_memory;  // the object database's mempack backend (owned by it)
};

}  // namespace lg::git
