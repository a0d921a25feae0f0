// Configuration values as git reads them (system, global, repository), from
// a snapshot taken once; or the repository's own file alone, to write.
// Errors carry libgit2's message; callers add what they were reading.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

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

// `text` (a configuration file) without the header line(s) of the section
// `section`.`subsection` (`[merge "ledgergate"]`, or git's older
// `[merge.ledgergate]`) when the section holds no variable: blank and
// comment lines under it stay where they are. nullopt: no such header, or
// the section is not empty.
std::optional<std::string> without_empty_section(std::string_view text, std::string_view section,
                                                 std::string_view subsection);

// Takes an empty section's header out of the repository's own configuration
// file (see Config::local), as `git config --remove-section` would: git and
// libgit2 leave the header behind when its last variable goes. The file is
// edited as text under git's lock protocol (`config.lock` created
// exclusively, written with the file's mode, renamed over it). Returns
// whether a header went. Errors: `config.lock` exists (another git is
// writing the file), I/O.
Result<bool> remove_empty_section(const Repository& repo, std::string_view section, std::string_view subsection);

}  // namespace lg::git
