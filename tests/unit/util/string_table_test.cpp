// util::StringTable: each key finds the value it was first given, and only
// an equal key finds it; checked against a std::map over random keys
// (short, long, empty, embedded NUL, sharing prefixes) through its growth.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <string>

#include "ledgergate/util/string_table.hpp"

using lg::util::StringTable;

TEST_CASE("string table: a key finds the value it was first given; another key finds none", "[util][string_table]") {
  StringTable t;
  CHECK(t.empty());
  CHECK_FALSE(t.find("a"));
  CHECK(t.insert("a", 7));
  CHECK_FALSE(t.insert("a", 8));  // kept as first given
  CHECK(t.find("a") == std::optional<std::uint32_t>(7));
  CHECK_FALSE(t.find("b"));
  CHECK_FALSE(t.find(std::string_view("a\0", 2)));
  CHECK(t.insert(std::string_view("a\0", 2), 9));
  CHECK(t.find(std::string_view("a\0", 2)) == std::optional<std::uint32_t>(9));
  CHECK(t.insert("", 0));
  CHECK(t.find("") == std::optional<std::uint32_t>(0));
  CHECK(t.size() == 3);
  CHECK(t.assign("a", 11));
  CHECK(t.find("a") == std::optional<std::uint32_t>(11));
  CHECK_FALSE(t.assign("b", 1));  // only a kept key takes a value
  CHECK_FALSE(t.find("b"));
  CHECK(t.size() == 3);
  t.clear();
  CHECK(t.empty());
  CHECK_FALSE(t.find("a"));
  CHECK(t.memory() == 0);
  CHECK_FALSE(t.assign("a", 1));
}

TEST_CASE("string table: random keys against a std::map, across growth and long keys", "[util][string_table]") {
  std::mt19937 rng(41);
  StringTable t;
  std::map<std::string, std::uint32_t> model;
  const auto random_key = [&] {
    std::string k;
    switch (rng() % 4) {
      case 0: k = "Lprojects/p" + std::to_string(rng() % 5000) + ".md"; break;  // many shared prefixes
      case 1: k.assign(rng() % 4, static_cast<char>('a' + rng() % 3)); break;   // short, empty
      case 2: k.assign(70000 + rng() % 100, 'x'); k[rng() % k.size()] = 'y'; break;  // a block of its own
      default:
        for (std::size_t n = rng() % 90; n > 0; --n) k += static_cast<char>(rng() % 256);  // NULs, any byte
    }
    return k;
  };
  for (int round = 0; round < 20000; ++round) {
    const std::string k = random_key();
    const auto v = static_cast<std::uint32_t>(rng());
    const bool fresh = model.emplace(k, v).second;
    REQUIRE(t.insert(k, v) == fresh);
    const std::string probe = random_key();
    const auto it = model.find(probe);
    REQUIRE(t.find(probe) == (it == model.end() ? std::nullopt : std::optional<std::uint32_t>(it->second)));
  }
  REQUIRE(t.size() == model.size());
  for (const auto& [k, v] : model) REQUIRE(t.find(k) == std::optional<std::uint32_t>(v));
  // for_each visits every kept key once, with its value.
  std::map<std::string, std::uint32_t> visited;
  t.for_each([&visited](std::string_view k, std::uint32_t v) { REQUIRE(visited.emplace(std::string(k), v).second); });
  REQUIRE(visited == model);
  // A key one byte shorter or longer than a kept one is another key.
  for (const auto& [k, v] : model) {
    if (!k.empty() && model.count(k.substr(0, k.size() - 1)) == 0) REQUIRE_FALSE(t.find(k.substr(0, k.size() - 1)));
    if (model.count(k + 'z') == 0) REQUIRE_FALSE(t.find(k + 'z'));
  }
}
