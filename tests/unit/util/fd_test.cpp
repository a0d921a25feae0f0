// open_dir_beneath: a walk below a folder that follows no symbolic link.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>

#include "ledgergate/util/fd.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

TEST_CASE("open_dir_beneath opens a folder below, one component at a time", "[util][fd]") {
  test::TempDir dir;
  test::write_tree(dir.path(), {{"a/b/file", "x"}});
  util::Fd root(::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(root.get() >= 0);
  auto b = util::open_dir_beneath(root.get(), "a/b");
  REQUIRE(b);
  struct stat st {};
  CHECK(::fstatat(b->get(), "file", &st, 0) == 0);
  auto self = util::open_dir_beneath(root.get(), "");
  REQUIRE(self);
  CHECK(::fstatat(self->get(), "a", &st, 0) == 0);
}

TEST_CASE("open_dir_beneath refuses a symlink anywhere on the way, and what leaves the folder", "[util][fd]") {
  test::TempDir dir;
  test::write_tree(dir.path(), {{"victim/projects/x.md", "x"}, {"root/real/y", "y"}, {"root/file", "f"}});
  std::filesystem::create_symlink("../victim/projects", dir.path() + "/root/projects");
  std::filesystem::create_symlink("real", dir.path() + "/root/alias");
  util::Fd root(::open((dir.path() + "/root").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(root.get() >= 0);
  auto linked = util::open_dir_beneath(root.get(), "projects");
  REQUIRE_FALSE(linked);
  CHECK(linked.error().message == "projects is a symbolic link");
  CHECK(linked.error().kind == ErrorKind::invalid_input);
  auto inside = util::open_dir_beneath(root.get(), "alias/sub");  // even one that stays inside
  REQUIRE_FALSE(inside);
  CHECK(inside.error().message == "alias is a symbolic link");
  auto file = util::open_dir_beneath(root.get(), "file/x");
  REQUIRE_FALSE(file);
  CHECK(file.error().message == "file is not a directory");
  auto missing = util::open_dir_beneath(root.get(), "real/none");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().kind == ErrorKind::not_found);
  for (const char* bad : {"..", "real/../real", "./real", "real//y"}) {
    INFO(bad);
    CHECK_FALSE(util::open_dir_beneath(root.get(), bad));
  }
  // Making the missing folders never makes one through a symlink.
  std::vector<std::string> made;
  REQUIRE_FALSE(util::open_dir_beneath(root.get(), "projects/new", &made));
  CHECK(made.empty());
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/victim/projects/new"));
  REQUIRE(util::open_dir_beneath(root.get(), "real/n1/n2", &made));
  CHECK(made == std::vector<std::string>{"real/n1", "real/n1/n2"});
}
