// posix_spawnp with two pipes read through poll(), so a child that fills one
// pipe while we wait on the other cannot deadlock.
#include "ledgergate/land/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "ledgergate/util/fd.hpp"

extern char** environ;

namespace lg::land {
namespace {

using util::Fd;

struct Pipe {
  Fd read, write;
};

Result<Pipe> make_pipe() {
  std::array<int, 2> fds{};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
    return make_error(ErrorKind::io, std::string("pipe: ") + std::strerror(errno));
  }
  return Pipe{Fd(fds[0]), Fd(fds[1])};
}

class FileActions {
 public:
  FileActions() { posix_spawn_file_actions_init(&m_actions); }
  ~FileActions() { posix_spawn_file_actions_destroy(&m_actions); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  posix_spawn_file_actions_t* get() { return &m_actions; }

 private:
  posix_spawn_file_actions_t m_actions{};
};

// The environment: ours, with `env` replacing or adding entries.
std::vector<std::string> child_environment(const std::vector<std::pair<std::string, std::string>>& env) {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry(*e);
    const std::string name = entry.substr(0, entry.find('='));
    bool overridden = false;
    for (const auto& kv : env) overridden = overridden || kv.first == name;
    if (!overridden) out.push_back(entry);
  }
  for (const auto& kv : env) out.push_back(kv.first + "=" + kv.second);
  return out;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Reads both pipes to their end.
Result<void> drain(Fd& out_fd, Fd& err_fd, std::string& out, std::string& err) {
  std::array<char, 8192> buf{};
  while (out_fd.get() >= 0 || err_fd.get() >= 0) {
    std::array<pollfd, 2> fds{{{out_fd.get(), POLLIN, 0}, {err_fd.get(), POLLIN, 0}}};
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return make_error(ErrorKind::io, std::string("poll: ") + std::strerror(errno));
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        (i == 0 ? out_fd : err_fd).reset();
        continue;
      }
      (i == 0 ? out : err).append(buf.data(), static_cast<std::size_t>(n));
    }
  }
  return {};
}

}  // namespace

Result<ProcessResult> run_process(const std::vector<std::string>& argv,
                                  const std::vector<std::pair<std::string, std::string>>& env) {
  if (argv.empty()) return make_error(ErrorKind::internal, "run_process: empty argument vector");
  LG_TRY(Pipe out_pipe, make_pipe());
  LG_TRY(Pipe err_pipe, make_pipe());
  FileActions actions;
  posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(actions.get(), out_pipe.write.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(actions.get(), err_pipe.write.get(), STDERR_FILENO);
  std::vector<std::string> args = argv;
  std::vector<std::string> envs = child_environment(env);
  std::vector<char*> c_args = c_strings(args);
  std::vector<char*> c_envs = c_strings(envs);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, c_args[0], actions.get(), nullptr, c_args.data(), c_envs.data());
  if (rc != 0) return make_error(ErrorKind::io, "cannot run " + argv[0] + ": " + std::strerror(rc));
  out_pipe.write.reset();
  err_pipe.write.reset();
  ProcessResult result;
  auto drained = drain(out_pipe.read, err_pipe.read, result.out, result.err);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return make_error(ErrorKind::io, std::string("waitpid: ") + std::strerror(errno));
  }
  if (!drained) return drained.error();
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = 128 + WTERMSIG(status);
  }
  return result;
}

}  // namespace lg::land
