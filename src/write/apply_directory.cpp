// apply_to_directory: lock the root, read, edit, validate, then write each
// file through a temporary file and rename; write_file_atomically, the same
// staging for one file (atomic_file.hpp).
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

#include "ledgergate/util/fd.hpp"
#include "ledgergate/write/apply.hpp"
#include "ledgergate/write/atomic_file.hpp"
#include "apply_steps.hpp"

namespace lg::write {

namespace {

Error io_error(const std::string& what) { return make_error(ErrorKind::io, what + ": " + std::strerror(errno)); }

using util::Fd;

// The exclusive lock on the root directory's own descriptor: flock locks
// belong to the open file description, so two writers (processes or
// threads, each opening the root) exclude each other, and the lock goes
// with the descriptor, leaving nothing on disk.
Result<Fd> lock_root(const std::string& root) {
  Fd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) return make_error(ErrorKind::usage, root + " is not a directory");
  while (::flock(fd.get(), LOCK_EX) != 0) {
    if (errno != EINTR) return io_error("locking " + root);
  }
  return fd;
}

// A path an edit may write: relative, no empty, "." or ".." component, not
// inside .git.
bool safe_path(std::string_view path) {
  if (path.empty() || path.front() == '/') return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = path.find('/', start);
    const std::string_view part = path.substr(start, slash == std::string_view::npos ? path.npos : slash - start);
    if (part.empty() || part == "." || part == ".." || part == ".git") return false;
    if (slash == std::string_view::npos) return true;
    start = slash + 1;
  }
}

std::string parent_dir(const std::string& full) {
  const auto slash = full.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : full.substr(0, slash);
}

// What a write has put on disk before its renames: temporary files and the
// directories created for them, all removed again unless committed.
class Staged {
 public:
  Staged() = default;
  Staged(const Staged&) = delete;
  Staged& operator=(const Staged&) = delete;
  ~Staged() {
    for (const auto& [tmp, target] : m_files) ::unlink(tmp.c_str());
    for (auto it = m_dirs.rbegin(); it != m_dirs.rend(); ++it) ::rmdir(it->c_str());
  }
  void add(std::string tmp, std::string target) { m_files.emplace_back(std::move(tmp), std::move(target)); }

  // Creates the directories leading to `path` below `root` (0755 less the umask).
  Result<void> make_parents(const std::string& root, std::string_view path) {
    for (std::size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', slash + 1)) {
      const std::string dir = root + "/" + std::string(path.substr(0, slash));
      if (::mkdir(dir.c_str(), 0755) == 0) {
        m_dirs.push_back(dir);
        continue;
      }
      struct stat st {};
      if (errno != EEXIST || ::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return io_error("creating " + dir);
    }
    return {};
  }

  // Renames every temporary file over its target, then syncs their
  // directories so the renames survive a crash. A failed rename leaves the
  // files renamed before it in place.
  Result<void> commit() {
    m_dirs.clear();
    std::set<std::string> dirs;
    while (!m_files.empty()) {
      const auto [tmp, target] = m_files.front();
      if (::rename(tmp.c_str(), target.c_str()) != 0) return io_error("renaming " + tmp + " to " + target);
      dirs.insert(parent_dir(target));
      m_files.erase(m_files.begin());
    }
    for (const std::string& dir : dirs) {
      Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
      if (fd.get() < 0 || ::fsync(fd.get()) != 0) return io_error("syncing " + dir);
    }
    return {};
  }

 private:
  std::vector<std::pair<std::string, std::string>> m_files;  // temporary, target
  std::vector<std::string> m_dirs;                            // created, outermost first
};

// A name beside `full` no other writer picks: the process and a counter.
std::string temp_name(const std::string& full) {
  static std::atomic<unsigned> counter{0};
  const auto slash = full.rfind('/');
  return full.substr(0, slash + 1) + "." + full.substr(slash + 1) + ".ledgergate-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter++);
}

// Writes `bytes` to a synced temporary file beside `full`, with the
// existing file's permission bits (0644 less the umask for a new file).
// Errors name `full`: the temporary file is the writer's business.
Result<void> stage(Staged& staged, const std::string& full, std::string_view bytes) {
  const auto cannot = [&full] { return io_error("cannot write " + full); };
  struct stat st {};
  std::optional<mode_t> keep;
  if (::lstat(full.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return make_error(ErrorKind::io, "cannot write " + full + ": it is a directory");
    if (S_ISREG(st.st_mode)) keep = st.st_mode & 07777;
  } else if (errno != ENOENT) {
    return cannot();
  }
  const std::string tmp = temp_name(full);
  Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0) return cannot();
  staged.add(tmp, full);
  if (keep && ::fchmod(fd.get(), *keep) != 0) return cannot();
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return cannot();
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd.get()) != 0 || !fd.close()) return cannot();
  return {};
}

Result<std::vector<std::string>> write_files(const std::string& root, const std::vector<FileEdit>& files) {
  for (const FileEdit& f : files) {
    if (!safe_path(f.path)) return make_error(ErrorKind::invalid_input, "refusing to write " + f.path + " outside the tree");
  }
  Staged staged;
  std::vector<std::string> written;
  for (const FileEdit& f : files) {
    if (auto made = staged.make_parents(root, f.path); !made) return made.error();
    if (auto ok = stage(staged, root + "/" + f.path, f.bytes); !ok) return ok.error();
    written.push_back(f.path);
  }
  if (auto ok = staged.commit(); !ok) return ok.error();
  return written;
}

}  // namespace

Result<void> write_file_atomically(const std::string& path, std::string_view bytes) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  std::error_code ec;
  if (!folder.empty() && !std::filesystem::is_directory(folder, ec)) {
    return make_error(ErrorKind::io, "cannot write " + path + ": the folder " + folder + " does not exist");
  }
  Staged staged;
  if (auto ok = stage(staged, path, bytes); !ok) return ok.error();
  return staged.commit();
}

Result<Applied> apply_to_directory(const std::string& root, const Editor& editor, const ApplyOptions& options) {
  std::string r = root;
  while (r.size() > 1 && r.back() == '/') r.pop_back();
  LG_TRY(const auto lock, lock_root(r));
  LG_TRY(const auto tree, git::open_directory_source(r));
  LG_TRY(Applied applied, edit_validated(*tree, editor, options, 1));
  const Change* change = to_write(applied);
  if (change == nullptr) return applied;
  LG_TRY(applied.written, write_files(r, change->files));
  return applied;
}

}  // namespace lg::write
