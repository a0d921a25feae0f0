#include "ledgergate/git/pack_pages.hpp"

#include <git2.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

std::string blob_text(git_repository* repo, const git_oid& commit, const char* path) {
  git_commit* c = nullptr;
  git_tree* tree = nullptr;
  git_tree_entry* entry = nullptr;
  git_blob* blob = nullptr;
  std::string out;
  if (git_commit_lookup(&c, repo, &commit) == 0 && git_commit_tree(&tree, c) == 0 &&
      git_tree_entry_bypath(&entry, tree, path) == 0 && git_blob_lookup(&blob, repo, git_tree_entry_id(entry)) == 0) {
    out.assign(static_cast<const char*>(git_blob_rawcontent(blob)), static_cast<std::size_t>(git_blob_rawsize(blob)));
  }
  git_blob_free(blob);
  git_tree_entry_free(entry);
  git_tree_free(tree);
  git_commit_free(c);
  return out;
}

// Incompressible-ish text, so the pack spans many pages.
std::string noise(std::size_t size, unsigned seed) {
  std::string out;
  out.reserve(size);
  unsigned x = seed;
  while (out.size() < size) {
    x = x * 1103515245u + 12345u;
    out.push_back(static_cast<char>('!' + (x >> 16) % 90));
  }
  return out;
}

}  // namespace

#if defined(__linux__)
TEST_CASE("drop_pack_pages: a pack's pages leave the process and come back on the next read", "[git][pack_pages]") {
  test::TempDir dir;
  const std::string a = noise(600 * 1024, 1), b = noise(600 * 1024, 2);
  const git_oid commit = test::commit_tree(dir.path(), {{"a.txt", a}, {"b.txt", b}}, "c1");
  // Every object into one pack (the loose copies stay; the pack is read first).
  const std::string stem = test::pack_commit(dir.path(), commit, false);
  const std::string pack = stem.substr(stem.rfind("/objects/pack/")) + ".pack";
  auto repo = git::Repository::open(dir.path(), false);
  REQUIRE(repo);
  REQUIRE(blob_text(repo->raw(), commit, "a.txt") == a);
  REQUIRE(test::resident_kb(pack) > 0);

  CHECK(git::drop_pack_pages() >= 600u * 1024u);
  CHECK(test::resident_kb(pack) == 0);
  // The mapping is still there and reads the same bytes (faulted back in).
  CHECK(blob_text(repo->raw(), commit, "b.txt") == b);
  CHECK(test::resident_kb(pack) > 0);
}
#endif
