// Tasks: each runs once, whichever thread takes it, and a task the
// consumer needs has run (its result visible) when need returns.
#include "ledgergate/util/tasks.hpp"

#include <catch2/catch.hpp>
#include <vector>

using namespace lg;

TEST_CASE("tasks: each runs once, and has run when needed", "[util][tasks]") {
  for (const unsigned workers : {0u, 1u, 3u}) {
    INFO("workers " << workers);
    constexpr std::size_t n = 500;
    std::vector<std::atomic<int>> runs(n);
    std::vector<std::size_t> result(n, 0);
    {
      util::Tasks tasks(
          n,
          [&](std::size_t i) {
            runs[i].fetch_add(1);
            result[i] = i * i + 1;
          },
          workers);
      // Needed out of order, the last first.
      for (std::size_t k = n; k-- > 0;) {
        tasks.need(k);
        CHECK(result[k] == k * k + 1);
      }
    }
    for (std::size_t i = 0; i < n; ++i) CHECK(runs[i].load() == 1);
  }
}

TEST_CASE("tasks: left before every task is needed, none runs twice", "[util][tasks]") {
  std::vector<std::atomic<int>> runs(1000);
  {
    util::Tasks tasks(runs.size(), [&](std::size_t i) { runs[i].fetch_add(1); }, 2);
    tasks.need(3);
  }
  for (const std::atomic<int>& r : runs) CHECK(r.load() <= 1);
  CHECK(runs[3].load() == 1);
}

TEST_CASE("tasks: the thread setting", "[util][tasks]") {
  CHECK(util::worker_count(1) == 1);
  CHECK(util::worker_count(3) == 3);
  CHECK(util::worker_count(0) >= 1);
  CHECK(util::worker_count(0) <= 4);
}
