// Working trees of a branch, blob ids of bytes, checkout filters and index
// edits over libgit2 (checkout.hpp).
#include "ledgergate/git/checkout.hpp"

#include <algorithm>
#include <fstream>

#include "libgit2.hpp"

namespace lg::git {
namespace {

using WorktreePtr = Owned<git_worktree, git_worktree_free>;
using FilterListPtr = Owned<git_filter_list, git_filter_list_free>;

std::string with_slash(std::string dir) {
  if (!dir.empty() && dir.back() != '/') dir += '/';
  return dir;
}

// The ref a HEAD file names ("ref: refs/heads/main"); "" when detached or unreadable.
std::string head_ref(const std::string& git_dir) {
  std::ifstream in(git_dir + "HEAD");
  std::string line;
  std::getline(in, line);
  constexpr std::string_view k_prefix = "ref: ";
  if (line.rfind(k_prefix, 0) != 0) return {};
  line.erase(0, k_prefix.size());
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

}  // namespace

Result<std::vector<Checkout>> checkouts_of(const Repository& repo, const std::string& ref) {
  std::vector<Checkout> out;
  const std::string common = repo.common_dir();
  // The main working tree: the common directory's own HEAD, when it has one.
  if (head_ref(common) == ref) {
    git_repository* raw = nullptr;
    if (git_repository_open_ext(&raw, common.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) == 0) {
      const RepositoryPtr main(raw);
      if (!git_repository_is_bare(main.get()) && git_repository_workdir(main.get())) {
        out.push_back(Checkout{with_slash(git_repository_workdir(main.get())), common});
      }
    } else {
      git_error_clear();
    }
  }
  git_strarray names{};
  if (const int rc = git_worktree_list(&names, repo.raw()); rc < 0) return libgit2_error(rc, "listing the worktrees");
  for (std::size_t i = 0; i < names.count; ++i) {
    git_worktree* raw = nullptr;
    if (git_worktree_lookup(&raw, repo.raw(), names.strings[i]) < 0) {
      git_error_clear();
      continue;
    }
    const WorktreePtr wt(raw);
    if (git_worktree_validate(wt.get()) < 0) {  // pruned, or its folder gone
      git_error_clear();
      continue;
    }
    const std::string git_dir = common + "worktrees/" + names.strings[i] + "/";
    if (head_ref(git_dir) == ref) out.push_back(Checkout{with_slash(git_worktree_path(wt.get())), git_dir});
  }
  git_strarray_dispose(&names);
  std::sort(out.begin(), out.end(), [](const Checkout& a, const Checkout& b) { return a.workdir < b.workdir; });
  return out;
}

Result<ObjectId> blob_id(std::string_view bytes) {
  git_oid id;
  if (const int rc = git_odb_hash(&id, bytes.data(), bytes.size(), GIT_OBJECT_BLOB); rc < 0) {
    return libgit2_error(rc, "hashing a file");
  }
  return from_git(id);
}

Result<bool> has_checkout_filter(const Repository& repo, const std::string& path) {
  git_filter_list* raw = nullptr;
  const int rc = git_filter_list_load(&raw, repo.raw(), nullptr, path.c_str(), GIT_FILTER_TO_WORKTREE, GIT_FILTER_DEFAULT);
  if (rc < 0) return libgit2_error(rc, "reading the attributes of " + path);
  const FilterListPtr filters(raw);
  return filters != nullptr;  // libgit2 gives none when no filter applies
}

void IndexEdit::Free::operator()(git_index* index) const noexcept { git_index_free(index); }

Result<IndexEdit> IndexEdit::open(const std::string& path) {
  git_index* raw = nullptr;
  if (const int rc = git_index_open(&raw, path.c_str()); rc < 0) return libgit2_error(rc, "reading the index");
  return IndexEdit(raw);
}

std::optional<IndexEdit::Item> IndexEdit::stage0(const std::string& path) const {
  const git_index_entry* e = git_index_get_bypath(m_index.get(), path.c_str(), 0);
  if (!e) return std::nullopt;
  return Item{from_git(e->id), e->mode};
}

bool IndexEdit::conflicted(const std::string& path) const {
  for (int stage = 1; stage <= 3; ++stage) {
    if (git_index_get_bypath(m_index.get(), path.c_str(), stage)) return true;
  }
  return false;
}

Result<void> IndexEdit::put(const std::string& path, const ObjectId& id, unsigned mode, const struct stat& st) {
  git_index_entry e{};
  e.ctime.seconds = static_cast<int32_t>(st.st_ctim.tv_sec);
  e.ctime.nanoseconds = static_cast<uint32_t>(st.st_ctim.tv_nsec);
  e.mtime.seconds = static_cast<int32_t>(st.st_mtim.tv_sec);
  e.mtime.nanoseconds = static_cast<uint32_t>(st.st_mtim.tv_nsec);
  e.dev = static_cast<uint32_t>(st.st_dev);
  e.ino = static_cast<uint32_t>(st.st_ino);
  e.mode = mode;
  e.uid = static_cast<uint32_t>(st.st_uid);
  e.gid = static_cast<uint32_t>(st.st_gid);
  e.file_size = static_cast<uint32_t>(st.st_size);
  e.id = to_git(id);
  e.path = path.c_str();
  if (const int rc = git_index_add(m_index.get(), &e); rc < 0) return libgit2_error(rc, "updating the index at " + path);
  return {};
}

Result<void> IndexEdit::write() {
  if (const int rc = git_index_write(m_index.get()); rc < 0) return libgit2_error(rc, "writing the index");
  return {};
}

}  // namespace lg::git
