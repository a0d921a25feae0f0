#include "ledgergate/util/file_bytes.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdint>
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

TEST_CASE("file bytes: pages given back leave the resident set and read back the same", "[util][file_bytes]") {
  lg::test::TempDir dir;
  const std::string path = dir.path() + "/big";
  const std::size_t mib = 1024 * 1024;
  const std::string want = pattern(2 * mib + 100);
  lg::test::write_file(path, want);
  int error = 0;
  const auto got = FileBytes::read(path, error);
  REQUIRE(got);
  REQUIRE(got->mapped());
  REQUIRE(got->bytes() == want);  // every page read: resident
  REQUIRE(lg::test::resident_kb(path) >= 2048);
  const std::string_view all = got->bytes();
  // At least those pages go (a kernel that maps the file in large folios
  // may let the whole folio go: it is faulted back in whole).
  got->give_back(all.substr(0, mib));
  CHECK(lg::test::resident_kb(path) <= 1028);
  // No whole page inside: nothing goes.
  const long before = lg::test::resident_kb(path);
  got->give_back(all.substr(mib + 1, 4096));
  CHECK(lg::test::resident_kb(path) == before);
  // Read again: the same bytes, faulted back in.
  CHECK(got->bytes() == want);
  CHECK(lg::test::resident_kb(path) >= 2048);
  // The whole of it, the last page's tail past the file's end included.
  got->give_back(all);
  CHECK(lg::test::resident_kb(path) == 0);
  CHECK(got->bytes() == want);
  // A read file is left as it is.
  const std::string small_path = dir.path() + "/small";
  lg::test::write_file(small_path, pattern(1000));
  const auto small = FileBytes::read(small_path, error);
  REQUIRE(small);
  REQUIRE_FALSE(small->mapped());
  small->give_back(small->bytes());
  CHECK(small->bytes() == pattern(1000));
}

TEST_CASE("file bytes: a reader going front to back holds a few steps of the file, none after finish",
          "[util][file_bytes]") {
  lg::test::TempDir dir;
  const std::string path = dir.path() + "/big";
  const std::size_t size = 16 * 1024 * 1024 + 300;
  const std::string want = pattern(size);
  lg::test::write_file(path, want);
  int error = 0;
  const auto got = FileBytes::read(path, error);
  REQUIRE(got);
  REQUIRE(got->mapped());
  const auto sweep = [&](bool give_back) {
    lg::util::PagesBehind behind(give_back ? got.get() : nullptr);
    const std::string_view all = got->bytes();
    const std::size_t step = 64 * 1024;
    long most = 0;
    bool same = true;
    for (std::size_t at = 0; at < size; at += step) {
      const std::string_view piece = all.substr(at, step);
      same = same && piece == std::string_view(want).substr(at, step);
      behind.passed(piece.data() + piece.size());
      most = std::max(most, lg::test::resident_kb(path));
    }
    behind.finish();
    CHECK(same);
    return most;
  };
  // Without giving back, the whole file ends resident; with it, two steps
  // behind the reader, its piece and what the kernel maps around a fault (a
  // large folio: up to 2 MiB each side).
  CHECK(sweep(false) >= 16 * 1024);
  got->give_back(got->bytes());
  const long most = sweep(true);
  CHECK(most <= static_cast<long>((2 * lg::util::PagesBehind::k_step + 64 * 1024) / 1024 + 2 * 2048 + 8));
  CHECK(lg::test::resident_kb(path) == 0);
  CHECK(got->bytes() == want);
  // A place that is not in the file, or behind what went back, is ignored.
  {
    got->give_back(got->bytes());
    const std::string_view all = got->bytes();
    lg::util::PagesBehind behind(got.get());
    CHECK(all.substr(0, 1024 * 1024) == std::string_view(want).substr(0, 1024 * 1024));
    const long read = lg::test::resident_kb(path);
    behind.passed(nullptr);
    const auto address = [&all](std::intptr_t offset) {  // a place formed without pointer arithmetic past the file
      return reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(all.data()) + offset);
    };
    behind.passed(address(static_cast<std::intptr_t>(all.size() + 8 * lg::util::PagesBehind::k_step)));
    behind.passed(address(-1));
    CHECK(lg::test::resident_kb(path) == read);
    behind.passed(all.data() + 1024 * 1024);  // a step behind it goes
    CHECK(lg::test::resident_kb(path) < read);
    behind.passed(all.data());  // behind: nothing
    CHECK(got->bytes() == want);
  }
  // A read file, or none: passing and finishing do nothing.
  lg::util::PagesBehind none(nullptr);
  none.passed(want.data() + want.size());
  none.finish();
}
