// Verdict and gate names, and which findings a gate lets fail a change.
#include "ledgergate/diag/verdict.hpp"

#include <algorithm>

namespace lg::diag {

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::pass: return "pass";
    case Verdict::fail: return "fail";
    case Verdict::error: return "error";
  }
  return "error";
}

std::string_view to_string(Gate g) { return g == Gate::all ? "all" : "new"; }

std::optional<Gate> parse_gate(std::string_view name) {
  if (name == "new") return Gate::introduced;
  if (name == "all") return Gate::all;
  return std::nullopt;
}

bool blocks(const Finding& f, Gate gate) {
  return f.severity == Severity::error && (gate == Gate::all || f.state != FindingState::pre_existing);
}

bool any_blocking(const std::vector<Finding>& findings, Gate gate) {
  return std::any_of(findings.begin(), findings.end(), [gate](const Finding& f) { return blocks(f, gate); });
}

}  // namespace lg::diag
