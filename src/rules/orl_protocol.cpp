// The protocol steps as text edits. The parsed model gives each entry's and
// key's line; an edit replaces the lines of one key's value (or inserts one
// line), or appends an entry block after the last line of the entries list.
// Every edit re-parses, so edits compose without tracking offsets.
#include "ledgergate/rules/orl_protocol.hpp"

#include <algorithm>

#include "ledgergate/ledger/open_requirements.hpp"
#include "ledgergate/ledger/text_file.hpp"
#include "ledgergate/rules/open_requirements.hpp"

namespace lg::rules {
namespace {

using ledger::OpenRequirements;
using ledger::OrlEntry;
using ledger::OrlKey;

Error refuse(std::string message) { return make_error(ErrorKind::invalid_input, std::move(message)); }

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    out.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

std::size_t indent_of(std::string_view line) {
  const std::size_t i = line.find_first_not_of(' ');
  return i == std::string_view::npos ? line.size() : i;
}

bool is_blank_or_comment(std::string_view line) {
  const std::size_t i = line.find_first_not_of(" \t");
  return i == std::string_view::npos || line[i] == '#';
}

// A YAML double-quoted scalar.
std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    const auto u = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      static constexpr char hex[] = "0123456789ABCDEF";
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 0xF];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

OpenRequirements parse(std::string_view text) { return ledger::parse_open_requirements(text); }

Result<OpenRequirements> parse_ok(std::string_view text) {
  OpenRequirements doc = parse(text);
  if (doc.yaml_error) {
    return refuse("the ledger is not valid YAML (line " + std::to_string(doc.yaml_error->line) +
                  "): " + doc.yaml_error->problem);
  }
  if (doc.form == OpenRequirements::Form::other) return refuse("the ledger is not a mapping with `entries:`");
  if (doc.entries_not_list) return refuse("`entries` is not a list");
  return doc;
}

// The 0-based index of the last line of the entries list that is not blank
// or a comment, scanning on from the last entry's first line; the dash column.
std::size_t list_end(const std::vector<std::string>& lines, const OrlEntry& last, std::size_t dash) {
  std::size_t end = static_cast<std::size_t>(last.line - 1);
  for (std::size_t i = end + 1; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (is_blank_or_comment(l)) continue;
    const std::size_t ind = indent_of(l);
    const bool item = ind == dash && (l.compare(ind, 2, "- ") == 0 || l.size() == ind + 1);
    if (ind > dash || item) {
      end = i;
      continue;
    }
    break;
  }
  return end;
}

// The last content line of entry `i` (0-based line index).
std::size_t entry_end(const std::vector<std::string>& lines, const OpenRequirements& doc, std::size_t i) {
  const OrlEntry& e = doc.entries[i];
  const std::size_t dash = indent_of(lines[static_cast<std::size_t>(e.line - 1)]);
  std::size_t limit = i + 1 < doc.entries.size() ? static_cast<std::size_t>(doc.entries[i + 1].line - 1)
                                                 : list_end(lines, e, dash) + 1;
  std::size_t end = static_cast<std::size_t>(e.line - 1);
  for (std::size_t k = end; k < limit && k < lines.size(); ++k) {
    if (!is_blank_or_comment(lines[k])) end = k;
  }
  return end;
}

// The column of key `name` on `line`: after the indentation and any "- ".
std::optional<std::size_t> key_column(std::string_view line, std::string_view name) {
  std::size_t col = indent_of(line);
  while (line.compare(col, 2, "- ") == 0) col = line.find_first_not_of(' ', col + 2);
  if (col == std::string_view::npos || line.compare(col, name.size(), name) != 0) return std::nullopt;
  const std::size_t after = line.find_first_not_of(' ', col + name.size());
  if (after == std::string_view::npos || line[after] != ':') return std::nullopt;
  return col;
}

// Sets `name: value` in the block mapping whose keys are `keys` and whose
// last content line is `end`: replaces the key's lines, or inserts a line.
Result<void> set_key(std::vector<std::string>& lines, const std::vector<OrlKey>& keys, std::size_t end,
                     const std::string& what, const std::string& name, const std::string& value) {
  std::vector<int> key_lines;
  for (const OrlKey& k : keys) key_lines.push_back(k.line);
  std::sort(key_lines.begin(), key_lines.end());
  if (std::adjacent_find(key_lines.begin(), key_lines.end()) != key_lines.end() || keys.empty()) {
    return refuse(what + " is written in flow style (several keys on one line); edit it by hand");
  }
  const OrlKey* found = nullptr;
  for (const OrlKey& k : keys) {
    if (k.name == name) {
      if (found) return refuse(what + " holds `" + name + "` twice; fix it by hand");
      found = &k;
    }
  }
  if (found) {
    const auto kl = static_cast<std::size_t>(found->line - 1);
    auto col = key_column(lines[kl], name);
    if (!col) return refuse(what + ": cannot locate `" + name + "` on line " + std::to_string(found->line));
    std::size_t stop = end;
    for (int l : key_lines) {
      if (l > found->line) {
        stop = static_cast<std::size_t>(l - 2);
        break;
      }
    }
    std::size_t last = kl;
    for (std::size_t k = kl; k <= stop && k < lines.size(); ++k) {
      if (!is_blank_or_comment(lines[k])) last = k;
    }
    lines[kl] = lines[kl].substr(0, *col) + name + ": " + value;
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(kl + 1), lines.begin() + static_cast<std::ptrdiff_t>(last + 1));
    return {};
  }
  // Insert after the mapping's last content line, at the column of its keys.
  std::optional<std::size_t> col;
  for (const OrlKey& k : keys) {
    if ((col = key_column(lines[static_cast<std::size_t>(k.line - 1)], k.name))) break;
  }
  if (!col) return refuse(what + ": cannot locate its keys");
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(end + 1), std::string(*col, ' ') + name + ": " + value);
  return {};
}

// Sets fields of entry `id`, one edit at a time (re-parsing between edits).
Result<std::string> set_fields(std::string text, const std::string& id,
                               const std::vector<std::pair<std::string, std::string>>& fields) {
  for (const auto& [name, value] : fields) {
    LG_TRY(OpenRequirements doc, parse_ok(text));
    const OrlEntry* e = doc.find(id);
    if (!e) return refuse("no entry `" + id + "` in the ledger");
    std::vector<std::string> lines = split_lines(text);
    const std::size_t end = entry_end(lines, doc, e->index);
    if (auto r = set_key(lines, e->keys, end, "entry `" + id + "`", name, value); !r) return r.error();
    text = join_lines(lines);
  }
  return text;
}

std::string entry_block(const OrlNewEntry& n, std::size_t dash) {
  const std::string pad(dash + 2, ' ');
  std::string out = std::string(dash, ' ') + "- id: " + quote(n.id) + "\n";
  out += pad + "status: open\n";
  if (n.dropped) out += pad + "kind: dropped\n";
  if (n.blocking) out += pad + "blocking: true\n";
  out += pad + "raised_by: " + quote(n.raised_by) + "\n";
  if (!n.step.empty()) out += pad + "step: " + quote(n.step) + "\n";
  if (n.dropped) {
    out += pad + "units: " + quote(n.units) + "\n";
    out += pad + "because: " + quote(n.because) + "\n";
  }
  out += pad + "unmet: " + quote(n.unmet) + "\n";
  out += pad + "missing: " + quote(n.missing) + "\n";
  out += pad + "resolved_by: null\n";
  out += pad + "supersedes: null\n";
  out += pad + "note: \"\"\n";
  return out;
}

bool ends_with_newline(std::string_view s) { return s.empty() || s.back() == '\n'; }

// Appends one entry block (as text) at the end of the entries list.
Result<std::string> append_block(std::string_view text, const OrlNewEntry& n) {
  LG_TRY(OpenRequirements doc, parse_ok(text));
  if (doc.find(n.id)) return refuse("an entry `" + n.id + "` already exists");
  std::vector<std::string> lines = split_lines(text);
  using Form = OpenRequirements::Form;
  if (!doc.entries.empty()) {
    const OrlEntry& last = doc.entries.back();
    const std::size_t dash = indent_of(lines[static_cast<std::size_t>(last.line - 1)]);
    if (lines[static_cast<std::size_t>(last.line - 1)].compare(dash, 1, "-") != 0) {
      return refuse("`entries` is written in flow style; edit it by hand");
    }
    const std::size_t end = list_end(lines, last, dash);
    std::vector<std::string> block = split_lines(entry_block(n, dash));
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(end + 1), block.begin(), block.end());
    return join_lines(lines);
  }
  if (doc.form == Form::bare_list) return std::string("entries:\n") + entry_block(n, 2);  // `[]`: nothing to keep
  if (doc.form == Form::empty) {
    std::string out(text);
    if (!ends_with_newline(out)) out += "\n";
    return out + "entries:\n" + entry_block(n, 2);
  }
  // A mapping without entries: `entries:` (null), `entries: []`, or no key.
  const OrlKey* key = nullptr;
  for (const OrlKey& k : doc.top_keys) {
    if (k.name == "entries") key = &k;
  }
  if (!key) {
    std::string out(text);
    if (!ends_with_newline(out)) out += "\n";
    return out + "entries:\n" + entry_block(n, 2);
  }
  const auto kl = static_cast<std::size_t>(key->line - 1);
  if (key_column(lines[kl], "entries") != std::size_t{0}) return refuse("cannot locate `entries:`");
  lines[kl] = "entries:";
  std::vector<std::string> block = split_lines(entry_block(n, 2));
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(kl + 1), block.begin(), block.end());
  return join_lines(lines);
}

std::string strike(std::string_view because) {
  std::string_view t = because;
  while (!t.empty() && (t.front() == ' ' || t.front() == '\n')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\n')) t.remove_suffix(1);
  return "~~" + std::string(t) + "~~";
}

}  // namespace

Result<std::string> orl_append(std::string_view text, const OrlNewEntry& entry) { return append_block(text, entry); }

std::string orl_empty_with_cap(std::int64_t cap) {
  return "topology_repair:\n  escalations: 0\n  cap: " + std::to_string(cap) + "\n  open_history: []\n" +
         std::string(k_orl_empty);
}

Result<std::string> orl_resolve(std::string_view text, const std::string& id, const std::string& by,
                                const std::string& note) {
  LG_TRY(OpenRequirements doc, parse_ok(text));
  const OrlEntry* e = doc.find(id);
  if (!e) return refuse("no entry `" + id + "` in the ledger");
  if (e->status() != "open") return refuse("entry `" + id + "` is " + e->status() + ", not open");
  return set_fields(std::string(text), id, {{"status", "resolved"}, {"resolved_by", quote(by)}, {"note", quote(note)}});
}

Result<std::string> orl_supersede(std::string_view text, const OrlSupersede& s) {
  LG_TRY(OpenRequirements doc, parse_ok(text));
  const OrlEntry* old = doc.find(s.refutes);
  if (!old) return refuse("no entry `" + s.refutes + "` to supersede");
  const ledger::OrlValue* because = old->get("because");
  std::vector<std::pair<std::string, std::string>> edits = {{"status", "open"}};
  if (old->get("resolved_by")) edits.emplace_back("resolved_by", "null");
  if (because && because->non_empty() && !old->because_struck()) edits.emplace_back("because", quote(strike(because->str)));
  edits.emplace_back("note", quote("refuted by " + s.id + ": " + s.quote));
  LG_TRY(std::string reopened, set_fields(std::string(text), s.refutes, edits));
  OrlNewEntry n;
  n.id = s.id;
  n.raised_by = s.by;
  n.unmet = s.unmet.empty() ? "the justification of " + s.refutes + " no longer holds" : s.unmet;
  n.missing = s.missing.empty() ? s.quote : s.missing;
  LG_TRY(std::string appended, append_block(reopened, n));
  return set_fields(appended, s.id,
                    {{"status", "resolved"},
                     {"resolved_by", quote(s.by)},
                     {"supersedes", quote(s.refutes)},
                     {"note", quote(s.note.empty() ? "refutes " + s.refutes + ": " + s.quote : s.note)}});
}

Result<std::string> orl_note(std::string_view text, const std::string& id, const std::string& note) {
  LG_TRY(OpenRequirements doc, parse_ok(text));
  const OrlEntry* e = doc.find(id);
  if (!e) return refuse("no entry `" + id + "` in the ledger");
  if (e->status() != "open") return refuse("entry `" + id + "` is " + e->status() + ", not open");
  return set_fields(std::string(text), id, {{"note", quote(note)}});
}

namespace {

Result<std::string> surrender_ids(std::string text, const std::vector<std::string>& ids, const std::string& note) {
  for (const std::string& id : ids) {
    LG_TRY(OpenRequirements doc, parse_ok(text));
    const OrlEntry* e = doc.find(id);
    const ledger::OrlValue* old_note = e ? e->get("note") : nullptr;
    std::vector<std::pair<std::string, std::string>> edits = {{"status", "surrendered"}};
    if (!old_note || !old_note->non_empty()) edits.emplace_back("note", quote(note));
    LG_TRY(text, set_fields(text, id, edits));
  }
  return text;
}

}  // namespace

Result<std::string> orl_surrender(std::string_view text, bool all, const std::string& note) {
  LG_TRY(OpenRequirements doc, parse_ok(text));
  std::vector<std::string> ids;
  for (const OrlEntry& e : doc.entries) {
    if (e.is_mapping && e.status() == "open" && (all || e.blocking()) && !e.id().empty()) ids.push_back(e.id());
  }
  return surrender_ids(std::string(text), ids,
                       note.empty() ? std::string("surrendered at the end of the run: still unmet") : note);
}

Result<std::string> orl_escalate(std::string_view text, std::optional<std::int64_t> baseline,
                                 std::optional<std::int64_t> cap) {
  LG_TRY(OpenRequirements doc, parse_ok(text));
  const auto open = static_cast<std::int64_t>(doc.open_blocking());
  std::int64_t esc = 0, the_cap = 0;
  std::vector<std::int64_t> hist;
  std::string out(text);
  if (doc.budget) {
    const ledger::OrlBudget& b = *doc.budget;
    const std::int64_t e = b.escalations ? b.escalations->as_int().value_or(-1) : -1;
    const std::int64_t c = b.cap ? b.cap->as_int().value_or(-1) : -1;
    if (!b.is_mapping || e < 0 || c < 1 || !b.open_history || b.open_history->kind != ledger::YamlKind::sequence) {
      return refuse("`topology_repair` is malformed; fix it by hand (see `ledgergate check`)");
    }
    if (cap && *cap != c) return refuse("the cap is " + std::to_string(c) + " and never changes");
    esc = e;
    the_cap = c;
    for (const ledger::OrlValue& v : b.open_history->items) hist.push_back(v.as_int().value_or(-1));
  } else {
    if (doc.form == OpenRequirements::Form::bare_list) return refuse("a bare-list ledger has no room for a budget");
    the_cap = cap.value_or(k_orl_default_cap);
    if (the_cap < 1) return refuse("the cap must be at least 1");
  }
  if (baseline) {
    if (esc != 0 || !hist.empty()) return refuse("--baseline is only for the first escalation");
    hist.push_back(*baseline);
  }
  hist.push_back(open);
  ++esc;
  std::string list = "[";
  for (std::size_t i = 0; i < hist.size(); ++i) list += (i ? ", " : "") + std::to_string(hist[i]);
  list += "]";
  if (!doc.budget) {
    std::string head = "topology_repair:\n  escalations: " + std::to_string(esc) + "\n  cap: " +
                       std::to_string(the_cap) + "\n  open_history: " + list + "\n";
    out = head + (doc.form == OpenRequirements::Form::empty && out.find_first_not_of(" \n") == std::string::npos
                      ? std::string("entries:\n")
                      : out);
  } else {
    for (const auto& [name, value] :
         std::vector<std::pair<std::string, std::string>>{{"escalations", std::to_string(esc)}, {"open_history", list}}) {
      LG_TRY(OpenRequirements now, parse_ok(out));
      std::vector<std::string> lines = split_lines(out);
      // The budget block ends before the next top-level key (or at the end).
      std::size_t end = lines.empty() ? 0 : lines.size() - 1;
      for (const OrlKey& k : now.top_keys) {
        if (k.line > now.budget->line) {
          end = std::min(end, static_cast<std::size_t>(k.line - 2));
        }
      }
      while (end > static_cast<std::size_t>(now.budget->line - 1) && is_blank_or_comment(lines[end])) --end;
      if (auto r = set_key(lines, now.budget->keys, end, "topology_repair", name, value); !r) return r.error();
      out = join_lines(lines);
    }
  }
  if (esc == the_cap) {
    LG_TRY(OpenRequirements now, parse_ok(out));
    std::vector<std::string> ids;
    for (const OrlEntry& e : now.entries) {
      if (e.is_mapping && e.status() == "open" && e.blocking() && !e.id().empty()) ids.push_back(e.id());
    }
    LG_TRY(out, surrender_ids(out, ids, "surrendered at the escalation cap (" + std::to_string(the_cap) + ")"));
  }
  return out;
}

std::vector<diag::Finding> validate_step(std::string_view before, std::string_view after, const std::string& path) {
  diag::CollectingSink sink;
  const auto old_doc = parse(ledger::decode_text(before).text);
  const auto new_doc = parse(ledger::decode_text(after).text);
  check_open_requirements(new_doc, path, sink);
  check_open_requirements_history(old_doc, new_doc, path, sink);
  return sink.take();
}

Result<OrlSummary> orl_summary(std::string_view text) {
  LG_TRY(OpenRequirements doc, parse_ok(text));
  OrlSummary s;
  for (const OrlEntry& e : doc.entries) {
    if (!e.is_mapping) continue;
    ++s.entries;
    const std::string st = e.status();
    if (st == "open") ++s.open;
    if (st == "resolved") ++s.resolved;
    if (st == "surrendered") ++s.surrendered;
    if (e.blocking()) ++s.blocking;
    if (e.blocking() && st == "open") ++s.open_blocking;
    if (e.kind() != "dropped") {
      ++s.gaps;
      continue;
    }
    ++s.dropped;
    OrlSummary::Drop d;
    d.id = e.id();
    d.status = st;
    const ledger::OrlValue* units = e.get("units");
    d.units = units ? units->str : std::string();
    const std::size_t digit = d.units.find_first_of("0123456789");
    if (digit != std::string::npos) {
      std::int64_t n = 0;
      std::size_t k = digit;
      while (k < d.units.size() && d.units[k] >= '0' && d.units[k] <= '9' && n < 1'000'000'000'000) {
        n = n * 10 + (d.units[k++] - '0');
      }
      d.count = n;
      s.dropped_units += n;
    }
    const ledger::OrlValue* because = e.get("because");
    d.struck = e.because_struck();
    d.cited = !d.struck && because && orl_because_cited(because->str);
    if (!d.cited && !d.struck) s.uncited.push_back(d.id);
    s.drops.push_back(std::move(d));
  }
  if (doc.budget && doc.budget->is_mapping) {
    s.has_budget = true;
    const ledger::OrlBudget& b = *doc.budget;
    s.escalations = b.escalations ? b.escalations->as_int().value_or(0) : 0;
    s.cap = b.cap ? b.cap->as_int().value_or(0) : 0;
    if (b.open_history) {
      for (const ledger::OrlValue& v : b.open_history->items) s.open_history.push_back(v.as_int().value_or(-1));
    }
    s.converges = s.escalations <= s.cap;
    for (std::size_t i = 1; i < s.open_history.size(); ++i) {
      if (s.open_history[i] >= s.open_history[i - 1]) s.converges = false;
    }
  }
  return s;
}

}  // namespace lg::rules
