// CheckoutUpdate (checkout.hpp): lock, check clean, stage, move, rename.
#include "checkout.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "ledgergate/git/refs.hpp"
#include "ledgergate/util/fd.hpp"

namespace lg::write {
namespace {

using util::Fd;

Error io_error(const std::string& what) { return make_error(ErrorKind::io, what + ": " + std::strerror(errno)); }

std::string without_trailing_slash(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

// The bytes of the file at `path` below `root`, read without following a
// symlink; nullopt when there is none. Errors: a symlink or a folder on the
// way, or at `path` (as an invalid_input Error, worded for a refusal), I/O.
Result<std::optional<std::string>> read_below(int root, const std::string& path) {
  const auto [parent, name] = util::split_parent(path);
  auto dir = util::open_dir_beneath(root, parent);
  if (!dir) {
    if (dir.error().kind == ErrorKind::not_found) return std::optional<std::string>();
    return dir.error();
  }
  Fd fd(::openat(dir->get(), std::string(name).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) return std::optional<std::string>();
    if (errno == ELOOP) return make_error(ErrorKind::invalid_input, path + " is a symbolic link");
    return io_error("reading " + path);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return io_error("reading " + path);
  if (!S_ISREG(st.st_mode)) return make_error(ErrorKind::invalid_input, path + " is not a regular file");
  std::string out;
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error("reading " + path);
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return std::optional<std::string>(std::move(out));
}

// Copies what `in` holds into `out`; `from` and `to` name them in errors.
Result<void> copy_fd(int in, int out, const std::string& from, const std::string& to) {
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(in, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error("reading " + from);
    if (n == 0) return {};
    if (!util::write_all(out, std::string_view(buf, static_cast<std::size_t>(n)))) return io_error("writing " + to);
  }
}

// Copies the file `from` to `to` (a new file); false when `from` is absent.
Result<bool> copy_file(const std::string& from, const std::string& to) {
  Fd in(::open(from.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.get() < 0) {
    if (errno == ENOENT) return false;
    return io_error("reading " + from);
  }
  Fd out(::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  if (out.get() < 0) return io_error("writing " + to);
  if (auto ok = copy_fd(in.get(), out.get(), from, to); !ok) return ok.error();
  return true;
}

// Copies the file `from` into the open descriptor `to` and syncs it.
Result<void> copy_into(const std::string& from, int to) {
  Fd in(::open(from.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.get() < 0) return io_error("reading " + from);
  if (auto ok = copy_fd(in.get(), to, from, "the index"); !ok) return ok.error();
  if (::fsync(to) != 0) return io_error("writing the index");
  return {};
}

// Why `path` cannot be brought up to date in `tree` (nullopt: it can): its
// index entry and its file must both be what `was` (the tip's entry, or
// none) holds, and no checkout filter may rewrite its bytes.
Result<std::optional<std::string>> unclean(const git::Repository& repo, const std::string& workdir, int root,
                                           const git::IndexEdit& index, const std::string& path,
                                           const std::optional<git::TreeItem>& was, const std::string& branch) {
  const std::string where = " in the working tree " + workdir + " (" + branch + " is checked out there)";
  const std::string first = ": commit or stash it first; nothing was written";
  const auto entry = index.stage0(path);
  const bool index_clean = !index.conflicted(path) &&
                           (was ? entry && entry->id == was->id && entry->mode == static_cast<unsigned>(was->mode)
                                : !entry);
  if (!index_clean) return std::optional<std::string>(path + " has staged changes" + where + first);
  auto bytes = read_below(root, path);
  if (!bytes) {
    if (bytes.error().kind != ErrorKind::invalid_input) return bytes.error();
    return std::optional<std::string>("cannot update " + path + where + ": " + bytes.error().message +
                                      "; nothing was written");
  }
  bool file_clean = !*bytes;
  if (was && *bytes) {
    LG_TRY(const git::ObjectId id, git::blob_id(**bytes));
    file_clean = id == was->id;
  } else if (was) {
    file_clean = false;
  }
  if (!file_clean) return std::optional<std::string>(path + " has uncommitted changes" + where + first);
  LG_TRY(const bool filtered, git::has_checkout_filter(repo, path));
  if (filtered) {
    return std::optional<std::string>("cannot update " + path + where +
                                      ": git filters it on checkout (.gitattributes); commit it with git instead; "
                                      "nothing was written");
  }
  return std::optional<std::string>();
}

}  // namespace

Result<std::variant<std::unique_ptr<CheckoutUpdate>, Refusal, CheckoutUpdate::Moved>> CheckoutUpdate::prepare(
    const git::Repository& repo, const std::string& ref, const git::ObjectId& tip, const git::ObjectId& tip_tree,
    const std::vector<git::Checkout>& checkouts, const std::vector<std::string>& paths) {
  using Out = std::variant<std::unique_ptr<CheckoutUpdate>, Refusal, Moved>;
  std::unique_ptr<CheckoutUpdate> update(new CheckoutUpdate());
  const std::string branch = ref.rfind("refs/heads/", 0) == 0 ? ref.substr(11) : ref;
  for (const git::Checkout& c : checkouts) {
    Tree t;
    t.checkout = c;
    t.root = without_trailing_slash(c.workdir);
    LG_TRY(t.lock, staging::lock_folder(t.root));
    const staging::Area area{c.git_dir + "ledgergate/write", true};
    LG_TRY(const staging::Recovery recovered, staging::recover(area, t.root));
    (void)recovered;
    LG_TRY(staging::Transaction tx, staging::Transaction::begin(area, t.root, t.lock.get()));
    t.tx.emplace(std::move(tx));
    bool busy = false;
    auto lock = t.tx->take_lock(c.git_dir + "index", &busy);
    if (!lock) {
      if (!busy) return lock.error();
      return make_error(ErrorKind::io, c.git_dir + "index.lock exists: another git process is using the index of " +
                                           t.root + " (if none is, remove the file); nothing was written");
    }
    t.index_lock = *lock;
    update->m_trees.push_back(std::move(t));
  }
  // Under the locks, the branch is where the edit found it, or the edit
  // is made again on its new tip.
  const auto now = git::ref_target(repo, ref);
  if (!now || *now != tip) return Out(Moved{});
  for (Tree& t : update->m_trees) {
    t.scratch = t.tx->scratch("index");
    LG_TRY(const bool copied, copy_file(t.checkout.git_dir + "index", t.scratch));
    (void)copied;  // no index yet: an empty one
    LG_TRY(const git::IndexEdit index, git::IndexEdit::open(t.scratch));
    for (const std::string& path : paths) {
      LG_TRY(const auto was, git::tree_entry_at(repo, tip_tree, path));
      LG_TRY(const auto why, unclean(repo, t.checkout.workdir, t.lock.get(), index, path, was, branch));
      if (why) return Out(Refusal{*why});
    }
  }
  return Out(std::move(update));
}

Result<void> CheckoutUpdate::stage(const std::vector<CommittedFile>& files, const staging::RefUpdate& ref) {
  for (Tree& t : m_trees) {
    LG_TRY(git::IndexEdit index, git::IndexEdit::open(t.scratch));
    for (std::size_t i = 0; i < files.size(); ++i) {
      const CommittedFile& f = files[i];
      const mode_t mode = f.mode == git::FileMode::executable ? 0755 : 0644;
      if (auto ok = t.tx->stage(f.path, f.bytes, mode); !ok) return ok.error().with_context(t.root);
      LG_TRY(const struct stat st, t.tx->staged_stat(i));
      if (auto ok = index.put(f.path, f.blob, static_cast<unsigned>(f.mode), st); !ok) return ok.error();
    }
    if (auto ok = index.write(); !ok) return ok.error();
    if (auto ok = copy_into(t.scratch, t.index_lock); !ok) return ok.error();
    if (auto ok = t.tx->commit_intent(ref); !ok) return ok.error();
  }
  return {};
}

Result<void> CheckoutUpdate::apply() {
  m_landed = true;
  for (Tree& t : m_trees) {
    if (auto ok = t.tx->apply(); !ok) return ok.error().with_context(t.root);
    t.tx->finish();
  }
  return {};
}

void CheckoutUpdate::abandon() {
  for (Tree& t : m_trees) {
    if (t.tx) t.tx->abandon();
  }
}

CheckoutUpdate::~CheckoutUpdate() {
  // Before the ref moved, whatever stopped the commit (a lost race, an
  // error) leaves nothing: staged files and index.lock removed. After, an
  // unfinished update stays for the next writer to roll forward. Then the
  // working trees' locks go.
  if (!m_landed) abandon();
  for (Tree& t : m_trees) t.tx.reset();
}

}  // namespace lg::write
