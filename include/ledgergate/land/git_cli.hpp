// The transport of `land`: fetch and push through the `git` CLI, so the
// credentials a CI job keeps in git's configuration (actions/checkout's
// http.extraheader, credential helpers, SSH config) are used — libgit2 does
// not read them. Every call is an argument vector, never a shell string.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/util/result.hpp"

namespace lg::land {

// What became of a compare-and-swap push.
enum class PushKind {
  pushed,     // the remote ref now holds the new value
  lost_race,  // the remote ref was not at the expected value (moved under us): retry
  refused,    // refused for another reason (a hook, permissions, ...): do not retry
};

struct PushOutcome {
  PushKind kind = PushKind::refused;
  std::string detail;  // git's reason ("stale info", "pre-receive hook declined", ...)
};

// Reads `git push --porcelain`'s result: exit status, stdout (the status
// lines) and stderr. Pure, for the tests.
PushOutcome classify_push(int exit_code, std::string_view out, std::string_view err);

class GitCli {
 public:
  // `git_dir`: the repository's .git (or bare) folder; `remote`: a remote name.
  GitCli(std::string git_dir, std::string remote) : m_git_dir(std::move(git_dir)), m_remote(std::move(remote)) {}

  // git fetch --no-tags [--prune] REMOTE REFSPEC... ; errors carry git's
  // stderr. `prune` drops the local refs a glob refspec maps to that the
  // remote no longer has.
  Result<void> fetch(const std::vector<std::string>& refspecs, bool prune = false) const;

  // git push --porcelain --force-with-lease=REF:EXPECTED REMOTE NEW:REF —
  // the remote's REF moves to NEW only if it still holds EXPECTED. An empty
  // `new_value` deletes REF under the same condition.
  Result<PushOutcome> push_cas(const std::string& ref, const std::string& expected, const std::string& new_value) const;

  // The argument vector of a git call (exposed for the tests).
  std::vector<std::string> command(const std::vector<std::string>& args) const;

 private:
  std::string m_git_dir;
  std::string m_remote;
};

}  // namespace lg::land
