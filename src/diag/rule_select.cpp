// `--select` / `--ignore` (diag/rule_select.hpp).
#include "ledgergate/diag/rule_select.hpp"

#include <algorithm>

#include "ledgergate/diag/rule_table.hpp"
#include "ledgergate/util/suggest.hpp"

namespace lg::diag {
namespace {

std::string_view family(std::string_view word) {
  if (word.ends_with("-*")) word.remove_suffix(2);
  if (word.ends_with("-")) word.remove_suffix(1);
  return word;
}

bool matches_any(const std::vector<std::string>& words, std::string_view id) {
  return std::any_of(words.begin(), words.end(), [&](const std::string& w) { return names_rule(w, id); });
}

Result<void> check_words(const std::vector<std::string>& words, std::string_view option) {
  for (const std::string& w : words) {
    const auto rules = all_rules();
    if (std::any_of(rules.begin(), rules.end(), [&](const RuleInfo& r) { return names_rule(w, r.id); })) continue;
    // The ids and their families ("ledger", "ledger-run"), the nearest named.
    std::vector<std::string> ids;
    for (const RuleInfo& r : rules) {
      for (std::size_t dash = r.id.find('-'); dash != std::string_view::npos; dash = r.id.find('-', dash + 1)) {
        ids.emplace_back(r.id.substr(0, dash));
      }
      ids.emplace_back(r.id);
    }
    const auto near = util::closest_word(w, ids);
    return make_error(ErrorKind::usage, "--" + std::string(option) + " " + w + ": no rule id or family of rules" +
                                            (near ? " (did you mean '" + *near + "'?)" : std::string()));
  }
  return {};
}

}  // namespace

bool names_rule(std::string_view word, std::string_view id) {
  const std::string_view f = family(word);
  if (f.empty()) return false;
  return id == f || (id.starts_with(f) && id.size() > f.size() && id[f.size()] == '-');
}

Result<RuleSelection> RuleSelection::make(std::vector<std::string> select, std::vector<std::string> ignore) {
  if (auto ok = check_words(select, "select"); !ok) return ok.error();
  if (auto ok = check_words(ignore, "ignore"); !ok) return ok.error();
  RuleSelection out;
  out.m_select = std::move(select);
  out.m_ignore = std::move(ignore);
  return out;
}

bool RuleSelection::keeps(std::string_view rule) const {
  return (m_select.empty() || matches_any(m_select, rule)) && !matches_any(m_ignore, rule);
}

std::vector<Finding> RuleSelection::apply(std::vector<Finding> findings) const {
  if (empty()) return findings;
  std::erase_if(findings, [&](const Finding& f) { return !f.cannot_judge && !keeps(f.rule); });
  return findings;
}

}  // namespace lg::diag
