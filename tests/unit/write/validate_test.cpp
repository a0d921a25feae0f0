// validate_edit: refuse what adds an error finding; keep what the tree had.
#include <catch2/catch.hpp>

#include "ledgergate/write/apply.hpp"
#include "unit/write/ledger_fixture.hpp"

using namespace lg;

namespace {

struct Folder {
  test::TempDir dir;
  std::unique_ptr<git::TreeSource> tree;
  explicit Folder(const test::FileMap& files) {
    test::write_tree(dir.path(), files);
    tree = std::move(git::open_directory_source(dir.path()).value());
  }
};

std::optional<std::string> refusal(const test::FileMap& files, const std::vector<write::FileEdit>& edits,
                                   const write::ApplyOptions& options = {}) {
  Folder f(files);
  auto r = write::validate_edit(*f.tree, edits, options);
  REQUIRE(r);
  if (!*r) return std::nullopt;
  return (*r)->message;
}

std::string with_log_line(std::string ledger, const std::string& line) {
  ledger.insert(ledger.find("- 2026-09-01"), line);
  return ledger;
}

}  // namespace

TEST_CASE("validate_edit accepts an edit that adds no finding", "[write][validate]") {
  const std::string edited = with_log_line(test::k_ledger, "- 2026-09-03 — note — fine\n");
  CHECK_FALSE(refusal(test::clean_tree(), {{test::k_ledger_path, edited}}));
  CHECK_FALSE(refusal(test::clean_tree(), {}));
}

TEST_CASE("validate_edit refuses a new parse finding of the edited file in the reference's words", "[write][validate]") {
  std::string bad = test::k_ledger;
  test::replace_once(bad, "## Log\n\n", "## Log\n\n- 2026-09-03 — note\n");
  const auto r = refusal(test::clean_tree(), {{test::k_ledger_path, bad}});
  REQUIRE(r);
  CHECK_THAT(*r, Catch::StartsWith("the edit would not read back: line "));
  CHECK_THAT(*r, !Catch::Contains("more"));
}

TEST_CASE("validate_edit refuses any other new error finding in ours", "[write][validate]") {
  const std::string backdated = with_log_line(test::k_ledger, "- 2026-08-01 — note — late\n");
  const auto r = refusal(test::clean_tree(), {{test::k_ledger_path, backdated}});
  REQUIRE(r);
  CHECK_THAT(*r, Catch::StartsWith("the edit would add a finding: projects/single.md"));
  // A parse finding of a file the edit did not touch is not "would not read back".
  std::string rows = test::k_rows;
  test::replace_once(rows, "partition: ral", "partition: moon");
  const auto other = refusal(test::clean_tree(), {{"projects.yaml", rows}});
  REQUIRE(other);
  CHECK_THAT(*other, Catch::StartsWith("the edit would add a finding: projects.yaml: single.partition must be"));
}

TEST_CASE("validate_edit counts each new finding once and names the first", "[write][validate]") {
  std::string bad = test::k_rows;
  test::replace_once(bad, "partition: ral", "partition: moon");
  test::replace_once(bad, "status: active", "status: asleep");
  const auto r = refusal(test::clean_tree(), {{"projects.yaml", bad}});
  REQUIRE(r);
  CHECK_THAT(*r, Catch::EndsWith("; 1 more"));
}

TEST_CASE("validate_edit keeps a finding the tree had, even moved to another line", "[write][validate]") {
  std::string broken = test::k_ledger;
  test::replace_once(broken, "## Runs\n\n", "## Runs\n\n- 3003 — weird — gpu — 2026-09-02 — a run\n");
  test::FileMap files = test::clean_tree();
  files[test::k_ledger_path] = broken;
  std::string moved = broken;
  test::replace_once(moved, "Nothing submitted yet.\n", "Nothing submitted yet.\nA second line.\n");
  CHECK(refusal(files, {{test::k_ledger_path, moved}}).value_or("none") == "none");
  // The same finding twice is one new.
  std::string twice = moved;
  test::replace_once(twice, "- 3003 — weird", "- 3004 — weird — gpu — 2026-09-02 — b\n- 3003 — weird");
  CHECK(refusal(files, {{test::k_ledger_path, twice}}));
}

TEST_CASE("validate_edit checks a tree's first ledger with the layout the edit gives it", "[write][validate]") {
  CHECK_FALSE(refusal({}, {{"projects.yaml", test::k_rows}, {test::k_ledger_path, test::k_ledger}}));
  std::string bad = test::k_ledger;
  test::replace_once(bad, "# single — ", "# single: ");
  CHECK(refusal({}, {{"projects.yaml", test::k_rows}, {test::k_ledger_path, bad}}));
  // Files that make no ledger are not checked.
  CHECK_FALSE(refusal({}, {{"notes.txt", "x\n"}}));
}

TEST_CASE("validate_edit runs the pinned profile", "[write][validate]") {
  const std::string backdated = with_log_line(test::k_ledger, "- 2026-08-01 — note — late\n");
  write::ApplyOptions options;
  options.profile = ledger::parse_profile("cortex-tasks").value();
  // A tree moving between eras holds tasks/ beside projects/; era T reads no
  // projects/*.md ledgers: the backdated entry is not its finding.
  test::FileMap both = test::clean_tree();
  both["tasks/README"] = "era T's folder\n";
  CHECK_FALSE(refusal(both, {{test::k_ledger_path, backdated}}, options));
  // A pin the tree does not fit (no tasks/) is an error, not a pass.
  Folder f(test::clean_tree());
  auto r = write::validate_edit(*f.tree, {{test::k_ledger_path, backdated}}, options);
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("does not match the tree") != std::string::npos);
}

TEST_CASE("validate_edit applies the policy's severities: a rule made a warning does not refuse", "[write][validate]") {
  const std::string backdated = with_log_line(test::k_ledger, "- 2026-08-01 — note — late\n");
  write::ApplyOptions options;
  CHECK(refusal(test::clean_tree(), {{test::k_ledger_path, backdated}}, options));
  options.policy.severities["ledger-log-newest-first"] = diag::Severity::warning;
  CHECK_FALSE(refusal(test::clean_tree(), {{test::k_ledger_path, backdated}}, options));
}

TEST_CASE("validate_edit applies the policy's `off`: a rule turned off does not refuse", "[write][validate]") {
  const std::string backdated = with_log_line(test::k_ledger, "- 2026-08-01 — note — late\n");
  write::ApplyOptions options;
  options.policy.off.insert("ledger-log-newest-first");
  CHECK_FALSE(refusal(test::clean_tree(), {{test::k_ledger_path, backdated}}, options));
  // Only that rule: another rule the edit breaks still refuses it.
  options.policy.off = {"ledger-run-listed-once"};
  CHECK(refusal(test::clean_tree(), {{test::k_ledger_path, backdated}}, options));
}
