// `move FILE STATE` (spec §8.3): one `move` edge of the transition table
// (ledger/pt_edges, §6.1), with the reference's guards in its order and its
// refusal texts; the ruling edges are `rule`'s.
#include <fmt/format.h>

#include <algorithm>

#include "cortex_pt_doc.hpp"
#include "ledgergate/ledger/pt_edges.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/util/text.hpp"
#include "ledgergate/write/cortex_pt.hpp"

namespace lg::write {
namespace {

using ledger::PtRun;
using pt::k_arrow;
using pt::k_dash;
using pt::PtDoc;

bool any_run(const ledger::PtFile& f, std::initializer_list<std::string_view> states) {
  return std::any_of(f.runs.begin(), f.runs.end(), [&](const PtRun& r) {
    return std::find(states.begin(), states.end(), r.state) != states.end();
  });
}

std::string state_list() {
  std::vector<std::string> states(ledger::k_pt_states.begin(), ledger::k_pt_states.end());
  return util::join(states, " | ");
}

class Move : public pt::VerbState<PtMoveArgs> {
 public:
  using VerbState::VerbState;

  Result<Outcome> run() {
    LG_TRY(auto opened, pt::open_target(m_tree, m_cx, m_args.file));
    if (auto* refused = std::get_if<Refusal>(&opened)) return Outcome{*refused};
    PtDoc doc = std::move(std::get<PtDoc>(opened));
    if (auto refused = guards(doc)) return Outcome{*refused};
    const std::string from(doc.value("State"));
    const std::string& to = m_args.state;
    if (from == to) return self_loop(doc);
    if (m_args.run && !(from == "ready" && to == "submitted") && from != "submitted" && from != "running") {
      return refuse("--run applies to ready " + std::string(k_arrow) + " submitted and to a submitted | running " +
                    noun());
    }
    LG_TRY(auto refused, edge(doc, from, to));
    if (refused) return Outcome{*refused};
    doc.set_header("State", to);
    return changed(doc, fmt::format("{}: {} {} {}", doc.rel(), from, k_arrow, to));
  }

 private:
  std::string noun() const { return std::string(m_era.noun); }
  static Outcome refuse(std::string message) { return Refusal{std::move(message)}; }
  static Outcome changed(const PtDoc& doc, std::string message) {
    return Change{{FileEdit{doc.rel(), doc.bytes()}}, std::move(message)};
  }

  // What refuses before any edge is looked at.
  std::optional<Refusal> guards(const PtDoc& doc) const {
    const std::string from(doc.value("State"));
    const std::string& to = m_args.state;
    if (!ledger::is_pt_state(from)) {
      return Refusal{fmt::format("{} has State: '{}', which is not a {} state", doc.rel(), from, noun())};
    }
    if (!ledger::is_pt_state(to)) return Refusal{fmt::format("'{}' is not a {} state ({})", to, noun(), state_list())};
    if (from == "dropped") {
      return Refusal{fmt::format("{} is dropped {} terminal; revival is a new {}", doc.rel(), k_dash,
                                 m_era.phase_number ? "phase number" : "slug")};
    }
    if (to == "dropped") return Refusal{fmt::format("dropped is a ruling edge: `cortex.py rule <{}> drop`", noun())};
    if (to == "accepted" || to == "rerun") {
      return Refusal{fmt::format("{} is a ruling edge: `cortex.py rule <{}> {}`{}", to, noun(),
                                 to == "accepted" ? "accept" : "rerun",
                                 from == "accepted" ? " --supersedes <Ruling:>" : "")};
    }
    for (const std::string& ref : ledger::split_refs(doc.value("Gates"))) {
      if (!ledger::is_gate_ref(ref)) {
        return Refusal{fmt::format("{}: Gates: unrecognised ref '{}' {} fix it first", doc.rel(), ref, k_dash)};
      }
    }
    return std::nullopt;
  }

  Result<Outcome> self_loop(PtDoc& doc) {
    const std::string from(doc.value("State"));
    const bool live = from == "submitted" || from == "running";
    if (!m_args.run || !live) {
      return refuse(fmt::format("{} is already {}{}", doc.rel(), from,
                                live ? "" : "; --run is for submitted | running " + noun() + "s"));
    }
    LG_TRY(auto refused, append_run(doc));
    if (refused) return Outcome{*refused};
    return changed(doc, fmt::format("{}: {} {} appended run {}", doc.rel(), from, k_dash, *m_args.run));
  }

  // The edge's guards and its writes besides `State:`; a refusal, or nullopt.
  Result<std::optional<Refusal>> edge(PtDoc& doc, const std::string& from, const std::string& to) {
    const ledger::PtFile& f = doc.file();
    const ledger::PtEdge* e = ledger::find_pt_edge(from, to);
    const std::string edge_name = from + " " + std::string(k_arrow) + " " + to;
    const auto no = [](std::string m) -> Result<std::optional<Refusal>> { return std::optional<Refusal>(Refusal{m}); };
    if (!e || e->owner == ledger::EdgeOwner::rule) return no("no edge " + edge_name + " in the transition table");
    const std::vector<std::string> refs = ledger::split_refs(doc.value("Gates"));
    const bool gated = std::any_of(refs.begin(), refs.end(), [](const std::string& r) { return ledger::is_gate_ref(r); });
    if (from == "planned" && to == "gated" && !gated) {
      return no(fmt::format("{}: Gates: is empty {} planned {} ready", doc.rel(), k_dash, k_arrow));
    }
    if (from == "planned" && to == "ready" && !doc.value("Gates").empty()) {
      return no(fmt::format("{}: Gates: is non-empty {} planned {} gated", doc.rel(), k_dash, k_arrow));
    }
    if (from == "gated" && to == "ready" && m_era.p1) {
      if (!m_args.override_reason || util::is_blank(*m_args.override_reason)) {
        return no(fmt::format("gated {} ready is `gates --grade --write` when the refs clear, or `move ready "
                              "--override \"<reason>\"`",
                              k_arrow));
      }
      doc.set_header("Gate-override", util::strip(*m_args.override_reason));
    }
    if (from == "ready" && to == "gated") {
      if (m_era.p1) {
        return no(fmt::format("ready {} gated is written by `gates --grade --write` only, when a cleared gate reopened",
                              k_arrow));
      }
      return no(fmt::format("ready {} gated is a hand edit of the header {} re-gating a ready {} is a judgement, not "
                            "an edge",
                            k_arrow, k_dash, noun()));
    }
    if (from == "ready" && to == "submitted") {
      if (doc.value("Witness").empty()) {
        return no(fmt::format("{}: Witness: is empty {} register the witness before submitting", doc.rel(), k_dash));
      }
      if (!m_args.run) return no(fmt::format("ready {} submitted needs --run <id>", k_arrow));
    }
    if ((from == "ready" && to == "submitted") || (from == "submitted" && to == "running")) {
      if (!m_args.run) return std::optional<Refusal>();
      return append_run(doc);
    }
    if (from == "ready" && to == "pulled") return pull_legacy(doc);
    if ((from == "submitted" || from == "running") && to == "ready") {
      if (any_run(f, {"submitted", "running"})) return no(doc.rel() + ": a run is still submitted | running");
      if (!any_run(f, {"failed", "timeout", "void"})) return no(doc.rel() + ": no failed | timeout | void run to reset from");
      if (!m_args.reason || util::is_blank(*m_args.reason)) {
        return no(fmt::format("{} {} ready needs --reason", from, k_arrow));
      }
      doc.set_header("Reset", util::strip(*m_args.reason));
    }
    if (from == "running" && to == "pulled") return pull(doc);
    return std::optional<Refusal>();
  }

  // ready → pulled, a legacy-born task: every legacy run lacking pulled_to:
  // gets --pulled-to or its where:.
  Result<std::optional<Refusal>> pull_legacy(PtDoc& doc) {
    const ledger::PtFile& f = doc.file();
    const bool legacy_born = !f.runs.empty() && std::all_of(f.runs.begin(), f.runs.end(), [](const PtRun& r) {
      return r.state == "legacy" || r.state == "legacy_wrong";
    });
    if (!legacy_born) {
      return std::optional<Refusal>(Refusal{fmt::format(
          "ready {} pulled is for a legacy-born {}: every run line legacy | legacy_wrong", k_arrow, noun())});
    }
    if (doc.value("Witness").empty()) {
      return std::optional<Refusal>(Refusal{fmt::format("{}: Witness: is empty {} still mandatory for a legacy-born {}",
                                                        doc.rel(), k_dash, noun())});
    }
    if (!any_run(f, {"legacy"})) {
      return std::optional<Refusal>(
          Refusal{fmt::format("no legacy run to pull {} nothing to review (rule drop, or fix the run lines)", k_dash)});
    }
    return add_pulled_to(doc, "legacy", true);
  }

  // running → pulled: no live run unless --partial; done runs lacking
  // pulled_to: get --pulled-to.
  Result<std::optional<Refusal>> pull(PtDoc& doc) {
    if (any_run(doc.file(), {"submitted", "running"}) && !m_args.partial) {
      return std::optional<Refusal>(Refusal{fmt::format(
          "{}: a run is still submitted | running {} --partial for a partial array (then rule leave-to-finish)",
          doc.rel(), k_dash)});
    }
    return add_pulled_to(doc, "done", false);
  }

  Result<std::optional<Refusal>> add_pulled_to(PtDoc& doc, std::string_view state, bool from_where) {
    for (std::size_t i = 0; i < doc.file().runs.size(); ++i) {
      const PtRun& r = doc.file().runs[i];
      if (r.state != state || r.pulled_to) continue;
      const std::optional<std::string> to = m_args.pulled_to ? m_args.pulled_to : from_where ? r.where : std::nullopt;
      if (to) doc.add_continuation(r, "    pulled_to: " + *to);
    }
    const auto& runs = doc.file().runs;
    if (std::none_of(runs.begin(), runs.end(), [&](const PtRun& r) { return r.state == state && r.pulled_to; })) {
      return std::optional<Refusal>(
          Refusal{fmt::format("no run carries pulled_to: {} pass --pulled-to <laptop path>", k_dash)});
    }
    return std::optional<Refusal>();
  }

  // Appends the --run line (state submitted, wall 0:00) with its after: /
  // resumes: continuations, and re-derives `Runs:` from the body.
  Result<std::optional<Refusal>> append_run(PtDoc& doc) {
    const auto no = [](std::string m) -> Result<std::optional<Refusal>> { return std::optional<Refusal>(Refusal{m}); };
    const std::string& ident = *m_args.run;
    if (!ledger::is_run_ident(ident)) {
      return no(fmt::format("--run '{}' is not <stem>[_<task>|_[<set>]]", ident));
    }
    LG_TRY(auto rows, pt::load_project_rows(m_tree, m_era));
    const std::string project(ledger::match_pt_path(doc.rel(), m_era.dir)->project);
    const auto partition = pt::run_partition(rows, project, m_args.partition);
    if (const auto* refused = std::get_if<Refusal>(&partition)) return std::optional<Refusal>(*refused);
    std::string line = fmt::format("- {}: submitted {} {} {} submitted {} {} wall 0:00", ident, k_dash,
                                   std::get<std::string>(partition), k_dash, m_cx.today, k_dash);
    if (m_args.note && !util::is_blank(*m_args.note)) line += fmt::format(" {} {}", k_dash, util::strip(*m_args.note));
    const auto fresh = ledger::match_pt_run_line(util::dash(line));
    if (!fresh) return no(fmt::format("--run '{}' is not <stem>[_<task>|_[<set>]]", ident));
    const auto& runs = doc.file().runs;
    for (const PtRun& r : runs) {
      if (ledger::runs_overlap(*fresh, r)) {
        return no(fmt::format("run {} overlaps {} already on this {}", ident, r.ident, noun()));
      }
    }
    std::vector<std::string> lines = {line};
    for (auto [key, value] : {std::pair{std::string_view("after"), &m_args.after}, {"resumes", &m_args.resumes}}) {
      if (!*value) continue;
      const bool known =
          std::any_of(runs.begin(), runs.end(), [&, field = value](const PtRun& r) { return r.ident == **field; });
      if (!known) return no(fmt::format("{}: {} names no run of this {}", key, **value, noun()));
      lines.push_back(fmt::format("    {}: {}", key, **value));
    }
    if (!doc.append_to_section("Runs", lines, false)) {
      return no(fmt::format("{}: missing section ## Runs", doc.rel()));
    }
    std::vector<std::string> stems;
    for (const PtRun& r : doc.file().runs) {
      if (std::find(stems.begin(), stems.end(), r.stem) == stems.end()) stems.push_back(r.stem);
    }
    doc.set_header("Runs", util::join(stems, ", "));
    return std::optional<Refusal>();
  }
};

}  // namespace

Editor pt_move(PtContext context, PtMoveArgs args) {
  return pt::verb_editor<Move>(std::move(context), std::move(args));
}

}  // namespace lg::write
