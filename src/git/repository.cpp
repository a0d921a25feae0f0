// Repository handle and revision resolution over libgit2.
#include "ledgergate/git/repository.hpp"

#include <git2/sys/repository.h>

namespace lg::git {

Libgit2Session::Libgit2Session() {
  git_libgit2_init();
  // Like git itself, do not re-hash every object on read: it doubles the cost
  // of reading a ledger. zlib's checksum still catches a damaged object.
  git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
  // Map pack files in 8 MiB windows, at most 16 MiB at a time (libgit2's
  // defaults are 1 GiB windows and 8 GiB):
  // reading every ledger blob of a large pack otherwise keeps the whole pack
  // resident, and peak memory grows with the repository, not the ledger.
  git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, static_cast<std::size_t>(8) * 1024 * 1024);
  git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, static_cast<std::size_t>(16) * 1024 * 1024);
  // Objects are read once per check; a small decoded-object cache (default
  // 256 MiB per repository handle) is enough.
  git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, static_cast<ssize_t>(16) * 1024 * 1024);
}
Libgit2Session::~Libgit2Session() { git_libgit2_shutdown(); }

Error libgit2_error(int code) {
  const git_error* e = git_error_last();
  std::string message = (e && e->message) ? e->message : ("libgit2 error " + std::to_string(code));
  const ErrorKind kind = code == GIT_ENOTFOUND ? ErrorKind::not_found : ErrorKind::git;
  return Error{kind, std::move(message)};
}

Error libgit2_error(int code, std::string_view what) { return libgit2_error(code).with_context(what); }

std::string oid_hex(const git_oid& oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, &oid);
  return buf;
}

Result<Repository> Repository::open(const std::string& path, bool discover) {
  git_repository* raw = nullptr;
  const unsigned flags = discover ? 0u : static_cast<unsigned>(GIT_REPOSITORY_OPEN_NO_SEARCH);
  const int rc = git_repository_open_ext(&raw, path.c_str(), flags, nullptr);
  if (rc == GIT_ENOTFOUND) {
    return make_error(ErrorKind::usage, "not a git repository: " + path);
  }
  if (rc < 0) return libgit2_error(rc, "opening repository " + path);
  return Repository(RepositoryPtr(raw));
}

std::string Repository::git_dir() const { return git_repository_path(m_repo.get()); }

bool Repository::is_bare() const { return git_repository_is_bare(m_repo.get()) == 1; }
bool Repository::is_shallow() const { return git_repository_is_shallow(m_repo.get()) == 1; }

std::string Repository::workdir() const {
  const char* wd = git_repository_workdir(m_repo.get());
  return wd ? wd : "";
}

Result<git_oid> Repository::resolve_commit(std::string_view rev) const {
  const std::string spec(rev);
  if (spec == "HEAD" && git_repository_head_unborn(m_repo.get()) == 1) {
    return make_error(ErrorKind::not_found, "HEAD has no commits yet (unborn branch)");
  }
  git_object* obj = nullptr;
  int rc = git_revparse_single(&obj, m_repo.get(), spec.c_str());
  if (rc < 0) {
    return make_error(ErrorKind::not_found, "unknown revision '" + spec + "'");
  }
  ObjectPtr owned(obj);
  git_object* peeled = nullptr;
  rc = git_object_peel(&peeled, owned.get(), GIT_OBJECT_COMMIT);
  if (rc < 0) return libgit2_error(rc, "'" + spec + "' is not a commit");
  ObjectPtr commit(peeled);
  return *git_object_id(commit.get());
}

Result<git_oid> Repository::commit_tree(const git_oid& commit_id) const {
  git_commit* c = nullptr;
  const int rc = git_commit_lookup(&c, m_repo.get(), &commit_id);
  if (rc < 0) return libgit2_error(rc, "reading commit " + oid_hex(commit_id));
  CommitPtr commit(c);
  return *git_commit_tree_id(commit.get());
}

}  // namespace lg::git
