// Configuration values as git reads them (system, global, repository), from
// a snapshot taken once. Errors carry libgit2's message; callers add what
// they were reading.
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

  // The value of `key`; nullopt when unset.
  Result<std::optional<std::string>> get_string(const std::string& key) const;
  // The same for a path (a leading ~/ expanded, as git does).
  Result<std::optional<std::string>> get_path(const std::string& key) const;

 private:
  struct Free {
    void operator()(git_config* config) const noexcept;
  };
  explicit Config(git_config* config) : m_config(config) {}
  std::unique_ptr<git_config, Free> m_config;
};

}  // namespace lg::git
