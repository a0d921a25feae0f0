// The rule look-ups that need the profile module (by profile, a row's label
// in one era) and the finding a rule emits.
#include "ledgergate/rules/registry.hpp"

#include <vector>

#include "ledgergate/ledger/profile.hpp"

namespace lg::rules {

bool in_profile(const RuleInfo& rule, std::string_view profile) {
  for (std::string_view p : rule.profiles()) {
    if (p == profile) return true;
  }
  return false;
}

std::string_view label_in(const RuleInfo& rule, std::string_view profile) {
  const auto layout = ledger::layout_named(profile);
  const std::string_view era = layout == ledger::Layout::cortex_phases ? "P-"
                               : layout == ledger::Layout::cortex_tasks ? "T-"
                                                                        : "";
  const std::vector<std::string_view> all = rule.labels();
  for (std::string_view label : all) {
    if (!era.empty() && label.substr(0, 2) == era) return label;
  }
  return all.size() == 1 ? all.front() : rule.ref;
}

diag::Finding make_finding(RuleId rule, std::string path, int line, std::string message, diag::PeerForm peer) {
  const RuleInfo& info = rule.info();
  diag::Finding f;
  f.rule = std::string(info.id);
  f.severity = info.severity;
  f.location.path = std::move(path);
  f.location.line = line;
  f.message = std::move(message);
  f.peer = peer;
  f.cannot_judge = rule == RuleId("input-not-utf8") || rule == RuleId("input-unreadable");
  return f;
}

}  // namespace lg::rules
