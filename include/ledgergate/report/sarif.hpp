// SARIF 2.1.0, one writer for every command (`check`, `trial-merge`, `land`,
// `audit` --format sarif), meeting GitHub code scanning's ingestion rules:
// every result has a physical location (a finding without a path sits on
// the ledger's root file, projects.yaml), relative URIs under `%SRCROOT%`,
// every rule in the driver with `help` (text and markdown: explain's why,
// examples and fix) and, when the build names its repository, a `helpUri`
// (its section of docs/rules.md there), a `partialFingerprints` entry, a
// change's `baselineState` (new, unchanged; absent for what it fixed), the run's
// `automationDetails` and the tool's version; the invocation records the
// exit code, and a command that could not run (exit 2) still writes one
// valid log whose invocation says so (docs/sarif.md). Pure functions.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/report/format.hpp"
#include "ledgergate/util/json.hpp"

namespace lg::report {

// Where each rule's help lives: docs/rules.md in the repository the build is
// configured with (`-DLEDGERGATE_REPOSITORY_URL=https://github.com/OWNER/REPO`),
// one section per rule id (lower case); "" when the build names none (then
// no rule has a helpUri: a link must lead to a page that exists).
std::string_view rules_doc_url();
// GitHub's limit of results per run: more are cut (the run's properties say how many).
inline constexpr std::size_t k_sarif_max_results = 25000;

struct SarifResult {
  const diag::Finding* finding = nullptr;
  bool suppressed = false;  // in the baseline: a result with an external suppression
  // A finding of the reference tree that the change no longer has: a
  // result with baselineState "absent" (kind "pass"). Otherwise the
  // finding's state gives baselineState ("new" or "unchanged") when judged.
  bool fixed = false;
  // Extra members of the result's property bag (audit: introduced_in, fixed_in).
  std::function<void(util::JsonWriter&)> properties;
  const fix::Fix* fix = nullptr;  // set: the result's `fixes` (one fix, its replacements)
};

struct SarifRun {
  std::string command;  // "check", "audit", ...: automationDetails.id "ledgergate/COMMAND/"
  std::string root_file = "projects.yaml";  // where a finding without a path is located
  std::vector<SarifResult> results;
  int exit_code = 0;
  std::string error;  // set: the command could not run (exit 2); executionSuccessful false
};

std::string render_sarif(const SarifRun& run);
// The log of a command that stopped before a verdict: no results, the error as a notification.
std::string render_sarif_error(std::string_view command, std::string_view message);

// `check --format sarif`: the findings (with their fixes when `header.fixes`
// is set), then the baseline's as suppressed results.
std::string render_check_sarif(const std::vector<diag::Finding>& findings, const std::vector<diag::Finding>& suppressed,
                               const JsonHeader& header);

// Appends a change's findings to `run`: `findings` (each with its state),
// then the fixed ones (change.fixed) and the suppressed ones, each result
// with `properties` (all must outlive the run's rendering).
void add_change_results(SarifRun& run, const std::vector<diag::Finding>& findings, const diag::Attribution& change,
                        const std::function<void(util::JsonWriter&)>& properties = {});

// A rule's section in docs/rules.md: rules_doc_url() and its id, lower
// case; "" when rules_doc_url() is.
std::string rule_help_uri(std::string_view rule_id);

}  // namespace lg::report
