// The one verdict every judgement ends in (a check, a hook, a report):
// pass, fail, or error — could not run or cannot judge (exit 2). And what a
// judgement of a change adds to it: the gate (fail on what the change
// introduces, or on the whole tree), the reference it was judged against,
// the findings it fixes and those a baseline file holds.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"

namespace lg::diag {

enum class Verdict { pass, fail, error };

// "pass", "fail", "error": the JSON API's and the summaries' spelling.
std::string_view to_string(Verdict v);

// What fails a change's verdict: the error findings it introduces (`new`,
// the default), or every error finding of the tree it makes (`all`, the
// whole-tree verdict). `--gate new|all`, the policy's `gate:`.
enum class Gate { introduced, all };
// "new", "all".
std::string_view to_string(Gate g);
// nullopt unless `name` is "new" or "all".
std::optional<Gate> parse_gate(std::string_view name);

// Whether `f` decides the verdict under `gate`: an error that is not
// pre-existing (every error under `all`).
bool blocks(const Finding& f, Gate gate);
bool any_blocking(const std::vector<Finding>& findings, Gate gate);

// A change judged against a reference tree, beside its findings (each
// carrying its FindingState).
struct Attribution {
  Gate gate = Gate::all;
  std::string reference;          // what it was judged against ("HEAD", "BASE", ...); "" = no reference
  std::vector<Finding> fixed;     // the reference's findings the change no longer has
  std::vector<Finding> suppressed;  // held by a baseline file: left out of the findings, never fail
  // False: only the change was judged (trial-merge --scope change): the
  // reference's findings it leaves alone are not among the findings, and
  // the unchanged ones are not counted.
  bool whole = true;
};

}  // namespace lg::diag
