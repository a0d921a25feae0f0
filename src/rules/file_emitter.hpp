// Private to rules/: how the per-file rules of every Cortex era report about
// one file — in the reference's form ("{path}: {message}") or as our own
// finding — and the markdown-structure gap warnings they share (G-06).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/rules/registry.hpp"

namespace lg::rules {

struct Emitter {
  diag::FindingSink& sink;
  const std::string& path;
  void peer(RuleId rule, int line, std::string message) const {
    sink.report(make_finding(rule, path, line, std::move(message), diag::PeerForm::path_message));
  }
  void own(RuleId rule, int line, std::string message) const {
    sink.report(make_finding(rule, path, line, std::move(message), diag::PeerForm::none));
  }
};

// G-06: a `## ` heading inside a code fence still counts; a repeated section
// is ignored after its first copy. Both reported under the era's rule ids.
inline void report_structure_gaps(const std::vector<ledger::Section>& sections, const Emitter& e,
                                  RuleId fence_rule, RuleId duplicate_rule) {
  std::map<std::string, int, std::less<>> first;
  for (const ledger::Section& s : sections) {
    if (s.in_fence) {
      e.own(fence_rule, s.line, "`## " + s.name + "` sits inside a code fence but still counts as a section heading");
    }
    auto [it, fresh] = first.emplace(s.name, s.line);
    if (!fresh) {
      e.own(duplicate_rule, s.line,
            "section `## " + s.name + "` appears again (first at line " + std::to_string(it->second) +
                "); only the first is read");
    }
  }
}

}  // namespace lg::rules
