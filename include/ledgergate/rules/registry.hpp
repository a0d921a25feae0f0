// The rule registry: one row per rule, with a stable id, the spec reference
// it reproduces, its default severity and a summary. `ledgergate rules`
// prints it; `ledgergate explain` shows one row.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/rules/rule_info.hpp"
#include "ledgergate/rules/rule_table.hpp"

namespace lg::rules {

// A registered rule, named by its id where a finding is emitted:
// `make_finding("orl-id", ...)` converts the literal here at compile time, so
// an id without a row in rule_table.hpp does not compile, and the handle is
// the row's index (make_finding looks nothing up).
class RuleId {
 public:
  // Implicit: an emit site passes the id's literal.
  template <std::size_t N>
  consteval RuleId(const char (&id)[N]) : m_index(index_of(std::string_view(id, N - 1))) {}
  const RuleInfo& info() const { return table::k_rules[m_index]; }
  std::string_view id() const { return info().id; }
  friend bool operator==(RuleId, RuleId) = default;

 private:
  static consteval std::size_t index_of(std::string_view id) {
    for (std::size_t i = 0; i < table::k_rules.size(); ++i) {
      if (table::k_rules[i].id == id) return i;
    }
    throw "not a registered rule id: add its row to rules/rule_table.hpp";
  }
  std::size_t m_index;
};

std::span<const RuleInfo> all_rules();
// Finds a rule by id or by spec label (case-insensitive for labels); nullptr if unknown.
const RuleInfo* find_rule(std::string_view id_or_ref);

// Whether `rule` belongs to `profile` (one of its space-separated profiles).
bool in_profile(const RuleInfo& rule, std::string_view profile);
// The rule's label in `profile`'s era ("T-F01" of "P-F01 T-F01" for cortex-tasks); the whole
// label cell when no single label fits.
std::string_view label_in(const RuleInfo& rule, std::string_view profile);

// Builds a finding of `rule` with its default severity.
diag::Finding make_finding(RuleId rule, std::string path, int line, std::string message, diag::PeerForm peer);

}  // namespace lg::rules
