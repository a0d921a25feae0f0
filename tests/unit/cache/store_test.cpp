// The persistent store: round trip, every kind of entry it must not trust
// (truncated, corrupt, garbage, another version), atomic writes, eviction by
// last use, an unwritable directory; and the payload codec.
#include "ledgergate/cache/store.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>

#include "ledgergate/cache/codec.hpp"
#include "support/fixture_tree.hpp"

namespace fs = std::filesystem;
using lg::cache::Store;

namespace {

std::size_t files_below(const std::string& dir) {
  std::size_t n = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file()) ++n;
  }
  return n;
}

void set_age(const std::string& path, std::chrono::minutes age) {
  fs::last_write_time(path, fs::file_time_type::clock::now() - age);
}

}  // namespace

TEST_CASE("cache store: lives under the common git dir, round-trips, misses quietly", "[cache]") {
  CHECK(Store::dir_for("/r/.git/") == "/r/.git/ledgergate/cache");
  lg::test::TempDir dir;
  const Store store(dir.path() + "/c");
  auto miss = store.get("verdict", "k");
  CHECK_FALSE(miss.payload);
  CHECK_FALSE(miss.note);
  REQUIRE(store.put("verdict", "k", std::string("pay\0load", 8)));
  auto hit = store.get("verdict", "k");
  REQUIRE(hit.payload);
  CHECK(*hit.payload == std::string("pay\0load", 8));
  CHECK_FALSE(hit.note);
  CHECK(fs::exists(store.path_of("verdict", "k")));
  CHECK(lg::test::read_file(store.path_of("verdict", "k")).rfind("ledgergate-cache " + std::to_string(lg::cache::k_format_version) + " ", 0) == 0);
  CHECK_FALSE(store.get("facts", "k").payload);  // kinds do not mix
  CHECK_FALSE(store.get("verdict", "k2").payload);
  REQUIRE(store.put("verdict", "k", "second"));  // replaced
  CHECK(*store.get("verdict", "k").payload == "second");
  CHECK(files_below(store.dir()) == 1);  // no temporary file left
}

TEST_CASE("cache store: a payload written as encoded is the entry a whole one makes; a writer that changes leaves none",
          "[cache]") {
  lg::test::TempDir dir;
  const Store store(dir.path() + "/c");
  // Fields across many 64 KiB pieces, and a long raw part handed over at once.
  const std::string long_raw(200 * 1024, 'r');
  const auto write = [&](lg::cache::Encoder& e) {
    for (int i = 0; i < 20000; ++i) e.field("ledger " + std::to_string(i));
    e.raw(long_raw);
    e.number(7);
  };
  lg::cache::Encoder whole;
  write(whole);
  REQUIRE(store.put("facts", "whole", whole.text()));
  REQUIRE(store.put("facts", "streamed", write));
  const auto got = store.get("facts", "streamed");
  REQUIRE(got.payload);
  CHECK(*got.payload == whole.text());
  // The same bytes on disk but for the key (and so the checksum).
  std::string a = lg::test::read_file(store.path_of("facts", "whole"));
  const std::string b = lg::test::read_file(store.path_of("facts", "streamed"));
  REQUIRE(a.find("5:whole") != std::string::npos);
  a.replace(a.find("5:whole"), 7, "8:streamed");
  REQUIRE(a.size() == b.size());
  CHECK(a.substr(0, a.size() - 26) == b.substr(0, b.size() - 26));
  CHECK(b.substr(b.size() - 26, 9) == "checksum ");
  // A writer that writes less the second time: no entry, no file left behind.
  int calls = 0;
  CHECK_FALSE(store.put("facts", "unsteady", [&](lg::cache::Encoder& e) { e.field(++calls == 1 ? "long" : "x"); }));
  CHECK_FALSE(store.get("facts", "unsteady").payload);
  CHECK(files_below(store.dir()) == 2);
}

TEST_CASE("cache store: an entry it cannot trust is a miss with a note, then rewritten", "[cache]") {
  lg::test::TempDir dir;
  const Store store(dir.path() + "/c");
  const std::string payload = "the payload " + std::string(200, 'p');
  REQUIRE(store.put("facts", "key", payload));
  const std::string path = store.path_of("facts", "key");
  const std::string good = lg::test::read_file(path);
  struct Bad {
    std::string bytes;
    std::string why;
  };
  std::string flipped = good;
  flipped[flipped.find("the payload")] = 'T';
  std::string foreign = good;
  foreign.replace(foreign.find(' ', 17) + 1, 0, "0.0.0-other");
  const std::vector<Bad> bads = {
      {good.substr(0, good.size() / 2), "checksum mismatch"},
      {good.substr(0, 10), "truncated"},
      {"", "truncated"},
      {flipped, "checksum mismatch"},
      {std::string(200, 'x'), "not a cache entry"},
      {foreign, "another version"},
      {"ledgergate-cache 99 0.1\n" + good.substr(good.find('\n') + 1), "another version"},
  };
  for (const Bad& bad : bads) {
    lg::test::write_file(path, bad.bytes);
    auto got = store.get("facts", "key");
    CHECK_FALSE(got.payload);
    REQUIRE(got.note);
    CHECK_THAT(*got.note, Catch::Contains(bad.why) && Catch::Contains(path));
    REQUIRE(store.put("facts", "key", payload));
    CHECK(*store.get("facts", "key").payload == payload);
  }
  // A directory where the entry should be: unreadable, a note, never an error.
  fs::remove(path);
  fs::create_directories(path);
  auto got = store.get("facts", "key");
  CHECK_FALSE(got.payload);
  CHECK(got.note);
  CHECK_FALSE(store.put("facts", "key", "x"));  // the rename cannot replace a directory
}

TEST_CASE("cache store: an unwritable place caches nothing and fails nothing", "[cache]") {
  lg::test::TempDir dir;
  lg::test::write_file(dir.path() + "/file", "not a folder");
  const Store store(dir.path() + "/file/cache");
  CHECK_FALSE(store.put("verdict", "k", "v"));
  CHECK_FALSE(store.get("verdict", "k").payload);
  CHECK_FALSE(store.get("verdict", "k").note);
  store.evict();
  CHECK(store.clear() == 0);
}

TEST_CASE("cache store: the budget evicts the least recently used entries", "[cache]") {
  lg::test::TempDir dir;
  const Store store(dir.path() + "/c", lg::cache::Budget{3, 1u << 20});
  for (int i = 1; i <= 3; ++i) REQUIRE(store.put("verdict", "e" + std::to_string(i), "x"));
  set_age(store.path_of("verdict", "e1"), std::chrono::minutes(30));
  set_age(store.path_of("verdict", "e2"), std::chrono::minutes(20));
  set_age(store.path_of("verdict", "e3"), std::chrono::minutes(10));
  REQUIRE(store.get("verdict", "e1").payload);  // used now: the newest
  REQUIRE(store.put("verdict", "e4", "x"));       // four entries, budget three: e2 goes
  REQUIRE(store.put("facts", "f1", "x"));         // another kind, a budget of its own
  store.evict();
  CHECK(files_below(store.dir()) == 4);
  CHECK(store.get("verdict", "e1").payload);
  CHECK_FALSE(store.get("verdict", "e2").payload);
  CHECK(store.get("verdict", "e3").payload);
  CHECK(store.get("verdict", "e4").payload);
  CHECK(store.get("facts", "f1").payload);

  // A store's first put applies the budget itself.
  const Store again(store.dir(), lg::cache::Budget{2, 1u << 20});
  set_age(store.path_of("verdict", "e3"), std::chrono::minutes(40));
  REQUIRE(again.put("verdict", "e5", "x"));
  CHECK_FALSE(again.get("verdict", "e3").payload);
  CHECK(files_below(store.dir() + "/verdict") == 2);

  const Store small(dir.path() + "/s", lg::cache::Budget{100, 250});  // bytes: one entry fits
  REQUIRE(small.put("verdict", "a", std::string(100, 'a')));
  set_age(small.path_of("verdict", "a"), std::chrono::minutes(5));
  REQUIRE(small.put("verdict", "b", std::string(100, 'b')));
  small.evict();
  CHECK_FALSE(small.get("verdict", "a").payload);
  CHECK(small.get("verdict", "b").payload);

  // A killed writer's temporary file goes once it is a minute old, not before.
  lg::test::write_file(small.dir() + "/verdict/.tmp-1-1", "partial");
  lg::test::write_file(small.dir() + "/verdict/.tmp-1-2", "partial");
  set_age(small.dir() + "/verdict/.tmp-1-1", std::chrono::minutes(2));
  small.evict();
  CHECK_FALSE(fs::exists(small.dir() + "/verdict/.tmp-1-1"));
  CHECK(fs::exists(small.dir() + "/verdict/.tmp-1-2"));
  CHECK(small.clear() > 0);
  CHECK_FALSE(fs::exists(small.dir()));
}

TEST_CASE("cache store: the switch and the notes", "[cache]") {
  REQUIRE(lg::cache::enabled());
  lg::cache::disable();
  CHECK_FALSE(lg::cache::enabled());
  lg::cache::enable();
  CHECK(lg::cache::enabled());
  ::setenv("LEDGERGATE_NO_CACHE", "1", 1);
  CHECK_FALSE(lg::cache::enabled());
  ::setenv("LEDGERGATE_NO_CACHE", "0", 1);
  CHECK(lg::cache::enabled());
  ::unsetenv("LEDGERGATE_NO_CACHE");
  lg::cache::take_notes();
  lg::cache::add_note("one");
  lg::cache::add_note("two");
  lg::cache::add_note("one");
  CHECK(lg::cache::take_notes() == std::vector<std::string>{"one", "two"});
  lg::cache::add_note("one");  // once per process
  CHECK(lg::cache::take_notes().empty());
}

TEST_CASE("cache codec: findings round-trip; malformed input is never half-trusted", "[cache]") {
  lg::diag::Finding f;
  f.rule = "ledger-file-name";
  f.severity = lg::diag::Severity::warning;
  f.location = {"HEAD", "projects/a b.md", 3, 7};
  f.message = "a message: with colons\nand a newline";
  f.peer = lg::diag::PeerForm::path_line_message;
  f.cannot_judge = true;
  lg::cache::Encoder e;
  e.findings({f, f});
  e.field("tail");
  {
    lg::cache::Decoder d(e.text());
    auto back = d.findings();
    CHECK(d.field() == "tail");
    REQUIRE(d.ok());
    CHECK(d.at_end());
    REQUIRE(back.size() == 2);
    CHECK(back[1].rule == f.rule);
    CHECK(back[1].severity == f.severity);
    CHECK(back[1].location.path == f.location.path);
    CHECK(back[1].location.line == 3);
    CHECK(back[1].location.column == 7);
    CHECK(back[1].message == f.message);
    CHECK(back[1].peer == f.peer);
    CHECK(back[1].cannot_judge);
  }
  for (std::size_t cut = 0; cut < e.text().size(); cut += 7) {
    lg::cache::Decoder d(std::string_view(e.text()).substr(0, cut));
    d.findings();
    d.field();
    CHECK_FALSE((d.ok() && d.at_end()));
  }
  lg::cache::Encoder unknown;
  f.rule = "no-such-rule";
  unknown.finding(f);
  lg::cache::Decoder d(unknown.text());
  d.finding();
  CHECK_FALSE(d.ok());
  lg::cache::Decoder range("1:5");
  range.number(0, 2);
  CHECK_FALSE(range.ok());
}
