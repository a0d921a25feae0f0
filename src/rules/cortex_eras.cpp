// The era-P and era-T rules (spec §2.6, §3.3): path rules, per phase/task
// file P-R01..P-F32 / T-R01..T-F30, per ruling P-G01..G17 / T-G01..G18, in the
// reference's order and wording. One engine serves all seven sub-eras; a
// PtEra says which rules are on and how messages name things. The §10 gap
// warnings of each file follow its reference findings.
#include "ledgergate/rules/cortex_eras.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <unordered_map>

#include "ledgergate/rules/cortex_projects.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/cursor.hpp"
#include "file_emitter.hpp"

namespace lg::rules {
namespace {

using diag::PeerForm;
using ledger::PtFile;
using ledger::PtRun;
using SV = std::string_view;

constexpr SV k_dash = "\xE2\x80\x94";  // —

// ---- era data ---------------------------------------------------------------

constexpr std::array<SV, 15> k_p1ab_keys = {"Project", "Phase",  "State", "Gates",          "Gates-cleared",
                                            "Gate-override", "Reset", "Witness", "Budget", "Runs",
                                            "Ruling", "Lane", "Review-minutes", "Epic", "Filed"};
constexpr std::array<SV, 16> k_p1c_keys = {"Project", "Phase",  "State",  "Gates", "Gates-cleared", "Gate-override",
                                           "Reset",   "Witness", "Budget", "Runs", "Ruling",        "Lane",
                                           "Review-minutes", "Epic", "Filed", "Migrated-from"};
constexpr std::array<SV, 13> k_p2_keys = {"Project", "Phase",  "State",          "Gates", "Reset", "Witness",      "Budget",
                                          "Runs",    "Ruling", "Review-minutes", "Epic",  "Filed", "Migrated-from"};
constexpr std::array<SV, 13> k_task_keys = {"Project", "Summary", "State",          "Gates", "Reset", "Witness",      "Budget",
                                            "Runs",    "Ruling",  "Review-minutes", "Epic",  "Filed", "Migrated-from"};
constexpr std::array<SV, 9> k_p1ab_ruling_keys = {"Project", "Phase",  "Runs", "Ruling", "Supersedes", "Batch",
                                                  "Reviewed-at", "Review-minutes-actual", "Follow-ups"};
constexpr std::array<SV, 10> k_p_ruling_keys = {"Project",     "Phase",                 "Runs",       "Ruling",
                                                "Supersedes",  "Batch",                 "Reviewed-at",
                                                "Review-minutes-actual", "Follow-ups", "Migrated-from"};
constexpr std::array<SV, 10> k_t_ruling_keys = {"Project",     "Task",                  "Runs",       "Ruling",
                                                "Supersedes",  "Batch",                 "Reviewed-at",
                                                "Review-minutes-actual", "Follow-ups", "Migrated-from"};

PtEra phase_era(SV name, std::span<const SV> keys, std::span<const SV> ruling_keys) {
  PtEra e;
  e.name = name;
  e.layout = ledger::Layout::cortex_phases;
  e.dir = ledger::era_dir(e.layout);
  e.noun = "phase";
  e.head_key = "Phase";
  e.second_key = "Phase";
  e.file_keys = keys;
  e.ruling_keys = ruling_keys;
  e.phase_number = true;
  e.yaml.assistant_known = false;
  return e;
}

PtEra task_era(SV name) {
  PtEra e;
  e.name = name;
  e.layout = ledger::Layout::cortex_tasks;
  e.dir = ledger::era_dir(e.layout);
  e.noun = "task";
  e.head_key = "Task";
  e.second_key = "Summary";
  e.file_keys = k_task_keys;
  e.ruling_keys = k_t_ruling_keys;
  e.tasks = true;
  e.where_to_look = true;
  e.yaml.assistant_known = name == "t2";
  return e;
}

std::vector<PtEra> make_eras() {
  std::vector<PtEra> out;
  for (auto [name, sub] : {std::pair{SV("p1a"), P1Sub::a}, {SV("p1b"), P1Sub::b}, {SV("p1c"), P1Sub::c}}) {
    PtEra e = sub == P1Sub::c ? phase_era(name, k_p1c_keys, k_p_ruling_keys)
                              : phase_era(name, k_p1ab_keys, k_p1ab_ruling_keys);
    e.p1 = true;
    e.p1_sub = sub;
    e.yaml.statuses = sub == P1Sub::a ? std::vector<std::string>{"active", "dormant"}
                                      : std::vector<std::string>{"active", "dormant", "planned"};
    out.push_back(std::move(e));
  }
  PtEra p2 = phase_era("p2", k_p2_keys, k_p_ruling_keys);
  p2.yaml.statuses = {"active", "dormant", "planned"};
  out.push_back(std::move(p2));
  PtEra p3 = phase_era("p3", k_p2_keys, k_p_ruling_keys);
  p3.where_to_look = true;
  out.push_back(std::move(p3));
  out.push_back(task_era("t1"));
  out.push_back(task_era("t2"));
  return out;
}

const std::vector<PtEra>& all_eras() {
  static const std::vector<PtEra> eras = make_eras();
  return eras;
}

// ---- vocabularies (§2.2) ----------------------------------------------------

constexpr std::array<SV, 10> k_states = {"planned", "gated",           "ready",    "submitted", "running",
                                         "pulled",  "awaiting-ruling", "accepted", "rerun",     "dropped"};
constexpr std::array<SV, 6> k_witness_states = {"submitted", "running", "pulled", "awaiting-ruling", "accepted", "rerun"};
constexpr std::array<SV, 3> k_ruled_states = {"accepted", "rerun", "dropped"};
constexpr std::array<SV, 7> k_settled_states = {"ready",  "submitted",       "running", "pulled",
                                                "awaiting-ruling", "accepted", "rerun"};
constexpr std::array<SV, 4> k_verbs = {"accept", "rerun", "drop", "leave-to-finish"};
constexpr std::array<SV, 5> k_sections = {"Question", "Witness", "Where to look", "Runs", "Ruling"};
constexpr std::array<SV, 2> k_ruling_sections = {"Ruling", "Evidence"};

template <std::size_t N>
bool contains(const std::array<SV, N>& set, SV v) {
  return std::find(set.begin(), set.end(), v) != set.end();
}
bool contains(std::span<const SV> set, SV v) { return std::find(set.begin(), set.end(), v) != set.end(); }

bool verb_fits(SV verb, SV state) {
  if (verb == "accept") return state == "accepted";
  if (verb == "drop") return state == "dropped";
  if (verb == "rerun") {
    return state == "rerun" || state == "ready" || state == "submitted" || state == "running" || state == "pulled" ||
           state == "awaiting-ruling";
  }
  return state != "dropped";  // leave-to-finish
}

std::string join(const std::vector<std::string>& parts) { return util::join(parts, ", "); }

std::vector<std::string> sorted_unique(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// ---- the loaded tree --------------------------------------------------------

struct Target {
  const std::string* rel;
  ledger::PtPath path;
  const PtFile* file;
};

struct Ruling {
  const std::string* rel;
  ledger::RulingPath path;
  const PtFile* file;
};

int line_of(const PtFile& f, SV key) {
  const ledger::HeaderField* h = f.header.find(key);
  return h ? h->line : 0;
}

struct Context {
  const PtEra& era;
  const PtTree& tree;
  diag::FindingSink& sink;
  std::vector<Target> targets;  // path-valid, read
  std::vector<Ruling> rulings;  // path-valid, read
  std::unordered_map<std::string, const Target*> target_by_rel;
  std::unordered_map<std::string, const Ruling*> by_id;                    // first in path order
  std::unordered_map<std::string, std::vector<const Ruling*>> successors;  // by `Supersedes:` value
  std::set<std::string> ruling_ids;
  // P-F08: the first phase of a (directory, Phase:) pair; and by value (G-08).
  std::map<std::pair<std::string, std::string>, const Target*> numbers;
  std::map<std::pair<std::string, std::string>, const Target*> number_values;
};

// ---- step 2 and 3: paths (P-T01..T03) -----------------------------------------

void check_paths(Context& cx) {
  for (const PtTreeFile& f : cx.tree.targets) {
    auto path = ledger::match_pt_path(f.path, cx.era.dir);
    if (!path) {
      Emitter{cx.sink, f.path}.peer("pt-path-grammar", 0,
                                    "not a " + std::string(cx.era.noun) + " path (" + std::string(cx.era.dir) +
                                        "/<project>/<slug>.md)");
      continue;
    }
    if (f.file) cx.targets.push_back(Target{&f.path, std::move(*path), f.file.get()});
  }
  for (const PtTreeFile& f : cx.tree.rulings) {
    const Emitter e{cx.sink, f.path};
    auto path = ledger::match_ruling_path(f.path);
    if (!path) {
      e.peer("pt-ruling-path", 0, "not a ruling path (rulings/<YYYY>/<MM>/R-<YYYYMMDD>-<nn>.md)");
      continue;
    }
    const std::string year = ledger::code_point_slice(path->id, 2, 6);
    const std::string month = ledger::code_point_slice(path->id, 6, 8);
    if (year != path->year || month != path->month) {
      e.peer("pt-ruling-dir-date", 0,
             "filed under " + path->year + "/" + path->month + " but the id is dated " + year + "-" + month);
    }
    if (f.file) cx.rulings.push_back(Ruling{&f.path, std::move(*path), f.file.get()});
  }
  for (const Target& t : cx.targets) cx.target_by_rel.emplace(*t.rel, &t);
  for (const Ruling& r : cx.rulings) {
    cx.by_id.emplace(r.path.id, &r);
    cx.ruling_ids.insert(r.path.id);
    const SV sup = r.file->header.value("Supersedes");
    if (!sup.empty()) cx.successors[std::string(sup)].push_back(&r);
  }
}

// ---- shared pieces ----------------------------------------------------------

void check_input(const PtFile& f, const std::string& path, diag::FindingSink& sink) {
  check_text_input(f.input, path, sink);
}

void check_problems(const PtFile& f, const Emitter& e) {
  for (const ledger::PtProblem& p : f.problems) {
    const std::string n = "line " + std::to_string(p.line) + ": ";
    switch (p.kind) {
      case ledger::PtProblemKind::not_ascending:
        e.peer("pt-run-task-set-ascending", p.line, n + "task set not ascending: " + p.text);
        break;
      case ledger::PtProblemKind::orphan_continuation:
        e.peer("pt-run-continuation-orphan", p.line, n + "continuation line without a run line");
        break;
      case ledger::PtProblemKind::unparsed:
        e.peer("pt-run-line-parses", p.line, n + "run line does not parse: " + p.text);
        break;
    }
  }
}

// Keys in header order: T's retired `Phase:`, then any key the era lacks.
void check_keys(const Context& cx, const PtFile& f, const Emitter& e, std::span<const SV> known, RuleId retired_rule,
                RuleId unknown_rule) {
  for (const ledger::HeaderField& h : f.header.fields) {
    if (cx.era.tasks && h.key == "Phase") {
      e.peer(retired_rule, h.line,
             "Phase: is a retired header \xE2\x80\x94 a task is identified by its slug, not a number (delete the "
             "line; `Task:` on a ruling names the path)");
    } else if (!contains(known, h.key)) {
      e.peer(unknown_rule, h.line, "unknown header key " + h.key + ":");
    }
  }
}

// The valid refs of a list header; each bad token reported by `bad`.
template <class Bad>
int check_refs(SV value, Bad bad) {
  int valid = 0;
  for (const std::string& token : ledger::split_refs(value)) {
    if (ledger::is_gate_ref(token)) {
      ++valid;
    } else {
      bad(token);
    }
  }
  return valid;
}

// A successor's `Supersedes:` edge is valid: not itself, earlier, same target.
bool valid_edge(const Context& cx, const Ruling& successor) {
  const SV sup = successor.file->header.value("Supersedes");
  if (sup == successor.path.id || !(sup < SV(successor.path.id))) return false;
  auto it = cx.by_id.find(std::string(sup));
  if (it == cx.by_id.end()) return false;
  const PtFile& a = *successor.file;
  const PtFile& b = *it->second->file;
  return a.header.value("Project") == b.header.value("Project") &&
         a.header.value(cx.era.head_key) == b.header.value(cx.era.head_key);
}

// G-10: a chain finding that counts successors through invalid edges.
void note_invalid_edges(const Context& cx, const Emitter& e, int line, const std::string& id,
                        const std::vector<const Ruling*>& successors) {
  std::vector<std::string> invalid;
  for (const Ruling* s : successors) {
    if (!valid_edge(cx, *s)) invalid.push_back(s->path.id);
  }
  if (invalid.empty()) return;
  e.own("pt-chain-invalid-edge", line,
        id + " counts " + join(invalid) + " as successor(s) through an invalid Supersedes: edge (itself, not earlier, "
             "or another project/" + std::string(cx.era.noun) + "); only valid edges should make a chain");
}

// ---- step 4: one phase/task file ---------------------------------------------

struct TargetCheck {
  Context& cx;
  const Target& t;
  const PtFile& f;
  Emitter e;
  SV state;

  SV value(SV key) const { return f.header.value(key); }
  std::string noun() const { return std::string(cx.era.noun); }

  void header_shape() {
    if (!f.title) e.peer("pt-title-present", 1, "line 1 is not `# <title>`");
    for (SV key : {SV("Project"), cx.era.second_key, SV("State")}) {
      if (value(key).empty()) e.peer("pt-required-header-key", line_of(f, key), "missing header key " + std::string(key) + ":");
    }
    check_keys(cx, f, e, cx.era.file_keys, "task-retired-phase-key", "pt-known-header-key");
    if (cx.era.tasks) {
      const std::size_t words = util::split_words(value("Summary")).size();
      if (words > 10) {
        e.peer("task-summary-word-cap", line_of(f, "Summary"),
               "Summary: " + std::to_string(words) + " words \xE2\x80\x94 at most 10 (the question the task answers)");
      }
    }
    for (SV name : k_sections) {
      if (!f.section(name)) e.peer("pt-required-section", 0, "missing section ## " + std::string(name));
    }
  }

  void project() {
    const SV p = value("Project");
    if (p.empty()) return;
    if (p != t.path.project) {
      e.peer("pt-project-equals-directory", line_of(f, "Project"),
             "Project: " + std::string(p) + " is not the directory name " + t.path.project);
    }
    if (!cx.tree.rows || !cx.tree.rows->find(p)) {
      e.peer("pt-project-is-row", line_of(f, "Project"), "Project: " + std::string(p) + " is not a projects.yaml key");
    }
  }

  void phase_number() {
    if (!cx.era.phase_number) return;
    const SV n = value("Phase");
    if (n.empty()) return;
    if (!ledger::is_int_text(n)) e.peer("phase-number-integer", line_of(f, "Phase"), "Phase: '" + std::string(n) + "' is not an integer");
    auto [it, fresh] = cx.numbers.emplace(std::pair{t.path.project, std::string(n)}, &t);
    if (!fresh) {
      e.peer("phase-number-unique", line_of(f, "Phase"),
             "duplicate Phase: " + std::string(n) + " (also " + *it->second->rel + ")");
    }
  }

  void fields() {
    if (!state.empty() && !contains(k_states, state)) {
      e.peer("pt-state-legal", line_of(f, "State"), "State: '" + std::string(state) + "' is not a " + noun() + " state");
    }
    const int gates = check_refs(value("Gates"), [&](const std::string& token) {
      e.peer("pt-gates-ref-grammar", line_of(f, "Gates"),
             "Gates: unrecognised ref '" + token +
                 "' \xE2\x80\x94 Repo#N or an issue/PR URL; no owner/Repo#N form");
    });
    std::vector<SV> dates;
    if (cx.era.p1) dates.push_back("Gates-cleared");
    dates.push_back("Filed");
    for (SV key : dates) {
      const SV v = value(key);
      if (!v.empty() && !util::is_date_shape(v)) {
        e.peer("pt-date-format", line_of(f, key), std::string(key) + ": '" + std::string(v) + "' is not YYYY-MM-DD");
      }
    }
    if (const SV v = value("Budget"); !v.empty() && !ledger::is_wall_text(v)) {
      e.peer("pt-budget-format", line_of(f, "Budget"), "Budget: '" + std::string(v) + "' is not H+:MM");
    }
    if (const SV v = value("Review-minutes"); !v.empty() && !ledger::is_int_text(v)) {
      e.peer("pt-review-minutes-integer", line_of(f, "Review-minutes"),
             "Review-minutes: '" + std::string(v) + "' is not an integer");
    }
    if (cx.era.p1) {
      if (const SV v = value("Lane"); !v.empty() && v != "local-dev") {
        e.peer("phase-lane-value", line_of(f, "Lane"), "Lane: '" + std::string(v) + "' is not local-dev");
      }
    }
    if (state == "gated" && gates == 0) e.peer("pt-gated-needs-gates", line_of(f, "State"), "State: gated with an empty Gates:");
    if (cx.era.p1 && contains(k_settled_states, state) && gates > 0 && value("Gates-cleared").empty() &&
        value("Gate-override").empty()) {
      e.peer("phase-gates-clearance", line_of(f, "State"),
             "State: " + std::string(state) + " with Gates: needs Gates-cleared: or Gate-override:");
    }
    if (contains(k_witness_states, state) && value("Witness").empty()) {
      e.peer("pt-witness-required", line_of(f, "State"), "State: " + std::string(state) + " needs a Witness:");
    }
    if (contains(k_ruled_states, state) && value("Ruling").empty()) {
      e.peer("pt-ruled-state-needs-ruling", line_of(f, "State"),
             "State: " + std::string(state) + " needs a Ruling: (reachable only through rule)");
    }
  }

  const Ruling* head() const {
    const SV id = value("Ruling");
    if (id.empty()) return nullptr;
    auto it = cx.by_id.find(std::string(id));
    return it == cx.by_id.end() ? nullptr : it->second;
  }

  void ruling_chain() {
    const SV id = value("Ruling");
    if (id.empty()) return;
    const int line = line_of(f, "Ruling");
    const std::string sid(id);
    if (!ledger::is_ruling_id(id)) {
      e.peer("pt-ruling-id-grammar", line, "Ruling: '" + sid + "' is not a ruling id");
      return;
    }
    const Ruling* h = head();
    if (!h) {
      e.peer("pt-ruling-resolves", line, "Ruling: " + sid + " does not resolve to a ruling file");
      return;
    }
    if (auto it = cx.successors.find(sid); it != cx.successors.end()) {
      std::vector<std::string> ids;
      for (const Ruling* s : it->second) ids.push_back(s->path.id);
      e.peer("pt-ruling-chain-head", line, "Ruling: " + sid + " is not a chain head (superseded by " + join(ids) + ")");
    }
    const SV names = h->file->header.value(cx.era.head_key);
    if (names != SV(*t.rel)) {
      e.peer("pt-ruling-names-target", line,
             "Ruling: " + sid + " names " + (names.empty() ? std::string("(nothing)") : std::string(names)) +
                 ", not this " + noun());
    }
    const SV verb = h->file->header.value("Ruling");
    if (!state.empty() && contains(k_verbs, verb) && !verb_fits(verb, state)) {
      e.peer("pt-head-verb-fits-state", line,
             "Ruling: " + sid + " verb '" + std::string(verb) + "' does not fit State: " + std::string(state));
    }
  }

  void where_and_pull() {
    if (cx.era.where_to_look && !state.empty() && state != "planned" && !f.where_names_a_place) {
      const ledger::Section* s = f.section("Where to look");
      e.peer("pt-where-to-look", s ? s->line : 0,
             "## Where to look names nowhere \xE2\x80\x94 a " + noun() +
                 " past planned needs at least one bullet that is not '(the output path, once there is one)'");
    }
    if (state == "pulled") {
      const bool live = std::any_of(f.runs.begin(), f.runs.end(), [](const PtRun& r) {
        return r.state == "submitted" || r.state == "running";
      });
      const Ruling* h = head();
      if (live && (!h || h->file->header.value("Ruling") != "leave-to-finish")) {
        e.peer("pt-partial-pull-needs-ltf", line_of(f, "State"),
               "State: pulled with a live run needs a leave-to-finish ruling head (--partial)");
      }
    }
  }

  void run_sets() {
    for (std::size_t i = 0; i < f.runs.size(); ++i) {
      for (std::size_t j = i + 1; j < f.runs.size(); ++j) {
        if (ledger::runs_overlap(f.runs[i], f.runs[j])) {
          e.peer("pt-run-sets-disjoint", f.runs[j].line,
                 "run " + f.runs[i].ident + " overlaps " + f.runs[j].ident + " on stem " + f.runs[i].stem);
        }
      }
    }
    const std::vector<std::string> header = ledger::split_refs(value("Runs"));
    for (const std::string& token : header) {
      if (!ledger::is_int_text(token)) {
        e.peer("pt-runs-header-stem", line_of(f, "Runs"), "Runs: '" + token + "' is not a job stem");
      }
    }
    const std::vector<std::string> body = f.body_stems();
    if (sorted_unique(header) != body) {
      std::vector<std::string> listed = header;
      std::sort(listed.begin(), listed.end());
      e.peer("pt-runs-header-equals-body", line_of(f, "Runs"),
             "Runs: header {" + join(listed) + "} != body stems {" + join(body) + "}");
    }
  }

  void run_continuations() {
    if (state == "pulled") {
      const bool pulled = std::any_of(f.runs.begin(), f.runs.end(), [](const PtRun& r) {
        return (r.state == "done" || r.state == "legacy") && r.pulled_to;
      });
      if (!pulled) {
        e.peer("pt-pulled-needs-pulled-to", line_of(f, "State"),
               "State: pulled needs at least one done | legacy run with pulled_to:");
      }
    }
    for (const PtRun& r : f.runs) {
      if ((r.state == "legacy" || r.state == "legacy_wrong") && !r.where) {
        e.peer("pt-legacy-needs-where", r.line, "run " + r.ident + " is " + r.state + " without where:");
      }
    }
    for (const PtRun& r : f.runs) {
      for (auto [key, value] : {std::pair{SV("after"), &r.after}, {SV("resumes"), &r.resumes}}) {
        if (!*value) continue;
        const bool names_other = **value != r.ident && std::any_of(f.runs.begin(), f.runs.end(), [&named = **value](const PtRun& o) {
                                   return o.ident == named;
                                 });
        if (!names_other) {
          e.peer("pt-after-resumes-resolve", r.line,
                 "run " + r.ident + " " + std::string(key) + ": " + **value + " names no other run of this " + noun());
        }
      }
    }
    for (const PtRun& r : f.runs) {
      if (r.ruled && !cx.ruling_ids.count(*r.ruled)) {
        e.peer("pt-ruled-continuation-resolves", r.line,
               "run " + r.ident + " ruled: " + *r.ruled + " does not resolve to a ruling file");
      }
    }
  }

  void run() {
    check_input(f, *t.rel, cx.sink);
    check_problems(f, e);
    header_shape();
    project();
    phase_number();
    fields();
    ruling_chain();
    where_and_pull();
    run_sets();
    run_continuations();
  }
};

// ---- gap warnings (§10) -----------------------------------------------------

void structure_gaps(const PtFile& f, const Emitter& e) {
  report_structure_gaps(f.sections, e, "pt-heading-in-fence", "pt-duplicate-section");
  for (const ledger::HeaderField& h : f.header.duplicates) {
    e.own("pt-header-duplicate-key", h.line, "header key `" + h.key + "` appears again; the first is used");
  }
  for (const ledger::HeaderField& h : f.header.dropped) {
    e.own("pt-header-line-dropped", h.line,
          "header line " + util::py_repr(h.value) + " is neither `Key: value` nor `- item`; the reference ignores it");
  }
}

void digit_gap(const Emitter& e, int line, const std::string& what, SV value) {
  if (util::has_non_ascii_digit(value)) {
    e.own("pt-non-ascii-digit", line, what + " " + std::string(value) + " uses non-ASCII digits");
  }
}

void date_gap(const Emitter& e, int line, const std::string& what, SV value) {
  if (util::is_date_shape(value) && !util::has_non_ascii_digit(value) && !util::is_real_date(value)) {
    e.own("pt-date-real", line, what + " " + std::string(value) + " is not a real calendar date");
  }
}

void minutes_gap(const Emitter& e, int line, const std::string& what, SV value) {
  if (!ledger::is_wall_text(value) || util::has_non_ascii_digit(value)) return;
  const SV minutes = value.substr(value.size() - 2);
  if (minutes >= "60") e.own("pt-minutes-under-60", line, what + " " + std::string(value) + " has 60 or more minutes");
}

void target_gaps(TargetCheck& c) {
  const PtFile& f = c.f;
  const Emitter& e = c.e;
  structure_gaps(f, e);
  for (SV key : {SV("Phase"), SV("Filed"), SV("Gates-cleared"), SV("Budget"), SV("Review-minutes"), SV("Ruling")}) {
    digit_gap(e, line_of(f, key), std::string(key) + ":", c.value(key));
  }
  for (const std::string& token : ledger::split_refs(c.value("Runs"))) digit_gap(e, line_of(f, "Runs"), "Runs:", token);
  for (const PtRun& r : f.runs) {
    digit_gap(e, r.line, "run", r.ident);
    digit_gap(e, r.line, "run " + r.ident + " date", r.date);
    digit_gap(e, r.line, "run " + r.ident + " wall", r.wall);
    date_gap(e, r.line, "run " + r.ident + " date", r.date);
    minutes_gap(e, r.line, "run " + r.ident + " wall", r.wall);
  }
  for (SV key : {SV("Filed"), SV("Gates-cleared")}) date_gap(e, line_of(f, key), std::string(key) + ":", c.value(key));
  minutes_gap(e, line_of(f, "Budget"), "Budget:", c.value("Budget"));
  if (c.cx.era.phase_number && ledger::is_int_text(c.value("Phase"))) {
    const std::string n(c.value("Phase"));
    auto [it, fresh] = c.cx.number_values.emplace(std::pair{c.t.path.project, ledger::number_value(n).digits}, &c.t);
    const SV other = fresh ? SV() : it->second->file->header.value("Phase");
    if (!fresh && other != n) {
      e.own("phase-number-equal-value", line_of(f, "Phase"),
            "Phase: " + n + " equals Phase: " + std::string(other) + " of " + *it->second->rel +
                " as a number (the reference compares the text)");
    }
  }
  if (const Ruling* h = c.head()) {
    const SV id = c.value("Ruling");
    if (h->file->header.value("Ruling") == "leave-to-finish" &&
        (c.state == "planned" || c.state == "gated" || c.state == "ready")) {
      e.own("pt-ltf-head-early-state", line_of(f, "Ruling"),
            "Ruling: " + std::string(id) + " is a leave-to-finish head on State: " + std::string(c.state) +
                " (leave-to-finish is for running, pulled or awaiting-ruling)");
    }
    if (auto it = c.cx.successors.find(std::string(id)); it != c.cx.successors.end()) {
      note_invalid_edges(c.cx, e, line_of(f, "Ruling"), std::string(id), it->second);
    }
  }
}

// ---- step 5: one ruling -------------------------------------------------------

struct RulingCheck {
  Context& cx;
  const Ruling& r;
  const PtFile& f;
  Emitter e;

  SV value(SV key) const { return f.header.value(key); }
  std::string head() const { return std::string(cx.era.head_key); }
  const std::string& id() const { return r.path.id; }

  void shape() {
    const Ruling* first = cx.by_id.at(id());
    if (first != &r) e.peer("pt-ruling-id-unique", 0, "duplicate ruling id " + id() + " (also " + *first->rel + ")");
    if (!f.title || (*f.title != id() && !util::starts_with(*f.title, id() + " " + std::string(k_dash) + " "))) {
      e.peer("pt-ruling-title", 1,
             "title must be `# " + id() + "` or `# " + id() + " \xE2\x80\x94 <summary>`");
    }
    for (SV key : {SV("Project"), cx.era.head_key, SV("Ruling")}) {
      if (value(key).empty()) e.peer("pt-ruling-required-key", line_of(f, key), "missing header key " + std::string(key) + ":");
    }
    check_keys(cx, f, e, cx.era.ruling_keys, "task-ruling-retired-phase-key", "pt-ruling-known-key");
    for (SV name : k_ruling_sections) {
      if (!f.section(name)) e.peer("pt-ruling-required-section", 0, "missing section ## " + std::string(name));
    }
    if (const SV verb = value("Ruling"); !verb.empty() && !contains(k_verbs, verb)) {
      e.peer("pt-ruling-verb", line_of(f, "Ruling"), "Ruling: '" + std::string(verb) + "' is not a ruling verb");
    }
  }

  void target() {
    const SV path = value(cx.era.head_key);
    if (path.empty()) return;
    const int line = line_of(f, cx.era.head_key);
    auto it = cx.target_by_rel.find(std::string(path));
    if (it == cx.target_by_rel.end()) {
      e.peer("pt-ruling-target-resolves", line,
             head() + ": " + std::string(path) + " does not resolve to a " + std::string(cx.era.noun) + " file");
      return;
    }
    const PtFile& target = *it->second->file;
    const SV project = value("Project");
    if (!project.empty() && target.header.value("Project") != project) {
      e.peer("pt-ruling-target-project", line,
             head() + ": " + std::string(path) + " is not a " + std::string(cx.era.noun) + " of Project: " +
                 std::string(project));
    }
    const std::vector<std::string> body = target.body_stems();
    std::vector<std::string> extras;
    for (const std::string& token : sorted_unique(ledger::split_refs(value("Runs")))) {
      if (!std::binary_search(body.begin(), body.end(), token)) extras.push_back(token);
    }
    if (!extras.empty()) {
      e.peer("pt-ruling-runs-subset", line_of(f, "Runs"),
             "Runs: {" + join(extras) + "} not in the " + std::string(cx.era.noun) + "'s runs");
    }
  }

  void supersedes() {
    const SV sup = value("Supersedes");
    if (sup.empty()) return;
    const int line = line_of(f, "Supersedes");
    const std::string s(sup);
    if (sup == SV(id())) {
      e.peer("pt-supersedes-not-self", line, "Supersedes: itself");
      return;
    }
    auto it = cx.by_id.find(s);
    if (it == cx.by_id.end()) {
      e.peer("pt-supersedes-resolves", line, "Supersedes: " + s + " does not resolve to a ruling file");
      return;
    }
    if (!(sup < SV(id()))) e.peer("pt-supersedes-earlier", line, "Supersedes: " + s + " is not earlier than " + id());
    const PtFile& other = *it->second->file;
    if (value("Project") != other.header.value("Project") ||
        value(cx.era.head_key) != other.header.value(cx.era.head_key)) {
      e.peer("pt-supersedes-same-target", line,
             "Supersedes: " + s + " names a different project/" + std::string(cx.era.noun));
    }
  }

  void successors_and_refs() {
    if (auto it = cx.successors.find(id()); it != cx.successors.end() && it->second.size() > 1) {
      std::vector<std::string> ids;
      for (const Ruling* s : it->second) ids.push_back(s->path.id);
      e.peer("pt-single-successor", 0,
             "has " + std::to_string(ids.size()) + " successors (" + join(ids) + ") \xE2\x80\x94 a chain, not a tree");
    }
    if (const SV batch = value("Batch"); !batch.empty()) {
      const std::string target = "batches/" + std::string(batch) + ".md";
      if (!cx.tree.is_file || !cx.tree.is_file(target)) {
        e.peer("pt-batch-resolves", line_of(f, "Batch"), "Batch: " + std::string(batch) + " names no " + target);
      }
    }
    if (const SV v = value("Review-minutes-actual"); !v.empty() && !ledger::is_int_text(v)) {
      e.peer("pt-review-minutes-actual-integer", line_of(f, "Review-minutes-actual"),
             "Review-minutes-actual: not an integer");
    }
    check_refs(value("Follow-ups"), [&](const std::string& token) {
      e.peer("pt-follow-up-ref-grammar", line_of(f, "Follow-ups"), "Follow-ups: unrecognised ref '" + token + "'");
    });
  }

  void run() {
    check_input(f, *r.rel, cx.sink);
    shape();
    target();
    supersedes();
    successors_and_refs();
  }
};

bool is_timestamp(SV v) {
  util::Cursor c(v);
  auto two = [&c] { return c.many(util::is_ascii_digit, 2, 2); };
  const std::size_t start = c.pos();
  if (!c.many(util::is_ascii_digit, 4, 4) || !c.literal("-") || !two() || !c.literal("-") || !two()) return false;
  if (!util::is_real_date(c.since(start))) return false;
  const std::size_t hour = c.pos() + 1;
  if (!c.literal("T") || !two() || !c.literal(":") || !two()) return false;
  if (c.literal(":") && !two()) return false;
  if (!c.literal("Z") || !c.at_end()) return false;
  return v.substr(hour, 2) < "24" && v.substr(hour + 3, 2) < "60" && (v.size() == 17 || v.substr(hour + 6, 2) < "60");
}

void ruling_gaps(RulingCheck& c) {
  const PtFile& f = c.f;
  const Emitter& e = c.e;
  structure_gaps(f, e);
  digit_gap(e, 0, "ruling id", c.id());
  for (SV key : {SV("Supersedes"), SV("Review-minutes-actual")}) {
    digit_gap(e, line_of(f, key), std::string(key) + ":", c.value(key));
  }
  const std::string id = c.id();
  if (!util::has_non_ascii_digit(id)) {
    const std::string date = id.substr(2, 4) + "-" + id.substr(6, 2) + "-" + id.substr(8, 2);
    if (!util::is_real_date(date)) e.own("pt-date-real", 0, "ruling id " + id + " is dated " + date + ", not a real calendar date");
  }
  if (const SV at = c.value("Reviewed-at"); !at.empty() && !is_timestamp(at)) {
    e.own("pt-reviewed-at-shape", line_of(f, "Reviewed-at"),
          "Reviewed-at: " + std::string(at) + " is not a UTC time YYYY-MM-DDTHH:MM[:SS]Z");
  }
  if (auto it = c.cx.successors.find(id); it != c.cx.successors.end() && it->second.size() > 1) {
    note_invalid_edges(c.cx, e, 0, id, it->second);
  }
}

}  // namespace

const PtEra* find_pt_era(ledger::Layout layout, std::string_view sub) {
  for (const PtEra& e : all_eras()) {
    if (e.layout == layout && e.name == sub) return &e;
  }
  return nullptr;
}

void check_pt_tree(const PtEra& era, const PtTree& tree, diag::FindingSink& sink) {
  Context cx{era, tree, sink, {}, {}, {}, {}, {}, {}, {}, {}};
  cx.targets.reserve(tree.targets.size());
  cx.rulings.reserve(tree.rulings.size());
  check_paths(cx);
  for (const Target& t : cx.targets) {
    TargetCheck c{cx, t, *t.file, Emitter{sink, *t.rel}, t.file->header.value("State")};
    c.run();
    target_gaps(c);
  }
  for (const Ruling& r : cx.rulings) {
    RulingCheck c{cx, r, *r.file, Emitter{sink, *r.rel}};
    c.run();
    ruling_gaps(c);
  }
}

std::map<std::string, P1Phase, std::less<>> p1_phases(const PtEra& era, const PtTree& tree) {
  std::map<std::string, P1Phase, std::less<>> out;
  for (const PtTreeFile& f : tree.targets) {
    auto path = ledger::match_pt_path(f.path, era.dir);
    if (!path || !f.file) continue;
    out.emplace(f.path, P1Phase{path->slug, f.file->body_stems()});
  }
  return out;
}

bool path_less(std::string_view a, std::string_view b) {
  while (true) {
    const std::size_t sa = a.find('/'), sb = b.find('/');
    const std::string_view ca = a.substr(0, sa), cb = b.substr(0, sb);
    if (ca != cb) return ca < cb;
    if (sa == std::string_view::npos || sb == std::string_view::npos) return sa == std::string_view::npos && sb != std::string_view::npos;
    a.remove_prefix(sa + 1);
    b.remove_prefix(sb + 1);
  }
}

}  // namespace lg::rules
