// git::PackIndexes: the ids a version 2 pack index lists are found, no
// other is, and an index this reader cannot take is skipped (its ids are
// then libgit2's to answer); confirm_objects answers the same through it.
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../../../src/git/pack_index.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/repository.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;
namespace fs = std::filesystem;

namespace {

// A repository whose objects are in one pack and nowhere else; the pack's
// path without its extension, and every id it holds.
struct PackedRepo {
  test::TempDir dir;
  std::string stem;
  std::vector<git::ObjectId> ids;
  git_oid commit{};

  PackedRepo() {
    test::FileMap files;
    for (int i = 0; i < 300; ++i) files["projects/p" + std::to_string(i) + ".md"] = "ledger " + std::to_string(i) + "\n";
    commit = test::commit_tree(dir.path(), files, "c1");
    stem = test::pack_commit(dir.path(), commit, true, &ids);
  }
  std::string objects() const { return dir.path() + "/.git/objects"; }
};

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  fs::permissions(path, fs::perms::owner_write, fs::perm_options::add);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

TEST_CASE("pack indexes: the ids a pack lists are found, no other is", "[git][pack_index]") {
  PackedRepo r;
  REQUIRE(r.ids.size() > 300);
  const git::PackIndexes packs = git::PackIndexes::open(r.objects());
  REQUIRE(packs.size() == 1);
  const std::set<git::ObjectId> listed(r.ids.begin(), r.ids.end());
  for (const git::ObjectId& id : r.ids) CHECK(packs.contains(id));
  // Ids beside each listed one (its last byte changed), at the fanout's
  // edges, and at random: found exactly when listed.
  std::vector<git::ObjectId> others;
  for (const git::ObjectId& id : r.ids) {
    std::string hex = id.hex();
    hex.back() = hex.back() == '0' ? '1' : '0';
    others.push_back(*git::ObjectId::from_hex(hex));
  }
  others.push_back(*git::ObjectId::from_hex(std::string(40, '0')));
  others.push_back(*git::ObjectId::from_hex(std::string(40, 'f')));
  std::mt19937 rng(7);
  for (int i = 0; i < 500; ++i) {
    std::string hex;
    for (int k = 0; k < 40; ++k) hex += "0123456789abcdef"[rng() % 16];
    others.push_back(*git::ObjectId::from_hex(hex));
  }
  for (const git::ObjectId& id : others) CHECK(packs.contains(id) == (listed.count(id) != 0));
  // The repository's own confirmation through them: many ids, all packed.
  auto repo = git::Repository::open(r.dir.path(), false);
  REQUIRE(repo);
  std::vector<git::ObjectId> many;
  for (int i = 0; i < 3; ++i) many.insert(many.end(), r.ids.begin(), r.ids.end());
  CHECK(git::confirm_objects(*repo, many));
  // One absent among them is named, as libgit2 names it.
  const git::ObjectId absent = *git::ObjectId::from_hex("0123456789012345678901234567890123456789");
  many.insert(many.begin() + 10, absent);
  auto missing = git::confirm_objects(*repo, many);
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error().message, Catch::Contains(absent.hex()) && Catch::Contains("missing"));
}

TEST_CASE("pack indexes: an index this reader cannot take, or without its pack, is skipped",
          "[git][pack_index]") {
  PackedRepo r;
  const std::string idx = r.stem + ".idx";
  const std::string good = file_bytes(idx);
  REQUIRE(git::PackIndexes::open(r.objects()).size() == 1);
  const auto declined = [&](std::string bytes) {
    write_bytes(idx, bytes);
    const bool skipped = git::PackIndexes::open(r.objects()).size() == 0;
    write_bytes(idx, good);
    return skipped;
  };
  std::string bad_magic = good;
  bad_magic[1] = 'x';
  CHECK(declined(bad_magic));
  std::string version_3 = good;
  version_3[7] = 3;
  CHECK(declined(version_3));
  CHECK(declined(good.substr(0, good.size() - 1)));       // shorter than its count needs
  CHECK(declined(good + std::string(8 * r.ids.size() + 8, '\0')));  // longer than any 64-bit offsets
  CHECK(declined(good.substr(0, 100)));
  std::string decreasing = good;
  decreasing[8 + 4 * 0x80 + 3] = static_cast<char>(0xff);  // one fanout count above the next
  decreasing[8 + 4 * 0x80 + 2] = static_cast<char>(0xff);
  CHECK(declined(decreasing));
  CHECK_FALSE(declined(good));
  // The pack file gone: its index is not taken (confirm_objects then asks
  // libgit2, which finds nothing either).
  fs::rename(r.stem + ".pack", r.stem + ".moved");
  CHECK(git::PackIndexes::open(r.objects()).size() == 0);
  auto repo = git::Repository::open(r.dir.path(), false);
  REQUIRE(repo);
  std::vector<git::ObjectId> many(r.ids.begin(), r.ids.end());
  CHECK_FALSE(git::confirm_objects(*repo, many));
  CHECK(git::PackIndexes::open(r.dir.path() + "/nowhere").size() == 0);
}

TEST_CASE("pack indexes: ids in several packs are each found, whichever pack answered last", "[git][pack_index]") {
  PackedRepo r;
  test::FileMap more;
  for (int i = 0; i < 200; ++i) more["rulings/r" + std::to_string(i) + ".md"] = "ruling " + std::to_string(i) + "\n";
  const git_oid second = test::commit_tree(r.dir.path(), more, "c2", &r.commit);
  std::vector<git::ObjectId> second_ids;
  test::pack_commit(r.dir.path(), second, true, &second_ids);
  REQUIRE(second_ids.size() > 200);
  const git::PackIndexes packs = git::PackIndexes::open(r.objects());
  REQUIRE(packs.size() == 2);
  // Alternating between ids only the second pack holds and ids both hold.
  for (std::size_t i = 0; i < second_ids.size(); ++i) {
    CHECK(packs.contains(second_ids[i]));
    CHECK(packs.contains(r.ids[i % r.ids.size()]));
  }
  std::string hex = second_ids.front().hex();
  hex.back() = hex.back() == '0' ? '1' : '0';
  const git::ObjectId neighbour = *git::ObjectId::from_hex(hex);
  const bool listed = std::find(second_ids.begin(), second_ids.end(), neighbour) != second_ids.end() ||
                      std::find(r.ids.begin(), r.ids.end(), neighbour) != r.ids.end();
  CHECK(packs.contains(neighbour) == listed);
}

// A version 2 index written here, of `count` ids in order, each's first
// four bytes rising evenly and the rest random (CRCs and offsets zero: this
// reader reads neither), beside a pack file; the ids.
std::vector<git::ObjectId> write_index(const std::string& objects, std::size_t count) {
  std::mt19937_64 rng(11);
  const auto be32 = [](std::uint32_t v) {
    return std::string{static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                       static_cast<char>(v)};
  };
  std::vector<git::ObjectId> ids;
  std::string table;
  std::uint32_t fan[256] = {};
  for (std::size_t i = 0; i < count; ++i) {
    std::string id = be32(static_cast<std::uint32_t>((std::uint64_t{i} << 32) / count));
    while (id.size() < git::ObjectId::k_raw_size) id += static_cast<char>(rng() & 0xff);
    ++fan[static_cast<unsigned char>(id[0])];
    table += id;
    ids.push_back(git::ObjectId::from_bytes(reinterpret_cast<const unsigned char*>(id.data())));
  }
  std::string bytes = "\377tOc" + be32(2);
  std::uint32_t total = 0;
  for (const std::uint32_t n : fan) bytes += be32(total += n);
  bytes += table;
  bytes += std::string(8 * count + 2 * git::ObjectId::k_raw_size, '\0');
  test::write_file(objects + "/pack/pack-synthetic.idx", bytes);
  test::write_file(objects + "/pack/pack-synthetic.pack", "PACK");
  return ids;
}

TEST_CASE("pack indexes: a sweep in id order gives back what it passed and still finds every id",
          "[git][pack_index]") {
  test::TempDir dir;
  const std::string objects = dir.path() + "/objects";
  const std::vector<git::ObjectId> ids = write_index(objects, 1000000);  // 20 MB of ids
  const std::string idx = objects + "/pack/pack-synthetic.idx";
  const auto sweep = [&](bool give_back) {
    git::PackIndexes packs = git::PackIndexes::open(objects);
    REQUIRE(packs.size() == 1);
    std::size_t found = 0;
    long most = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      found += packs.contains(ids[i]) ? 1 : 0;
      if (give_back) packs.passed(ids[i]);
      if (i % 10000 == 0) most = std::max(most, test::resident_kb(idx));
    }
    CHECK(found == ids.size());
    // Asked again behind the sweep: read back in, still found; an id
    // beside one still not.
    CHECK(packs.contains(ids.front()));
    CHECK(packs.contains(ids[ids.size() / 3]));
    std::string hex = ids[5].hex();
    hex.back() = hex.back() == '0' ? '1' : '0';
    CHECK_FALSE(packs.contains(*git::ObjectId::from_hex(hex)));
    return most;
  };
  // Held whole, against two steps behind, the page ahead and what the
  // kernel maps around a fault (a large folio: up to 2 MiB each side).
  CHECK(sweep(false) >= 19000);
  CHECK(sweep(true) <= 512 + 64 + 2 * 2048 + 8);
}
