// The fix loop: several fixes of one file in rounds until the tree is
// clean; a fix that would add a finding refused (and its file left as it
// was); suggested fixes only when named; and the loop's edit written
// through the writer verbs' validate-then-write path.
#include "ledgergate/fix/engine.hpp"

#include <catch2/catch.hpp>

#include <set>

#include "ledgergate/write/apply.hpp"
#include "support/peer_cases.hpp"

namespace lg::test {
namespace {

constexpr std::string_view k_em = " \xE2\x80\x94 ";

FileMap skeleton_with(std::initializer_list<std::pair<std::string_view, std::string_view>> edits) {
  FileMap files = peer_fixture(peer_cases(), "R-skeleton");
  std::string& text = files.at("projects/example.md");
  for (const auto& [good, bad] : edits) {
    const std::size_t at = text.find(good);
    REQUIRE(at != std::string::npos);
    text.replace(at, good.size(), bad);
  }
  return files;
}

fix::FixReport fix_files(const FileMap& files, std::vector<std::string> rules = {}) {
  TempDir dir;
  write_tree(dir.path() + "/root", files);
  auto tree = git::open_directory_source(dir.path() + "/root");
  REQUIRE(tree.has_value());
  fix::FixOptions options;
  options.rules = std::move(rules);
  auto report = fix::fix_tree(**tree, options);
  REQUIRE(report.has_value());
  return std::move(*report);
}

std::set<std::string> rules_of(const std::vector<diag::Finding>& findings) {
  std::set<std::string> out;
  for (const diag::Finding& f : findings) out.insert(f.rule);
  return out;
}

}  // namespace

TEST_CASE("fix: three certain fixes of one ledger leave it clean", "[fix]") {
  const std::string opened = "- 2026-08-28" + std::string(k_em) + "note" + std::string(k_em) + "ledger opened";
  const FileMap files = skeleton_with({
      {"Project: example", "Project: other"},
      // the oldest entry moved to the top, its dashes misspelt
      {"\n" + opened, ""},
      {"## Log\n\n", "## Log\n\n- 2026-08-28 - note - ledger opened\n"},
  });
  const fix::FixReport r = fix_files(files);
  CHECK(rules_of(r.before) ==
        std::set<std::string>{"ledger-project-equals-key", "ledger-log-line-parses"});  // the sort waits for the parse
  CHECK(r.after.empty());
  CHECK(r.refused.empty());
  CHECK(rules_of([&] {
          std::vector<diag::Finding> fixed;
          for (const fix::AppliedFix& a : r.applied) fixed.push_back(a.finding);
          return fixed;
        }()) == std::set<std::string>{"ledger-project-equals-key", "ledger-log-line-parses", "ledger-log-newest-first"});
  REQUIRE(r.files.size() == 1);
  CHECK(r.files[0].after == peer_fixture(peer_cases(), "R-skeleton").at("projects/example.md"));
}

TEST_CASE("fix: a fix that would add a finding is refused and its file kept", "[fix]") {
  // The dashes fixed, the line would parse and its date (30 February) be a finding of its own.
  const FileMap files = skeleton_with({{"## Log\n\n", "## Log\n\n- 2026-02-30 - note - no such day\n"}});
  const fix::FixReport r = fix_files(files);
  CHECK(r.files.empty());
  REQUIRE(r.refused.size() == 1);
  CHECK(r.refused[0].fix.rule == "ledger-log-line-parses");
  CHECK(r.refused[0].added.rule == "ledger-log-date-real");
  CHECK(rules_of(r.after) == std::set<std::string>{"ledger-log-line-parses"});
}

TEST_CASE("fix: a refused fix does not hold back another file's", "[fix]") {
  FileMap files = skeleton_with({{"## Log\n\n", "## Log\n\n- 2026-02-30 - note - no such day\n"}});
  std::string& single = files.at("projects/single.md");
  single.replace(single.find("Project: single"), 15, "Project: other");
  const fix::FixReport r = fix_files(files);
  REQUIRE(r.files.size() == 1);
  CHECK(r.files[0].path == "projects/single.md");
  CHECK(r.refused.size() == 1);
  CHECK(rules_of(r.after) == std::set<std::string>{"ledger-log-line-parses"});
}

TEST_CASE("fix: a suggested fix is applied only when its rule is named", "[fix]") {
  const FileMap files = skeleton_with({{"Issue: example#7\n", "Issue: example#7\nIssue: example#8\n"}});
  CHECK(fix_files(files).files.empty());
  const fix::FixReport named = fix_files(files, {"ledger-header-duplicate-key"});
  CHECK(named.applied.size() == 1);
  CHECK(named.after.empty());
}

TEST_CASE("fix: --rule keeps to the rules named", "[fix]") {
  const FileMap files =
      skeleton_with({{"Project: example", "Project: other"}, {"# example \xE2\x80\x94 Does", "# example - Does"}});
  const fix::FixReport r = fix_files(files, {"ledger-title-names-key"});
  REQUIRE(r.applied.size() == 1);
  CHECK(r.applied[0].fix.rule == "ledger-title-names-key");
  CHECK(rules_of(r.after) == std::set<std::string>{"ledger-project-equals-key"});
}

TEST_CASE("fix: the editor writes through the verbs' validate-then-write path", "[fix]") {
  TempDir dir;
  const std::string root = dir.path() + "/root";
  write_tree(root, skeleton_with({{"Project: example", "Project: other"}}));
  fix::FixReport report;
  auto applied = write::apply_to_directory(root, fix::fix_editor({}, &report), {});
  REQUIRE(applied.has_value());
  CHECK(applied->written == std::vector<std::string>{"projects/example.md"});
  CHECK(read_file(root + "/projects/example.md") == peer_fixture(peer_cases(), "R-skeleton").at("projects/example.md"));
  CHECK(report.applied.size() == 1);
}

TEST_CASE("new_findings: compared without line numbers, each old finding answering one new", "[fix]") {
  const auto finding = [](int line, std::string message) {
    diag::Finding f;
    f.rule = "ledger-log-line-parses";
    f.location.path = "projects/x.md";
    f.location.line = line;
    f.message = std::move(message);
    return f;
  };
  const std::vector<diag::Finding> before = {finding(3, "line 3: log line does not parse: a")};
  CHECK(fix::new_findings(before, {finding(9, "line 9: log line does not parse: a")}).empty());
  CHECK(fix::new_findings(before, {finding(3, "line 3: log line does not parse: a"),
                                   finding(4, "line 4: log line does not parse: a")})
            .size() == 1);
}

}  // namespace lg::test
