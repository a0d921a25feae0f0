// `rule FILE VERB --body FILE` (spec §8.3, §6.1): a new ruling file with the
// lowest free id of the day, and the task's `Ruling:`, `State:` and
// `## Ruling` line — every check made before anything is written, the ruling
// and the task edited in one change (the reference writes the ruling, then
// the task: G-01). P1's `--also` rules several files alike, one ruling each.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "cortex_pt_doc.hpp"
#include "ledgergate/ledger/pt_edges.hpp"
#include "ledgergate/util/text.hpp"
#include "ledgergate/write/cortex_pt.hpp"

namespace lg::write {
namespace {

using pt::k_arrow;
using pt::k_dash;
using pt::PtDoc;

// One file being ruled.
struct Target {
  PtDoc doc;
  std::string supersedes;  // "" when none
  std::string id, path;    // the new ruling
};

std::string strip_newlines(std::string_view s) {
  while (!s.empty() && (s.front() == '\n' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

class Rule : public pt::VerbState<PtRuleArgs> {
 public:
  using VerbState::VerbState;

  Result<Outcome> run() {
    std::vector<Target> targets;
    std::set<std::string> named;
    std::vector<std::string> refs = {m_args.file};
    refs.insert(refs.end(), m_args.also.begin(), m_args.also.end());
    for (const std::string& ref : refs) {
      LG_TRY(auto opened, pt::open_target(m_tree, m_cx, ref));
      if (auto* refused = std::get_if<Refusal>(&opened)) return Outcome{*refused};
      PtDoc& doc = std::get<PtDoc>(opened);
      if (!named.insert(doc.rel()).second) return refuse(doc.rel() + " named twice");
      targets.push_back(Target{std::move(doc), {}, {}, {}});
    }
    LG_TRY(auto refused, check_arguments());
    if (refused) return Outcome{*refused};
    LG_TRY(m_rulings, pt::load_rulings(m_tree));
    for (std::size_t i = 0; i < targets.size(); ++i) {
      if (auto r = check_target(targets[i], i == 0)) return Outcome{*r};
    }
    if (auto r = assign_ids(targets)) return Outcome{*r};
    for (const Target& t : targets) {
      LG_TRY(auto existing, m_tree.stat(t.path));
      if (existing) return refuse("refusing to touch an existing ruling: " + t.path);
    }
    Change change;
    std::vector<std::string> lines;
    for (Target& t : targets) {
      change.files.push_back(FileEdit{t.path, ruling_text(t)});
      update_target(t);
      change.files.push_back(FileEdit{t.doc.rel(), t.doc.bytes()});
      lines.push_back("wrote " + t.path);
    }
    change.message = util::join(lines, "\n");
    return Outcome{std::move(change)};
  }

 private:
  static Outcome refuse(std::string message) { return Refusal{std::move(message)}; }

  Result<std::optional<Refusal>> check_arguments() {
    if (m_args.batch) {
      const std::string path = "batches/" + *m_args.batch + ".md";
      LG_TRY(auto bytes, git::read_regular_file(m_tree, path));
      if (!bytes) return std::optional<Refusal>(Refusal{"--batch " + *m_args.batch + " names no " + path});
    }
    for (const std::string& value : m_args.follow_ups) {
      for (const std::string& ref : ledger::split_refs(value)) {
        if (ledger::is_gate_ref(ref)) continue;
        return std::optional<Refusal>(
            Refusal{"--follow-up '" + ref + "' is not Repo#N or an issue/PR URL (create the issue first)"});
      }
      for (const std::string& ref : ledger::split_refs(value)) m_follow_ups.push_back(ref);
    }
    if (!m_args.body) return std::optional<Refusal>(Refusal{"--body " + m_args.body_path + " is not a file"});
    if (util::is_blank(*m_args.body)) {
      return std::optional<Refusal>(Refusal{fmt::format("--body is empty {} the human's words, verbatim", k_dash)});
    }
    return std::optional<Refusal>();
  }

  const pt::Ruling* ruling(std::string_view id) const {
    for (const pt::Ruling& r : m_rulings) {
      if (r.id == id) return &r;
    }
    return nullptr;
  }

  std::vector<std::string> successors(std::string_view id) const {
    std::vector<std::string> out;
    for (const pt::Ruling& r : m_rulings) {
      if (r.file.header.value("Supersedes") == id) out.push_back(r.id);
    }
    return out;
  }

  // The verb against the target's state (§6.1), and what it supersedes.
  std::optional<Refusal> check_target(Target& t, bool primary) const {
    const std::string_view verb = m_args.verb;
    const std::string state(t.doc.value("State"));
    const std::string& rel = t.doc.rel();
    if (!ledger::is_pt_state(state)) {
      return Refusal{fmt::format("{} has State: '{}', which is not a {} state", rel, state, m_era.noun)};
    }
    if (state == "dropped") return Refusal{fmt::format("{} is dropped {} terminal", rel, k_dash)};
    // Ours: without a `## Ruling` section the ruling's line has no place in the file.
    if (!t.doc.file().section("Ruling")) return Refusal{rel + ": missing section ## Ruling"};
    const std::string head(t.doc.value("Ruling"));
    // An --also file in accepted supersedes its own head.
    t.supersedes = primary ? m_args.supersedes.value_or("") : state == "accepted" ? head : "";
    if (!t.supersedes.empty()) {
      const pt::Ruling* old = ruling(t.supersedes);
      if (!old) return Refusal{fmt::format("--supersedes {} does not resolve to a ruling file", t.supersedes)};
      const std::string_view names = old->file.header.value(m_era.head_key);
      if (names != rel) {
        return Refusal{fmt::format("--supersedes {} rules on {}, not {}", t.supersedes,
                                   names.empty() ? std::string_view("(nothing)") : names, rel)};
      }
      if (const auto next = successors(t.supersedes); !next.empty()) {
        return Refusal{fmt::format("{} already has a successor ({}) {} supersede the head", t.supersedes, next.front(),
                                   k_dash)};
      }
    }
    if (state == "accepted") {
      if (verb != "rerun" && verb != "drop") {
        return Refusal{fmt::format("accepted takes only rerun | drop, with --supersedes {}", head)};
      }
      if (t.supersedes.empty()) {
        return Refusal{fmt::format("accepted {} {} needs --supersedes {} (the REWIND case)", k_arrow,
                                   *ledger::ruling_verb_target(verb), head)};
      }
      return std::nullopt;
    }
    if (verb == "leave-to-finish") {
      if (state != "running" && state != "pulled" && state != "awaiting-ruling") {
        return Refusal{"leave-to-finish applies to running | pulled | awaiting-ruling, not " + state};
      }
      return std::nullopt;
    }
    const std::string_view target = *ledger::ruling_verb_target(verb);
    const ledger::PtEdge* e = ledger::find_pt_edge(state, target);
    if (!e || e->owner != ledger::EdgeOwner::rule || e->verb != verb) {
      return Refusal{fmt::format("'{}' is not allowed from State: {} (the table: awaiting-ruling {} {})", verb, state,
                                 k_arrow, target)};
    }
    return std::nullopt;
  }

  // R-YYYYMMDD-nn, the lowest nn free among every ruling id under rulings/.
  std::optional<Refusal> assign_ids(std::vector<Target>& targets) const {
    const std::string day = m_cx.today.substr(0, 4) + m_cx.today.substr(5, 2) + m_cx.today.substr(8, 2);
    std::set<std::string> taken;
    for (const pt::Ruling& r : m_rulings) taken.insert(r.id);
    int nn = 1;
    for (Target& t : targets) {
      while (nn <= 99 && taken.count(fmt::format("R-{}-{:02}", day, nn))) ++nn;
      if (nn > 99) return Refusal{"99 rulings already filed on " + m_cx.today};
      t.id = fmt::format("R-{}-{:02}", day, nn++);
      t.path = fmt::format("rulings/{}/{}/{}.md", m_cx.today.substr(0, 4), m_cx.today.substr(5, 2), t.id);
      if (!t.supersedes.empty() && !(t.supersedes < t.id)) {
        return Refusal{fmt::format("{} is not earlier than the new id {} (--today?)", t.supersedes, t.id)};
      }
    }
    return std::nullopt;
  }

  std::string project_of(const PtDoc& doc) const {
    const std::string_view p = doc.value("Project");
    return p.empty() ? ledger::match_pt_path(doc.rel(), m_era.dir)->project : std::string(p);
  }

  std::string ruling_text(const Target& t) const {
    const auto path = ledger::match_pt_path(t.doc.rel(), m_era.dir);
    const std::string project = project_of(t.doc);
    const std::string what = m_era.phase_number ? "phase " + std::string(t.doc.value("Phase")) : path->slug;
    const auto field = [](std::string_view key, std::string_view value) {
      return value.empty() ? std::string(key) + ":" : std::string(key) + ": " + std::string(value);
    };
    std::vector<std::string> lines = {
        fmt::format("# {} {} {} {} {}", t.id, k_dash, m_args.verb, project, what),
        "",
        field("Project", project),
        field(m_era.head_key, t.doc.rel()),
        field("Runs", t.doc.value("Runs")),
        field("Ruling", m_args.verb),
    };
    if (!t.supersedes.empty()) lines.push_back(field("Supersedes", t.supersedes));
    if (m_args.batch) lines.push_back(field("Batch", *m_args.batch));
    lines.push_back(fmt::format("Reviewed-at: {}T{}Z", m_cx.today, m_args.clock));
    if (m_args.minutes) lines.push_back(fmt::format("Review-minutes-actual: {}", *m_args.minutes));
    if (!m_follow_ups.empty()) lines.push_back(field("Follow-ups", util::join(m_follow_ups, ", ")));
    lines.insert(lines.end(), {"", "## Ruling", "", strip_newlines(*m_args.body), "", "## Evidence", ""});
    std::size_t bullets = 0;
    if (const ledger::Section* where = t.doc.file().section("Where to look")) {
      const ledger::TextFile text = ledger::decode_text(t.doc.bytes());
      for (int i = where->body_begin; i < where->body_end; ++i) {
        const std::string_view line = text.line(static_cast<std::size_t>(i));
        if (!util::starts_with(line, "- ")) continue;
        lines.emplace_back(util::rstrip(line));
        ++bullets;
      }
    }
    if (bullets == 0) lines.emplace_back("- (none given)");
    return util::join(lines, "\n") + "\n";
  }

  void update_target(Target& t) const {
    t.doc.set_header("Ruling", t.id);
    if (const auto state = ledger::ruling_verb_target(m_args.verb)) t.doc.set_header("State", *state);
    std::string entry = fmt::format("{} {} {}", t.id, k_dash, m_args.verb);
    if (!t.supersedes.empty()) entry += " (supersedes " + t.supersedes + ")";
    t.doc.append_to_section("Ruling", {entry}, true);  // check_target made sure the section is there
  }

  std::vector<pt::Ruling> m_rulings;
  std::vector<std::string> m_follow_ups;
};

}  // namespace

Editor pt_rule(PtContext context, PtRuleArgs args) {
  return pt::verb_editor<Rule>(std::move(context), std::move(args));
}

}  // namespace lg::write
