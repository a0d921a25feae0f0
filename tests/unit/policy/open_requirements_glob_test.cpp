// The policy key `open_requirements_glob`.
#include <catch2/catch.hpp>

#include "ledgergate/policy/policy_file.hpp"

TEST_CASE("policy: open_requirements_glob", "[policy][orl]") {
  auto builtin = lg::policy::parse_policy("");
  REQUIRE(builtin.has_value());
  CHECK(builtin->open_requirements_glob == "**/open-requirements.ledger.yml");
  auto set = lg::policy::parse_policy("open_requirements_glob: \"ledgers/*.orl.yml\"\n");
  REQUIRE(set.has_value());
  CHECK(set->open_requirements_glob == "ledgers/*.orl.yml");
  auto bad = lg::policy::parse_policy("version: 1\nopen_requirements_glob: [a]\n");
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().message.find(":2:") != std::string::npos);
}
