// Configuration snapshots over libgit2.
#include "ledgergate/git/config.hpp"

#include "disposing.hpp"
#include "libgit2.hpp"

namespace lg::git {
namespace {

using GetFn = int (*)(git_buf*, const git_config*, const char*);

Result<std::optional<std::string>> get(const git_config* config, const std::string& key, GetFn fn) {
  Disposing<git_buf, git_buf_dispose> buf;
  const int rc = fn(buf.out(), config, key.c_str());
  if (rc == GIT_ENOTFOUND) return std::optional<std::string>();
  if (rc < 0) return libgit2_error(rc);
  return std::optional<std::string>(std::string(buf->ptr, buf->size));
}

}  // namespace

void Config::Free::operator()(git_config* config) const noexcept { git_config_free(config); }

Result<Config> Config::snapshot(const Repository& repo) {
  git_config* config = nullptr;
  if (const int rc = git_repository_config_snapshot(&config, repo.raw()); rc < 0) return libgit2_error(rc);
  return Config(config);
}

Result<Config> Config::local(const Repository& repo) {
  git_config* all = nullptr;
  if (const int rc = git_repository_config(&all, repo.raw()); rc < 0) return libgit2_error(rc);
  const Owned<git_config, git_config_free> levels(all);
  git_config* local = nullptr;
  if (const int rc = git_config_open_level(&local, levels.get(), GIT_CONFIG_LEVEL_LOCAL); rc < 0) {
    return libgit2_error(rc, "opening the repository's configuration file");
  }
  return Config(local);
}

Result<std::optional<std::string>> Config::get_string(const std::string& key) const {
  return get(m_config.get(), key, git_config_get_string_buf);
}

Result<std::optional<std::string>> Config::get_path(const std::string& key) const {
  return get(m_config.get(), key, git_config_get_path);
}

Result<void> Config::set_string(const std::string& key, const std::string& value) {
  if (const int rc = git_config_set_string(m_config.get(), key.c_str(), value.c_str()); rc < 0) {
    return libgit2_error(rc, "setting " + key);
  }
  return {};
}

Result<void> Config::remove(const std::string& key) {
  const int rc = git_config_delete_entry(m_config.get(), key.c_str());
  if (rc == GIT_ENOTFOUND) return {};
  if (rc < 0) return libgit2_error(rc, "removing " + key);
  return {};
}

}  // namespace lg::git
