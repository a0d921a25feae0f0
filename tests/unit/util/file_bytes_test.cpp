#include "ledgergate/util/file_bytes.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdio>
#include <filesystem>

#include "support/fixture_tree.hpp"

using lg::util::FileBytes;

namespace {

// `n` bytes that differ from page to page (a mapping at the wrong offset
// would not match).
std::string pattern(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + i / 4096) & 0xff);
  return s;
}

}  // namespace

TEST_CASE("file bytes: small files are read, large ones mapped, both byte for byte", "[util][file_bytes]") {
  lg::test::TempDir dir;
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{65535}, std::size_t{65536},
                              std::size_t{3 * 1024 * 1024 + 17}}) {
    const std::string path = dir.path() + "/f" + std::to_string(n);
    const std::string want = pattern(n);
    lg::test::write_file(path, want);
    int error = -1;
    const auto got = FileBytes::read(path, error);
    REQUIRE(got);
    CHECK(error == 0);
    CHECK(got->bytes() == want);
    CHECK(got->mapped() == (n >= 65536));
  }
}

TEST_CASE("file bytes: a mapping keeps the opened file's bytes when it is replaced or removed", "[util][file_bytes]") {
  lg::test::TempDir dir;
  const std::string path = dir.path() + "/pack";
  const std::string first = pattern(200 * 1024);
  lg::test::write_file(path, first);
  int error = 0;
  const auto got = FileBytes::read(path, error);
  REQUIRE(got);
  REQUIRE(got->mapped());
  // Replaced by rename, as the cache and git's index are written.
  lg::test::write_file(path + ".tmp", std::string(100 * 1024, 'x'));
  REQUIRE(std::rename((path + ".tmp").c_str(), path.c_str()) == 0);
  CHECK(got->bytes() == first);
  std::filesystem::remove(path);
  CHECK(got->bytes() == first);
}

TEST_CASE("file bytes: what cannot be read says why", "[util][file_bytes]") {
  lg::test::TempDir dir;
  int error = 0;
  CHECK_FALSE(FileBytes::read(dir.path() + "/missing", error));
  CHECK(error == ENOENT);
  CHECK_FALSE(FileBytes::read(dir.path() + "/missing/below", error));
  CHECK(error == ENOENT);
  lg::test::write_file(dir.path() + "/file", "abc");
  CHECK_FALSE(FileBytes::read(dir.path() + "/file/below", error));
  CHECK(error == ENOTDIR);
  CHECK_FALSE(FileBytes::read(dir.path(), error));
  CHECK(error == EISDIR);
  CHECK_FALSE(FileBytes::read(dir.path() + "/file", error, 2));
  CHECK(error == EFBIG);
  const auto exact = FileBytes::read(dir.path() + "/file", error, 3);
  REQUIRE(exact);
  CHECK(exact->bytes() == "abc");
  const std::string fifo = dir.path() + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_FALSE(FileBytes::read(fifo, error));  // never opened for a read that would block
  CHECK(error == EINVAL);
}
