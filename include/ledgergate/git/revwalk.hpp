// A revision walk over commit ids: push the tips, hide what is already
// known, pick the order, read the ids. The walk owns its libgit2 handle;
// callers see only ObjectId. Errors carry libgit2's message; callers add
// what they were doing (`error().with_context(...)`).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/result.hpp"

struct git_revwalk;  // opaque: only src/git/ calls libgit2

namespace lg::git {

// The orders a walk can combine (as git log's --topo-order, --reverse).
enum class WalkSort : unsigned {
  none = 0,
  topological = 1u << 0,  // parents after all their children
  reverse = 1u << 2,      // the chosen order, oldest first
};
constexpr WalkSort operator|(WalkSort a, WalkSort b) {
  return static_cast<WalkSort>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}

class RevWalk {
 public:
  static Result<RevWalk> open(const Repository& repo);

  void sort(WalkSort order);
  // Follows only the first parent of each merge (git log --first-parent).
  Result<void> first_parent_only();
  // Walks from `commit`.
  Result<void> push(const ObjectId& commit);
  // Leaves out `commit` and everything it reaches (the A of A..B).
  Result<void> hide(const ObjectId& commit);
  // The next commit; nullopt when the walk is over.
  Result<std::optional<ObjectId>> next();
  // Every commit still to come, in the walk's order.
  Result<std::vector<ObjectId>> remaining();

 private:
  struct Free {
    void operator()(git_revwalk* walk) const noexcept;
  };
  explicit RevWalk(git_revwalk* walk) : m_walk(walk) {}
  std::unique_ptr<git_revwalk, Free> m_walk;
};

}  // namespace lg::git
