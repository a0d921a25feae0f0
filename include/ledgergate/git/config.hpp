// Configuration values as git reads them (system, global, repository), from
// a snapshot taken once; or the repository's own file alone, to write.
// Errors carry libgit2's message; callers add what they were reading.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/result.hpp"

struct git_config;  // opaque: only src/git/ calls libgit2

namespace lg::git {

class Config {
 public:
  static Result<Config> snapshot(const Repository& repo);
  // The repository's own configuration file (`config` in the common dir,
  // shared by linked worktrees: what `git config --local` reads and writes),
  // live rather than a snapshot, for set_string and remove.
  static Result<Config> local(const Repository& repo);

  // The value of `key`; nullopt when unset.
  Result<std::optional<std::string>> get_string(const std::string& key) const;
  // The same for a path (a leading ~/ expanded, as git does).
  Result<std::optional<std::string>> get_path(const std::string& key) const;

  // Writes `key` (a local() file). Errors: a snapshot, an unwritable file.
  Result<void> set_string(const std::string& key, const std::string& value);
  // Removes `key` when set (nothing to do when it is not).
  Result<void> remove(const std::string& key);

 private:
  struct Free {
    void operator()(git_config* config) const noexcept;
  };
  explicit Config(git_config* config) : m_config(config) {}
  std::unique_ptr<git_config, Free> m_config;
};

}  // namespace lg::git
