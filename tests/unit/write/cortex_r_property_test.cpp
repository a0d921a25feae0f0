// A property of the era-R verbs through the write layer: random verb
// sequences on the R-skeleton fixture (a fixed seed, so a failure replays)
// never leave the tree with a finding and never write a file that does not
// re-parse; a refused step leaves every byte as it was. Dates only move
// forward sometimes, so the order guard and the validation both get work.
#include <catch2/catch.hpp>

#include <random>

#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/write/apply.hpp"
#include "ledgergate/write/cortex_r.hpp"
#include "support/peer_cases.hpp"

using namespace lg;

namespace {

class Steps {
 public:
  explicit Steps(unsigned seed) : m_rng(seed) {}

  write::Editor next(std::string& label) {
    const std::string key = pick({"example", "single", "sleeping", "wound_down", "nobody"});
    const std::string job = pick({"3002_[0-3]", "3003", "77", "78_[0-1]", "79_2"});
    const std::string today = pick({"2026-09-02", "2026-09-03", "2026-09-04", "2026-08-01", "2026-09-05"});
    const std::string text = pick({"wave 3", "a -- dashed note", "  padded  ", "", "two\nlines", "Issue: x"});
    const auto partition = m_rng() % 3 == 0 ? std::nullopt : std::optional<std::string>(pick({"ral", "gpu"}));
    switch (m_rng() % 9) {
      case 0: label = "run " + key + " " + job; return write::r_run({key, job, text, partition, today});
      case 1: label = "running " + key + " " + job; return write::r_running({key, job});
      case 2: {
        label = "done " + key + " " + job;
        const auto wall = m_rng() % 2 ? std::optional<std::string>("1:05") : std::nullopt;
        return write::r_done({key, job, m_rng() % 2 == 0, wall, std::nullopt, today});
      }
      case 3: label = "log " + key; return write::r_log({key, text, pick({"note", "result", "lesson", "run"}), today});
      case 4: label = "now " + key; return write::r_now({key, text});
      case 5: label = "link " + key; return write::r_link({key, pick({"none", "example#9", "o/r#1"})});
      case 6: label = "retire " + key; return write::r_retire({key, text, today});
      case 7: label = "new " + key; return write::r_new({key, text, std::nullopt, std::nullopt, today});
      default: label = "issue " + key; return write::r_issue({key, "5"});
    }
  }

 private:
  std::string pick(std::initializer_list<const char*> options) {
    return *(options.begin() + static_cast<std::ptrdiff_t>(m_rng() % options.size()));
  }
  std::mt19937 m_rng;
};

}  // namespace

TEST_CASE("random era-R verb sequences keep the tree check-clean and every ledger parsing", "[write][cortex_r]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::peer_fixture(test::peer_cases(), "R-skeleton"));
  Steps steps(20260903);
  int changed = 0, refused = 0;
  for (int i = 0; i < 150; ++i) {
    std::string label;
    const write::Editor editor = steps.next(label);
    INFO("step " << i << ": " << label);
    const test::FileMap before = test::read_tree(dir.path());
    auto applied = write::apply_to_directory(dir.path(), editor, {});
    REQUIRE(applied);
    const test::FileMap after = test::read_tree(dir.path());
    if (std::holds_alternative<write::Refusal>(applied->outcome)) {
      ++refused;
      CHECK(after == before);
      continue;
    }
    if (!applied->written.empty()) ++changed;
    auto tree = git::open_directory_source(dir.path());
    REQUIRE(tree);
    const test::PeerOutcome check = test::run_peer_check(**tree);
    INFO(check.stdout_text);
    REQUIRE(check.exit_code == 0);
    for (const auto& [path, bytes] : after) {
      if (ledger::is_project_ledger_path(path)) CHECK(ledger::parse_project_ledger(bytes).problems.empty());
    }
  }
  // The sequence exercises both sides (a seed that only refuses proves nothing).
  CHECK(changed >= 20);
  CHECK(refused >= 20);
}
