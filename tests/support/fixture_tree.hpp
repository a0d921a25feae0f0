// Test support: temporary folders, {path → content} trees written to disk or
// committed in-process with a pinned signature (deterministic commit ids).
#pragma once

#include <map>
#include <string>

#include "ledgergate/git/libgit2.hpp"
#include "ledgergate/git/object_id.hpp"
#include "ledgergate/git/repository.hpp"

namespace lg::test {

using FileMap = std::map<std::string, std::string>;

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& content);  // creates parent folders
FileMap read_tree(const std::string& root);                             // every regular file below root
void write_tree(const std::string& root, const FileMap& files);

// Creates (or reuses) a repository at `dir` and commits `files` as the whole
// tree on `ref` with a fixed author, committer and time; returns the commit
// id. `parent` chains commits; `ref` must then point at `parent` (or not exist).
git_oid commit_tree(const std::string& dir, const FileMap& files, const std::string& message,
                    const git_oid* parent = nullptr, const std::string& ref = "refs/heads/main");

// Tests are clients of libgit2 too: conversions between its git_oid and the
// library's ObjectId.
inline git::ObjectId id_of(const git_oid& oid) { return git::ObjectId::from_bytes(oid.id); }
inline git_oid oid_of(const git::ObjectId& id) {
  git_oid oid;
  std::memcpy(oid.id, id.bytes(), git::ObjectId::k_raw_size);
  return oid;
}

std::string shared_dir();  // the shared/ folder (spec, corpus), "" when absent
// Whether shared/ is there; when not, says the calling test is skipped (a
// warning in the report, never a silent pass).
bool have_shared();

// Replaces the first `old` in `text` by `repl`; a test failure when `old` is absent.
void replace_once(std::string& text, const std::string& old, const std::string& repl);
// The same on a copy.
std::string replaced(std::string text, const std::string& old, const std::string& repl);

}  // namespace lg::test
