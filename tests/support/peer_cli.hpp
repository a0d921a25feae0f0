// Test support: the reference's `kind: cli` cases (tests/data/spec/peer-cases.yaml)
// run against the built binary. A case's fixture (plus its setup ops) is
// materialised into ROOT, each step's argv runs as
//   ledgergate project <argv> --root ROOT --format cortex
// (`check` steps as `ledgergate check ...`; `--root ROOT` left off for
// `no_root: true`; era P1 cases add `--profile cortex-phases@p1c`, since a
// P1 tree's layout reads as the newest phases era), and the step's
// expectations are compared: exit code (0 when the case names none),
// stdout/stderr needles and `derived_stderr` exactly, then each key of its
// `after:` (and the case's `after_all:`) through a table of
// checkers by name. This file's checkers are the generic ones (files,
// projects.yaml, unchanged trees, check_clean); the verbs' helpers register
// their era's keys beside it with `register_after_check`, from their own
// files, so the table grows without edits here.
#pragma once

#include <yaml-cpp/yaml.h>

#include <functional>
#include <string>
#include <vector>

#include "support/fixture_tree.hpp"

namespace lg::test {

// A case's run so far, as the checkers see it.
struct CliCase {
  const YAML::Node& node;     // the case, placeholders substituted
  std::string era;            // "R", "T", "P1"
  std::string root;           // ROOT
  FileMap original;           // the tree before the first step (fixture + case setup)
  std::vector<FileMap> after_step;  // the tree after each step run so far (step 1 first)
};

// One step's run. For `after_all:` the step is the last one, `before` the
// case's original tree and `after` the final tree.
struct CliStep {
  const YAML::Node& node;  // the step
  std::vector<std::string> argv;  // as given in the case (without the binary, `project`, --root, --format)
  int exit_code = -1;
  std::string out, err;
  FileMap before;  // the tree before the step (after its own setup)
  FileMap after;   // the tree after it
};

// Asserts one `after:` key; `value` is the key's value in the case.
using AfterCheck = std::function<void(const YAML::Node& value, const CliStep& step, const CliCase& c)>;

// Adds checker `name` to the table (a second registration of a name is a
// test failure when the table is first read). Returns true so a file can
// register at namespace scope:
//   const bool registered = lg::test::register_after_check("runs_idents", ...);
bool register_after_check(std::string name, AfterCheck check);
// The checker for `name`; null when none is registered.
const AfterCheck* find_after_check(const std::string& name);

// A step where ledgergate refuses, by design, what the reference writes:
// drift its own `check` then reports (spec §10 G-01/G-02: where ledgergate
// does better than the reference). The step must exit `exit_code` with `stderr_contains`
// on stderr and write nothing; its own expectations and `after:` keys are
// the reference's and are not checked. Registered beside the era's checkers.
struct Divergence {
  int exit_code = 1;
  std::string stderr_contains;
  std::string why;  // printed with the step
};
bool register_divergence(const std::string& case_id, int step, Divergence d);

// The era's profile for `check` and the verbs (the P1 fixture cannot be
// told from P3 by its layout, so its runs are pinned to cortex-phases@p1c,
// as the check conformance suite does; T to cortex-tasks@t2, as T-empty
// holds only projects.yaml); "auto" for the others.
std::string peer_cli_profile(const std::string& era);

// Runs every step of cli case `c` and checks its expectations.
void run_peer_cli_case(const YAML::Node& all, const YAML::Node& c);

}  // namespace lg::test
