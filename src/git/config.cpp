// Configuration snapshots over libgit2, and the one edit libgit2 does not
// offer (an empty section's header taken out), done as git does it.
#include "ledgergate/git/config.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "disposing.hpp"
#include "libgit2.hpp"
#include "ledgergate/util/fd.hpp"

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

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

std::string_view trimmed_front(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

bool blank_or_comment(std::string_view line) {
  line = trimmed_front(line);
  return line.empty() || line.front() == '\n' || line.front() == '\r' || line.front() == '#' || line.front() == ';';
}

// A value line ending in an odd number of backslashes goes on on the next line.
bool continues(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  std::size_t n = 0;
  while (n < line.size() && line[line.size() - 1 - n] == '\\') ++n;
  return n % 2 == 1;
}

// A section header as git compares it: the name case-folded, then a quoted
// subsection as written (`[a "B"]` is `a.B`; the older `[a.B]` is `a.b`),
// and whether a variable follows the `]` on the same line.
struct Header {
  std::string key;
  bool has_variable = false;
};

std::optional<Header> parse_header(std::string_view line) {
  line = trimmed_front(line);
  if (line.empty() || line.front() != '[') return std::nullopt;
  std::size_t pos = 1;
  while (pos < line.size() && (std::isalnum(static_cast<unsigned char>(line[pos])) != 0 || line[pos] == '-' ||
                               line[pos] == '.')) {
    ++pos;
  }
  Header h{lowered(line.substr(1, pos - 1))};
  if (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) {
    line = trimmed_front(line.substr(pos));
    if (line.empty() || line.front() != '"') return std::nullopt;
    h.key += '.';
    for (pos = 1; pos < line.size() && line[pos] != '"' && line[pos] != '\n'; ++pos) {
      if (line[pos] == '\\' && pos + 1 < line.size()) ++pos;
      h.key += line[pos];
    }
    if (pos >= line.size() || line[pos] != '"') return std::nullopt;
    ++pos;
  }
  if (pos >= line.size() || line[pos] != ']') return std::nullopt;
  h.has_variable = !blank_or_comment(line.substr(pos + 1));
  return h;
}

std::size_t line_end(std::string_view text, std::size_t pos) {
  const std::size_t nl = text.find('\n', pos);
  return nl == std::string_view::npos ? text.size() : nl + 1;
}

Error errno_error(const std::string& what) { return make_error(ErrorKind::io, what + ": " + std::strerror(errno)); }

// git's lock on a file: `<path>.lock`, created exclusively, is the new
// content; renaming it over the file commits it, else it goes.
class FileLock {
 public:
  static Result<FileLock> take(const std::string& path) {
    FileLock lock(path + ".lock");
    lock.m_fd = util::Fd(::open(lock.m_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
    if (lock.m_fd.get() < 0) {
      const bool held = errno == EEXIST;
      lock.m_path.clear();
      if (held) {
        return make_error(ErrorKind::io, path + ".lock exists: another git process seems to be writing " + path +
                                             " (remove the lock if none is)");
      }
      return errno_error("creating " + path + ".lock");
    }
    return lock;
  }
  FileLock(FileLock&& o) noexcept : m_path(std::exchange(o.m_path, {})), m_fd(std::move(o.m_fd)) {}
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  FileLock& operator=(FileLock&&) = delete;
  ~FileLock() {
    if (!m_path.empty()) ::unlink(m_path.c_str());
  }

  Result<void> commit(const std::string& path, std::string_view text, mode_t mode) {
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = ::write(m_fd.get(), text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return errno_error("writing " + m_path);
      done += static_cast<std::size_t>(n);
    }
    if (::fchmod(m_fd.get(), mode) != 0) return errno_error("setting the mode of " + m_path);
    if (!m_fd.close()) return errno_error("writing " + m_path);
    if (::rename(m_path.c_str(), path.c_str()) != 0) return errno_error("renaming " + m_path + " to " + path);
    m_path.clear();
    return {};
  }

 private:
  explicit FileLock(std::string path) : m_path(std::move(path)) {}
  std::string m_path;
  util::Fd m_fd;
};

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

std::optional<std::string> without_empty_section(std::string_view text, std::string_view section,
                                                 std::string_view subsection) {
  const std::string wanted = lowered(section) + "." + std::string(subsection);
  std::vector<std::pair<std::size_t, std::size_t>> headers;  // [begin, end) of each of its header lines
  bool in_section = false, continued = false;
  for (std::size_t pos = 0, end = 0; pos < text.size(); pos = end) {
    end = line_end(text, pos);
    const std::string_view line = text.substr(pos, end - pos);
    if (continued) {
      continued = continues(line);  // a value's next line, of a section already judged
      continue;
    }
    if (const std::optional<Header> h = parse_header(line)) {
      in_section = h->key == wanted;
      if (in_section && h->has_variable) return std::nullopt;
      if (in_section) headers.emplace_back(pos, end);
      continued = h->has_variable && continues(line);
      continue;
    }
    if (blank_or_comment(line)) continue;
    if (in_section) return std::nullopt;
    continued = continues(line);
  }
  if (headers.empty()) return std::nullopt;
  std::string out;
  std::size_t from = 0;
  for (const auto& [begin, end] : headers) {
    out.append(text.substr(from, begin - from));
    from = end;
  }
  return out.append(text.substr(from));
}

Result<bool> remove_empty_section(const Repository& repo, std::string_view section, std::string_view subsection) {
  const std::string path = repo.common_dir() + "config";
  LG_TRY(FileLock lock, FileLock::take(path));
  // Read under the lock, as git does, so that no other writer's change is lost.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return false;
    return errno_error("reading " + path);
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.is_open() || in.bad()) return errno_error("reading " + path);
  const std::optional<std::string> without = without_empty_section(text.str(), section, subsection);
  if (!without) return false;
  if (auto r = lock.commit(path, *without, st.st_mode & 07777); !r) return r.error();
  return true;
}

}  // namespace lg::git
