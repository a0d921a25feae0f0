#include "ledgergate/land/land.hpp"

#include <catch2/catch.hpp>

#include "ledgergate/git/repository.hpp"

using namespace lg;

namespace {
const git::Libgit2Session k_session;
}

TEST_CASE("land: refuses main, empty, option-like and condemned branches", "[land]") {
  CHECK_FALSE(land::refuse("claude/note", "main", "origin"));
  CHECK_FALSE(land::refuse("feature", "trunk", "upstream"));
  auto r = land::refuse("", "main", "origin");
  REQUIRE(r);
  CHECK_FALSE(r->condemned);
  CHECK(r->reason == "no branch given");
  REQUIRE(land::refuse("main", "main", "origin"));
  REQUIRE(land::refuse("trunk", "trunk", "origin"));
  REQUIRE(land::refuse("main", "trunk", "origin"));  // main is never landed anywhere
  REQUIRE(land::refuse("HEAD", "main", "origin"));
  CHECK(land::refuse("--upload-pack=evil", "main", "origin")->reason.find("'-'") != std::string::npos);
  REQUIRE(land::refuse("x", "main", "-o"));
  CHECK(land::refuse("a..b", "main", "origin")->reason == "not a valid branch name: a..b");
  CHECK(land::refuse("x", "ma in", "origin")->reason == "not a valid branch name: ma in");
  CHECK(land::refuse("x", "main", "or:igin")->reason == "not a valid remote name: or:igin");
  r = land::refuse("archive/condemned/old-idea", "main", "origin");
  REQUIRE(r);
  CHECK(r->condemned);
  CHECK_FALSE(land::refuse("archive/kept", "main", "origin"));
}

TEST_CASE("land: outcomes map to the shared exit codes", "[land]") {
  CHECK(land::exit_code(land::Outcome::landed) == 0);
  CHECK(land::exit_code(land::Outcome::would_land) == 0);
  CHECK(land::exit_code(land::Outcome::already_in_main) == 0);
  CHECK(land::exit_code(land::Outcome::left_for_human) == 1);
  CHECK(land::exit_code(land::Outcome::gave_up) == 2);
  CHECK(land::exit_code(land::Outcome::error) == 2);
  CHECK(land::to_string(land::Outcome::already_in_main) == "already-in-main");
}

TEST_CASE("land: the merge commit names the branch and the target", "[land]") {
  CHECK(land::merge_message("claude/x", "main").rfind("Merge branch 'claude/x' into main\n\n", 0) == 0);
}

TEST_CASE("land: the deciding step is the last that failed, not the queue's release after it", "[land]") {
  land::LandReport r;
  CHECK(land::deciding_step(r) == nullptr);
  r.steps.push_back({"fetch", 0, land::StepStatus::ok, "fetched", {}, {}});
  CHECK(land::deciding_step(r)->name == "fetch");
  r.steps.push_back({"push", 1, land::StepStatus::fail, "moved", {}, {}});
  r.steps.push_back({"push", 0, land::StepStatus::error, "moved under every one of 1 attempts", {}, {}});
  r.steps.push_back({"release", 0, land::StepStatus::ok, "released the lease", {}, {}});
  CHECK(land::deciding_step(r)->message == "moved under every one of 1 attempts");
}
