// Transactions of the staging area (staging.hpp): stage, intend, rename;
// and the recovery of those whose writer died.
#include "staging.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <random>

#include "ledgergate/git/commit.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/work_tree.hpp"
#include "ledgergate/util/assert.hpp"
#include "ledgergate/util/temp_name.hpp"

namespace lg::write::staging {
namespace {

using util::Fd;

constexpr std::string_view k_header = "ledgergate write 1";
constexpr const char* k_intent = "intent";
constexpr const char* k_intent_new = "intent.new";
constexpr const char* k_staged = "staged";
constexpr std::string_view k_folder_area = ".ledgergate-write";

Error io_error(const std::string& what, int err = errno) {
  return make_error(ErrorKind::io, what + ": " + std::strerror(err));
}

// A path on one line of a record: '\' and LF escaped.
std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      ++i;
      out += s[i] == 'n' ? '\n' : s[i];
    } else {
      out += s[i];
    }
  }
  return out;
}

Result<void> write_all(int fd, std::string_view bytes) {
  if (!util::write_all(fd, bytes)) return io_error("write");
  return {};
}

// The whole of the file `name` in the folder `dir`; nullopt when it is not there.
std::optional<std::string> read_at(int dir, const char* name) {
  Fd fd(::openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() < 0) return std::nullopt;
  std::string out;
  char buf[8192];
  while (true) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

// Which file a target is: device, inode, size and modification time ("-": none).
std::string identity(const struct stat& st) {
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
         std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}
std::string identity_at(int dir, const std::string& name) {
  struct stat st {};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return "-";
  return identity(st);
}

// Removes the staged files `name`'s writers left beside it in `dir` when
// their process is gone (no area recorded them).
void sweep_dead_temps(int dir, const std::string& name) {
  const std::string prefix = "." + name + ".ledgergate-";
  DIR* d = ::fdopendir(::fcntl(dir, F_DUPFD_CLOEXEC, 0));
  if (!d) return;
  std::vector<std::string> dead;
  while (const dirent* de = ::readdir(d)) {
    const std::string_view n = de->d_name;
    if (n.rfind(prefix, 0) != 0) continue;
    const long pid = util::writer_temp_pid(n);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) dead.emplace_back(n);
  }
  ::closedir(d);
  for (const std::string& n : dead) ::unlinkat(dir, n.c_str(), 0);
}

bool same_folder(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

std::string absolute(const std::string& path) {
  std::error_code ec;
  const auto abs = std::filesystem::absolute(path, ec);
  std::string out = ec ? path : abs.lexically_normal().generic_string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// A unique name for a transaction's folder: the process, a counter, and a
// random part (two hosts sharing a git directory over NFS).
std::string transaction_name() {
  static std::atomic<unsigned> counter{0};
  static const unsigned long salt = std::random_device{}();
  return std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + std::to_string(salt % 1000000);
}

// Removes a transaction's folder and what it holds (its own files only).
void remove_transaction(int area, const std::string& name, int dir) {
  if (DIR* d = ::fdopendir(::fcntl(dir, F_DUPFD_CLOEXEC, 0))) {
    std::vector<std::string> names;
    while (const dirent* de = ::readdir(d)) {
      const std::string n = de->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    ::closedir(d);
    for (const std::string& n : names) ::unlinkat(dir, n.c_str(), 0);
  }
  ::unlinkat(area, name.c_str(), AT_REMOVEDIR);
}

// A folder area that holds nothing is removed (under its exclusive flock,
// so a writer about to make a transaction in it starts over).
void drop_folder_area(const Area& area) {
  if (area.in_git_dir) return;
  Fd fd(::open(area.dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() < 0 || ::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) return;
  ::rmdir(area.dir.c_str());
}

// One record (`intent` or `staged`) read back.
struct Record {
  std::string root;
  struct File {
    std::string was, token, rel;
  };
  std::vector<File> files;
  struct Lock {
    std::string dev, ino, target;
  };
  std::vector<Lock> locks;
  std::optional<RefUpdate> ref;
  bool ok = false;
};

Record parse_record(std::string_view text) {
  Record r;
  std::size_t pos = 0;
  bool first = true;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (first) {
      if (line != k_header) return r;
      first = false;
      continue;
    }
    const auto word = [&line](std::size_t n) {  // the n-th space-separated word (0 = the kind)
      std::size_t at = 0;
      for (std::size_t i = 0; i < n; ++i) at = line.find(' ', at) + 1;
      return line.substr(at, line.find(' ', at) - at);
    };
    const auto rest = [&line](std::size_t n) {  // from the n-th word to the end
      std::size_t at = 0;
      for (std::size_t i = 0; i < n; ++i) at = line.find(' ', at) + 1;
      return unescape(line.substr(at));
    };
    const std::size_t spaces = static_cast<std::size_t>(std::count(line.begin(), line.end(), ' '));
    const std::string_view kind = word(0);
    if (kind == "root" && spaces >= 1) {
      r.root = rest(1);
    } else if (kind == "file" && spaces >= 3) {
      r.files.push_back({std::string(word(1)), std::string(word(2)), rest(3)});
    } else if (kind == "lock" && spaces >= 3) {
      r.locks.push_back({std::string(word(1)), std::string(word(2)), rest(3)});
    } else if (kind == "ref" && spaces >= 3) {
      r.ref = RefUpdate{rest(3), std::string(word(1)), std::string(word(2))};
    } else {
      return r;
    }
  }
  r.ok = !first && !r.root.empty();
  return r;
}

// Where a recorded file's staged copy is: its folder's descriptor and name.
struct StagedAt {
  Fd dir;           // the folder holding the staged copy (the transaction's, or the target's)
  Fd target_dir;    // the target's folder (invalid when it cannot be reached)
  std::string temp;
  std::string name;
};

StagedAt locate(int tx, int root, const Record::File& f) {
  StagedAt at;
  const auto [parent, name] = util::split_parent(f.rel);
  at.name = std::string(name);
  if (auto d = util::open_dir_beneath(root, parent)) at.target_dir = std::move(*d);
  if (!f.token.empty() && f.token[0] == 'a') {
    at.dir = Fd(::fcntl(tx, F_DUPFD_CLOEXEC, 0));
    at.temp = f.token;
  } else if (!f.token.empty() && f.token[0] == 'b' && at.target_dir.get() >= 0) {
    // b<pid>-<n>: the name writer_temp_name gave it beside the target.
    const std::string_view t = std::string_view(f.token).substr(1);
    const std::size_t dash = t.find('-');
    long pid = 0;
    unsigned long n = 0;
    if (dash != std::string_view::npos &&
        std::from_chars(t.data(), t.data() + dash, pid).ec == std::errc() &&
        std::from_chars(t.data() + dash + 1, t.data() + t.size(), n).ec == std::errc()) {
      at.temp = util::writer_temp_name(name, pid, n);
      at.dir = Fd(::fcntl(at.target_dir.get(), F_DUPFD_CLOEXEC, 0));
    }
  }
  return at;
}

bool exists_at(int dir, const std::string& name) {
  struct stat st {};
  return dir >= 0 && !name.empty() && ::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

// Whether the lock file of `l` is still the one the transaction created.
bool lock_is_ours(const Record::Lock& l) {
  struct stat st {};
  const std::string path = l.target + ".lock";
  return ::lstat(path.c_str(), &st) == 0 && std::to_string(st.st_dev) == l.dev && std::to_string(st.st_ino) == l.ino;
}

// Whether a commit's ref update landed: the ref holds the new commit, or
// one that descends from it.
bool landed(const std::string& root, const RefUpdate& ref) {
  auto repo = git::Repository::open(root, true);
  if (!repo) return false;
  const auto tip = git::ref_target(*repo, ref.ref);
  const auto made = git::ObjectId::from_hex(ref.new_id);
  if (!tip || !made) return false;
  if (*tip == *made) return true;
  const auto below = git::is_descendant_of(*repo, *tip, *made);
  return below && *below;
}

void sync_folder(int dir) {
  if (dir >= 0) ::fsync(dir);
}

// Rolls a transaction whose writer is gone back: what it staged outside
// its folder is removed (its own folder goes after).
void roll_back(int tx, int root, const Record& staged) {
  for (const Record::File& f : staged.files) {
    StagedAt at = locate(tx, root, f);
    if (f.token[0] == 'b' && exists_at(at.dir.get(), at.temp)) ::unlinkat(at.dir.get(), at.temp.c_str(), 0);
  }
  for (const Record::Lock& l : staged.locks) {
    if (lock_is_ours(l)) ::unlink((l.target + ".lock").c_str());
  }
}

// Rolls a transaction with an intent forward (or back, when its commit did
// not land).
void roll_forward(int tx, int root, const Record& intent, Recovery& out) {
  if (intent.ref && !landed(intent.root, *intent.ref)) {
    roll_back(tx, root, intent);  // its files staged in its folder go with it
    ++out.discarded;
    return;
  }
  for (const Record::File& f : intent.files) {
    StagedAt at = locate(tx, root, f);
    if (!exists_at(at.dir.get(), at.temp)) continue;  // renamed before the writer died
    if (at.target_dir.get() >= 0 && identity_at(at.target_dir.get(), at.name) == f.was &&
        ::renameat(at.dir.get(), at.temp.c_str(), at.target_dir.get(), at.name.c_str()) == 0) {
      sync_folder(at.target_dir.get());
      out.written.push_back(f.rel);
    } else {
      ::unlinkat(at.dir.get(), at.temp.c_str(), 0);
      out.kept.push_back(f.rel);
    }
  }
  for (const Record::Lock& l : intent.locks) {
    if (lock_is_ours(l) && ::rename((l.target + ".lock").c_str(), l.target.c_str()) == 0) continue;
    out.kept.push_back(l.target);
  }
  ++out.finished;
}

Result<Fd> open_area(const Area& area) {
  Fd fd(::open(area.dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() < 0 && errno != ENOENT) return io_error("cannot open " + area.dir);
  return fd;
}

}  // namespace

Area area_for(const std::string& folder) {
  // Only where the working tree and git directory are: the repository's
  // objects are not opened.
  auto repo = git::discover_work_tree(absolute(folder));
  return area_for(folder, repo ? *repo : std::nullopt);
}

Area area_for(const std::string& folder, const std::optional<git::WorkTree>& discovered) {
  const std::string abs = absolute(folder);
  if (discovered) {
    std::error_code ec1, ec2;
    const auto top = std::filesystem::weakly_canonical(discovered->workdir, ec1).generic_string();
    const auto here = std::filesystem::weakly_canonical(abs, ec2).generic_string() + "/";
    if (!ec1 && !ec2 && here.rfind(top.back() == '/' ? top : top + "/", 0) == 0) {
      return Area{discovered->git_dir + "ledgergate/write", true};
    }
  }
  return Area{abs + "/" + std::string(k_folder_area), false};
}

Result<Fd> lock_folder(const std::string& folder) {
  Fd fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) return make_error(ErrorKind::usage, folder + " is not a directory");
  while (::flock(fd.get(), LOCK_EX) != 0) {
    if (errno != EINTR) return io_error("locking " + folder);
  }
  return fd;
}

// --- Transaction ---

Result<Transaction> Transaction::begin(const Area& area, const std::string& root, int root_fd) {
  Transaction t;
  t.m_area = area;
  t.m_root = absolute(root);
  t.m_root_fd = root_fd;
  if (area.dir.empty()) return t;
  if (area.in_git_dir) {
    const std::string parent = area.dir.substr(0, area.dir.rfind('/'));
    if (::mkdir(parent.c_str(), 0777) != 0 && errno != EEXIST) return io_error("cannot make " + parent);
  }
  // A folder area may be removed by the writer that emptied it between our
  // making and entering it: then start over.
  for (int attempt = 0;; ++attempt) {
    if (::mkdir(area.dir.c_str(), 0777) != 0 && errno != EEXIST) return io_error("cannot make " + area.dir);
    LG_TRY(Fd fd, open_area(area));
    if (fd.get() < 0) {
      if (attempt < 5) continue;
      return io_error("cannot open " + area.dir);
    }
    while (::flock(fd.get(), LOCK_SH) != 0) {
      if (errno != EINTR) return io_error("locking " + area.dir);
    }
    t.m_name = transaction_name();
    if (::mkdirat(fd.get(), t.m_name.c_str(), 0700) != 0) {
      if (errno == ENOENT && attempt < 5) continue;
      return io_error("cannot make a folder in " + area.dir);
    }
    t.m_dir = Fd(::openat(fd.get(), t.m_name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (t.m_dir.get() < 0 || ::flock(t.m_dir.get(), LOCK_EX | LOCK_NB) != 0) {
      return io_error("cannot open a folder in " + area.dir);
    }
    return t;
  }
}

Transaction::Transaction(Transaction&& o) noexcept
    : m_area(std::move(o.m_area)),
      m_root(std::move(o.m_root)),
      m_root_fd(o.m_root_fd),
      m_name(std::move(o.m_name)),
      m_dir(std::move(o.m_dir)),
      m_files(std::move(o.m_files)),
      m_locks(std::move(o.m_locks)),
      m_made(std::move(o.m_made)),
      m_staged(std::move(o.m_staged)),
      m_records(std::move(o.m_records)),
      m_intent(o.m_intent),
      m_sync(o.m_sync),
      m_finished(std::exchange(o.m_finished, true)) {}

Transaction::~Transaction() {
  // After the commit point what is left is the recovery's to finish: the
  // folder stays and its flock goes with the descriptor.
  if (!m_finished && !m_intent) roll_back();
}

void Transaction::roll_back() {
  for (const File& f : m_files) {
    if (!f.renamed) ::unlinkat(f.beside ? f.dir.get() : m_dir.get(), f.temp.c_str(), 0);
  }
  for (const Lock& l : m_locks) {
    if (!l.renamed) ::unlink((l.target + ".lock").c_str());
  }
  for (auto it = m_made.rbegin(); it != m_made.rend(); ++it) ::unlinkat(m_root_fd, it->c_str(), AT_REMOVEDIR);
  finish();
}

void Transaction::abandon() {
  if (m_finished) return;
  if (m_intent) {
    ::unlinkat(m_dir.get(), k_intent, 0);
    ::fsync(m_dir.get());
    m_intent = false;
  }
  roll_back();
}

Result<void> Transaction::note(const std::string& line) {
  if (m_dir.get() < 0) return {};  // no area: nothing is recorded
  if (m_staged.get() < 0) {
    m_staged = Fd(::openat(m_dir.get(), k_staged, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600));
    if (m_staged.get() < 0) return io_error("cannot write in " + m_area.dir);
    if (auto ok = write_all(m_staged.get(), std::string(k_header) + "\nroot " + escape(m_root) + "\n"); !ok) {
      return ok.error();
    }
  }
  return write_all(m_staged.get(), line + "\n");
}

Result<void> Transaction::stage(const std::string& rel, std::string_view bytes, mode_t new_mode,
                                std::string_view shown) {
  const auto [parent, name] = util::split_parent(rel);
  const std::string cannot = "cannot write " + std::string(shown.empty() ? std::string_view(rel) : shown);
  auto dir = util::open_dir_beneath(m_root_fd, parent, &m_made);
  if (!dir) return dir.error().with_context(cannot);
  File f;
  f.rel = rel;
  f.dir = std::move(*dir);
  f.name = std::string(name);
  struct stat st {};
  std::optional<mode_t> keep;
  if (::fstatat(f.dir.get(), f.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (S_ISLNK(st.st_mode)) return make_error(ErrorKind::invalid_input, cannot + ": it is a symbolic link");
    if (S_ISDIR(st.st_mode)) return make_error(ErrorKind::io, cannot + ": it is a directory");
    if (!S_ISREG(st.st_mode)) return make_error(ErrorKind::io, cannot + ": it is not a regular file");
    keep = st.st_mode & 07777;
    f.was = identity(st);
  } else if (errno == ENOENT) {
    f.was = "-";
  } else {
    return io_error(cannot);
  }
  struct stat here {}, area {};
  if (::fstat(f.dir.get(), &here) != 0 || (m_dir.get() >= 0 && ::fstat(m_dir.get(), &area) != 0)) {
    return io_error(cannot);
  }
  static std::atomic<unsigned long> counter{0};
  std::string token;
  int at = m_dir.get();
  if (m_dir.get() < 0) sweep_dead_temps(f.dir.get(), f.name);
  if (m_dir.get() >= 0 && here.st_dev == area.st_dev) {
    token = "a" + std::to_string(m_files.size());
    f.temp = token;
  } else {
    // Another filesystem: beside the target, recorded before it is made.
    const unsigned long n = counter++;
    token = "b" + std::to_string(::getpid()) + "-" + std::to_string(n);
    f.temp = util::writer_temp_name(f.name, ::getpid(), n);
    f.beside = true;
    at = f.dir.get();
    if (auto ok = note("file - " + token + " " + escape(rel)); !ok) return ok.error().with_context(cannot);
  }
  f.fd = Fd(::openat(at, f.temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, new_mode));
  if (f.fd.get() < 0) return io_error(cannot);
  m_files.push_back(std::move(f));
  File& kept = m_files.back();
  if (keep && ::fchmod(kept.fd.get(), *keep) != 0) return io_error(cannot);
  if (auto ok = write_all(kept.fd.get(), bytes); !ok) return io_error(cannot);
  if (m_sync && ::fsync(kept.fd.get()) != 0) return io_error(cannot);
  m_records.push_back("file " + kept.was + " " + token + " " + escape(rel));
  return {};
}

Result<struct stat> Transaction::staged_stat(std::size_t i) const {
  struct stat st {};
  if (i >= m_files.size() || ::fstat(m_files[i].fd.get(), &st) != 0) return io_error("cannot read a staged file");
  return st;
}

Result<int> Transaction::take_lock(const std::string& target, bool* busy) {
  const std::string path = target + ".lock";
  Fd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
  if (fd.get() < 0) {
    if (busy) *busy = errno == EEXIST;
    return io_error("cannot create " + path);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    ::unlink(path.c_str());
    return io_error("cannot create " + path);
  }
  Lock l;
  l.target = target;
  l.dev = st.st_dev;
  l.ino = st.st_ino;
  const int raw = fd.get();
  l.fd = std::move(fd);
  m_locks.push_back(std::move(l));
  const std::string line = "lock " + std::to_string(st.st_dev) + " " + std::to_string(st.st_ino) + " " + escape(target);
  m_records.push_back(line);
  if (auto ok = note(line); !ok) return ok.error();
  return raw;
}

Result<void> Transaction::commit_intent(const std::optional<RefUpdate>& ref) {
  if (m_dir.get() < 0) return make_error(ErrorKind::internal, "a write of several files needs a staging area");
  LEDGERGATE_ASSERT(m_sync);  // the commit point is only as good as the synced files it names
  // The staged files are synced; so must be the folders holding them
  // beside their targets, before the intent says they are there.
  for (const File& f : m_files) {
    if (f.beside && ::fsync(f.dir.get()) != 0) return io_error("syncing the folder of " + f.rel);
  }
  for (const Lock& l : m_locks) {
    if (::fsync(l.fd.get()) != 0) return io_error("syncing " + l.target + ".lock");
  }
  std::string text = std::string(k_header) + "\nroot " + escape(m_root) + "\n";
  for (const std::string& line : m_records) text += line + "\n";
  if (ref) text += "ref " + ref->old_id + " " + ref->new_id + " " + escape(ref->ref) + "\n";
  Fd fd(::openat(m_dir.get(), k_intent_new, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  if (fd.get() < 0) return io_error("cannot write in " + m_area.dir);
  if (auto ok = write_all(fd.get(), text); !ok) return ok.error();
  if (::fsync(fd.get()) != 0 || !fd.close()) return io_error("cannot write in " + m_area.dir);
  if (::renameat(m_dir.get(), k_intent_new, m_dir.get(), k_intent) != 0 || ::fsync(m_dir.get()) != 0) {
    return io_error("cannot write in " + m_area.dir);
  }
  m_intent = true;
  return {};
}

Result<void> Transaction::apply() {
  for (File& f : m_files) {
    if (::renameat(f.beside ? f.dir.get() : m_dir.get(), f.temp.c_str(), f.dir.get(), f.name.c_str()) != 0) {
      return io_error("cannot write " + f.rel);
    }
    f.renamed = true;
  }
  for (Lock& l : m_locks) {
    if (::rename((l.target + ".lock").c_str(), l.target.c_str()) != 0) return io_error("cannot write " + l.target);
    l.renamed = true;
  }
  for (const File& f : m_files) {
    if (m_sync && ::fsync(f.dir.get()) != 0) return io_error("syncing the folder of " + f.rel);
  }
  for (const Lock& l : m_locks) {
    const std::string folder = l.target.substr(0, l.target.rfind('/') + 1);
    Fd fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0 || ::fsync(fd.get()) != 0) return io_error("syncing " + folder);
  }
  return {};
}

void Transaction::finish() {
  if (m_finished) return;
  m_finished = true;
  if (m_dir.get() < 0) return;
  Fd area(::open(m_area.dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (area.get() >= 0) remove_transaction(area.get(), m_name, m_dir.get());
  m_dir.reset();
  drop_folder_area(m_area);
}

std::string Transaction::scratch(std::string_view name) const {
  if (m_dir.get() < 0) return {};
  return m_area.dir + "/" + m_name + "/s-" + std::string(name);
}

// --- Recovery ---

Result<Recovery> recover(const Area& area, const std::string& held_root) {
  Recovery out;
  LG_TRY(Fd fd, open_area(area));
  if (fd.get() < 0) return out;
  while (::flock(fd.get(), LOCK_EX) != 0) {
    if (errno != EINTR) return io_error("locking " + area.dir);
  }
  std::vector<std::string> names;
  if (DIR* d = ::fdopendir(::fcntl(fd.get(), F_DUPFD_CLOEXEC, 0))) {
    while (const dirent* de = ::readdir(d)) {
      const std::string n = de->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    ::closedir(d);
  }
  for (const std::string& name : names) {
    Fd tx(::openat(fd.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (tx.get() < 0 || ::flock(tx.get(), LOCK_EX | LOCK_NB) != 0) continue;  // not ours, or its writer runs
    const auto intent_text = read_at(tx.get(), k_intent);
    const Record record = parse_record(intent_text ? *intent_text : read_at(tx.get(), k_staged).value_or(""));
    // The root the transaction wrote below, locked as its writers lock it
    // (the caller's, or free now).
    Fd root(record.root.empty() ? -1 : ::open(record.root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (intent_text) {
      if (!record.ok || root.get() < 0) continue;  // left for `pending` to report
      const bool held = !held_root.empty() && same_folder(record.root, held_root);
      if (!held && ::flock(root.get(), LOCK_EX | LOCK_NB) != 0) continue;
      roll_forward(tx.get(), root.get(), record, out);
    } else {
      if (record.ok && root.get() >= 0) roll_back(tx.get(), root.get(), record);
      ++out.discarded;
    }
    remove_transaction(fd.get(), name, tx.get());
  }
  fd.reset();
  drop_folder_area(area);
  return out;
}

Result<std::vector<Pending>> pending(const Area& area) {
  std::vector<Pending> out;
  LG_TRY(Fd fd, open_area(area));
  if (fd.get() < 0) return out;
  std::vector<std::string> names;
  if (DIR* d = ::fdopendir(::fcntl(fd.get(), F_DUPFD_CLOEXEC, 0))) {
    while (const dirent* de = ::readdir(d)) {
      const std::string n = de->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    Fd tx(::openat(fd.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (tx.get() < 0) continue;
    const auto text = read_at(tx.get(), k_intent);
    if (!text) continue;
    const Record record = parse_record(*text);
    Pending p;
    p.root = record.root;
    if (::flock(tx.get(), LOCK_SH | LOCK_NB) != 0) {
      p.running = true;
    } else {
      ::flock(tx.get(), LOCK_UN);
    }
    Fd root(::open(record.root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    for (const Record::File& f : record.files) {
      StagedAt at = locate(tx.get(), root.get(), f);
      (exists_at(at.dir.get(), at.temp) ? p.pending : p.done).push_back(f.rel);
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace lg::write::staging
