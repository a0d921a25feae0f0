// The open-requirements rules. Single-version rules judge one parsed file in
// document order (document → entries → budget); cross-version rules compare
// two versions of one path by entry id. Messages name the entry and its line.
#include "ledgergate/rules/open_requirements.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

#include "ledgergate/rules/registry.hpp"

namespace lg::rules {
namespace {

using ledger::OpenRequirements;
using ledger::OrlEntry;
using ledger::OrlKey;
using ledger::OrlValue;

constexpr std::array<std::string_view, 13> k_entry_fields = {
    "id", "status", "kind", "blocking", "raised_by", "step", "unmet", "missing", "resolved_by", "supersedes",
    "note", "units", "because"};

struct Ctx {
  const std::string& path;
  diag::FindingSink& sink;
  void report(RuleId rule, int line, std::string message) const {
    sink.report(make_finding(rule, path, line, std::move(message), diag::PeerForm::none));
  }
};

int line_of(const OrlEntry& e, std::string_view field) {
  const OrlValue* v = e.get(field);
  return v && v->line > 0 ? v->line : e.line;
}

void duplicate_keys(const Ctx& c, const std::vector<OrlKey>& keys, const std::string& where) {
  std::map<std::string, int> first;
  for (const OrlKey& k : keys) {
    auto [it, fresh] = first.emplace(k.name, k.line);
    if (fresh) continue;
    c.report("orl-duplicate-key", k.line,
             where + ": key `" + k.name + "` appears twice (lines " + std::to_string(it->second) + " and " +
                 std::to_string(k.line) + "); a YAML loader keeps only the last");
  }
}

bool is_kebab(std::string_view s) {
  if (s.empty()) return false;
  bool prev_dash = true;  // no leading dash
  for (char ch : s) {
    if (ch == '-') {
      if (prev_dash) return false;
      prev_dash = true;
    } else if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
      prev_dash = false;
    } else {
      return false;
    }
  }
  return !prev_dash;
}

const OrlValue* non_null(const OrlEntry& e, std::string_view field) {
  const OrlValue* v = e.get(field);
  return v && !v->is_null() ? v : nullptr;
}

// One entry's single-version rules, section by section in the order the
// spec lists them (each section reports in that order too).
struct EntryCheck {
  const Ctx& c;
  const OpenRequirements& doc;
  const OrlEntry& e;
  std::string who = e.label();
  std::string st = e.status();
  const OrlValue* kind = e.get("kind");
  bool dropped = kind && kind->is_string() && kind->str == "dropped";

  void run() const {
    field_rules();
    id_rules();
    status_rules();
    kind_rules();
    content_rules();
    resolution_rules();
    if (dropped) drop_rules();
    supersede_rules();
  }

  void field_rules() const {
    duplicate_keys(c, e.keys, who);
    for (const OrlKey& k : e.keys) {
      if (std::find(k_entry_fields.begin(), k_entry_fields.end(), k.name) == k_entry_fields.end()) {
        c.report("orl-entry-fields", k.line, who + ": unknown field `" + k.name + "`");
      }
    }
  }

  void id_rules() const {
    const OrlValue* id = e.get("id");
    if (!id || id->is_null()) {
      c.report("orl-id", e.line, who + ": has no `id`");
    } else if (!id->is_string()) {
      c.report("orl-id", id->line, who + ": `id` must be a string, not " + id->repr);
    } else if (!is_kebab(id->str)) {
      c.report("orl-id", id->line, who + ": `id` " + id->repr + " is not kebab-case (^[a-z0-9]+(-[a-z0-9]+)*$)");
    }
  }

  void status_rules() const {
    const OrlValue* status = e.get("status");
    if (!status || status->is_null()) {
      c.report("orl-status", e.line, who + ": has no `status` (open, resolved or surrendered)");
    } else if (st != "open" && st != "resolved" && st != "surrendered") {
      c.report("orl-status", status->line,
               who + ": `status` " + status->repr + " is not one of open, resolved, surrendered");
    }
  }

  void kind_rules() const {
    if (kind) {
      if (!kind->is_string() || (kind->str != "gap" && kind->str != "dropped")) {
        c.report("orl-kind", kind->line, who + ": `kind` " + kind->repr + " is not gap or dropped");
      } else if (kind->str == "gap") {
        c.report("orl-kind-gap-explicit", kind->line, who + ": `kind: gap` is the default; omit it");
      }
    }
    const OrlValue* blocking = e.get("blocking");
    if (blocking && !blocking->is_bool()) {
      c.report("orl-blocking-bool", blocking->line, who + ": `blocking` must be true or false, not " + blocking->repr);
    }
    if (dropped && e.blocking()) {
      c.report("orl-blocking-gap-only", blocking->line,
               who + ": `blocking: true` on a dropped entry (blocking is only for a computability gap)");
    }
  }

  // Provenance and content.
  void content_rules() const {
    if (const OrlValue* v = e.get("raised_by"); !v || !v->non_empty()) {
      c.report("orl-provenance", line_of(e, "raised_by"), who + ": `raised_by` is missing or empty");
    }
    for (std::string_view field : {std::string_view("unmet"), std::string_view("missing")}) {
      if (const OrlValue* v = e.get(field); !v || !v->non_empty()) {
        c.report("orl-unmet-missing", line_of(e, field), who + ": `" + std::string(field) + "` is missing or empty");
      }
    }
  }

  // resolved_by and the surrender note.
  void resolution_rules() const {
    const OrlValue* resolved_by = non_null(e, "resolved_by");
    if (st == "resolved" && (!resolved_by || !resolved_by->non_empty())) {
      c.report("orl-resolved-by", line_of(e, "resolved_by"), who + ": is resolved but `resolved_by` is empty");
    } else if ((st == "open" || st == "surrendered") && resolved_by) {
      c.report("orl-resolved-by", resolved_by->line,
               who + ": is " + st + " but `resolved_by` is set (" + resolved_by->repr + "); it must be null");
    }
    if (st == "surrendered") {
      if (const OrlValue* v = e.get("note"); !v || !v->non_empty()) {
        c.report("orl-surrender-note", line_of(e, "note"), who + ": is surrendered without a `note` saying why");
      }
    }
  }

  bool superseded() const {
    for (const OrlEntry& other : doc.entries) {
      const OrlValue* s = other.is_mapping ? other.get("supersedes") : nullptr;
      if (&other != &e && s && s->is_string() && !e.id().empty() && s->str == e.id()) return true;
    }
    return false;
  }

  // A dropped entry's units and cited because.
  void drop_rules() const {
    if (const OrlValue* v = e.get("units"); !v || !v->non_empty()) {
      c.report("orl-dropped-fields", line_of(e, "units"), who + ": a dropped entry needs non-empty `units`");
    }
    const OrlValue* because = e.get("because");
    const bool struck_by_supersede = superseded() && e.because_struck();
    if ((!because || !because->non_empty()) && !struck_by_supersede) {
      c.report("orl-dropped-fields", line_of(e, "because"), who + ": a dropped entry needs non-empty `because`");
    } else if (because && because->non_empty() && !e.because_struck() && !orl_because_cited(because->str)) {
      c.report("orl-uncited-drop", because->line,
               who + ": `because` carries no citation (a `command`, a URL, #issue, a file path or "
                     "\"searched YYYY-MM-DD\"): an uncited drop is a debt");
    }
  }

  void supersede_rules() const {
    const OrlValue* sup = non_null(e, "supersedes");
    if (!sup || (sup->is_string() && sup->str.empty())) return;
    const OrlEntry* target = sup->is_string() ? doc.find(sup->str) : nullptr;
    if (sup->is_string() && sup->str == e.id()) {
      c.report("orl-supersedes-resolves", sup->line, who + ": `supersedes` names the entry itself");
    } else if (!target) {
      c.report("orl-supersedes-resolves", sup->line,
               who + ": `supersedes` names " + sup->repr + ", which is not an entry of this ledger");
    }
    if (st != "resolved") {
      c.report("orl-supersedes-on-resolved", sup->line,
               who + ": carries `supersedes` but its status is " + (st.empty() ? std::string("not valid") : st) +
                   "; a superseding entry is resolved");
    }
    if (target && target != &e) superseded_target(*target);
  }

  // The entry `e` supersedes is reopened: open again, its because struck, a note.
  void superseded_target(const OrlEntry& target) const {
    const std::string tw = target.label();
    if (target.status() != "open" && target.status() != "surrendered") {
      c.report("orl-superseded-reopened", target.line,
               tw + ": is superseded by `" + e.id() + "` (line " + std::to_string(e.line) + ") but is " +
                   (target.status().empty() ? std::string("not open") : target.status()) +
                   "; a refuted decision is reopened");
    }
    if (!target.because_struck()) {
      c.report("orl-superseded-reopened", line_of(target, "because"),
               tw + ": is superseded by `" + e.id() + "` but its `because` still stands; strike it (~~…~~)");
    }
    if (const OrlValue* note = target.get("note"); !note || !note->non_empty()) {
      c.report("orl-superseded-reopened", line_of(target, "note"),
               tw + ": is superseded by `" + e.id() + "` but its `note` does not quote the contradiction");
    }
  }
};

void check_entry(const Ctx& c, const OpenRequirements& doc, const OrlEntry& e) { EntryCheck{c, doc, e}.run(); }

struct BudgetCounts {
  std::int64_t escalations = 0;
  std::int64_t cap = 0;
  std::vector<std::int64_t> history;
};

// orl-budget-types: each key's type; the counts when every key is well typed.
std::optional<BudgetCounts> budget_types(const Ctx& c, const ledger::OrlBudget& b) {
  bool ok = true;
  std::optional<std::int64_t> esc, cap;
  if (!b.escalations || !(esc = b.escalations->as_int()) || *esc < 0) {
    c.report("orl-budget-types", b.escalations ? b.escalations->line : b.line,
             "topology_repair: `escalations` must be an int >= 0" +
                 (b.escalations ? ", not " + b.escalations->repr : std::string(" (missing)")));
    ok = false;
  }
  if (!b.cap || !(cap = b.cap->as_int()) || *cap < 1) {
    c.report("orl-budget-types", b.cap ? b.cap->line : b.line,
             "topology_repair: `cap` must be an int >= 1" + (b.cap ? ", not " + b.cap->repr : std::string(" (missing)")));
    ok = false;
  }
  std::vector<std::int64_t> hist;
  if (!b.open_history || b.open_history->kind != ledger::YamlKind::sequence) {
    c.report("orl-budget-types", b.open_history ? b.open_history->line : b.line,
             "topology_repair: `open_history` must be a list of ints >= 0" +
                 (b.open_history ? ", not " + b.open_history->repr : std::string(" (missing)")));
    ok = false;
  } else {
    for (const OrlValue& item : b.open_history->items) {
      auto n = item.as_int();
      if (!n || *n < 0) {
        c.report("orl-budget-types", item.line,
                 "topology_repair: `open_history` holds " + item.repr + "; counts are ints >= 0");
        ok = false;
      } else {
        hist.push_back(*n);
      }
    }
  }
  if (!ok) return std::nullopt;
  return BudgetCounts{*esc, *cap, std::move(hist)};
}

void check_budget(const Ctx& c, const OpenRequirements& doc) {
  const ledger::OrlBudget& b = *doc.budget;
  if (!b.is_mapping) {
    c.report("orl-budget-types", b.line, "`topology_repair` must be a mapping of escalations, cap, open_history");
    return;
  }
  duplicate_keys(c, b.keys, "topology_repair");
  const std::optional<BudgetCounts> counts = budget_types(c, b);
  if (!counts) return;
  const std::int64_t esc = counts->escalations, cap = counts->cap;
  const std::vector<std::int64_t>& hist = counts->history;
  const auto len = static_cast<std::int64_t>(hist.size());
  if (len != esc && len != esc + 1) {
    c.report("orl-budget-length", b.open_history->line,
             "topology_repair: `open_history` holds " + std::to_string(len) + " counts for " + std::to_string(esc) +
                 " escalations (one per escalation, optionally after a baseline)");
  }
  if (esc > cap) {
    c.report("orl-budget-cap", b.escalations->line,
             "topology_repair: escalations " + std::to_string(esc) + " exceed the cap " + std::to_string(cap));
  }
  for (std::size_t i = 1; i < hist.size(); ++i) {
    if (hist[i] >= hist[i - 1]) {
      c.report("orl-non-convergent", b.open_history->items[i].line,
               "topology_repair: open_history " + b.open_history->repr + " is not strictly decreasing (" +
                   std::to_string(hist[i - 1]) + " then " + std::to_string(hist[i]) + "): the repair is non-convergent");
      break;
    }
  }
  if (esc != cap) return;
  for (const OrlEntry& e : doc.entries) {
    if (e.is_mapping && e.status() == "open" && e.blocking()) {
      c.report("orl-cap-surrender", line_of(e, "status"),
               e.label() + ": is open and blocking at the escalation cap (" + std::to_string(cap) +
                   "); it must be surrendered");
    }
  }
}

bool has_date(std::string_view s) {
  for (std::size_t i = 0; i + 10 <= s.size(); ++i) {
    auto d = [&](std::size_t k) { return std::isdigit(static_cast<unsigned char>(s[i + k])) != 0; };
    if (d(0) && d(1) && d(2) && d(3) && s[i + 4] == '-' && d(5) && d(6) && s[i + 7] == '-' && d(8) && d(9)) return true;
  }
  return false;
}

bool looks_like_path(std::string_view tok) {
  while (!tok.empty() && std::string_view("\"'([{<,;:").find(tok.front()) != std::string_view::npos) tok.remove_prefix(1);
  while (!tok.empty() && std::string_view("\"')]}>,;:.!?").find(tok.back()) != std::string_view::npos) tok.remove_suffix(1);
  if (tok.empty()) return false;
  const std::size_t slash = tok.find('/');
  if (slash != std::string_view::npos) {
    // /abs/path, ./x, ../x, ~/x, a/b/c, or a/b.ext — not "input/output" or "25/31".
    const bool letter = std::any_of(tok.begin(), tok.end(), [](char ch) {
      return std::isalpha(static_cast<unsigned char>(ch)) != 0;
    });
    if (!letter || tok.find_first_not_of('/') == std::string_view::npos) return false;
    if (tok[0] == '/' || tok.substr(0, 2) == "./" || tok.substr(0, 3) == "../" || tok.substr(0, 2) == "~/") return true;
    if (std::count(tok.begin(), tok.end(), '/') >= 2) return true;
    tok = tok.substr(tok.rfind('/') + 1);
  }
  const std::size_t dot = tok.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || tok.size() - dot - 1 < 2) return false;
  const std::string_view ext = tok.substr(dot + 1);
  bool alpha = false;
  for (char ch : ext) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) return false;
    if (std::isalpha(static_cast<unsigned char>(ch))) alpha = true;
  }
  return alpha;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

// Entries in both versions, by id (the first entry holding each id).
std::map<std::string, const OrlEntry*> by_id(const OpenRequirements& doc) {
  std::map<std::string, const OrlEntry*> out;
  for (const OrlEntry& e : doc.entries) {
    if (e.is_mapping && !e.id().empty()) out.emplace(e.id(), &e);
  }
  return out;
}

std::string field_repr(const OrlEntry& e, std::string_view field) {
  if (field == "kind") return e.kind();
  const OrlValue* v = e.get(field);
  return v ? v->repr : std::string("None");
}

struct Budget {
  bool present = false;
  std::int64_t escalations = 0;
  std::optional<std::int64_t> cap;
  std::vector<std::int64_t> history;
  int line = 0;
  bool valid = true;
};

Budget read_budget(const OpenRequirements& doc) {
  Budget out;
  if (!doc.budget) return out;
  out.present = true;
  out.line = doc.budget->line;
  const ledger::OrlBudget& b = *doc.budget;
  std::optional<std::int64_t> esc = b.escalations ? b.escalations->as_int() : std::nullopt;
  out.cap = b.cap ? b.cap->as_int() : std::nullopt;
  if (!b.is_mapping || !esc || !b.open_history || b.open_history->kind != ledger::YamlKind::sequence) {
    out.valid = false;
    return out;
  }
  out.escalations = *esc;
  for (const OrlValue& item : b.open_history->items) {
    auto n = item.as_int();
    if (!n) {
      out.valid = false;
      return out;
    }
    out.history.push_back(*n);
  }
  return out;
}

// The cross-version rules between two parsed versions of one file, section
// by section in the order they report.
struct HistoryCheck {
  const Ctx& c;
  const OpenRequirements& before;
  const OpenRequirements& after;
  std::map<std::string, const OrlEntry*> old_ids = by_id(before);
  std::map<std::string, const OrlEntry*> new_ids = by_id(after);

  void run() const {
    no_delete();
    order();
    const std::set<std::string> gained = gained_supersedes();
    for (const OrlEntry& e : after.entries) {
      if (!e.is_mapping || e.id().empty()) continue;
      auto it = old_ids.find(e.id());
      if (it == old_ids.end() || new_ids.at(e.id()) != &e) continue;
      no_reword(*it->second, e, gained);
      transition(*it->second, e, gained);
    }
    budget(read_budget(before), read_budget(after));
  }

  void no_delete() const {
    for (const OrlEntry& e : before.entries) {
      const std::string id = e.is_mapping ? e.id() : std::string();
      if (id.empty() || new_ids.count(id)) continue;
      c.report("orl-h-no-delete", 0,
               "entry `" + id + "` (line " + std::to_string(e.line) +
                   " of the previous version) was deleted; resolving is not deleting");
    }
  }

  // Old entries keep their relative order, new ones come after them. An
  // id held twice is the first entry holding it (by_id), on both sides: a
  // later duplicate is no entry that moved, and a version compared with
  // itself keeps its order.
  void order() const {
    std::size_t last_old = 0;
    bool have_old = false;
    bool reported = false;
    for (const OrlEntry& e : before.entries) {
      if (!e.is_mapping || e.id().empty() || old_ids.at(e.id()) != &e) continue;
      auto it = new_ids.find(e.id());
      if (it == new_ids.end()) continue;
      if (have_old && it->second->index < last_old && !reported) {
        c.report("orl-h-order", it->second->line,
                 it->second->label() + ": moved before an entry that preceded it; existing entries keep their order");
        reported = true;
      }
      last_old = std::max(last_old, it->second->index);
      have_old = true;
    }
    if (!have_old) return;
    for (const OrlEntry& e : after.entries) {
      if (!e.is_mapping || e.id().empty() || old_ids.count(e.id()) || e.index > last_old) continue;
      c.report("orl-h-order", e.line, e.label() + ": is new but inserted among existing entries; append it at the end");
    }
  }

  // The ids named by a supersedes the new version gained.
  std::set<std::string> gained_supersedes() const {
    std::set<std::string> out;
    for (const OrlEntry& e : after.entries) {
      const OrlValue* s = e.is_mapping ? e.get("supersedes") : nullptr;
      if (!s || !s->is_string() || s->str.empty()) continue;
      auto it = e.id().empty() ? old_ids.end() : old_ids.find(e.id());
      const OrlValue* old_s = it == old_ids.end() ? nullptr : it->second->get("supersedes");
      if (!old_s || old_s->repr != s->repr) out.insert(s->str);
    }
    return out;
  }

  void no_reword(const OrlEntry& o, const OrlEntry& e, const std::set<std::string>& gained) const {
    const std::string who = e.label();
    for (std::string_view field : {"raised_by", "kind", "step", "unmet", "missing", "units"}) {
      if (field_repr(o, field) != field_repr(e, field)) {
        c.report("orl-h-no-reword", line_of(e, field),
                 who + ": `" + std::string(field) + "` changed from " + field_repr(o, field) + " to " +
                     field_repr(e, field) + "; entries are never reworded");
      }
    }
    if (field_repr(o, "because") != field_repr(e, "because")) {
      const bool reopened = e.status() == "open" && gained.count(e.id()) && e.because_struck();
      if (!reopened) {
        c.report("orl-h-no-reword", line_of(e, "because"),
                 who + ": `because` changed; it changes only by being struck when a supersede reopens the entry");
      }
    }
  }

  void transition(const OrlEntry& o, const OrlEntry& e, const std::set<std::string>& gained) const {
    const std::string s0 = o.status(), s1 = e.status();
    const auto valid = [](const std::string& s) { return s == "open" || s == "resolved" || s == "surrendered"; };
    if (!valid(s0) || !valid(s1)) return;
    const std::string who = e.label();
    if (s0 == s1) {
      if (s0 == "resolved" && field_repr(o, "resolved_by") != field_repr(e, "resolved_by")) {
        c.report("orl-h-transition", line_of(e, "resolved_by"),
                 who + ": `resolved_by` changed from " + field_repr(o, "resolved_by") + " to " +
                     field_repr(e, "resolved_by") + " while resolved");
      }
      return;
    }
    bool ok = false;
    std::string why;
    if (s0 == "open" && s1 == "resolved") {
      const OrlValue* rb = e.get("resolved_by");
      ok = rb && rb->non_empty();
      why = "resolved without `resolved_by`";
    } else if (s0 == "open" && s1 == "surrendered") {
      ok = true;
    } else if (s0 == "resolved" && s1 == "open") {
      ok = gained.count(e.id()) > 0;
      why = "reopened without an entry gaining `supersedes: " + e.id() + "`";
    } else if (s0 == "surrendered") {
      why = "surrendered is terminal";
    }
    if (!ok) {
      c.report("orl-h-transition", line_of(e, "status"),
               who + ": status " + s0 + " -> " + s1 + " is not allowed" + (why.empty() ? std::string() : " (" + why + ")"));
    }
  }

  void budget(const Budget& b0, const Budget& b1) const {
    if (!b0.valid || !b1.valid) return;
    if (b0.present && !b1.present) {
      c.report("orl-h-budget", 0, "`topology_repair` was removed; the escalation budget is loop state and stays");
      return;
    }
    if (!b1.present) return;
    const std::int64_t d = b1.escalations - b0.escalations;
    if (d < 0) {
      c.report("orl-h-budget", b1.line,
               "topology_repair: escalations went down from " + std::to_string(b0.escalations) + " to " +
                   std::to_string(b1.escalations));
    } else if (d > 1) {
      c.report("orl-h-budget", b1.line,
               "topology_repair: escalations grew by " + std::to_string(d) + " in one version (at most one)");
    }
    if (b0.present && b0.cap && b1.cap && *b0.cap != *b1.cap) {
      c.report("orl-h-budget", b1.line,
               "topology_repair: `cap` changed from " + std::to_string(*b0.cap) + " to " + std::to_string(*b1.cap));
    }
    const bool prefix = b1.history.size() >= b0.history.size() &&
                        std::equal(b0.history.begin(), b0.history.end(), b1.history.begin());
    if (!prefix) {
      c.report("orl-h-budget", b1.line, "topology_repair: `open_history` was rewritten; it only grows by appending");
    } else if (d >= 0 && d <= 1) {
      history_growth(b0, b1, d);
    }
    if (d >= 1 && !b1.history.empty() && prefix) escalation_count(b1);
  }

  // open_history grows by one count per new escalation (two for the first, a baseline).
  void history_growth(const Budget& b0, const Budget& b1, std::int64_t d) const {
    const auto added = static_cast<std::int64_t>(b1.history.size() - b0.history.size());
    const bool baseline = b0.escalations == 0 && b0.history.empty() && added == d + 1;
    if (added != d && !baseline) {
      c.report("orl-h-budget", b1.line,
               "topology_repair: `open_history` grew by " + std::to_string(added) + " for " + std::to_string(d) +
                   " new escalation(s)");
    }
  }

  // The appended count is the blocking entries open, counted before the cap's
  // surrender: entries this version surrendered still count.
  void escalation_count(const Budget& b1) const {
    std::int64_t open = static_cast<std::int64_t>(after.open_blocking());
    for (const OrlEntry& e : after.entries) {
      auto it = e.is_mapping && !e.id().empty() ? old_ids.find(e.id()) : old_ids.end();
      if (it != old_ids.end() && e.blocking() && e.status() == "surrendered" && it->second->status() == "open") ++open;
    }
    if (b1.history.back() != open) {
      c.report("orl-h-escalation-count", b1.line,
               "topology_repair: the appended open_history count is " + std::to_string(b1.history.back()) +
                   " but " + std::to_string(open) + " blocking entries are open");
    }
  }
};

}  // namespace

bool orl_because_cited(std::string_view because) {
  // A backticked construct: `...` with something inside.
  if (const std::size_t open = because.find('`'); open != std::string_view::npos) {
    const std::size_t close = because.find('`', open + 1);
    if (close != std::string_view::npos && close > open + 1) return true;
  }
  const std::string low = lower(because);
  if (low.find("http://") != std::string::npos || low.find("https://") != std::string::npos) return true;
  for (std::size_t i = 0; i + 1 < because.size(); ++i) {
    if (because[i] == '#' && std::isdigit(static_cast<unsigned char>(because[i + 1]))) return true;
  }
  if (low.find("search") != std::string::npos && has_date(because)) return true;
  std::size_t start = 0;
  while (start < because.size()) {
    std::size_t end = because.find_first_of(" \t\n", start);
    if (end == std::string_view::npos) end = because.size();
    if (end > start && looks_like_path(because.substr(start, end - start))) return true;
    start = end + 1;
  }
  return false;
}

void check_open_requirements(const OpenRequirements& doc, const std::string& path, diag::FindingSink& sink) {
  const Ctx c{path, sink};
  if (doc.yaml_error) {
    c.report("orl-yaml", doc.yaml_error->line,
             "is not valid YAML" +
                 (doc.yaml_error->line > 0 ? " (line " + std::to_string(doc.yaml_error->line) + ")" : std::string()) +
                 ": " + doc.yaml_error->problem);
    return;
  }
  using Form = OpenRequirements::Form;
  if (doc.form == Form::other) {
    c.report("orl-shape", doc.root_line,
             "the document is a " + doc.root_type + "; a ledger is a mapping with `entries:` (or a list of entries)");
    return;
  }
  if (doc.form == Form::bare_list) {
    c.report("orl-bare-list", doc.root_line,
             "the document is a bare list of entries (v1's loose form); write it under `entries:`");
  }
  if (doc.form == Form::mapping) {
    duplicate_keys(c, doc.top_keys, "top level");
    for (const OrlKey& k : doc.top_keys) {
      if (k.name != "topology_repair" && k.name != "entries") {
        c.report("orl-top-keys", k.line, "unknown top-level key `" + k.name + "` (only topology_repair, entries)");
      }
    }
    if (doc.entries_not_list) {
      c.report("orl-shape", doc.entries_line, "`entries` is a " + doc.entries_type + ", not a list of entries");
    }
  }
  std::map<std::string, const OrlEntry*> seen;
  for (const OrlEntry& e : doc.entries) {
    if (!e.is_mapping) {
      c.report("orl-entry-mapping", e.line,
               "entry #" + std::to_string(e.index + 1) + " (line " + std::to_string(e.line) + ") is a " +
                   e.not_mapping_type + ", not a mapping of fields");
      continue;
    }
    if (const std::string id = e.id(); !id.empty()) {
      auto [it, fresh] = seen.emplace(id, &e);
      if (!fresh) {
        c.report("orl-id-unique", line_of(e, "id"),
                 "entry `" + id + "` appears twice: entry #" + std::to_string(it->second->index + 1) + " (line " +
                     std::to_string(it->second->line) + ") and entry #" + std::to_string(e.index + 1) + " (line " +
                     std::to_string(e.line) + ")");
      }
    }
    check_entry(c, doc, e);
  }
  if (doc.budget) check_budget(c, doc);
}

void check_open_requirements_history(const OpenRequirements& before, const OpenRequirements& after,
                                     const std::string& path, diag::FindingSink& sink) {
  if (before.yaml_error || after.yaml_error) return;
  const Ctx c{path, sink};
  HistoryCheck{c, before, after}.run();
}

}  // namespace lg::rules
