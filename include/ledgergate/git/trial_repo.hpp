// A second handle on the user's repository whose object database has an
// in-memory (mempack) backend at top priority: every object a trial merge
// writes lands in memory and vanishes with the handle. The user's objects,
// refs, index and working tree are never touched.
#pragma once

#include <string_view>
#include <vector>

#include "ledgergate/git/repository.hpp"

namespace lg::git {

class TrialRepo {
 public:
  // Opens `repo` again with a mempack backend in front of its object database.
  static Result<TrialRepo> open(const Repository& repo);

  // Reads see the user's objects and the trial's; writes stay in memory.
  const Repository& repo() const { return m_repo; }

  // Writes a blob into memory; returns its id.
  Result<ObjectId> write_blob(std::string_view data);

  // Copies the tree `root` and everything below it that `target` lacks into
  // `target`'s object database (for `trial-merge --commit`, whose purpose is
  // to write). Subtrees `target` already has are not descended.
  Result<void> persist(const Repository& target, const ObjectId& root) const;

 private:
  explicit TrialRepo(Repository repo) : m_repo(std::move(repo)) {}
  Repository m_repo;
};

}  // namespace lg::git
