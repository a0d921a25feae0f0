#include "ledgergate/git/object_id.hpp"

#include <catch2/catch.hpp>
#include <unordered_set>

using lg::git::ObjectId;

TEST_CASE("object id: hex round trip, short form, ordering", "[git][object_id]") {
  const std::string hex = "0123456789abcdef0123456789ABCDEF01234567";
  const auto id = ObjectId::from_hex(hex);
  REQUIRE(id);
  CHECK(id->hex() == "0123456789abcdef0123456789abcdef01234567");
  CHECK(id->short_hex() == "0123456789ab");
  CHECK(id->short_hex(7) == "0123456");
  CHECK(id->raw().size() == 20);
  CHECK(static_cast<unsigned char>(id->raw()[0]) == 0x01);
  CHECK(ObjectId::from_bytes(id->bytes()) == *id);
  CHECK_FALSE(id->is_zero());
  CHECK(ObjectId().is_zero());
  CHECK(ObjectId() < *id);
  CHECK(ObjectId().hex() == std::string(40, '0'));
}

TEST_CASE("object id: malformed input is refused", "[git][object_id]") {
  CHECK_FALSE(ObjectId::from_hex("0123"));
  CHECK_FALSE(ObjectId::from_hex(std::string(39, 'a') + "g"));
  CHECK_FALSE(ObjectId::from_hex(std::string(41, 'a')));
}

TEST_CASE("object id: hashes in unordered containers", "[git][object_id]") {
  std::unordered_set<ObjectId> ids;
  ids.insert(*ObjectId::from_hex(std::string(40, 'a')));
  ids.insert(*ObjectId::from_hex(std::string(40, 'a')));
  ids.insert(*ObjectId::from_hex(std::string(40, 'b')));
  CHECK(ids.size() == 2);
}
