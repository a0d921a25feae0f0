// Staging blobs for paths of the index (git/index_stage.hpp).
#include "ledgergate/git/index_stage.hpp"

#include <git2.h>

#include "libgit2.hpp"

namespace lg::git {

Result<void> stage_files(const Repository& repo, const std::vector<std::pair<std::string, std::string>>& files) {
  git_index* raw = nullptr;
  if (const int rc = git_repository_index(&raw, repo.raw()); rc < 0) return libgit2_error(rc, "opening the index");
  const IndexPtr index(raw);
  if (const int rc = git_index_read(index.get(), 1); rc < 0) return libgit2_error(rc, "reading the index");
  for (const auto& [path, bytes] : files) {
    const git_index_entry* old = git_index_get_bypath(index.get(), path.c_str(), 0);
    if (!old) return make_error(ErrorKind::not_found, "the index holds no " + path + " to stage");
    git_index_entry entry = *old;
    const std::string entry_path = path;
    entry.path = entry_path.c_str();
    if (const int rc = git_blob_create_from_buffer(&entry.id, repo.raw(), bytes.data(), bytes.size()); rc < 0) {
      return libgit2_error(rc, "writing a blob");
    }
    entry.ctime = git_index_time{0, 0};
    entry.mtime = git_index_time{0, 0};
    entry.file_size = static_cast<std::uint32_t>(bytes.size());
    if (const int rc = git_index_add(index.get(), &entry); rc < 0) return libgit2_error(rc, "staging " + path);
  }
  if (const int rc = git_index_write(index.get()); rc < 0) return libgit2_error(rc, "writing the index");
  return {};
}

}  // namespace lg::git
