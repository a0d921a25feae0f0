// The catalogue's look-ups over the rule table (rule_table.hpp): by id or
// spec label, and the words of a row's label and profile cells.
#include "ledgergate/diag/rule_table.hpp"

#include <algorithm>
#include <cctype>

namespace lg::diag {
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

// Every row declares its fix (certain, suggested or none) with its reason:
// a row without one does not compile.
consteval bool fixes_declared() {
  for (const RuleInfo& r : k_rules) {
    if (r.fix.kind == FixKind::undeclared || r.fix.what.empty()) return false;
  }
  return true;
}
static_assert(fixes_declared(), "a registry row declares no fix: add certain(...), suggested(...) or by_hand(...)");

// The space-separated words of a table cell (labels "P-F01 T-F01", profiles).
std::vector<std::string_view> words(std::string_view cell) {
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

std::string_view to_string(FixKind kind) {
  switch (kind) {
    case FixKind::certain: return "certain";
    case FixKind::suggested: return "suggested";
    case FixKind::none: return "none";
    case FixKind::undeclared: break;
  }
  return "undeclared";
}

std::vector<std::string_view> RuleInfo::labels() const { return words(ref); }
std::vector<std::string_view> RuleInfo::profiles() const { return words(profile); }

std::span<const RuleInfo> all_rules() { return k_rules; }

const RuleInfo* find_rule(std::string_view id_or_ref) {
  for (const RuleInfo& r : k_rules) {
    if (r.id == id_or_ref) return &r;
  }
  for (const RuleInfo& r : k_rules) {
    for (std::string_view label : r.labels()) {
      if (label.substr(0, 2) != "G-" && iequals(label, id_or_ref)) return &r;
    }
  }
  return nullptr;
}

}  // namespace lg::diag
