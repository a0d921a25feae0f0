// Ruling ids: grammar, filing path, a day's ids, the next free id.
#include "ledgergate/merge/rulings.hpp"

#include <catch2/catch.hpp>

#include "support/fixture_tree.hpp"

using namespace lg::merge;

TEST_CASE("rulings: the id grammar and its filing path", "[merge][rulings]") {
  const auto id = parse_ruling_id("R-20260901-03");
  REQUIRE(id);
  CHECK(id->date == "20260901");
  CHECK(id->nn == "03");
  CHECK(ruling_path(*id) == "rulings/2026/09/R-20260901-03.md");
  const auto bad = GENERATE("R-2026091-03", "R-20260901-3", "R-20260901-003", "r-20260901-03", "R-2026O901-03",
                            "R-20260901_03", "", "R-\xD9\xA2\x30\x32\x36\x30\x39\x30\x31-03");
  CAPTURE(bad);
  CHECK_FALSE(parse_ruling_id(bad));
}

TEST_CASE("rulings: the id a path is filed as", "[merge][rulings]") {
  CHECK(ruling_id_of_path("rulings/2026/09/R-20260901-03.md") == std::optional<std::string>("R-20260901-03"));
  CHECK(ruling_id_of_path("rulings/R-20260901-03.md") == std::optional<std::string>("R-20260901-03"));
  CHECK_FALSE(ruling_id_of_path("rulings/AGENTS.md"));
  CHECK_FALSE(ruling_id_of_path("tasks/p/R-20260901-03.md"));
  CHECK_FALSE(ruling_id_of_path("rulings/2026/09/R-20260901-03.txt"));
}

TEST_CASE("rulings: a day's ids in a tree and the next free one", "[merge][rulings]") {
  lg::test::TempDir dir;
  lg::test::write_tree(dir.path(), {{"rulings/2026/09/R-20260901-01.md", "x"},
                                    {"rulings/2026/09/R-20260901-02.md", "x"},
                                    {"rulings/2026/09/R-20260902-01.md", "x"},
                                    {"rulings/2026/09/notes.txt", "x"}});
  auto tree = lg::git::open_directory_source(dir.path());
  REQUIRE(tree);
  auto day = ruling_ids_of_day(**tree, "20260901");
  REQUIRE(day);
  CHECK(*day == std::set<std::string>{"R-20260901-01", "R-20260901-02"});
  auto empty = ruling_ids_of_day(**tree, "20261001");
  REQUIRE(empty);
  CHECK(empty->empty());
  CHECK(next_free_ruling_id("20260901", *day) == std::optional<std::string>("R-20260901-03"));
  CHECK(next_free_ruling_id("20260901", {"R-20260901-02"}) == std::optional<std::string>("R-20260901-01"));
  std::set<std::string> full;
  for (int n = 1; n <= 99; ++n) full.insert("R-20260901-" + std::string(n < 10 ? "0" : "") + std::to_string(n));
  CHECK_FALSE(next_free_ruling_id("20260901", full));
}
