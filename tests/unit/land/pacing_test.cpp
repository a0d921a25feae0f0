#include "ledgergate/land/pacing.hpp"

#include <catch2/catch.hpp>

using namespace lg;
using land::Millis;
using namespace std::chrono_literals;

TEST_CASE("pacing: durations parse with a unit per part, a bare number is seconds", "[land]") {
  CHECK(land::parse_duration("250ms") == Millis(250));
  CHECK(land::parse_duration("30s") == Millis(30'000));
  CHECK(land::parse_duration("5m") == Millis(300'000));
  CHECK(land::parse_duration("1h30m") == Millis(5'400'000));
  CHECK(land::parse_duration("1m30s") == Millis(90'000));
  CHECK(land::parse_duration("90") == Millis(90'000));
  CHECK(land::parse_duration("0") == Millis(0));
  CHECK(land::parse_duration("0s") == Millis(0));
  CHECK_FALSE(land::parse_duration(""));
  CHECK_FALSE(land::parse_duration("5x"));
  CHECK_FALSE(land::parse_duration("m"));
  CHECK_FALSE(land::parse_duration("-5s"));
  CHECK_FALSE(land::parse_duration("1m30"));  // a part without its unit
  CHECK_FALSE(land::parse_duration("1.5s"));
  CHECK_FALSE(land::parse_duration("8d"));
  CHECK_FALSE(land::parse_duration("200h"));  // more than a week
}

TEST_CASE("pacing: durations format short", "[land]") {
  CHECK(land::format_duration(Millis(0)) == "0s");
  CHECK(land::format_duration(Millis(250)) == "250ms");
  CHECK(land::format_duration(Millis(1'440)) == "1.4s");
  CHECK(land::format_duration(Millis(125'000)) == "2m05s");
  CHECK(land::format_duration(Millis(600'000)) == "10m00s");
  CHECK(land::format_duration(Millis(3'660'000)) == "1h01m");
  // What it formats, it parses back (the CLI's defaults are formatted).
  for (const Millis d : {Millis(0), Millis(200), Millis(120'000), Millis(600'000), Millis(3'660'000)}) {
    CHECK(land::parse_duration(land::format_duration(d)) == d);
  }
}

TEST_CASE("pacing: the backoff doubles up to the cap, jittered into its upper half", "[land]") {
  const Millis base = 200ms, cap = 10s;
  CHECK(land::backoff_delay(1, base, cap, 0.0) == Millis(100));
  CHECK(land::backoff_delay(1, base, cap, 0.999999) == Millis(199));
  CHECK(land::backoff_delay(2, base, cap, 0.0) == Millis(200));
  CHECK(land::backoff_delay(3, base, cap, 0.0) == Millis(400));
  CHECK(land::backoff_delay(4, base, cap, 0.5) == Millis(1'200));
  CHECK(land::backoff_delay(30, base, cap, 0.0) == Millis(5'000));    // capped at 10s, then halved
  CHECK(land::backoff_delay(1000, base, cap, 1.0) == Millis(10'000));  // no overflow however many retries
  CHECK(land::backoff_delay(5, Millis(0), cap, 0.7) == Millis(0));     // --retry-delay 0: retry at once
  CHECK(land::backoff_delay(1, 30s, cap, 1.0) == Millis(30'000));      // the cap never undercuts the base
  // Two landers that collided draw different delays.
  CHECK(land::backoff_delay(3, base, cap, 0.1) != land::backoff_delay(3, base, cap, 0.9));
}

TEST_CASE("pacing: a lease's message round-trips, anything else is not a lease", "[land]") {
  const land::Lease l{"ci-runner-7 pid 4242 #0badf00d", "claude/note", 1'796'000'000'123};
  const std::string m = land::lease_message(l);
  CHECK(m.rfind("ledgergate land lease\n\n", 0) == 0);
  const auto back = land::parse_lease(m);
  REQUIRE(back);
  CHECK(back->holder == l.holder);
  CHECK(back->branch == l.branch);
  CHECK(back->expires_ms == l.expires_ms);
  CHECK_FALSE(land::parse_lease("Merge branch 'x' into main\n"));
  CHECK_FALSE(land::parse_lease("ledgergate land lease\n\nholder: x\n"));  // no expiry
  CHECK_FALSE(land::parse_lease("ledgergate land lease\n\nexpires-ms: soon\n"));
  CHECK(land::parse_lease("ledgergate land lease\n\nexpires-ms: 5\n")->expires_ms == 5);
}
