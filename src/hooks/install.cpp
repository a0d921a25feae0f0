// Hook installation: the hooks folder git uses, shims with a marker line, the
// foreign hook kept beside ours, atomic writes (temporary file + rename).
#include "ledgergate/hooks/install.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

#include "files.hpp"
#include "ledgergate/git/config.hpp"
#include "ledgergate/util/fd.hpp"

namespace lg::hooks {
namespace {

using files::FileInfo;
using files::io_error;
using files::probe;
using files::read_bytes;
using files::write_all;
using files::write_atomic;

constexpr std::array<std::string_view, 5> k_known = {"pre-commit", "pre-merge-commit", "pre-push", "pre-receive",
                                                      "update"};

// Keeps an exact copy of the hook at `from` as `to` (which must not exist):
// a hard link (same bytes, same mode, a symlink stays a symlink), else a copy.
Result<void> keep_original(const std::string& from, const std::string& to, const FileInfo& info) {
  if (::link(from.c_str(), to.c_str()) == 0) return {};
  if (errno == EEXIST) return make_error(ErrorKind::io, to + " already exists: it would be overwritten");
  if (info.symlink) {
    std::array<char, 4096> target{};
    const ssize_t n = ::readlink(from.c_str(), target.data(), target.size());
    if (n < 0 || static_cast<std::size_t>(n) == target.size()) return io_error("reading the symlink " + from);
    if (::symlink(std::string(target.data(), static_cast<std::size_t>(n)).c_str(), to.c_str()) != 0) {
      return io_error("keeping " + from + " as " + to);
    }
    return {};
  }
  LG_TRY(const std::string bytes, read_bytes(from));
  const int fd = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return io_error("keeping " + from + " as " + to);
  Result<void> written = write_all(fd, bytes, to);
  if (written && ::fchmod(fd, info.mode) != 0) written = io_error("setting the mode of " + to);
  if (::close(fd) != 0 && written) written = io_error("writing " + to);
  if (!written) ::unlink(to.c_str());
  return written;
}

// The binary a shim runs: its `recorded=` line (shell-unquoted), or the path
// in the `exec` line of a shim written before the fallback existed.
std::string recorded_binary(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.starts_with(k_recorded_prefix)) {
      line.remove_prefix(k_recorded_prefix.size());
    } else if (line.starts_with("exec ") && line.find(" hooks run ") != std::string_view::npos) {
      line = line.substr(5, line.find(" hooks run ") - 5);
    } else {
      continue;
    }
    return files::shell_unquote(line);
  }
  return "";
}

// One hook's installer at a time: `<hook>.ledgergate-lock` in the hooks
// folder, created exclusively, removed when done. Another `hooks install` or
// `uninstall` holding it is waited for (they take milliseconds); a lock left
// for longer is reported, naming the file.
class HookLock {
 public:
  static Result<HookLock> take(const std::string& dir, std::string_view name) {
    HookLock lock(dir + std::string(name) + ".ledgergate-lock");
    constexpr auto k_pause = std::chrono::milliseconds(5);
    constexpr int k_tries = 2000;  // 10 s
    for (int i = 0;; ++i) {
      lock.m_fd = util::Fd(::open(lock.m_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
      if (lock.m_fd.get() >= 0) return lock;
      if (errno != EEXIST) {
        Error e = io_error("creating " + lock.m_path);
        lock.m_path.clear();
        return e;
      }
      if (i == k_tries) break;
      std::this_thread::sleep_for(k_pause);
    }
    Error e = make_error(ErrorKind::io, lock.m_path + " exists: another `ledgergate hooks` seems to be changing " +
                                            dir + std::string(name) + " (remove the lock if none is)");
    lock.m_path.clear();
    return e;
  }
  HookLock(HookLock&& o) noexcept : m_path(std::exchange(o.m_path, {})), m_fd(std::move(o.m_fd)) {}
  HookLock(const HookLock&) = delete;
  HookLock& operator=(const HookLock&) = delete;
  HookLock& operator=(HookLock&&) = delete;
  ~HookLock() {
    if (!m_path.empty()) ::unlink(m_path.c_str());
  }

 private:
  explicit HookLock(std::string path) : m_path(std::move(path)) {}
  std::string m_path;
  util::Fd m_fd;
};

// The shim's file and what is there now.
struct Slot {
  std::string path;
  FileInfo info;
  bool ours = false;
};

Result<Slot> inspect(const std::string& dir, std::string_view name) {
  Slot s;
  s.path = dir + std::string(name);
  LG_TRY(s.info, probe(s.path));
  if (s.info.directory) return make_error(ErrorKind::io, s.path + " is a directory, not a hook");
  if (s.info.exists && !s.info.symlink) {
    LG_TRY(const std::string text, read_bytes(s.path));
    s.ours = is_our_shim(text);
  }
  return s;
}

}  // namespace

std::span<const std::string_view> known_hooks() { return k_known; }

bool is_known_hook(std::string_view name) {
  for (const std::string_view k : k_known) {
    if (k == name) return true;
  }
  return false;
}

std::vector<std::string> default_hooks(bool bare) {
  if (bare) return {"pre-receive", "update"};
  return {"pre-commit", "pre-merge-commit", "pre-push"};
}

Result<std::string> hooks_dir(const git::Repository& repo) {
  const auto config = git::Config::snapshot(repo);
  if (!config) return config.error().with_context("reading the repository's configuration");
  const auto configured = config->get_path("core.hooksPath");
  if (!configured) return configured.error().with_context("reading core.hooksPath");
  std::string dir;
  if (!*configured) {
    dir = repo.common_dir() + "hooks";
  } else {
    dir = **configured;
    if (dir.empty()) return make_error(ErrorKind::usage, "core.hooksPath is set but empty");
    // git runs hooks from the working tree's root (a bare repository: its git dir).
    if (dir.front() != '/') dir = (repo.is_bare() ? repo.git_dir() : repo.workdir()) + dir;
  }
  if (dir.back() != '/') dir += '/';
  return dir;
}

std::string render_shim(std::string_view hook, std::string_view binary) {
  const std::string h(hook);
  std::string out = "#!/bin/sh\n";
  out += k_marker;
  out += " (`ledgergate hooks uninstall` removes it and puts back what was here)\n";
  // The binary recorded at install time, else the first ledgergate on PATH,
  // else a refusal that names the fix (never the shell's "exec: not found").
  out += std::string(k_recorded_prefix) + files::shell_quote(binary) + "\n";
  // Only an absolute path: git runs hooks from the working tree's root, where
  // a relative name could be a file of the repository.
  out += "if [ \"${recorded#/}\" != \"$recorded\" ] && [ -x \"$recorded\" ]; then lg=\"$recorded\"\n";
  out += "elif lg=\"$(command -v ledgergate)\"; then :\n";
  out += "else\n";
  out += "  echo \"ledgergate " + h + ": refused: cannot find ledgergate (not at $recorded, not on PATH);\" \\\n";
  out += "    \"install ledgergate, or run 'ledgergate hooks install' again with the binary you use\" \\\n";
  out += "    \"(git's --no-verify skips this hook)\" >&2\n";
  out += "  exit 2\n";
  out += "fi\n";
  out += "exec \"$lg\" hooks run " + h + " \"$@\"\n";
  return out;
}

bool is_our_shim(std::string_view text) {
  for (std::size_t pos = text.find(k_marker); pos != std::string_view::npos; pos = text.find(k_marker, pos + 1)) {
    if (pos == 0 || text[pos - 1] == '\n') return true;
  }
  return false;
}

std::string original_path(const std::string& dir, std::string_view name) {
  return dir + std::string(name) + std::string(k_original_suffix);
}

namespace {

// The hook a shim of ours runs (its `hooks run NAME` line), "" when none is named.
std::string shim_hook(std::string_view text) {
  constexpr std::string_view run = " hooks run ";
  const std::size_t at = text.find(run);
  if (at == std::string_view::npos) return "";
  const std::string_view rest = text.substr(at + run.size());
  return std::string(rest.substr(0, rest.find_first_of(" \n")));
}

}  // namespace

Result<std::string> original_to_run(const std::string& dir, std::string_view name) {
  std::string path = original_path(dir, name);
  for (int hop = 0; hop < 40; ++hop) {
    LG_TRY(const FileInfo info, probe(path));
    if (!info.exists) return std::string();
    if (!info.symlink) return path;
    std::array<char, 4096> resolved{};
    if (::realpath(path.c_str(), resolved.data()) == nullptr) {
      if (errno == ENOENT) return std::string();  // a dangling link: git would run nothing either
      return io_error("resolving the link " + path);
    }
    const std::string target(resolved.data());
    LG_TRY(const FileInfo at_target, probe(target));
    if (at_target.directory) return path;  // not a hook: let running it fail as it would have
    LG_TRY(const std::string text, read_bytes(target));
    if (!is_our_shim(text)) return path;
    // The link leads to one of our shims: run what that shim chains instead.
    const std::string hook = shim_hook(text);
    if (hook.empty()) return std::string();
    path = original_path(target.substr(0, target.rfind('/') + 1), hook);
  }
  return make_error(ErrorKind::io, "the kept hook " + original_path(dir, name) + " is a chain of links that loops");
}

std::string_view to_string(Action a) {
  switch (a) {
    case Action::installed: return "installed";
    case Action::chained: return "installed, chaining the hook that was there";
    case Action::updated: return "updated";
    case Action::unchanged: return "already installed";
    case Action::removed: return "removed";
    case Action::restored: return "removed, the original hook put back";
    case Action::not_ours: return "not ours: left alone";
    case Action::not_present: return "not installed";
  }
  return "?";
}

Result<HookChange> install_hook(const std::string& dir, std::string_view name, std::string_view binary) {
  if (auto made = files::make_dirs(dir); !made) return made.error();
  // Under the lock, what another installer did is seen here: a racing
  // install finds its own shim in place (unchanged), not a foreign hook.
  LG_TRY(const HookLock lock, HookLock::take(dir, name));
  LG_TRY(const Slot slot, inspect(dir, name));
  const std::string shim = render_shim(name, binary);
  HookChange change{std::string(name), Action::installed, slot.path};
  if (slot.ours) {
    LG_TRY(const std::string text, read_bytes(slot.path));
    if (text == shim) {
      change.action = Action::unchanged;
      return change;
    }
    change.action = Action::updated;
    if (auto w = write_atomic(slot.path, shim, slot.info.mode); !w) return w.error();
    return change;
  }
  if (!slot.info.exists) {
    if (auto w = write_atomic(slot.path, shim, 0755); !w) return w.error();
    return change;
  }
  // A foreign hook: keep it beside (never overwriting a kept one), then
  // rename the shim over it, so some hook is in place at every moment.
  const std::string orig = original_path(dir, name);
  LG_TRY(const FileInfo kept, probe(orig));
  if (kept.exists) {
    return make_error(ErrorKind::io, slot.path + " is not ours and " + orig +
                                         " already exists: move one of them away first");
  }
  if (auto k = keep_original(slot.path, orig, slot.info); !k) return k.error();
  if (auto w = write_atomic(slot.path, shim, 0755); !w) {
    ::unlink(orig.c_str());
    return w.error();
  }
  change.action = Action::chained;
  return change;
}

Result<HookChange> uninstall_hook(const std::string& dir, std::string_view name) {
  LG_TRY(const FileInfo folder, probe(dir));
  if (!folder.exists) return HookChange{std::string(name), Action::not_present, dir + std::string(name)};
  LG_TRY(const HookLock lock, HookLock::take(dir, name));
  LG_TRY(const Slot slot, inspect(dir, name));
  HookChange change{std::string(name), Action::not_present, slot.path};
  if (slot.info.exists && !slot.ours) {
    change.action = Action::not_ours;
    return change;
  }
  const std::string orig = original_path(dir, name);
  LG_TRY(const FileInfo kept, probe(orig));
  if (kept.exists) {
    // rename is atomic and keeps the original's bytes, mode and kind.
    if (::rename(orig.c_str(), slot.path.c_str()) != 0) return io_error("restoring " + slot.path);
    change.action = Action::restored;
    return change;
  }
  if (!slot.info.exists) return change;
  if (::unlink(slot.path.c_str()) != 0) return io_error("removing " + slot.path);
  change.action = Action::removed;
  return change;
}

Result<HookStatus> hook_status(const std::string& dir, std::string_view name) {
  LG_TRY(const Slot slot, inspect(dir, name));
  HookStatus status{std::string(name), HookState::absent, slot.path, "", false, {}, {}};
  if (!slot.info.exists) return status;
  if (!slot.ours) {
    status.state = HookState::foreign;
    return status;
  }
  status.state = HookState::ours;
  LG_TRY(const std::string text, read_bytes(slot.path));
  status.binary = recorded_binary(text);
  status.binary_runs = status.binary.starts_with('/') && files::is_executable(status.binary);
  if (!status.binary_runs) status.fallback = files::find_on_path("ledgergate");
  LG_TRY(const FileInfo kept, probe(original_path(dir, name)));
  status.chained = kept.exists;
  return status;
}

}  // namespace lg::hooks
