// util::hash64 and util::Hash64: fixed values (the persistent cache's
// checksums are written to disk: a change would make every entry another
// version's), and the bytes given in any pieces hash as one piece.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "ledgergate/util/hash.hpp"

using lg::util::Hash64;
using lg::util::hash64;

TEST_CASE("hash64: values stay as written to disk", "[util][hash]") {
  // As the one-piece function gave them before Hash64 was split out of it.
  CHECK(hash64("") == 0xa0579a9207c44964ULL);
  CHECK(hash64("a") == 0xef870a652886cd35ULL);
  CHECK(hash64("ledgergate-cache 2 0.1.0\n") == 0xa17dc4240fa2d124ULL);
  CHECK(hash64("0123456789abcdef!") == 0x3cce0e02db9e0b95ULL);
}

TEST_CASE("hash64: bytes given in pieces hash as one piece", "[util][hash]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(rng() % 200, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    Hash64 h(bytes.size());
    for (std::size_t at = 0; at < bytes.size();) {
      const std::size_t n = std::min<std::size_t>(rng() % 20, bytes.size() - at);
      h.add(std::string_view(bytes).substr(at, n));
      at += n;
    }
    INFO("round " << round << ", " << bytes.size() << " bytes");
    REQUIRE(h.value() == hash64(bytes));
  }
  // Another length is another checksum, even for the same bytes read.
  Hash64 longer(4);
  longer.add("abc");
  CHECK(longer.value() != hash64("abc"));
}
