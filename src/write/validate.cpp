// validate_edit: the tree before and the tree the edit leaves, checked alike;
// what the after adds is the refusal.
#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "ledgergate/diag/rule_table.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/write/apply.hpp"
#include "ledgergate/write/overlay.hpp"
#include "apply_steps.hpp"

namespace lg::write {

namespace {

// A finding as the comparison sees it: a line that moves is the same
// finding, so the finding's own line is left out of its message too (the
// reference's parse findings say "line 13: run line does not parse: ...").
using FindingKey = std::tuple<std::string, std::string, std::string>;

FindingKey key_of(const diag::Finding& f) {
  std::string message = f.message;
  if (f.location.line > 0) {
    const std::string own = "line " + std::to_string(f.location.line);
    for (auto at = message.find(own); at != std::string::npos; at = message.find(own, at + 1)) {
      const std::size_t end = at + own.size();
      if (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end]))) continue;  // line 130
      message.replace(at, own.size(), "line");
    }
  }
  return {f.rule, f.location.path, message};
}

// A parse finding of era R (R-P01..R-P08): the file would not read back.
bool is_parse_finding(const diag::Finding& f) {
  const diag::RuleInfo* rule = diag::find_rule(f.rule);
  return rule != nullptr && rule->ref.starts_with("R-P");
}

// Error findings of `after` that `before` lacks, in `after`'s order; a
// finding present n times before excuses n copies after. Warnings do not
// count: the reference's check passes with them and so do its verbs (a run
// of 3002 beside 3002_1 is the overlap warning, written by the reference).
std::vector<diag::Finding> new_findings(const std::vector<diag::Finding>& before,
                                        const std::vector<diag::Finding>& after) {
  std::map<FindingKey, int> seen;
  for (const diag::Finding& f : before) ++seen[key_of(f)];
  std::vector<diag::Finding> added;
  for (const diag::Finding& f : after) {
    if (f.severity != diag::Severity::error) continue;
    int& n = seen[key_of(f)];
    if (n > 0) {
      --n;
    } else {
      added.push_back(f);
    }
  }
  return added;
}

std::string joined(const std::vector<diag::Finding>& findings) {
  std::string out;
  for (const diag::Finding& f : findings) {
    if (!out.empty()) out += "; ";
    out += diag::peer_text(f);
  }
  return out;
}

Refusal refusal_for(const std::vector<diag::Finding>& added, const std::vector<FileEdit>& edits) {
  std::vector<diag::Finding> unreadable;
  for (const diag::Finding& f : added) {
    const bool edited = std::any_of(edits.begin(), edits.end(), [&](const FileEdit& e) { return e.path == f.location.path; });
    if (edited && is_parse_finding(f)) unreadable.push_back(f);
  }
  if (!unreadable.empty()) return Refusal{"the edit would not read back: " + joined(unreadable)};
  std::string message = "the edit would add a finding: " + diag::peer_text(added.front());
  if (added.size() > 1) message += "; " + std::to_string(added.size() - 1) + " more";
  return Refusal{message};
}

}  // namespace

Result<std::optional<Refusal>> validate_edit(git::TreeSource& before, const std::vector<FileEdit>& edits,
                                             const ApplyOptions& options) {
  if (edits.empty()) return std::optional<Refusal>();
  OverlaySource after(before, edits);
  rules::CheckOptions check = options.policy;  // severities, off, the open-requirements glob
  check.profile = "auto";
  check.detected.reset();
  if (options.profile) {
    check.profile = options.profile->name();
  } else {
    // Detected in the before; a tree the edit gives its first ledger (a
    // `new` in an empty folder) is checked with the after's layout.
    LG_TRY(ledger::Layout layout, ledger::detect_layout(before));
    if (layout == ledger::Layout::none) {
      LG_TRY(layout, ledger::detect_layout(after));
    }
    if (layout == ledger::Layout::none) return std::optional<Refusal>();
    check.detected = layout;
  }
  rules::CheckCache cache;
  LG_TRY(const rules::CheckReport was, rules::check_tree(before, check, cache));
  LG_TRY(const rules::CheckReport will_be, rules::check_tree(after, check, cache));
  const std::vector<diag::Finding> added = new_findings(was.findings, will_be.findings);
  if (added.empty()) return std::optional<Refusal>();
  return std::optional<Refusal>(refusal_for(added, edits));
}

Result<Applied> edit_validated(git::TreeSource& tree, const Editor& editor, const ApplyOptions& options, int attempt) {
  LG_TRY(Outcome outcome, editor(tree));
  Applied applied{std::move(outcome), {}, std::nullopt, attempt};
  const Change* change = to_write(applied);
  if (change == nullptr || !options.validate) return applied;
  LG_TRY(auto refusal, validate_edit(tree, change->files, options));
  if (refusal) applied.outcome = std::move(*refusal);
  return applied;
}

const Change* to_write(const Applied& applied) {
  const auto* change = std::get_if<Change>(&applied.outcome);
  return change == nullptr || change->files.empty() ? nullptr : change;
}

}  // namespace lg::write
