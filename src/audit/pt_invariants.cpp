// Era-P/T invariants between two versions of a file (spec §6.1, §6.2, §6.4).
#include "ledgergate/audit/pt_invariants.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>

#include "ledgergate/ledger/pt_edges.hpp"
#include "ledgergate/ledger/text_file.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::audit {
namespace {

using ledger::PtFile;
using ledger::PtRun;

diag::Finding finding(rules::RuleId rule, const std::string& path, int line, std::string message) {
  return rules::make_finding(rule, path, line, std::move(message), diag::PeerForm::none);
}

int key_line(const PtFile& f, std::string_view key) {
  const auto* field = f.header.find(key);
  return field ? field->line : 0;
}

bool has_valid_gate(const PtFile& f) {
  for (const std::string& ref : ledger::split_refs(f.header.value("Gates"))) {
    if (ledger::is_gate_ref(ref)) return true;
  }
  return false;
}

bool any_run(const PtFile& f, std::initializer_list<std::string_view> states) {
  return std::any_of(f.runs.begin(), f.runs.end(), [&](const PtRun& r) {
    return std::find(states.begin(), states.end(), r.state) != states.end();
  });
}

const PtRun* find_run(const PtFile& f, std::string_view ident) {
  for (const PtRun& r : f.runs) {
    if (r.ident == ident) return &r;
  }
  return nullptr;
}

using ledger::EdgeOwner;
using ledger::PtEdge;

// The ruling among `added` that is `after`'s new `Ruling:` and names `path`.
const AddedRuling* evidence(const PtFile& after, const std::string& path, const PtEraInfo& era,
                            const std::vector<AddedRuling>& added) {
  const std::string_view id = after.header.value("Ruling");
  for (const AddedRuling& r : added) {
    if (r.id == id && r.file && r.file->header.value(era.head_key) == path) return &r;
  }
  return nullptr;
}

class StateAudit {
 public:
  StateAudit(const PtFile& before, const PtFile& after, const std::string& path, const PtEraInfo& era,
             const std::vector<AddedRuling>& added)
      : m_before(before), m_after(after), m_path(path), m_era(era), m_added(added) {}

  std::vector<diag::Finding> run() {
    const std::string from(m_before.header.value("State"));
    const std::string to(m_after.header.value("State"));
    if (!ledger::is_pt_state(from) || !ledger::is_pt_state(to)) return std::move(m_out);  // `check` reports illegal states
    if (from == to) {
      same_state(from);
      return std::move(m_out);
    }
    m_edge = fmt::format("State: {} → {}", from, to);
    if (from == "dropped") {
      fail("audit-state-edge", fmt::format("{}: dropped is terminal (revival is a new {})", m_edge,
                                           m_era.noun == "phase" ? "phase number" : "slug"));
      return std::move(m_out);
    }
    const PtEdge* edge = ledger::find_pt_edge(from, to);
    if (!edge) {
      fail("audit-state-edge", m_edge + " is not an edge of the transition table");
      return std::move(m_out);
    }
    if (edge->owner == EdgeOwner::rule) {
      rule_edge(*edge, from);
    } else {
      move_edge(from, to);
    }
    return std::move(m_out);
  }

 private:
  void fail(rules::RuleId rule, std::string message) {
    m_out.push_back(finding(rule, m_path, key_line(m_after, "State"), std::move(message)));
  }
  void lacks(std::string_view what) { fail("audit-state-edge-evidence", m_edge + " without " + std::string(what)); }

  bool added_key(std::string_view key) const {
    return m_before.header.value(key).empty() && !m_after.header.value(key).empty();
  }

  void move_edge(std::string_view from, std::string_view to) {
    const PtFile& a = m_after;
    if (from == "planned" && to == "gated" && !has_valid_gate(a)) lacks("a Gates: ref");
    if (from == "planned" && to == "ready" && has_valid_gate(a)) lacks("an empty Gates: (planned → gated)");
    if (from == "gated" && to == "ready" && m_era.p1 && !added_key("Gates-cleared") && !added_key("Gate-override")) {
      lacks("Gates-cleared: (gates --grade --write) or Gate-override: (move --override) added");
    }
    if (from == "ready" && to == "gated" && m_era.p1 &&
        (m_before.header.value("Gates-cleared").empty() || !a.header.value("Gates-cleared").empty() ||
         !a.header.value("Gate-override").empty())) {
      lacks("Gates-cleared: removed by gates --grade --write (and no Gate-override:)");
    }
    if (from == "ready" && to == "submitted") {
      if (a.header.value("Witness").empty()) lacks("a Witness:");
      const bool new_submitted = std::any_of(a.runs.begin(), a.runs.end(), [&](const PtRun& r) {
        return r.state == "submitted" && !find_run(m_before, r.ident);
      });
      if (!new_submitted) lacks("a new run line in state submitted");
    }
    if (from == "ready" && to == "pulled") {
      const bool legacy_born = !a.runs.empty() && std::all_of(a.runs.begin(), a.runs.end(), [](const PtRun& r) {
        return r.state == "legacy" || r.state == "legacy_wrong";
      });
      if (!legacy_born || !any_run(a, {"legacy"})) lacks("every run legacy | legacy_wrong and one legacy run");
      if (a.header.value("Witness").empty()) lacks("a Witness:");
    }
    if ((from == "submitted" || from == "running") && to == "ready") {
      if (any_run(a, {"submitted", "running"})) lacks("every run finished (a run is still submitted | running)");
      if (!any_run(a, {"failed", "timeout", "void"})) lacks("a failed | timeout | void run to reset from");
      if (a.header.value("Reset").empty()) lacks("a Reset: reason");
    }
    if (from == "running" && to == "pulled") {
      const bool carried = std::any_of(a.runs.begin(), a.runs.end(), [](const PtRun& r) {
        return (r.state == "done" || r.state == "legacy") && r.pulled_to;
      });
      if (!carried) lacks("a done | legacy run with pulled_to:");
    }
  }

  void rule_edge(const PtEdge& edge, std::string_view from) {
    const AddedRuling* r = evidence(m_after, m_path, m_era, m_added);
    if (!r) {
      lacks(fmt::format("a ruling filed in the same commit that names this {} and is its Ruling:", m_era.noun));
      return;
    }
    const std::string_view verb = r->file->header.value("Ruling");
    if (verb != edge.verb) {
      lacks(fmt::format("a `{}` ruling ({} rules '{}')", edge.verb, r->id, verb));
    }
    if (from == "accepted" && r->file->header.value("Supersedes") != m_before.header.value("Ruling")) {
      lacks(fmt::format("{} superseding the accepted head {}", r->id, m_before.header.value("Ruling")));
    }
  }

  // The same state: a new `Ruling:` is a leave-to-finish (or a P1 --also)
  // rule edge and needs its ruling in the commit.
  void same_state(std::string_view state) {
    const std::string_view old_id = m_before.header.value("Ruling");
    const std::string_view new_id = m_after.header.value("Ruling");
    if (old_id == new_id) return;
    m_edge = fmt::format("Ruling: {} → {} (State: {})", old_id.empty() ? "(none)" : old_id,
                         new_id.empty() ? "(none)" : new_id, state);
    if (new_id.empty()) {
      fail("audit-state-edge", m_edge + ": a ruling is never unset");
      return;
    }
    if (!evidence(m_after, m_path, m_era, m_added)) {
      lacks(fmt::format("a ruling filed in the same commit that names this {}", m_era.noun));
    }
  }

  const PtFile& m_before;
  const PtFile& m_after;
  const std::string& m_path;
  const PtEraInfo& m_era;
  const std::vector<AddedRuling>& m_added;
  std::string m_edge;
  std::vector<diag::Finding> m_out;
};

bool run_moves_forward(std::string_view from, std::string_view to) {
  if (from == to) return true;
  if (from == "submitted") return to == "running" || to == "done" || to == "failed" || to == "timeout" || to == "void";
  if (from == "running") return to == "done" || to == "failed" || to == "timeout" || to == "void";
  return false;  // a final or legacy state never changes
}

std::optional<long> wall_minutes(std::string_view wall) {
  const auto colon = wall.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  long hours = 0;
  for (char c : wall.substr(0, colon)) {
    if (c < '0' || c > '9' || hours > 1'000'000) return std::nullopt;
    hours = hours * 10 + (c - '0');
  }
  const std::string_view mm = wall.substr(colon + 1);
  if (mm.size() != 2 || mm[0] < '0' || mm[0] > '9' || mm[1] < '0' || mm[1] > '9') return std::nullopt;
  return hours * 60 + (mm[0] - '0') * 10 + (mm[1] - '0');
}

void compare_continuation(const PtRun& a, const PtRun& b, std::string_view key, const std::optional<std::string>& old,
                          const std::optional<std::string>& now, const std::string& path,
                          std::vector<diag::Finding>& out) {
  if (!old || old == now) return;
  out.push_back(finding("audit-run-line-changed", path, b.line,
                        now ? fmt::format("run {}: {}: changed from '{}' to '{}'", a.ident, key, *old, *now)
                            : fmt::format("run {}: {}: '{}' was removed", a.ident, key, *old)));
}

// The lines of `text` with the migration's own edits undone: header keys a
// migration removes or adds are dropped, and a ruling's `Phase: phases/…`
// reads as the `Task: tasks/…` it becomes.
std::vector<std::string> migration_view(std::string_view text, bool old_side) {
  const std::string decoded = ledger::decode_text(text).text;  // "\n" line ends
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at <= decoded.size()) {
    const auto nl = decoded.find('\n', at);
    std::string line = decoded.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? decoded.size() + 1 : nl + 1;
    const bool header_zone = lines.size() < 30;
    if (header_zone) {
      static constexpr std::array<std::string_view, 5> k_dropped = {"Summary:", "Gates-cleared:", "Gate-override:",
                                                                    "Lane:", "Phase:"};
      if (old_side && util::starts_with(line, "Phase: phases/")) {
        line = "Task: tasks/" + line.substr(std::string_view("Phase: phases/").size());
      } else if (std::any_of(k_dropped.begin(), k_dropped.end(),
                             [&](std::string_view k) { return util::starts_with(line, k); })) {
        continue;
      }
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string clip(std::string_view s) {
  constexpr std::size_t k_max = 70;
  if (s.size() <= k_max) return std::string(s);
  std::size_t cut = k_max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0u) == 0x80u) --cut;
  return std::string(s.substr(0, cut)) + "…";
}

}  // namespace

std::vector<diag::Finding> compare_pt_states(const PtFile& before, const PtFile& after, const std::string& path,
                                             const PtEraInfo& era, const std::vector<AddedRuling>& added) {
  return StateAudit(before, after, path, era, added).run();
}

std::vector<diag::Finding> compare_pt_runs(const PtFile& before, const PtFile& after, const std::string& path) {
  std::vector<diag::Finding> out;
  std::vector<std::size_t> positions;  // in `after`, of the runs kept, in `before`'s order
  for (const PtRun& a : before.runs) {
    const auto it = std::find_if(after.runs.begin(), after.runs.end(), [&](const PtRun& r) { return r.ident == a.ident; });
    if (it == after.runs.end()) {
      out.push_back(finding("audit-run-line-removed", path, 0,
                            fmt::format("run {} ({}) was removed: run lines are never removed", a.ident, a.state)));
      continue;
    }
    const PtRun& b = *it;
    positions.push_back(static_cast<std::size_t>(it - after.runs.begin()));
    if (a.partition != b.partition) {
      out.push_back(finding("audit-run-line-changed", path, b.line,
                            fmt::format("run {}: partition changed from {} to {}", a.ident, a.partition, b.partition)));
    }
    if (a.date != b.date) {
      out.push_back(finding("audit-run-line-changed", path, b.line,
                            fmt::format("run {}: submitted date changed from {} to {}", a.ident, a.date, b.date)));
    }
    if (!run_moves_forward(a.state, b.state)) {
      out.push_back(finding("audit-run-state-backwards", path, b.line,
                            fmt::format("run {}: {} → {} does not move forward", a.ident, a.state, b.state)));
    }
    const auto old_wall = wall_minutes(a.wall);
    const auto new_wall = wall_minutes(b.wall);
    if (old_wall && new_wall && *new_wall < *old_wall) {
      out.push_back(finding("audit-run-line-changed", path, b.line,
                            fmt::format("run {}: wall went down from {} to {}", a.ident, a.wall, b.wall)));
    }
    compare_continuation(a, b, "pulled_to", a.pulled_to, b.pulled_to, path, out);
    compare_continuation(a, b, "after", a.after, b.after, path, out);
    compare_continuation(a, b, "resumes", a.resumes, b.resumes, path, out);
    compare_continuation(a, b, "where", a.where, b.where, path, out);
    compare_continuation(a, b, "ruled", a.ruled, b.ruled, path, out);
  }
  if (!std::is_sorted(positions.begin(), positions.end())) {
    out.push_back(finding("audit-run-line-changed", path, 0, "run lines were reordered: lines are only appended"));
  }
  return out;
}

std::vector<diag::Finding> compare_migrated(std::string_view old_text, std::string_view new_text,
                                            const std::string& old_path, const std::string& new_path) {
  const std::vector<std::string> a = migration_view(old_text, true);
  const std::vector<std::string> b = migration_view(new_text, false);
  if (a == b) return {};
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  const std::string was = i < a.size() ? "'" + clip(a[i]) + "'" : std::string("(end of file)");
  const std::string now = i < b.size() ? "'" + clip(b[i]) + "'" : std::string("(end of file)");
  return {finding("audit-migration-edited", new_path, 0,
                  fmt::format("moved from {} by a schema migration with more changed than the migration changes: "
                              "{} became {}",
                              old_path, was, now))};
}

}  // namespace lg::audit
