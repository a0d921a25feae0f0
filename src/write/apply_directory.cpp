// apply_to_directory: lock the root, finish what a writer that died left,
// read, edit, validate, then write the files as one transaction (stage,
// intent, rename: staging.hpp); write_file_atomically, the same for one
// file (atomic_file.hpp).
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "ledgergate/util/fd.hpp"
#include "ledgergate/write/apply.hpp"
#include "ledgergate/write/atomic_file.hpp"
#include "apply_steps.hpp"
#include "staging.hpp"

namespace lg::write {

namespace {

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

std::string without_trailing_slash(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

// Writes `files` below `root` (open as `root_fd`, its writer lock held) as
// one transaction: each staged and synced, the intent recorded when there
// is more than one, then the renames.
Result<std::vector<std::string>> write_files(const staging::Area& area, const std::string& root, int root_fd,
                                             const std::vector<FileEdit>& files) {
  for (const FileEdit& f : files) {
    if (!safe_path(f.path)) return make_error(ErrorKind::invalid_input, "refusing to write " + f.path + " outside the tree");
  }
  LG_TRY(staging::Transaction tx, staging::Transaction::begin(area, root, root_fd));
  std::vector<std::string> written;
  for (const FileEdit& f : files) {
    if (auto ok = tx.stage(f.path, f.bytes); !ok) return ok.error();
    written.push_back(f.path);
  }
  if (files.size() > 1) {
    if (auto ok = tx.commit_intent(); !ok) return ok.error();
  }
  if (auto ok = tx.apply(); !ok) return ok.error();
  tx.finish();
  return written;
}

// write_file_atomically, with the repository discovered from the folder when
// the caller has it (`discovered` not null), else discovered here.
Result<void> write_one_file(const std::string& path, std::string_view bytes, Durability durability,
                            const std::optional<git::WorkTree>* discovered) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  std::error_code ec;
  if (!folder.empty() && !std::filesystem::is_directory(folder, ec)) {
    return make_error(ErrorKind::io, "cannot write " + path + ": the folder " + folder + " does not exist");
  }
  const std::string dir = folder.empty() ? "." : folder;
  util::Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) return make_error(ErrorKind::io, "cannot write " + path + ": " + std::strerror(errno));
  // In a working tree the file is staged in the git directory (and the
  // staged files of writers that died there are removed first); elsewhere
  // beside it, where no git looks.
  staging::Area area = discovered ? staging::area_for(dir, *discovered) : staging::area_for(dir);
  if (area.in_git_dir) {
    (void)staging::recover(area, {});
  } else {
    area = staging::Area{};
  }
  LG_TRY(staging::Transaction tx, staging::Transaction::begin(area, dir, fd.get()));
  if (durability == Durability::unsynced) tx.skip_sync();
  if (auto ok = tx.stage(std::filesystem::path(path).filename().string(), bytes, 0644, path); !ok) return ok.error();
  if (auto ok = tx.apply(); !ok) return make_error(ok.error().kind, "cannot write " + path);
  tx.finish();
  return {};
}

}  // namespace

Result<void> write_file_atomically(const std::string& path, std::string_view bytes, Durability durability) {
  return write_one_file(path, bytes, durability, nullptr);
}

Result<void> write_file_atomically(const std::string& path, std::string_view bytes, Durability durability,
                                   const std::optional<git::WorkTree>& discovered) {
  return write_one_file(path, bytes, durability, &discovered);
}

Result<Applied> apply_to_directory(const std::string& root, const Editor& editor, const ApplyOptions& options) {
  const std::string r = without_trailing_slash(root);
  LG_TRY(const util::Fd lock, staging::lock_folder(r));
  const staging::Area area = staging::area_for(r);
  // An interrupted write of this folder is finished (or discarded) before
  // the tree is read: the edit then sees the whole of it, or none.
  LG_TRY(const staging::Recovery recovered, staging::recover(area, r));
  (void)recovered;
  LG_TRY(const auto tree, git::open_directory_source(r));
  LG_TRY(Applied applied, edit_validated(*tree, editor, options, 1));
  const Change* change = to_write(applied);
  if (change == nullptr) return applied;
  LG_TRY(applied.written, write_files(area, r, lock.get(), change->files));
  return applied;
}

}  // namespace lg::write
