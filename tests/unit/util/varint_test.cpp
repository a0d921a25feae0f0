// util/varint.hpp: each length reads back as written, in the bytes
// varint_size counts, one after another; under 128 in one byte.
#include "ledgergate/util/varint.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

TEST_CASE("varint: lengths read back as written, in the bytes counted", "[util][varint]") {
  const std::vector<std::size_t> lengths = {0,       1,       127,        128,        255,
                                            16383,   16384,   2097151,    2097152,    std::size_t{1} << 32,
                                            (std::size_t{1} << 35) - 1, std::numeric_limits<std::size_t>::max()};
  std::string out;
  for (const std::size_t n : lengths) {
    const std::size_t before = out.size();
    lg::util::append_varint(out, n);
    CHECK(out.size() - before == lg::util::varint_size(n));
  }
  CHECK(lg::util::varint_size(127) == 1);
  CHECK(lg::util::varint_size(128) == 2);
  CHECK(lg::util::varint_size(std::numeric_limits<std::size_t>::max()) == 10);
  std::size_t at = 0;
  for (const std::size_t n : lengths) CHECK(lg::util::varint_at(out.data(), at) == n);
  CHECK(at == out.size());
  // The encoding itself (a stored format): 300 is 0xAC 0x02.
  std::string three_hundred;
  lg::util::append_varint(three_hundred, 300);
  CHECK(three_hundred == std::string("\xAC\x02", 2));
}
