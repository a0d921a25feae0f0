// Test support: the reference's test suite as data (tests/data/spec/peer-cases.yaml).
// Loads cases and fixtures, applies a case's setup ops to a {path → content}
// tree, and runs `check` on a tree the way the reference's harness does
// (exit code, `--format cortex` stdout, finding lines without "  - ").
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/rules/check.hpp"
#include "support/fixture_tree.hpp"

namespace lg::test {

YAML::Node load_peer_cases();                                      // the whole document
const YAML::Node& peer_cases();                                    // the same, loaded once
const YAML::Node& peer_case(const std::string& id);                // one case; a test failure when absent
FileMap peer_fixture(const YAML::Node& all, const std::string& name);  // fixtures[name].files
void apply_peer_op(FileMap& files, const YAML::Node& op);         // one setup op (FAILs on an unknown op)
// P1-skeleton (a derived fixture): the P2/P3 phases skeleton of the corpus
// with the P1 header keys in canonical order, the members-form batch record
// and the restricted-subset projects.yaml.
FileMap p1_skeleton(const YAML::Node& all);

struct PeerOutcome {
  int exit_code = 0;
  std::string stdout_text;            // --format cortex
  std::vector<std::string> findings;  // finding lines without the leading "  - "
};

PeerOutcome run_peer_check(git::TreeSource& tree, const rules::CheckOptions& options = {});

// Compares an outcome with a check case's expect_exit, expect_stdout,
// findings_contain, expect_stdout_contains, derived_findings and
// findings_not_contain_both.
void expect_peer_outcome(const YAML::Node& c, const PeerOutcome& o);

// Materialises the case's fixture + setup, then checks it from a folder and
// from a commit of the same tree (both must meet the expectations).
void run_peer_check_case(const YAML::Node& all, const YAML::Node& c, const rules::CheckOptions& options = {});
// The same on a given starting tree (a derived fixture such as P1-skeleton).
void run_peer_check_case_on(FileMap files, const YAML::Node& c, const rules::CheckOptions& options = {});

}  // namespace lg::test
