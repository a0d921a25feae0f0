// write_file_atomically: the one atomic writer (write/atomic_file.hpp).
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ledgergate/git/work_tree.hpp"
#include "ledgergate/write/atomic_file.hpp"
#include "unit/write/ledger_fixture.hpp"

using namespace lg;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t entries(const std::string& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir), {}));
}

}  // namespace

TEST_CASE("write_file_atomically creates and replaces a file, leaving nothing beside it", "[write]") {
  test::TempDir dir;
  const std::string path = dir.path() + "/a.txt";
  REQUIRE(write::write_file_atomically(path, "one\n"));
  CHECK(slurp(path) == "one\n");
  REQUIRE(::chmod(path.c_str(), 0600) == 0);
  REQUIRE(write::write_file_atomically(path, std::string("two\0bytes", 9)));
  CHECK(slurp(path) == std::string("two\0bytes", 9));
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0600);  // the replaced file's mode is kept
  CHECK(entries(dir.path()) == 1);
}

TEST_CASE("write_file_atomically unsynced replaces the file as the synced write does, in a working tree too",
          "[write]") {
  test::TempDir dir;
  for (const std::string& folder : {dir.path() + "/plain", dir.path() + "/repo"}) {
    CAPTURE(folder);
    std::filesystem::create_directories(folder);
    if (folder.ends_with("repo")) REQUIRE(std::system(("git init -q " + folder).c_str()) == 0);
    const std::size_t before = entries(folder);
    const std::string path = folder + "/.merge_file_a";
    REQUIRE(write::write_file_atomically(path, "one\n", write::Durability::unsynced));
    CHECK(slurp(path) == "one\n");
    REQUIRE(::chmod(path.c_str(), 0600) == 0);
    REQUIRE(write::write_file_atomically(path, "two\n", write::Durability::unsynced));
    CHECK(slurp(path) == "two\n");
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0600);
    CHECK(entries(folder) == before + 1);  // nothing staged is left beside it
  }
}

TEST_CASE("write_file_atomically names the path, never its temporary file", "[write]") {
  test::TempDir dir;
  const std::string missing = dir.path() + "/no/such/a.txt";
  auto r = write::write_file_atomically(missing, "x");
  REQUIRE_FALSE(r);
  CHECK(r.error().message == "cannot write " + missing + ": the folder " + dir.path() + "/no/such does not exist");
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/no"));  // no folder made

  auto onto_dir = write::write_file_atomically(dir.path(), "x");
  REQUIRE_FALSE(onto_dir);
  CHECK(onto_dir.error().message == "cannot write " + dir.path() + ": it is a directory");

  const std::string locked = dir.path() + "/ro";
  std::filesystem::create_directory(locked);
  REQUIRE(::chmod(locked.c_str(), 0500) == 0);
  if (::geteuid() != 0) {  // root writes into a read-only folder
    auto denied = write::write_file_atomically(locked + "/a.txt", "x");
    REQUIRE_FALSE(denied);
    CHECK(denied.error().message.find(".ledgergate-") == std::string::npos);
    CHECK(denied.error().message.starts_with("cannot write " + locked + "/a.txt: "));
  }
  CHECK(entries(locked) == 0);
}

TEST_CASE("write_file_atomically refuses a symlink at the path and never writes through it", "[write][symlink]") {
  test::TempDir dir;
  test::write_file(dir.path() + "/elsewhere.txt", "theirs\n");
  std::filesystem::create_symlink("elsewhere.txt", dir.path() + "/a.txt");
  auto r = write::write_file_atomically(dir.path() + "/a.txt", "mine\n");
  REQUIRE_FALSE(r);
  CHECK(r.error().message == "cannot write " + dir.path() + "/a.txt: it is a symbolic link");
  CHECK(slurp(dir.path() + "/elsewhere.txt") == "theirs\n");
  CHECK(std::filesystem::is_symlink(dir.path() + "/a.txt"));
}

TEST_CASE("write_file_atomically in a working tree stages in the git directory", "[write]") {
  test::TempDir dir;
  REQUIRE(test::run_quiet("git init -q " + dir.path()) == 0);
  std::filesystem::create_directory(dir.path() + "/docs");
  REQUIRE(write::write_file_atomically(dir.path() + "/docs/a.txt", "one\n"));
  CHECK(slurp(dir.path() + "/docs/a.txt") == "one\n");
  CHECK(entries(dir.path() + "/docs") == 1);
  CHECK(std::filesystem::is_empty(dir.path() + "/.git/ledgergate/write"));  // made, used, emptied
}

TEST_CASE("write_file_atomically stages by the repository its caller discovered", "[write]") {
  test::TempDir dir;
  REQUIRE(test::run_quiet("git init -q " + dir.path()) == 0);
  const auto discovered = git::discover_work_tree(dir.path());
  REQUIRE(discovered);
  REQUIRE(*discovered);
  // As merge-file hands it over: staged in the git directory, as the writer
  // that discovers the repository itself stages it.
  REQUIRE(write::write_file_atomically(dir.path() + "/.merge_file_a", "one\n", write::Durability::unsynced,
                                      *discovered));
  CHECK(slurp(dir.path() + "/.merge_file_a") == "one\n");
  CHECK(std::filesystem::is_empty(dir.path() + "/.git/ledgergate/write"));  // made, used, emptied
  CHECK(entries(dir.path()) == 2);  // .git and the file
  // What the caller found is what counts: told there is no repository (in
  // a working tree all the same), the file is staged beside itself, and the
  // git directory is not touched.
  test::TempDir other;
  REQUIRE(test::run_quiet("git init -q " + other.path()) == 0);
  REQUIRE(write::write_file_atomically(other.path() + "/a.txt", "two\n", write::Durability::unsynced,
                                      std::optional<git::WorkTree>()));
  CHECK(slurp(other.path() + "/a.txt") == "two\n");
  CHECK_FALSE(std::filesystem::exists(other.path() + "/.git/ledgergate"));
  CHECK(entries(other.path()) == 2);  // .git and the file: nothing staged is left beside it
}
