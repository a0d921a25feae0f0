// Refs and branches over libgit2.
#include "ledgergate/git/refs.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "libgit2.hpp"

namespace lg::git {
namespace {

// How long a ref's lock held by another writer is waited out, as git's
// core.filesRefLockTimeout does (git's 100 ms is short for a loaded machine).
constexpr std::chrono::milliseconds k_ref_lock_timeout{1000};

}  // namespace

bool is_valid_ref_name(const std::string& name) {
  int valid = 0;
  return git_reference_name_is_valid(&valid, name.c_str()) == 0 && valid;
}

bool is_valid_remote_name(const std::string& name) {
  int valid = 0;
  return git_remote_name_is_valid(&valid, name.c_str()) == 0 && valid;
}

std::optional<ObjectId> ref_target(const Repository& repo, const std::string& ref) {
  git_oid id;
  if (git_reference_name_to_id(&id, repo.raw(), ref.c_str()) < 0) {
    git_error_clear();
    return std::nullopt;
  }
  return from_git(id);
}

std::optional<LocalBranch> find_local_branch(const Repository& repo, const std::string& name) {
  git_reference* raw = nullptr;
  int rc = git_branch_lookup(&raw, repo.raw(), name.c_str(), GIT_BRANCH_LOCAL);
  if (rc < 0 && name.rfind("refs/heads/", 0) == 0) rc = git_reference_lookup(&raw, repo.raw(), name.c_str());
  if (rc < 0) return std::nullopt;
  const ReferencePtr ref(raw);
  LocalBranch branch;
  branch.ref_name = git_reference_name(ref.get());
  if (git_reference_type(ref.get()) == GIT_REFERENCE_DIRECT) {
    branch.tip = from_git(*git_reference_target(ref.get()));
    branch.checked_out = git_branch_is_checked_out(ref.get()) == 1;
  }
  return branch;
}

std::optional<std::string> head_branch(const Repository& repo) {
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo.raw(), "HEAD") < 0) {
    git_error_clear();
    return std::nullopt;
  }
  const ReferencePtr head(raw);
  if (git_reference_type(head.get()) != GIT_REFERENCE_SYMBOLIC) return std::nullopt;
  constexpr std::string_view k_heads = "refs/heads/";
  const std::string_view target = git_reference_symbolic_target(head.get());
  if (target.substr(0, k_heads.size()) != k_heads) return std::nullopt;
  return std::string(target.substr(k_heads.size()));
}

std::vector<std::string> ref_short_names(const Repository& repo) {
  std::vector<std::string> out;
  const auto add = [](const char* name, void* payload) {
    constexpr std::string_view k_prefixes[] = {"refs/heads/", "refs/remotes/", "refs/tags/"};
    const std::string_view full = name;
    for (const std::string_view prefix : k_prefixes) {
      if (full.starts_with(prefix)) {
        static_cast<std::vector<std::string>*>(payload)->emplace_back(full.substr(prefix.size()));
      }
    }
    return 0;
  };
  if (git_reference_foreach_name(repo.raw(), add, &out) < 0) git_error_clear();
  std::sort(out.begin(), out.end());
  return out;
}

Result<bool> update_ref_if(const Repository& repo, const std::string& ref, const ObjectId& to, const ObjectId& expected,
                           const std::string& log_message) {
  const git_oid new_id = to_git(to);
  const git_oid old_id = to_git(expected);
  git_reference* moved = nullptr;
  const auto deadline = std::chrono::steady_clock::now() + k_ref_lock_timeout;
  int rc = 0;
  // A lock held by another writer is waited out (backing off), not taken
  // for a lost race: under load the holder may sit on it for many
  // milliseconds, and the ref may not even move (its update can fail).
  for (std::chrono::milliseconds pause{1};; pause = std::min(pause * 2, std::chrono::milliseconds{50})) {
    rc = git_reference_create_matching(&moved, repo.raw(), ref.c_str(), &new_id, 1, &old_id, log_message.c_str());
    if (rc != GIT_ELOCKED || std::chrono::steady_clock::now() + pause > deadline) break;
    std::this_thread::sleep_for(pause);
  }
  // The ref moved meanwhile, or its lock outlived the wait: a lost race.
  if (rc == GIT_EMODIFIED || rc == GIT_ELOCKED) return false;
  if (rc < 0) return libgit2_error(rc);
  const ReferencePtr owned(moved);
  return true;
}

}  // namespace lg::git
