// Eight-byte tests against the byte-by-byte answer, for every byte value
// in every position, beside neighbours that would carry or borrow.
#include "ledgergate/util/word_bytes.hpp"

#include <catch2/catch.hpp>
#include <cstring>

namespace {

std::uint64_t word_of(const unsigned char (&bytes)[8]) {
  std::uint64_t w = 0;
  std::memcpy(&w, bytes, 8);
  return w;
}

std::uint64_t expected(const unsigned char (&bytes)[8], bool (*test)(unsigned char)) {
  unsigned char out[8] = {};
  for (int i = 0; i < 8; ++i) out[i] = test(bytes[i]) ? 0x80 : 0;
  return word_of(out);
}

}  // namespace

TEST_CASE("word bytes: below and equal, exactly, byte by byte", "[util]") {
  const unsigned char neighbours[] = {0x00, 0x01, 0x1F, 0x20, 0x7F, 0x80, 0x9F, 0xFF};
  for (const unsigned char n : neighbours) {
    for (int at = 0; at < 8; ++at) {
      for (int v = 0; v < 256; ++v) {
        unsigned char bytes[8];
        std::memset(bytes, n, 8);
        bytes[at] = static_cast<unsigned char>(v);
        const std::uint64_t w = word_of(bytes);
        INFO("byte " << v << " at " << at << " among " << int(n));
        CHECK(lg::util::bytes_below(w, 0x20) == expected(bytes, [](unsigned char b) { return b < 0x20; }));
        CHECK(lg::util::bytes_below(w, 1) == expected(bytes, [](unsigned char b) { return b == 0; }));
        CHECK(lg::util::bytes_equal(w, '\n') == expected(bytes, [](unsigned char b) { return b == '\n'; }));
        CHECK(lg::util::bytes_equal(w, 0x80) == expected(bytes, [](unsigned char b) { return b == 0x80; }));
      }
    }
  }
}

TEST_CASE("word bytes: big-endian loads read git's fields and order ids as their bytes do", "[util][word_bytes]") {
  const unsigned char bytes[8] = {0x01, 0x02, 0x03, 0xf4, 0x85, 0x06, 0x07, 0xff};
  CHECK(lg::util::load_be32(bytes) == 0x010203f4u);
  CHECK(lg::util::load_be32(bytes + 4) == 0x850607ffu);
  CHECK(lg::util::load_be64(bytes) == 0x010203f4850607ffULL);
  // Greater as a number exactly where greater byte by byte, at any byte.
  for (int at = 0; at < 8; ++at) {
    unsigned char a[8] = {}, b[8] = {};
    std::memset(a, 0x7f, 8);
    std::memcpy(b, a, 8);
    b[at] = 0x80;
    if (at + 1 < 8) a[at + 1] = 0xff;
    CHECK(lg::util::load_be64(a) < lg::util::load_be64(b));
    CHECK((std::memcmp(a, b, 8) < 0) == (lg::util::load_be64(a) < lg::util::load_be64(b)));
  }
}
