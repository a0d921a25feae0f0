// Drift attribution as a unit: findings opened, moved and fixed commit by
// commit, matched by (rule, path, message).
#include "../../../src/audit/drift.hpp"

#include <catch2/catch.hpp>

using namespace lg;

namespace {

git::ObjectId commit(char c) { return *git::ObjectId::from_hex(std::string(40, c)); }

diag::Finding finding(std::string rule, std::string path, int line, std::string message = "m") {
  diag::Finding f;
  f.rule = std::move(rule);
  f.location.path = std::move(path);
  f.location.line = line;
  f.message = std::move(message);
  return f;
}

}  // namespace

TEST_CASE("drift: a finding present before the range, moved, then fixed", "[audit][drift]") {
  std::deque<audit::AuditFinding> findings;
  audit::Drift drift(findings);
  drift.baseline({finding("r", "a.md", 3)}, commit('a'));
  CHECK(drift.last_judged() == commit('a'));
  drift.update({finding("r", "a.md", 5)}, commit('b'));  // a line shift: the same finding
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].before_range);
  CHECK(findings[0].finding.location.line == 5);
  CHECK(findings[0].finding.location.rev == commit('b').short_hex());
  CHECK_FALSE(findings[0].fixed_in);
  drift.update({}, commit('c'));
  CHECK(findings[0].fixed_in == commit('c'));
  CHECK(drift.last_judged() == commit('c'));
}

TEST_CASE("drift: by changed paths, the same bookkeeping as over full lists", "[audit][drift]") {
  std::deque<audit::AuditFinding> full, by_paths;
  audit::Drift a(full), b(by_paths);
  a.baseline({finding("r", "x.md", 1), finding("r", "y.md", 1)}, commit('a'));
  b.baseline({finding("r", "x.md", 1), finding("r", "y.md", 1)}, commit('a'));
  // Commit b fixes x.md's finding, keeps y.md's and adds one in z.md.
  const std::vector<diag::Finding> at_b = {finding("r", "y.md", 1), finding("s", "z.md", 2)};
  a.update(at_b, commit('b'));
  b.update_paths(b.changed_paths(at_b), commit('b'));
  a.finish();
  b.finish();
  REQUIRE(full.size() == 3);
  REQUIRE(by_paths.size() == 3);
  for (std::size_t i = 0; i < full.size(); ++i) {
    CHECK(full[i].introduced_in == by_paths[i].introduced_in);
    CHECK(full[i].fixed_in == by_paths[i].fixed_in);
    CHECK(full[i].finding.location.path == by_paths[i].finding.location.path);
  }
  CHECK(full[0].fixed_in == commit('b'));
  CHECK(full[2].introduced_in == commit('b'));
  CHECK(b.standing().count("x.md") == 0);
  CHECK(b.standing().count("z.md") == 1);
}
