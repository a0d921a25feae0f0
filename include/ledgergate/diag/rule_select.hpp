// Which rules' findings a report keeps: `--select` and `--ignore`, each a
// list of rule ids or family prefixes ("ledger" is every "ledger-*" rule,
// "projects-yaml" every "projects-yaml-*"). A finding is kept when some
// selector matches its rule (or none is given) and no ignorer does. A
// finding that says the input could not be read is always kept: leaving it
// out would let a check pass on what it could not judge.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::diag {

class RuleSelection {
 public:
  // Errors (ErrorKind::usage): a word that is no rule id and no family
  // prefix of one, with the nearest rule id when there is one close.
  static Result<RuleSelection> make(std::vector<std::string> select, std::vector<std::string> ignore);

  bool empty() const { return m_select.empty() && m_ignore.empty(); }
  bool keeps(std::string_view rule) const;
  // The findings kept, in order.
  std::vector<Finding> apply(std::vector<Finding> findings) const;

 private:
  std::vector<std::string> m_select;
  std::vector<std::string> m_ignore;
};

// Whether `word` names rule `id`: the id itself, or a family prefix of it
// ("ledger", "ledger-run"; a trailing "-" or "-*" is allowed).
bool names_rule(std::string_view word, std::string_view id);

}  // namespace lg::diag
