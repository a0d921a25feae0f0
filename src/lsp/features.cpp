// What the server says about a document's content: diagnostics' ranges,
// quick fixes (the rule's fix, "explain this rule", fix-all), hover,
// completion where the grammar allows one answer from a set, go to
// definition, document symbols.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "ledgergate/diag/rule_table.hpp"
#include "ledgergate/fix/fixers.hpp"
#include "ledgergate/ledger/open_requirements.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/ledger/vocabulary.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/report/commands.hpp"
#include "ledgergate/report/sarif.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/text.hpp"
#include "session.hpp"

namespace lg::lsp {
namespace {

constexpr std::string_view k_sep = " \xE2\x80\x94 ";  // " — "

int column_in(const fix::Place& p, util::Unit unit) { return unit == util::Unit::byte ? p.byte : p.utf16; }

json range(int line0, int col0, int line1, int col1) {
  return json{{"start", position(line0, col0)}, {"end", position(line1, col1)}};
}

// The position params' byte offset in `doc`, with the line's index.
struct Cursor {
  std::size_t line = 0;
  std::size_t offset = 0;     // in the text
  std::string_view before;    // the line up to the cursor
  std::string_view text;      // the whole line
};
Cursor cursor_of(const Document& doc, const util::LineIndex& lines, const json& params, util::Unit unit) {
  Cursor c;
  const json& pos = params.at("position");
  c.offset = offset_of(pos, lines, unit);
  c.line = static_cast<std::size_t>(lines.position(c.offset, util::Unit::byte).line);
  c.text = lines.line(c.line);
  c.before = std::string_view(doc.text).substr(lines.line_begin(c.line), c.offset - lines.line_begin(c.line));
  return c;
}

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// The word (letters, digits, `_`, `-`) around the cursor, with its byte span in the line.
struct Word {
  std::string text;
  std::size_t begin = 0, end = 0;  // in the line
};
Word word_at(const Cursor& c) {
  std::size_t at = c.before.size();
  std::size_t begin = at, end = at;
  while (begin > 0 && is_word_char(c.text[begin - 1])) --begin;
  while (end < c.text.size() && is_word_char(c.text[end])) ++end;
  return Word{std::string(c.text.substr(begin, end - begin)), begin, end};
}

// The URI of `path`: an open document's own (as its client spelled it), else one made from the root.
std::string uri_in_root(const Server::State& s, std::string_view path) {
  for (const auto& [uri, doc] : s.documents) {
    if (doc.path == path) return uri;
  }
  return uri_of_path(s.root + "/" + std::string(path));
}

json location(const Server::State& s, std::string_view path, int line) {
  return json{{"uri", uri_in_root(s, path)}, {"range", range(line, 0, line, 0)}};
}

// ---- code actions --------------------------------------------------------------

json text_edits(const Server::State& s, const fix::Fix& f) {
  json changes = json::object();
  for (const fix::Edit& e : f.edits) {
    changes[uri_in_root(s, e.path)].push_back(
        json{{"range", range(e.from.line, column_in(e.from, s.unit), e.to.line, column_in(e.to, s.unit))},
             {"newText", e.text}});
  }
  return changes;
}

bool wants(const json& params, std::string_view kind) {
  const json& context = params.value("context", json::object());
  if (!context.contains("only")) return kind == "quickfix";
  for (const json& only : context["only"]) {
    if (!only.is_string()) continue;
    const std::string o = only.get<std::string>();
    if (kind == o || util::starts_with(kind, o + ".")) return true;
  }
  return false;
}

// ---- completion ------------------------------------------------------------------

json item(std::string_view label, int kind, std::string_view detail, const Cursor& c, const util::LineIndex& lines,
          util::Unit unit) {
  const Word w = word_at(c);
  const std::size_t line_begin = lines.line_begin(c.line);
  const util::Position from = lines.position(line_begin + w.begin, unit);
  const util::Position to = lines.position(c.offset, unit);
  return json{{"label", label},
              {"kind", kind},
              {"detail", detail},
              {"textEdit", {{"range", range(from.line, from.column, to.line, to.column)}, {"newText", label}}}};
}

constexpr int k_value = 12, k_constant = 21, k_reference = 18, k_enum_member = 20;

// The line so far with ` -- ` read as ` — ` (the checker reads it so), and its separator count.
std::string dashed(std::string_view before) { return util::dash(before); }

std::size_t count_separators(std::string_view line) {
  std::size_t n = 0;
  for (std::size_t at = line.find(k_sep); at != std::string_view::npos; at = line.find(k_sep, at + k_sep.size())) ++n;
  return n;
}

// Whether `before` ends where a field starts: after "- " or after a separator.
bool at_field_start(std::string_view before, std::string_view word) {
  const std::string_view head = before.substr(0, before.size() - word.size());
  return head.ends_with(k_sep) || head == "- ";
}

// The name of the `## ` section holding line `line`, or "" (above the first heading).
std::string section_of(const util::LineIndex& lines, std::size_t line) {
  for (std::size_t i = line + 1; i-- > 0;) {
    const std::string_view t = lines.line(i);
    if (util::starts_with(t, "## ")) return std::string(util::strip(t.substr(3)));
  }
  return {};
}

std::vector<std::string> ruling_ids(git::TreeSource& tree) {
  std::vector<std::string> out;
  auto all = git::list_recursive(tree, std::string(ledger::k_rulings_dir));
  if (!all) return out;
  for (const auto& [path, entry] : *all) {
    if (auto r = ledger::match_ruling_path(path)) out.push_back(r->id);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::shared_ptr<const rules::ProjectsTable> rows_of(git::TreeSource& tree) {
  rules::CheckCache cache;
  auto rows = rules::projects_table(tree, cache);
  return rows ? *rows : nullptr;
}

// `Key: ` with the cursor in its value: the key.
std::optional<std::string> header_key(std::string_view before) {
  const std::size_t colon = before.find(": ");
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  const std::string_view key = before.substr(0, colon);
  if (!std::all_of(key.begin(), key.end(), [](char c) { return is_word_char(c); })) return std::nullopt;
  return std::string(key);
}

void add_all(json& items, const auto& words, int kind, std::string_view detail, const Cursor& c,
             const util::LineIndex& lines, util::Unit unit) {
  for (const auto& w : words) items.push_back(item(w, kind, detail, c, lines, unit));
}

json complete_project_ledger(Server::State& s, const Document& doc, const Cursor& c, const util::LineIndex& lines) {
  json items = json::array();
  const std::string key = std::filesystem::path(doc.path).stem().string();
  const std::string before = dashed(c.before);
  const Word w = word_at(c);
  const std::string section = section_of(lines, c.line);
  const std::size_t seps = count_separators(before);
  if (section.empty()) {
    if (auto k = header_key(c.before); k && *k == "Project") items.push_back(item(key, k_value, "the file's key", c, lines, s.unit));
    if (auto k = header_key(c.before); k && *k == "Issue") items.push_back(item("none", k_value, "no issue", c, lines, s.unit));
    return items;
  }
  if (!util::starts_with(before, "- ") || !at_field_start(before, w.text)) return items;
  if (section == "Runs") {
    if (seps == 1) add_all(items, ledger::k_run_states, k_enum_member, "run state", c, lines, s.unit);
    if (seps == 2) {
      auto rows = rows_of(s.workspace->tree());
      const rules::ProjectRow* row = rows ? rows->find(key) : nullptr;
      const auto partition = row ? row->get("partition") : std::nullopt;
      for (const std::string_view p : ledger::k_run_partitions) {
        if (!partition || *partition == "both" || *partition == p) {
          items.push_back(item(p, k_enum_member, "partition", c, lines, s.unit));
        }
      }
    }
    if (seps == 3) items.push_back(item(s.options.today, k_value, "today", c, lines, s.unit));
  } else if (section == "Log") {
    if (seps == 0) items.push_back(item(s.options.today, k_value, "today", c, lines, s.unit));
    if (seps == 1) add_all(items, ledger::k_log_kinds, k_enum_member, "log kind", c, lines, s.unit);
    if (seps == 2 && before.find(std::string(k_sep) + "run" + std::string(k_sep)) != std::string::npos) {
      const ledger::ProjectLedger parsed = ledger::parse_project_ledger(doc.text);
      for (const ledger::RunLine& r : parsed.runs) items.push_back(item(r.ident, k_reference, "a run of ## Runs", c, lines, s.unit));
    }
  }
  return items;
}

json complete_pt(Server::State& s, const Document& doc, const Cursor& c, const util::LineIndex& lines, bool ruling) {
  json items = json::array();
  if (auto k = header_key(c.before)) {
    if (*k == "State" && !ruling) add_all(items, ledger::k_pt_states, k_enum_member, "state", c, lines, s.unit);
    if (*k == "Ruling" && ruling) add_all(items, ledger::k_ruling_verbs, k_enum_member, "ruling verb", c, lines, s.unit);
    if ((*k == "Ruling" && !ruling) || *k == "Supersedes") {
      add_all(items, ruling_ids(s.workspace->tree()), k_reference, "ruling", c, lines, s.unit);
    }
    if (*k == "Project") {
      if (auto rows = rows_of(s.workspace->tree())) {
        for (const rules::ProjectRow& r : rows->rows) items.push_back(item(r.key, k_reference, "project", c, lines, s.unit));
      }
    }
    return items;
  }
  const std::string before = dashed(c.before);
  const Word w = word_at(c);
  if (util::starts_with(before, "    ruled: ")) {
    add_all(items, ruling_ids(s.workspace->tree()), k_reference, "ruling", c, lines, s.unit);
  } else if (util::starts_with(before, "    after: ") || util::starts_with(before, "    resumes: ")) {
    for (const ledger::PtRun& r : ledger::parse_pt_file(doc.text).runs) {
      items.push_back(item(r.ident, k_reference, "a run of this file", c, lines, s.unit));
    }
  } else if (util::starts_with(before, "- ") && section_of(lines, c.line) == "Runs") {
    const std::size_t colon = before.find(": ");
    if (colon != std::string::npos && before.size() - w.text.size() == colon + 2) {
      add_all(items, ledger::k_pt_run_states, k_enum_member, "run state", c, lines, s.unit);
    } else if (before.ends_with(" submitted " + w.text)) {
      items.push_back(item(s.options.today, k_value, "today", c, lines, s.unit));
    }
  }
  return items;
}

json complete_yaml(Server::State& s, const Cursor& c, const util::LineIndex& lines, FileKind kind) {
  json items = json::array();
  const std::string_view before = util::lstrip(c.before);
  const Word w = word_at(c);
  const auto value_of = [&](std::string_view key) {
    return util::starts_with(before, key) && before.size() - w.text.size() == key.size();
  };
  if (kind == FileKind::projects_yaml) {
    if (value_of("status: ")) add_all(items, ledger::k_row_statuses, k_enum_member, "status", c, lines, s.unit);
    if (value_of("partition: ")) add_all(items, ledger::k_row_partitions, k_enum_member, "partition", c, lines, s.unit);
  } else {
    const std::string_view entry = util::starts_with(before, "- ") ? before.substr(2) : before;
    const auto entry_value = [&](std::string_view key) {
      return util::starts_with(entry, key) && entry.size() - w.text.size() == key.size();
    };
    if (entry_value("status: ")) add_all(items, ledger::k_orl_statuses, k_enum_member, "status", c, lines, s.unit);
    if (entry_value("kind: ")) add_all(items, ledger::k_orl_kinds, k_enum_member, "kind", c, lines, s.unit);
    if (entry_value("blocking: ")) add_all(items, std::array{"true", "false"}, k_constant, "blocking", c, lines, s.unit);
    if (entry_value("supersedes: ")) {
      for (const ledger::OrlEntry& e : ledger::parse_open_requirements(std::string(lines.text())).entries) {
        if (!e.id().empty()) items.push_back(item(e.id(), k_reference, "entry", c, lines, s.unit));
      }
    }
  }
  return items;
}

// ---- document symbols ---------------------------------------------------------------

constexpr int k_sym_file = 1, k_sym_namespace = 3, k_sym_key = 20, k_sym_event = 24, k_sym_struct = 23,
              k_sym_field = 8;

json symbol(std::string_view name, std::string_view detail, int kind, const util::LineIndex& lines, std::size_t first,
            std::size_t last, util::Unit unit) {
  last = std::min(std::max(first, last), lines.line_count() - 1);
  const util::Position end = lines.position(lines.line_end(last), unit);
  const util::Position sel = lines.position(lines.line_end(first), unit);
  return json{{"name", name.empty() ? std::string_view("(unnamed)") : name},
              {"detail", detail},
              {"kind", kind},
              {"range", range(static_cast<int>(first), 0, end.line, end.column)},
              {"selectionRange", range(static_cast<int>(first), 0, sel.line, sel.column)},
              {"children", json::array()}};
}

// Sections as symbols, each with the children `child(section)` gives.
template <class Child>
json section_symbols(const std::vector<ledger::Section>& sections, const util::LineIndex& lines, util::Unit unit,
                     Child child) {
  json out = json::array();
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const ledger::Section& sec = sections[i];
    const std::size_t first = static_cast<std::size_t>(sec.line - 1);
    const std::size_t last = sec.body_end > 0 ? static_cast<std::size_t>(sec.body_end - 1) : first;
    json sym = symbol("## " + sec.name, "", k_sym_namespace, lines, first, last, unit);
    sym["children"] = child(sec);
    out.push_back(std::move(sym));
  }
  return out;
}

std::string shorten(std::string_view text) {
  const std::string s(text.substr(0, 80));
  return text.size() > 80 ? s + "…" : s;
}

json project_symbols(const Document& doc, const util::LineIndex& lines, util::Unit unit) {
  const ledger::ProjectLedger l = ledger::parse_project_ledger(doc.text);
  const auto in = [](const ledger::Section& s, int line) { return line > s.line && line <= s.body_end; };
  json out = section_symbols(l.sections, lines, unit, [&](const ledger::Section& sec) {
    json children = json::array();
    for (const ledger::RunLine& r : l.runs) {
      if (!in(sec, r.line)) continue;
      const auto at = static_cast<std::size_t>(r.line - 1);
      children.push_back(symbol(r.ident, r.state + " \xC2\xB7 " + r.partition + " \xC2\xB7 " + r.date, k_sym_event,
                                lines, at, at, unit));
    }
    for (const ledger::LogEntry& e : l.log) {
      if (!in(sec, e.line)) continue;
      const auto at = static_cast<std::size_t>(e.line - 1);
      children.push_back(symbol(e.date + " \xE2\x80\x94 " + e.kind, shorten(e.text), k_sym_event, lines, at, at, unit));
    }
    return children;
  });
  if (l.title) out.insert(out.begin(), symbol("# " + l.title->written, "title", k_sym_file, lines, 0, 0, unit));
  return out;
}

json pt_symbols(const Document& doc, const util::LineIndex& lines, util::Unit unit) {
  const ledger::PtFile f = ledger::parse_pt_file(doc.text);
  json out = section_symbols(f.sections, lines, unit, [&](const ledger::Section& sec) {
    json children = json::array();
    for (const ledger::PtRun& r : f.runs) {
      if (r.line <= sec.line || r.line > sec.body_end) continue;
      const auto at = static_cast<std::size_t>(r.line - 1);
      children.push_back(symbol(r.ident, r.state + " \xC2\xB7 " + r.partition, k_sym_event, lines, at, at, unit));
    }
    return children;
  });
  for (auto it = f.header.fields.rbegin(); it != f.header.fields.rend(); ++it) {
    const auto at = static_cast<std::size_t>(it->line - 1);
    out.insert(out.begin(), symbol(it->key, shorten(it->value), k_sym_key, lines, at, at, unit));
  }
  if (f.title) out.insert(out.begin(), symbol("# " + *f.title, "title", k_sym_file, lines, 0, 0, unit));
  return out;
}

json yaml_symbols(const Document& doc, const util::LineIndex& lines, util::Unit unit, FileKind kind) {
  json out = json::array();
  if (kind == FileKind::projects_yaml) {
    diag::CollectingSink sink;
    const rules::ProjectsTable table = rules::check_projects_yaml(doc.text, rules::ProjectsYamlEra{}, sink);
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
      const rules::ProjectRow& r = table.rows[i];
      const auto first = static_cast<std::size_t>(r.line - 1);
      std::size_t last = i + 1 < table.rows.size() ? static_cast<std::size_t>(table.rows[i + 1].line - 2) : lines.line_count() - 1;
      while (last > first && util::is_blank(lines.line(last))) --last;
      out.push_back(symbol(r.key, std::string(r.get("status").value_or("")), k_sym_struct, lines, first, last, unit));
    }
    return out;
  }
  const ledger::OpenRequirements doc_model = ledger::parse_open_requirements(doc.text);
  for (std::size_t i = 0; i < doc_model.entries.size(); ++i) {
    const ledger::OrlEntry& e = doc_model.entries[i];
    const auto first = static_cast<std::size_t>(std::max(e.line, 1) - 1);
    std::size_t last = i + 1 < doc_model.entries.size() ? static_cast<std::size_t>(doc_model.entries[i + 1].line - 2)
                                                        : lines.line_count() - 1;
    while (last > first && util::is_blank(lines.line(last))) --last;
    out.push_back(symbol(e.id().empty() ? e.label() : e.id(), e.status(), k_sym_field, lines, first, last, unit));
  }
  return out;
}

// ---- hover ----------------------------------------------------------------------------

std::string explanation(const diag::RuleInfo& r) {
  return fmt::format("**{}** ({}): {}\n\n```text\n{}```", r.id, r.ref.empty() ? "ledgergate" : r.ref, r.summary,
                     report::render_rule_explain(r));
}

}  // namespace

// ---- shared helpers ----------------------------------------------------------------------

std::optional<std::string> path_of_uri(std::string_view uri) {
  if (!util::starts_with(uri, "file://")) return std::nullopt;
  uri.remove_prefix(7);
  if (!uri.empty() && uri.front() != '/') {  // file://host/path: only the local host
    const std::size_t slash = uri.find('/');
    if (slash == std::string_view::npos || uri.substr(0, slash) != "localhost") return std::nullopt;
    uri.remove_prefix(slash);
  }
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(uri.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

std::string uri_of_path(std::string_view path) {
  std::string out = "file://";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      out += ch;
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

FileKind kind_of(std::string_view path, std::string_view orl_glob) {
  if (path == ledger::k_projects_yaml) return FileKind::projects_yaml;
  if (path == policy::k_policy_path) return FileKind::policy;
  if (ledger::match_ruling_path(path)) return FileKind::ruling;
  if (ledger::match_pt_path(path, "tasks") || ledger::match_pt_path(path, "phases")) return FileKind::pt_file;
  if (util::starts_with(path, "projects/") && path.ends_with(".md") && path.find('/', 9) == std::string_view::npos) {
    return FileKind::project_ledger;
  }
  if (ledger::orl_glob_match(orl_glob, path)) return FileKind::open_requirements;
  return FileKind::other;
}

json position(int line, int character) { return json{{"line", line}, {"character", character}}; }

std::size_t offset_of(const json& pos, const util::LineIndex& lines, util::Unit unit) {
  return lines.offset(util::Position{pos.at("line").get<int>(), pos.at("character").get<int>()}, unit);
}

json range_of(const diag::Finding& f, const util::LineIndex& lines, util::Unit unit) {
  const std::size_t line = std::min(static_cast<std::size_t>(std::max(f.location.line, 1) - 1), lines.line_count() - 1);
  const std::string_view text = lines.line(line);
  std::size_t start = lines.line_begin(line);
  if (f.location.column > 0) {
    start = lines.offset(util::Position{static_cast<int>(line), f.location.column - 1}, util::Unit::code_point);
  } else {
    start += text.size() - util::lstrip(text).size();
  }
  const std::size_t end = std::max(start, lines.line_end(line));
  const util::Position a = lines.position(start, unit), b = lines.position(end, unit);
  return range(a.line, a.column, b.line, b.column);
}

json diagnostic_of(const diag::Finding& f, const util::LineIndex& lines, util::Unit unit) {
  const int severity = f.severity == diag::Severity::error ? 1 : f.severity == diag::Severity::warning ? 2 : 3;
  return json{{"range", range_of(f, lines, unit)},
              {"severity", severity},
              {"code", f.rule},
              {"codeDescription", {{"href", report::rule_help_uri(f.rule)}}},
              {"source", "ledgergate"},
              {"message", f.message}};
}

// ---- handlers ----------------------------------------------------------------------

json code_actions(Server::State& s, const Document& doc, const json& params) {
  json out = json::array();
  if (!s.workspace || doc.path.empty()) return out;
  const util::LineIndex lines(doc.text);
  const json& r = params.at("range");
  const int first = r.at("start").at("line").get<int>(), last = r.at("end").at("line").get<int>();
  fix::FixContext context(s.workspace->tree());
  std::vector<fix::Fix> all_certain;
  std::set<std::string> explained;
  for (const diag::Finding& f : s.workspace->findings_at(doc.path)) {
    const int line = std::max(f.location.line, 1) - 1;
    if (line < first || line > last) continue;
    const json diagnostic = diagnostic_of(f, lines, s.unit);
    auto fix = fix::fix_for(context, f);
    if (fix && *fix && wants(params, "quickfix")) {
      out.push_back(json{{"title", fmt::format("Fix: {} ({})", (*fix)->title, f.rule)},
                         {"kind", "quickfix"},
                         {"diagnostics", json::array({diagnostic})},
                         {"isPreferred", (*fix)->kind == diag::FixKind::certain},
                         {"edit", {{"changes", text_edits(s, **fix)}}}});
    }
    if (wants(params, "quickfix") && explained.insert(f.rule).second) {
      const std::string title = "Explain rule " + f.rule;
      out.push_back(json{{"title", title},
                         {"kind", "quickfix"},
                         {"diagnostics", json::array({diagnostic})},
                         {"command", {{"title", title}, {"command", "ledgergate.explain"}, {"arguments", {f.rule}}}}});
    }
  }
  if (wants(params, "source.fixAll.ledgergate")) {
    std::vector<fix::Edit> edits;
    for (const diag::Finding& f : s.workspace->findings_at(doc.path)) {
      auto fix = fix::fix_for(context, f);
      if (!fix || !*fix || (*fix)->kind != diag::FixKind::certain) continue;
      const bool clash = std::any_of(edits.begin(), edits.end(), [&](const fix::Edit& a) {
        return std::any_of((*fix)->edits.begin(), (*fix)->edits.end(), [&](const fix::Edit& b) { return fix::overlaps(a, b); });
      });
      if (!clash) edits.insert(edits.end(), (*fix)->edits.begin(), (*fix)->edits.end());
    }
    if (!edits.empty()) {
      fix::Fix all;
      all.edits = std::move(edits);
      out.push_back(json{{"title", "Fix all certain ledgergate findings"},
                         {"kind", "source.fixAll.ledgergate"},
                         {"edit", {{"changes", text_edits(s, all)}}}});
    }
  }
  return out;
}

json hover(Server::State& s, const Document& doc, const json& params) {
  const util::LineIndex lines(doc.text);
  const Cursor c = cursor_of(doc, lines, params, s.unit);
  std::vector<std::string> parts;
  std::set<std::string> seen;
  if (s.workspace && !doc.path.empty()) {
    for (const diag::Finding& f : s.workspace->findings_at(doc.path)) {
      if (static_cast<std::size_t>(std::max(f.location.line, 1) - 1) != c.line || !seen.insert(f.rule).second) continue;
      if (const diag::RuleInfo* r = diag::find_rule(f.rule)) parts.push_back(f.message + "\n\n" + explanation(*r));
    }
  }
  const Word w = word_at(c);
  if (parts.empty()) {
    if (const diag::RuleInfo* r = diag::find_rule(w.text); r && !w.text.empty()) parts.push_back(explanation(*r));
  }
  if (parts.empty()) return nullptr;
  return json{{"contents", {{"kind", "markdown"}, {"value", util::join(parts, "\n\n---\n\n")}}}};
}

json completion(Server::State& s, const Document& doc, const json& params) {
  if (!s.workspace || doc.path.empty()) return json::array();
  const util::LineIndex lines(doc.text);
  const Cursor c = cursor_of(doc, lines, params, s.unit);
  const FileKind kind = kind_of(doc.path, s.workspace->options().open_requirements_glob);
  switch (kind) {
    case FileKind::project_ledger: return complete_project_ledger(s, doc, c, lines);
    case FileKind::pt_file: return complete_pt(s, doc, c, lines, false);
    case FileKind::ruling: return complete_pt(s, doc, c, lines, true);
    case FileKind::projects_yaml:
    case FileKind::open_requirements: return complete_yaml(s, c, lines, kind);
    case FileKind::policy:
    case FileKind::other: break;
  }
  return json::array();
}

json definition(Server::State& s, const Document& doc, const json& params) {
  if (!s.workspace) return nullptr;
  const util::LineIndex lines(doc.text);
  const Word w = word_at(cursor_of(doc, lines, params, s.unit));
  json out = json::array();
  if (ledger::is_ruling_id(w.text) && w.text.size() == 13) {  // R-YYYYMMDD-nn in ASCII digits
    const std::string dir = std::string(ledger::k_rulings_dir) + "/" + w.text.substr(2, 4) + "/" + w.text.substr(6, 2) + "/";
    for (const std::string& path : {dir + w.text + ".md", "archive/" + dir + w.text + ".md"}) {
      if (auto e = s.workspace->tree().stat(path); e && *e) out.push_back(location(s, path, 0));
    }
    return out;
  }
  const auto rows = rows_of(s.workspace->tree());
  const rules::ProjectRow* row = rows ? rows->find(w.text) : nullptr;
  if (!row) return out;
  const std::string ledger_path = std::string(ledger::k_projects_dir) + "/" + w.text + ".md";
  if (auto e = s.workspace->tree().stat(ledger_path); e && *e && doc.path != ledger_path) {
    out.push_back(location(s, ledger_path, 0));
  }
  out.push_back(location(s, ledger::k_projects_yaml, row->line - 1));
  return out;
}

json document_symbols(Server::State& s, const Document& doc) {
  const util::LineIndex lines(doc.text);
  const FileKind kind =
      kind_of(doc.path, s.workspace ? s.workspace->options().open_requirements_glob
                                    : std::string(ledger::k_default_open_requirements_glob));
  switch (kind) {
    case FileKind::project_ledger: return project_symbols(doc, lines, s.unit);
    case FileKind::pt_file:
    case FileKind::ruling: return pt_symbols(doc, lines, s.unit);
    case FileKind::projects_yaml:
    case FileKind::open_requirements:
      return yaml_symbols(doc, lines, s.unit, kind);
    case FileKind::policy:
    case FileKind::other: break;
  }
  return json::array();
}

json explain(Server::State& s, const json& params) {
  const json& args = params.value("arguments", json::array());
  const std::string id = !args.empty() && args[0].is_string() ? args[0].get<std::string>() : std::string();
  const diag::RuleInfo* r = diag::find_rule(id);
  if (!r) return nullptr;
  const std::string text = report::render_rule_explain(*r);
  s.notify("window/showMessage", {{"type", 3}, {"message", text}});
  return text;
}

}  // namespace lg::lsp
