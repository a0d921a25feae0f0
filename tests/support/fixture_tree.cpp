// Temporary folders and deterministic fixture repositories built in-process
// with libgit2's write APIs (pinned signature and time).
#include "support/fixture_tree.hpp"

#include <git2.h>

#include <catch2/catch.hpp>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace lg::test {

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "ledgergate-test-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  m_path = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(m_path, ec);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

long resident_kb(const std::string& path) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool in = false;
  long kb = 0;
  while (std::getline(smaps, line)) {
    if (!line.empty() && std::isxdigit(static_cast<unsigned char>(line[0])) && line.find('-') < 17) {
      in = line.size() >= path.size() && line.compare(line.size() - path.size(), path.size(), path) == 0;
    } else if (in && line.rfind("Rss:", 0) == 0) {
      kb += std::stol(line.substr(4));
    }
  }
  return kb;
}

void write_file(const std::string& path, const std::string& content) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
}

Captured capture(const std::string& command) {
  FILE* p = ::popen(command.c_str(), "r");
  REQUIRE(p != nullptr);
  Captured c;
  char buf[4096];
  while (const std::size_t n = std::fread(buf, 1, sizeof buf, p)) c.out.append(buf, n);
  const int status = ::pclose(p);
  c.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return c;
}

int run_quiet(const std::string& command) {
  const int status = std::system(("(" + command + ") >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int sh_pinned(const std::string& dir, const std::string& script) {
  static const char* const env =
      "GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' "
      "GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' ";
  return run_quiet("cd '" + dir + "' && " + env + "sh -c '" + script + "'");
}

std::string git_blob(const std::string& dir, const std::string& text) {
  const std::string tmp = dir + "/.test-blob";
  write_file(tmp, text);
  const Captured c = capture("git -C '" + dir + "' hash-object -w '" + tmp + "'");
  fs::remove(tmp);
  REQUIRE(c.status == 0);
  REQUIRE(c.out.size() >= 40);
  return c.out.substr(0, 40);
}

FileMap read_tree(const std::string& root) {
  FileMap files;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), root).generic_string();
    if (rel.rfind(".git/", 0) == 0) continue;
    files[rel] = read_file(e.path().string());
  }
  return files;
}

void write_tree(const std::string& root, const FileMap& files) {
  for (const auto& [path, content] : files) write_file(root + "/" + path, content);
}

namespace {
void check(int rc, const char* what) {
  if (rc < 0) {
    const git_error* e = git_error_last();
    throw std::runtime_error(std::string(what) + ": " + (e ? e->message : "?"));
  }
}
}  // namespace

std::string pack_commit(const std::string& dir, const git_oid& commit, bool drop_loose,
                        std::vector<git::ObjectId>* dropped) {
  git_repository* repo = nullptr;
  REQUIRE(git_repository_open(&repo, dir.c_str()) == 0);
  const RepositoryPtr owned(repo);
  git_packbuilder* pb = nullptr;
  REQUIRE(git_packbuilder_new(&pb, repo) == 0);
  CHECK(git_packbuilder_insert_commit(pb, &commit) == 0);
  CHECK(git_packbuilder_write(pb, nullptr, 0, nullptr, nullptr) == 0);
  char hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(hex, sizeof hex, git_packbuilder_hash(pb));
  git_packbuilder_free(pb);
  const std::string objects = std::string(git_repository_commondir(repo)) + "objects";
  if (drop_loose) {
    for (const auto& e : std::filesystem::directory_iterator(objects)) {
      const std::string name = e.path().filename().string();
      if (name.size() != 2) continue;
      for (const auto& f : std::filesystem::directory_iterator(e.path())) {
        if (dropped) dropped->push_back(*git::ObjectId::from_hex(name + f.path().filename().string()));
      }
      std::filesystem::remove_all(e.path());
    }
  }
  return objects + "/pack/pack-" + hex;
}

git_oid commit_tree(const std::string& dir, const FileMap& files, const std::string& message,
                    const git_oid* parent, const std::string& ref, const git_oid* second_parent) {
  git_repository* repo = nullptr;
  if (git_repository_open(&repo, dir.c_str()) < 0) {
    git_repository_init_options opts{};
    git_repository_init_options_init(&opts, GIT_REPOSITORY_INIT_OPTIONS_VERSION);
    opts.flags = GIT_REPOSITORY_INIT_MKPATH;
    opts.initial_head = "main";
    check(git_repository_init_ext(&repo, dir.c_str(), &opts), "init");
  }
  test::RepositoryPtr owned(repo);
  git_index* raw_index = nullptr;
  check(git_index_new(&raw_index), "index");
  test::IndexPtr index(raw_index);
  for (const auto& [path, content] : files) {
    git_index_entry entry{};
    entry.mode = GIT_FILEMODE_BLOB;
    entry.path = path.c_str();
    check(git_blob_create_from_buffer(&entry.id, repo, content.data(), content.size()), "blob");
    check(git_index_add(index.get(), &entry), "add");
  }
  git_oid tree_id;
  check(git_index_write_tree_to(&tree_id, index.get(), repo), "write tree");
  git_tree* tree = nullptr;
  check(git_tree_lookup(&tree, repo, &tree_id), "tree");
  test::TreePtr tree_owned(tree);
  git_signature* sig = nullptr;
  check(git_signature_new(&sig, "Ledger Test", "test@ledgergate.invalid", 1788220800, 0), "signature");
  std::unique_ptr<git_signature, void (*)(git_signature*)> sig_owned(sig, git_signature_free);
  git_commit* parent_commit = nullptr;
  if (parent) check(git_commit_lookup(&parent_commit, repo, parent), "parent");
  test::CommitPtr parent_owned(parent_commit);
  git_commit* second_commit = nullptr;
  if (second_parent) check(git_commit_lookup(&second_commit, repo, second_parent), "second parent");
  test::CommitPtr second_owned(second_commit);
  const git_commit* parents[2] = {parent_commit, second_commit};
  git_oid commit_id;
  check(git_commit_create(&commit_id, repo, ref.c_str(), sig, sig, nullptr, message.c_str(), tree,
                          parent ? (second_parent ? 2 : 1) : 0, parents),
        "commit");
  return commit_id;
}

PinnedCommitter::PinnedCommitter() {
  ::setenv("GIT_COMMITTER_NAME", "Pinned", 1);
  ::setenv("GIT_COMMITTER_EMAIL", "pinned@ledgergate.invalid", 1);
  ::setenv("GIT_COMMITTER_DATE", "@1790000000", 1);
}

PinnedCommitter::~PinnedCommitter() {
  ::unsetenv("GIT_COMMITTER_NAME");
  ::unsetenv("GIT_COMMITTER_EMAIL");
  ::unsetenv("GIT_COMMITTER_DATE");
}

std::string data_dir() { return LEDGERGATE_TEST_DATA; }

void replace_once(std::string& text, const std::string& old, const std::string& repl) {
  const auto at = text.find(old);
  REQUIRE(at != std::string::npos);
  text.replace(at, old.size(), repl);
}

std::string replaced(std::string text, const std::string& old, const std::string& repl) {
  replace_once(text, old, repl);
  return text;
}

std::vector<std::string> entry_names(const std::vector<git::Entry>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.name);
  return out;
}

std::string example_ledger(const std::string& now, const std::string& runs, const std::string& log) {
  return "# example — A question\n\nProject: example\nIssue: none\n\n## Now\n\n" + now + "\n## Runs\n\n" + runs +
         "\n## Log\n\n" + log;
}

}  // namespace lg::test

// libgit2 stays initialised for the whole test run.
static const lg::git::Libgit2Session k_libgit2_session;
