// Three-way detectors for open-requirements ledgers: the same id appended on
// both sides (with different content, or the same content raised twice), one entry's status or resolved_by
// changed differently on both sides, and two escalations from one budget.
#include "orl_semantic.hpp"

#include <map>
#include <set>

namespace lg::merge {
namespace {

using ledger::OpenRequirements;
using ledger::OrlEntry;

std::map<std::string, const OrlEntry*> by_id(const OpenRequirements& doc) {
  std::map<std::string, const OrlEntry*> out;
  for (const OrlEntry& e : doc.entries) {
    if (e.is_mapping && !e.id().empty()) out.emplace(e.id(), &e);
  }
  return out;
}

std::string content(const OrlEntry& e) {
  std::string out;
  for (const auto& [name, value] : e.fields) out += name + "\x1f" + value.repr + "\x1e";
  return out;
}

std::string field(const OrlEntry& e, std::string_view name) {
  const ledger::OrlValue* v = e.get(name);
  return v ? v->repr : std::string("None");
}

std::string state(const OrlEntry& e) { return e.status() + " (resolved_by " + field(e, "resolved_by") + ")"; }

// The escalation count and history length of a version's budget.
std::pair<std::int64_t, std::size_t> budget(const OpenRequirements& doc) {
  if (!doc.budget) return {0, 0};
  std::int64_t esc = 0;
  if (doc.budget->escalations) esc = doc.budget->escalations->as_int().value_or(0);
  std::size_t len = 0;
  if (doc.budget->open_history) len = doc.budget->open_history->items.size();
  return {esc, len};
}

}  // namespace

std::vector<SemanticConflict> detect_orl_conflicts(const OpenRequirements& base, const OpenRequirements& ours,
                                                   const OpenRequirements& theirs, const std::string& path) {
  std::vector<SemanticConflict> out;
  if (base.yaml_error || ours.yaml_error || theirs.yaml_error) return out;
  const auto b = by_id(base), o = by_id(ours), t = by_id(theirs);
  std::set<std::string> taken;
  for (const auto& m : {b, o, t}) {
    for (const auto& kv : m) taken.insert(kv.first);
  }
  for (const auto& [id, te] : t) {
    if (b.count(id)) continue;
    auto oe = o.find(id);
    if (oe == o.end()) continue;
    // Identical content too: two steps of one run raised one id independently
    // (the merged file would silently keep one of them).
    const bool same = content(*oe->second) == content(*te);
    std::string fresh;
    for (int n = 2;; ++n) {
      fresh = id + "-" + std::to_string(n);
      if (!taken.count(fresh)) break;
    }
    out.push_back({"orl-m-id-collision", path,
                   "open-requirements entry `" + id + "` is appended on both sides of " + path + " with " +
                       (same ? "identical" : "different") + " content: BASE line " + std::to_string(oe->second->line) + ", HEAD line " +
                   std::to_string(te->line) + "; give one a distinct id (e.g. `" + fresh + "`)"});
  }
  for (const auto& [id, be] : b) {
    auto oe = o.find(id);
    auto te = t.find(id);
    if (oe == o.end() || te == t.end()) continue;
    const std::string s0 = state(*be), so = state(*oe->second), st = state(*te->second);
    if (so == s0 || st == s0 || so == st) continue;
    out.push_back({"orl-m-divergent-status", path,
                   "open-requirements entry `" + id + "` in " + path + " changes differently on both sides: " + s0 +
                       " became " + so + " on BASE (line " + std::to_string(oe->second->line) + ") and " + st +
                       " on HEAD (line " + std::to_string(te->second->line) + ")"});
  }
  const auto bb = budget(base), ob = budget(ours), tb = budget(theirs);
  const bool ours_escalated = ob.first > bb.first || ob.second > bb.second;
  const bool theirs_escalated = tb.first > bb.first || tb.second > bb.second;
  if (ours_escalated && theirs_escalated) {
    out.push_back({"orl-m-double-escalation", path,
                   "both sides escalate from the same budget in " + path + " (escalations " +
                       std::to_string(bb.first) + " became " + std::to_string(ob.first) + " on BASE and " +
                       std::to_string(tb.first) + " on HEAD): the merged budget cannot be consistent"});
  }
  return out;
}

}  // namespace lg::merge
