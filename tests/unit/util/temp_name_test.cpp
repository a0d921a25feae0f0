// Writers' temporary file names: made and recognised alike.
#include <catch2/catch.hpp>

#include "ledgergate/util/temp_name.hpp"

using namespace lg;

TEST_CASE("a writer's temporary file name is made and recognised", "[util][temp_name]") {
  CHECK(util::writer_temp_name("example.md", 4242, 0) == ".example.md.ledgergate-4242-0");
  CHECK(util::is_writer_temp_name(".example.md.ledgergate-4242-0"));
  CHECK(util::writer_temp_pid(".projects.yaml.ledgergate-17-3") == 17);
  CHECK(util::is_writer_temp_name(util::writer_temp_name("a b.md", 1, 99)));
  for (const char* other : {"example.md", ".example.md", ".example.md.ledgergate-", ".example.md.ledgergate-12",
                            ".example.md.ledgergate-x-1", ".example.md.ledgergate-1-", "example.md.ledgergate-1-2",
                            ".ledgergate-1-2", ".x.ledgergate-0-1", ".x.ledgergate-1-2.md"}) {
    INFO(other);
    CHECK_FALSE(util::is_writer_temp_name(other));
  }
}
