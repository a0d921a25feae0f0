#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "ledgergate/util/suggest.hpp"

using lg::util::closest_word;
using lg::util::edit_distance;

TEST_CASE("edit_distance counts insertions, deletions, substitutions and transpositions") {
  CHECK(edit_distance("check", "check") == 0);
  CHECK(edit_distance("chek", "check") == 1);        // a deletion
  CHECK(edit_distance("checkk", "check") == 1);      // an insertion
  CHECK(edit_distance("chock", "check") == 1);       // a substitution
  CHECK(edit_distance("chcek", "check") == 1);       // a transposition
  CHECK(edit_distance("CHECK", "check") == 0);       // ASCII case does not count
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("closest_word suggests only near misses") {
  const std::vector<std::string> commands = {"check", "classify", "trial-merge", "land", "rules", "explain"};
  CHECK(closest_word("chek", commands) == "check");
  CHECK(closest_word("trial-merg", commands) == "trial-merge");
  CHECK(closest_word("expalin", commands) == "explain");
  CHECK(closest_word("lnd", commands) == "land");
  CHECK_FALSE(closest_word("frobnicate", commands).has_value());
  CHECK_FALSE(closest_word("", commands).has_value());
  // A prefix of exactly one word is a suggestion; of several, none.
  CHECK(closest_word("tri", commands) == "trial-merge");
  CHECK_FALSE(closest_word("c", std::vector<std::string>{"check", "classify"}).has_value());
  const std::vector<std::string> flags = {"--format", "--profile", "--index"};
  CHECK(closest_word("--formt", flags) == "--format");
  CHECK_FALSE(closest_word("--bogus", flags).has_value());
}
