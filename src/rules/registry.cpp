// The registry's look-ups over the rule table (rule_table.hpp): by id or
// spec label, by profile, and the finding a rule emits.
#include "ledgergate/rules/registry.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "ledgergate/ledger/profile.hpp"

namespace lg::rules {
namespace {

using table::k_rules;

// Ids are unique, so an id names one row (RuleId's index) and find_rule's
// first match is the only one.
consteval bool ids_unique() {
  for (std::size_t i = 0; i < k_rules.size(); ++i) {
    for (std::size_t j = i + 1; j < k_rules.size(); ++j) {
      if (k_rules[i].id == k_rules[j].id) return false;
    }
  }
  return true;
}
static_assert(ids_unique(), "two registry rows share an id");

// The space-separated words of a registry cell (labels "P-F01 T-F01", profiles).
std::vector<std::string_view> labels(std::string_view cell) {
  std::vector<std::string_view> out;
  while (!cell.empty()) {
    const std::size_t space = cell.find(' ');
    if (space != 0) out.push_back(cell.substr(0, space));
    if (space == std::string_view::npos) break;
    cell.remove_prefix(space + 1);
  }
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::span<const RuleInfo> all_rules() { return k_rules; }

const RuleInfo* find_rule(std::string_view id_or_ref) {
  for (const RuleInfo& r : k_rules) {
    if (r.id == id_or_ref) return &r;
  }
  for (const RuleInfo& r : k_rules) {
    for (std::string_view label : labels(r.ref)) {
      if (label.substr(0, 2) != "G-" && iequals(label, id_or_ref)) return &r;
    }
  }
  return nullptr;
}

bool in_profile(const RuleInfo& rule, std::string_view profile) {
  for (std::string_view p : labels(rule.profile)) {
    if (p == profile) return true;
  }
  return false;
}

std::string_view label_in(const RuleInfo& rule, std::string_view profile) {
  const auto layout = ledger::layout_named(profile);
  const std::string_view era = layout == ledger::Layout::cortex_phases ? "P-"
                               : layout == ledger::Layout::cortex_tasks ? "T-"
                                                                        : "";
  const std::vector<std::string_view> all = labels(rule.ref);
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
