// projects.yaml validation, PyYAML era (spec §5.1, rules Y-01..Y-18): the
// document is loaded as `yaml.safe_load` would and read with Python dict
// semantics (duplicate keys: last value wins, first position kept), then
// every row is checked in the reference's order. Duplicate keys, which the
// reference loses silently (gap G-04), are reported as our own warning.
#include "ledgergate/rules/projects_yaml.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <thread>
#include <unordered_set>

#include "ledgergate/ledger/yaml_doc.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/rules/threads.hpp"
#include "ledgergate/util/tasks.hpp"
#include "ledgergate/util/text.hpp"
#include "ledgergate/util/varint.hpp"

namespace lg::rules {

namespace {

// The names a kept field may have (the known fields of every era), each
// kept as its one-byte index; any other name is written out after
// k_named_field.
constexpr std::string_view k_field_names[] = {"remote",   "local_path", "ral_root",     "mirror",    "sync_cli",
                                              "sync_verbs", "ledger",   "assistant",    "witness_file", "partition",
                                              "status",   "note"};
constexpr unsigned char k_named_field = 0xFF;

// A known field's one-byte code, or k_named_field.
unsigned char code_of(std::string_view name) {
  const auto* known = std::find(std::begin(k_field_names), std::end(k_field_names), name);
  return known == std::end(k_field_names) ? k_named_field : static_cast<unsigned char>(known - std::begin(k_field_names));
}

// The field at `at`: its name, its value, and the offset after it.
struct FieldAt {
  std::string_view name;
  std::string_view value;
  std::size_t next = 0;
};
FieldAt field_at(const std::string& data, std::size_t at) {
  const std::string_view all(data);
  FieldAt f;
  const auto code = static_cast<unsigned char>(data[at++]);
  if (code == k_named_field) {
    const std::size_t n = util::varint_at(data.data(), at);
    f.name = all.substr(at, n);
    at += n;
  } else {
    f.name = k_field_names[code];
  }
  const std::size_t n = util::varint_at(data.data(), at);
  f.value = all.substr(at, n);
  f.next = at + n;
  return f;
}

}  // namespace

ProjectFields::ProjectFields(std::initializer_list<value_type> fields) {
  for (const auto& [name, value] : fields) emplace_back(name, value);
}

void ProjectFields::emplace_back(std::string_view name, std::string_view value) {
  const unsigned char code = code_of(name);
  m_data += static_cast<char>(code);
  if (code == k_named_field) {
    util::append_varint(m_data, name.size());
    m_data.append(name);
  }
  util::append_varint(m_data, value.size());
  m_data.append(value);
}

std::size_t ProjectFields::size() const { return static_cast<std::size_t>(std::distance(begin(), end())); }

std::optional<std::string_view> ProjectFields::get(std::string_view name) const {
  const unsigned char code = code_of(name);
  const std::string_view all(m_data);
  for (std::size_t at = 0; at < m_data.size();) {
    const auto c = static_cast<unsigned char>(m_data[at++]);
    bool match = c == code && c != k_named_field;
    if (c == k_named_field) {
      const std::size_t n = util::varint_at(m_data.data(), at);
      match = all.substr(at, n) == name;
      at += n;
    }
    const std::size_t n = util::varint_at(m_data.data(), at);
    if (match) return all.substr(at, n);
    at += n;
  }
  return std::nullopt;
}

ProjectFields::value_type ProjectFields::iterator::operator*() const {
  const FieldAt f = field_at(*m_data, m_at);
  return {f.name, f.value};
}

ProjectFields::iterator& ProjectFields::iterator::operator++() {
  if (static_cast<unsigned char>((*m_data)[m_at++]) == k_named_field) m_at += util::varint_at(m_data->data(), m_at);
  m_at += util::varint_at(m_data->data(), m_at);
  return *this;
}

const ProjectRow* ProjectsTable::find(std::string_view key) const {
  if (by_key.size() == rows.size()) {
    auto it = std::lower_bound(by_key.begin(), by_key.end(), key,
                               [this](std::uint32_t i, std::string_view k) { return rows[i].key < k; });
    return it != by_key.end() && rows[*it].key == key ? &rows[*it] : nullptr;
  }
  for (const ProjectRow& row : rows) {
    if (row.key == key) return &row;
  }
  return nullptr;
}

void ProjectsTable::index() {
  by_key.resize(rows.size());
  for (std::uint32_t i = 0; i < by_key.size(); ++i) by_key[i] = i;
  std::stable_sort(by_key.begin(), by_key.end(),
                   [this](std::uint32_t a, std::uint32_t b) { return rows[a].key < rows[b].key; });
}

namespace {

using ledger::PyDictItem;
using ledger::PyType;
using ledger::YamlNode;

constexpr std::array<std::string_view, 3> k_partitions = {"gpu", "ral", "both"};

// Python's `re.match(pattern + "$", s)` for a pattern that cannot match "\n":
// `$` also matches before one final newline.
std::string_view dollar_body(std::string_view s) {
  return !s.empty() && s.back() == '\n' ? s.substr(0, s.size() - 1) : s;
}

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// ^[a-z][a-z0-9_]*$
bool is_project_key(std::string_view s) {
  const std::string_view b = dollar_body(s);
  return !b.empty() && is_lower(b[0]) &&
         std::all_of(b.begin() + 1, b.end(), [](char c) { return is_lower(c) || is_digit(c) || c == '_'; });
}

// ^[a-z][a-z0-9_-]*$
bool is_bare_word(std::string_view s) {
  const std::string_view b = dollar_body(s);
  return !b.empty() && is_lower(b[0]) &&
         std::all_of(b.begin() + 1, b.end(), [](char c) { return is_lower(c) || is_digit(c) || c == '_' || c == '-'; });
}

// [\w.-]+ with Python's Unicode \w.
bool is_remote_part(std::string_view s) {
  if (s.empty()) return false;
  for (std::size_t pos = 0; pos < s.size();) {
    const char32_t c = util::next_code_point(s, pos);
    if (!util::is_word(c) && c != U'.' && c != U'-') return false;
  }
  return true;
}

// re.match(r'^[\w.-]+/[\w.-]+$', s)
bool is_remote(std::string_view s) {
  const std::string_view b = dollar_body(s);
  const std::size_t slash = b.find('/');
  return slash != std::string_view::npos && is_remote_part(b.substr(0, slash)) && is_remote_part(b.substr(slash + 1));
}

// re.match(r'^[A-Za-z0-9_.-]+$', s)
bool is_assistant_name(std::string_view s) {
  const std::string_view b = dollar_body(s);
  return !b.empty() && std::all_of(b.begin(), b.end(), [](char c) {
    return is_lower(c) || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '.' || c == '-';
  });
}

// Python's text mode: "\r\n" and a lone "\r" read as "\n". `out` holds the
// converted copy when there is a CR (the returned view is then into it);
// without one the text is returned as is, saving a copy of the whole file.
std::string_view universal_newlines(std::string_view text, std::string& out) {
  if (text.find('\r') == std::string_view::npos) return text;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
      continue;
    }
    out += '\n';
    if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
  }
  return out;
}

// The required fields in the reference's order; `assistant` from T2 on.
constexpr std::string_view k_required_fields[] = {"remote",    "local_path",   "ral_root",  "mirror",
                                                  "sync_cli",  "sync_verbs",   "ledger",    "assistant",
                                                  "witness_file", "partition", "status"};

bool is_required(const ProjectsYamlEra& era, std::string_view field) {
  if (field == "assistant") return era.assistant_known;
  return std::find(std::begin(k_required_fields), std::end(k_required_fields), field) != std::end(k_required_fields);
}

bool is_known_field(const ProjectsYamlEra& era, std::string_view field) {
  return field == "note" || is_required(era, field);
}

}  // namespace

std::vector<std::string> known_project_fields(const ProjectsYamlEra& era) {
  std::vector<std::string> out;
  for (const std::string_view field : k_required_fields) {
    if (is_required(era, field)) out.emplace_back(field);
  }
  out.emplace_back("note");
  return out;
}

namespace {

using KeptField = KeptProjectField;

class Checker {
 public:
  // `quiet`: only the table is wanted: nothing is reported, and the checks
  // that only report (duplicates, each row's fields together) are skipped.
  // `slim`: each row keeps only its inputs, status first.
  Checker(const ProjectsYamlEra& era, diag::FindingSink& sink, const std::string& path, bool quiet = false,
          bool slim = false)
      : m_era(era), m_sink(sink), m_path(path), m_quiet(quiet), m_slim(slim) {}

  void check_document(const YamlNode* root, ProjectsTable& table) {
    if (!root || root->type == PyType::none) return;
    if (root->type != PyType::dict) {
      report("projects-yaml-is-mapping", root->line, "the document is not a mapping of project keys");
      return;
    }
    for (const PyDictItem& item : ledger::py_dict_items(*root)) {
      if (auto row = check_row(item)) table.rows.push_back(std::move(*row));
    }
  }

  // One entry of the root mapping read on its own (ledger::load_yaml_entries),
  // its key written once in the document: checked as check_document would.
  void check_entry(const ledger::YamlEntry& entry, ProjectsTable& table) {
    m_render = ledger::PyRender();  // its digests are by node id, which each entry's document numbers anew
    const PyDictItem item{entry.key, entry.value, {&entry}};
    if (auto row = check_row(item)) table.rows.push_back(std::move(*row));
  }

  void report(RuleId rule, int line, std::string message,
              diag::PeerForm form = diag::PeerForm::path_message) {
    if (m_quiet) return;
    m_sink.report(make_finding(rule, m_path, line, std::move(message), form));
  }

 private:
  // The projects-yaml-duplicate-key findings for one key: every occurrence
  // written after the first (merged-in entries are not duplicates).
  void report_duplicates(const PyDictItem& item, const std::string& what) {
    std::vector<const ledger::YamlEntry*> written;
    for (const ledger::YamlEntry* e : item.occurrences) {
      if (!e->merged) written.push_back(e);
    }
    for (std::size_t i = 1; i < written.size(); ++i) {
      report("projects-yaml-duplicate-key", written[i]->key->line,
             what + " (first at line " + std::to_string(written[0]->key->line) + ") — the loader keeps the last",
             diag::PeerForm::none);
    }
  }

  std::optional<ProjectRow> check_row(const PyDictItem& item) {
    const YamlNode& key_node = *item.key;
    const int kept_line = item.occurrences.back()->key->line;
    if (!m_quiet) report_duplicates(item, "duplicate project key `" + m_render.str(key_node) + "`");
    if (key_node.type != PyType::str || !is_project_key(key_node.text())) {
      report("projects-yaml-key-grammar", key_node.line,
             "project key " + m_render.repr(key_node) + " must match ^[a-z][a-z0-9_]*$");
      return std::nullopt;
    }
    const std::string key(key_node.text());
    if (item.value->type != PyType::dict) {
      report("projects-yaml-row-is-mapping", kept_line, key + " is not a mapping of fields");
      return std::nullopt;
    }
    std::vector<KeptField> fields;
    for (const PyDictItem& field : ledger::py_dict_items(*item.value)) {
      if (auto kept = check_field(key, field)) fields.push_back(std::move(*kept));
    }
    if (!m_quiet) check_row_fields(key, kept_line, fields);
    ProjectRow row;
    row.key = key;
    row.line = kept_line;
    if (m_slim) {  // the inputs, status first (as projects_yaml_row_inputs keeps them)
      for (const std::string_view name : {std::string_view("status"), std::string_view("partition")}) {
        const auto it = std::find_if(fields.begin(), fields.end(), [&](const KeptField& f) { return f.name == name; });
        if (it != fields.end()) row.fields.emplace_back(it->name, it->value);
      }
    } else {
      for (const KeptField& f : fields) row.fields.emplace_back(f.name, f.value);
    }
    row.fields.shrink_to_fit();
    return row;
  }

  std::optional<KeptField> check_field(const std::string& key, const PyDictItem& field) {
    const std::string name = m_render.str(*field.key);
    const YamlNode& value = *field.value;
    const int line = field.occurrences.back()->key->line;
    if (!m_quiet) report_duplicates(field, "duplicate field `" + name + "` on " + key);
    if (field.key->type != PyType::str || !is_known_field(m_era, name)) {
      report("projects-yaml-field-known", field.key->line, "unknown field `" + name + "` on " + key);
      return std::nullopt;
    }
    if (name == "sync_verbs") return check_sync_verbs(key, value, line);
    KeptField kept{name, "", false, line};
    if (value.type == PyType::none) {
      report("projects-yaml-field-has-value", line, key + "." + name + " has no value");
    } else if (value.type != PyType::str) {
      report("projects-yaml-field-is-string", line,
             key + "." + name + " must be a string, not " + std::string(ledger::py_type_name(value)));
      kept.value = m_render.str(value);
    } else {
      kept.value = std::string(value.text());
    }
    return kept;
  }

  std::optional<KeptField> check_sync_verbs(const std::string& key, const YamlNode& value, int line) {
    if (value.type != PyType::list) {
      report("projects-yaml-sync-verbs-list", line, key + ".sync_verbs must be a list `[a, b]`");
      return std::nullopt;
    }
    std::vector<std::string> good;
    std::vector<std::string> bad;
    std::size_t quoted = 0;  // the message quotes the bad items up to the render limit, then "..."
    bool more = false;
    for (std::size_t i = 0; i < value.items().size(); ++i) {
      const YamlNode& item = *value.items()[i];
      const bool is_str = !value.tuples && item.type == PyType::str;
      if (is_str && is_bare_word(item.text())) {
        good.emplace_back(item.text());
      } else if (quoted > ledger::k_yaml_render_limit) {
        more = true;
      } else {
        bad.push_back(m_render.item_repr(value, i));
        quoted += bad.back().size() + 2;
      }
    }
    if (more) bad.emplace_back("...");
    if (!bad.empty()) {
      report("projects-yaml-sync-verbs-words", line,
             key + ".sync_verbs holds a non-bare word: [" + util::join(bad, ", ") + "]");
    }
    return KeptField{"sync_verbs", util::join(good, ", "), true, line};
  }

 public:
  // Y-11..Y-18, after the row's fields.
  void check_row_fields(const std::string& key, int row_line, const std::vector<KeptField>& fields) {
    auto find = [&](std::string_view name) -> const KeptField* {
      const auto it = std::find_if(fields.begin(), fields.end(), [&](const KeptField& f) { return f.name == name; });
      return it == fields.end() ? nullptr : &*it;
    };
    std::vector<std::string> missing;
    for (std::string_view f : k_required_fields) {
      if (is_required(m_era, f) && !find(f)) missing.emplace_back(f);
    }
    if (!missing.empty())
      report("projects-yaml-required-fields", row_line, key + " is missing " + util::join(missing, ", "));
    for (const KeptField& f : fields) {
      if (!f.is_list && util::is_blank(f.value))
        report("projects-yaml-field-not-empty", f.line, key + "." + f.name + " is empty");
    }
    check_enums(key, find("partition"), find("status"));
    check_shapes(key, find);
  }

 private:
  void check_enums(const std::string& key, const KeptField* partition, const KeptField* status) {
    if (partition && !partition->value.empty() &&
        std::find(k_partitions.begin(), k_partitions.end(), partition->value) == k_partitions.end()) {
      report("projects-yaml-partition-enum", partition->line,
             key + ".partition must be gpu | ral | both, not " + partition->value);
    }
    const std::vector<std::string>& statuses = m_era.statuses;
    if (status && !status->value.empty() &&
        std::find(statuses.begin(), statuses.end(), status->value) == statuses.end()) {
      report("projects-yaml-status-enum", status->line,
             key + ".status must be " + util::join(statuses, " | ") + ", not " + status->value);
    }
  }

  template <class Find>
  void check_shapes(const std::string& key, const Find& find) {
    if (const KeptField* remote = find("remote");
        remote && !remote->value.empty() && remote->value != "none" && !is_remote(remote->value)) {
      report("projects-yaml-remote-shape", remote->line, key + ".remote must be owner/repo or none");
    }
    for (const char* name : {"local_path", "ral_root"}) {
      const KeptField* f = find(name);
      if (f && !f->value.empty() && f->value[0] != '/') {
        report("projects-yaml-absolute-paths", f->line, key + "." + name + " must be an absolute path");
      }
    }
    if (const KeptField* mirror = find("mirror");
        mirror && !mirror->value.empty() && mirror->value != "none" && mirror->value[0] != '/') {
      report("projects-yaml-mirror-shape", mirror->line, key + ".mirror must be an absolute path or none");
    }
    const KeptField* assistant = m_era.assistant_known ? find("assistant") : nullptr;
    if (assistant && !assistant->value.empty() && assistant->value != "none" && !is_assistant_name(assistant->value)) {
      report("projects-yaml-assistant-shape", assistant->line,
             key + ".assistant must be 'none' or a bare workspace-relative directory name (got " +
                 util::py_repr(assistant->value) + ")");
    }
  }

  const ProjectsYamlEra& m_era;
  diag::FindingSink& m_sink;
  const std::string& m_path;
  const bool m_quiet;
  const bool m_slim;
  ledger::PyRender m_render;  // the document's values, cut past k_yaml_render_limit
};

// ---- The row inputs' fast path ----
//
// The row inputs (projects_yaml_row_inputs) of a root entry of the common
// shape are read straight from its lines, without nodes: a key line
// `key:` and under it one `name: value` line per field, every scalar one
// the simple reader takes whole and the resolver types str. Any other entry
// (a comment after a value, a nested value, a number, a duplicate status...)
// is read as before, by the simple reader, on its own lines.

// Byte classes of the fast path.
enum : std::uint8_t {
  k_name = 1,   // [a-z0-9_]: a simple key's byte (ledger's simple reader takes more)
  k_plain = 2,  // [A-Za-z0-9_./-]: a plain word's byte, which no flow item, comment or resolver reads otherwise
  k_lead = 4,   // [A-Za-z/]: a plain str's first byte (no number, timestamp, `.inf`, `~`, `<<`, `=`, `-`)
  k_bool = 8,   // the first bytes of PyYAML's bool and null words
  k_inner = 16,  // '*' and ' ': in a plain str, not first ('*' an alias, ' ' cut at the end)
};
constexpr std::array<std::uint8_t, 256> make_byte_classes() {
  std::array<std::uint8_t, 256> c{};
  for (std::size_t b = 'a'; b <= 'z'; ++b) c[b] = k_name | k_plain | k_lead;
  for (std::size_t b = 'A'; b <= 'Z'; ++b) c[b] = k_plain | k_lead;
  for (std::size_t b = '0'; b <= '9'; ++b) c[b] = k_name | k_plain;
  c['_'] = k_name | k_plain;
  c['.'] = c['-'] = k_plain;
  c['/'] = k_plain | k_lead;
  c['*'] = c[' '] = k_inner;
  for (const char b : std::string_view("yYnNtTfFoO")) c[static_cast<unsigned char>(b)] |= k_bool;
  return c;
}
constexpr std::array<std::uint8_t, 256> k_byte_classes = make_byte_classes();
inline bool has_class(char c, std::uint8_t cls) { return (k_byte_classes[static_cast<unsigned char>(c)] & cls) != 0; }

// PyYAML's bool and null words (ledger's resolve_plain).
bool is_bool_or_null_word(std::string_view s) {
  if (s.size() < 2 || s.size() > 5 || !has_class(s[0], k_bool)) return false;
  static constexpr std::array<std::string_view, 21> k_words = {
      "yes",  "Yes",  "YES",  "no",    "No",    "NO",  "true", "True", "TRUE", "false", "False",
      "FALSE", "on",  "On",   "ON",    "off",   "Off", "OFF",  "null", "Null", "NULL"};
  for (const std::string_view w : k_words) {
    if (w.size() == s.size() && w[0] == s[0] && w == s) return true;
  }
  return false;
}

// The length of the plain word at the start of `s` (k_plain bytes).
std::size_t plain_word(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && has_class(s[i], k_plain)) ++i;
  return i;
}

// A plain scalar that the simple reader takes whole and the resolver
// types str, spaces after it cut: it starts with a letter or '/', holds
// only plain bytes, '*' and inner spaces (no `: `, ` #`, flow or quote
// character), and is no bool or null word. Its length, or npos.
std::size_t plain_str(std::string_view s) {
  if (s.empty() || !has_class(s[0], k_lead)) return std::string_view::npos;
  for (const char c : s) {
    if (!has_class(c, k_plain | k_inner)) return std::string_view::npos;
  }
  const std::size_t end = s.find_last_not_of(' ') + 1;
  return is_bool_or_null_word(s.substr(0, end)) ? std::string_view::npos : end;
}

// A simple key the resolver types str: ^[a-z_][a-z0-9_]*$ (for a project
// key, ^[a-z][a-z0-9_]*$), not past the simple reader's key length, no
// bool or null word.
bool is_str_name(std::string_view s, bool project_key) {
  if (s.empty() || s.size() > 1000 || !(is_lower(s[0]) || (!project_key && s[0] == '_'))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return has_class(c, k_name); }) && !is_bool_or_null_word(s);
}

bool all_spaces(std::string_view s) { return s.find_first_not_of(' ') == std::string_view::npos; }

// A field's value as the fast path reads it: a str (its text), a flow list
// of str words, or nothing (not of the fast path's shape).
struct FastValue {
  bool ok = false;
  bool is_str = false;
  std::string_view text;
};

FastValue fast_value(std::string_view v) {
  FastValue out;
  if (v[0] == '"' || v[0] == '\'') {
    const std::size_t close = v.find(v[0], 1);
    if (close == std::string_view::npos || !all_spaces(v.substr(close + 1))) return out;
    out.text = v.substr(1, close - 1);
    if (v[0] == '"' && out.text.find('\\') != std::string_view::npos) return out;
    out.ok = out.is_str = true;
    return out;
  }
  if (v[0] == '[') {
    const std::size_t close = util::one_line_flow_words(
        v,
        [](std::string_view rest) {
          const std::size_t n = plain_word(rest);
          return n != 0 && plain_str(rest.substr(0, n)) == n ? n : 0;
        },
        [](std::string_view) {});
    out.ok = close != std::string_view::npos && all_spaces(v.substr(close + 1));
    return out;
  }
  const std::size_t n = plain_str(v);
  if (n == std::string_view::npos) return out;
  out.text = v.substr(0, n);
  out.ok = out.is_str = true;
  return out;
}

// One root entry read by the fast path, line by line: its key line, then
// each of its other lines that is neither blank nor a comment. `ok` turns
// false, for good, at the first line not of the fast path's shape.
class FastRow {
 public:
  // The key line, after its `root` spaces of indentation, numbered `line` from 0.
  void start(std::string_view head, int line) {
    *this = FastRow();
    const std::size_t colon = head.find(':');
    m_ok = colon != std::string_view::npos && is_str_name(head.substr(0, colon), true) &&
           all_spaces(head.substr(colon + 1));
    m_key = head.substr(0, colon);
    m_line = line;
  }

  // A field's line, `indent` its indentation and `s` what follows it.
  void field(std::size_t indent, std::string_view s) {
    if (!m_ok) return;
    if (m_indent == 0) m_indent = indent;
    std::size_t k = 0;
    while (k < s.size() && has_class(s[k], k_name)) ++k;
    const std::string_view name(s.data(), k);  // [a-z0-9_]*: is_str_name's test of each byte done
    m_ok = indent == m_indent && k + 1 < s.size() && s[k] == ':' && s[k + 1] == ' ' && k > 0 && k <= 1000 &&
           !is_digit(s[0]) && !is_bool_or_null_word(name);
    if (!m_ok) return;
    std::size_t v = k + 2;
    while (v < s.size() && s[v] == ' ') ++v;
    if (v == s.size() || s[v] == '#') {  // no value: null, or a nested node
      m_ok = false;
      return;
    }
    const FastValue value = fast_value(std::string_view(s.data() + v, s.size() - v));
    const int which = name == "status" ? 0 : (name == "partition" ? 1 : -1);
    m_ok = value.ok && (which < 0 || (!m_values[which] && value.is_str));  // not a duplicate, nor a value rendered
    if (m_ok && which >= 0) m_values[which] = value.text;
  }

  // The row, when every line was of the fast path's shape and there was a field.
  bool row(ProjectRow& out) const {
    if (!m_ok || m_indent == 0) return false;  // no field: the key's value is null
    out.key.assign(m_key);
    out.line = m_line + 1;
    out.fields = ProjectFields();
    if (m_values[0]) out.fields.emplace_back("status", *m_values[0]);
    if (m_values[1]) out.fields.emplace_back("partition", *m_values[1]);
    out.fields.shrink_to_fit();
    return true;
  }
  std::string_view key() const { return m_key; }

 private:
  bool m_ok = false;
  std::string_view m_key;
  int m_line = 0;
  std::size_t m_indent = 0;                      // the fields' indentation, once known
  std::optional<std::string_view> m_values[2];  // status, partition
};

// One part of the document read entry by entry (check_rows_streamed).
struct StreamedRows {
  bool read = false;
  std::vector<ProjectRow> rows;
  std::vector<diag::Finding> held;            // reported once every row was read
  std::unordered_set<std::string_view> keys;  // the texts are borrowed: views into the text
};

// Reads `part` as ledger::load_yaml_entries would, each entry handed to
// `each`, with its key (a view into `part`) unless `each` says false.
template <class Each>
bool load_entries(std::string_view part, int first_line, StreamedRows& out, const Each& each) {
  return ledger::load_yaml_entries(
      part, ledger::YamlTexts::borrowed,
      [&](const ledger::YamlEntry& entry) {
        if (entry.key->type != PyType::str || !out.keys.insert(entry.key->text()).second) return false;
        each(entry);
        return true;
      },
      first_line);
}

// The row inputs of `part`, as load_entries and a slim Checker read them:
// the part is cut before each root entry's key line as the simple reader
// walks it (a line less indented than the first fails the whole, as it
// does there), and each entry is read by FastRow, else by load_entries on
// its own lines (numbered as in the whole): the same rows, and false
// exactly when the whole would not load as entries.
bool read_row_inputs(std::string_view part, int first_line, Checker& checker, StreamedRows& out,
                     ProjectsTable& table) {
  if (!ledger::yaml_simple_input(part)) return false;
  std::optional<std::size_t> root;
  std::size_t entry_at = std::string_view::npos;
  int entry_line = 0;
  FastRow fast;
  ProjectRow row;
  const auto read_entry = [&](std::size_t end) {
    if (fast.row(row)) {
      if (!out.keys.insert(fast.key()).second) return false;
      table.rows.push_back(std::move(row));
      return true;
    }
    const std::string_view entry = part.substr(entry_at, end - entry_at);
    return load_entries(entry, entry_line, out, [&](const ledger::YamlEntry& e) { checker.check_entry(e, table); });
  };
  int number = first_line;
  for (std::size_t pos = 0; pos <= part.size(); ++number) {
    const std::size_t end = std::min(part.find('\n', pos), part.size());
    const std::string_view raw = part.substr(pos, end - pos);
    std::size_t indent = 0;
    while (indent < raw.size() && raw[indent] == ' ') ++indent;
    if (indent < raw.size() && raw[indent] != '#') {  // neither blank nor a comment
      if (!root) root = indent;
      if (indent < *root) return false;
      if (indent == *root) {
        if (entry_at != std::string_view::npos && !read_entry(pos)) return false;
        entry_at = pos;
        entry_line = number;
        fast.start(raw.substr(indent), number);
      } else {
        fast.field(indent, raw.substr(indent));
      }
    }
    pos = end + 1;
  }
  return entry_at != std::string_view::npos && read_entry(part.size());
}

StreamedRows read_rows_streamed(std::string_view part, int first_line, const ProjectsYamlEra& era,
                                const std::string& path, bool quiet, bool slim) {
  StreamedRows out;
  diag::CollectingSink held;
  Checker checker(era, held, path, quiet, slim);
  ProjectsTable table;
  if (slim && quiet) {  // nothing judged: the rows' lines read straight
    out.read = read_row_inputs(part, first_line, checker, out, table);
  } else {
    out.read = load_entries(part, first_line, out, [&](const ledger::YamlEntry& e) { checker.check_entry(e, table); });
  }
  if (out.read) {
    out.rows = std::move(table.rows);
    out.held = held.take();
  }
  return out;
}

// From this size on, a document of more than one root entry is read in two
// parts on two threads (a 20,000-row file is some 6 MB; a thread costs
// less than a thousandth of reading 256 KiB of rows).
constexpr std::size_t k_two_parts_from = 256 * 1024;

// Checks the rows one at a time, without the whole document's nodes
// (a 20,000-row file is some 30 MB of them): true when the document reads
// that way with every project key a str written once, the rows then in
// `table` and the findings, in check_document's order, reported. False
// otherwise, having reported nothing and kept no row: the document is then
// checked whole (a duplicate key's row keeps its first position and its
// last value, and a non-str key may equal another, as Python's dict says;
// an error is the whole document's). A big document is read in two parts,
// cut before a root entry (ledger::root_entry_cut), on two threads: each
// part's entries are read as the whole document's are, and the rows and
// findings are put back in document order, so the result is the same.
bool check_rows_streamed(std::string_view text, const ProjectsYamlEra& era, diag::FindingSink& sink,
                         const std::string& path, ProjectsTable& table, bool quiet, bool slim) {
  std::optional<std::size_t> cut;
  if (text.size() >= k_two_parts_from && util::worker_count(check_threads()) >= 2) {
    cut = ledger::root_entry_cut(text, text.size() / 2);
  }
  std::vector<StreamedRows> parts(cut ? 2 : 1);
  if (cut) {
    const std::string_view tail = text.substr(*cut);
    const int tail_line = static_cast<int>(std::count(text.begin(), text.begin() + *cut, '\n'));
    std::jthread other([&] {
      try {
        parts[1] = read_rows_streamed(tail, tail_line, era, path, quiet, slim);
      } catch (const std::exception&) {
        parts[1].read = false;  // read whole, on this thread, which reports what went wrong
      }
    });
    parts[0] = read_rows_streamed(text.substr(0, *cut), 0, era, path, quiet, slim);
  } else {
    parts[0] = read_rows_streamed(text, 0, era, path, quiet, slim);
  }
  for (const StreamedRows& part : parts) {
    if (!part.read) return false;
  }
  if (cut) {  // a key written in both parts: Python's dict keeps one row
    for (std::string_view key : parts[1].keys) {
      if (parts[0].keys.count(key) != 0) return false;
    }
  }
  if (parts.size() == 1) {
    table.rows = std::move(parts[0].rows);
  } else {
    table.rows.reserve(parts[0].rows.size() + parts[1].rows.size());
    for (StreamedRows& part : parts) {
      std::move(part.rows.begin(), part.rows.end(), std::back_inserter(table.rows));
      part.rows = std::vector<ProjectRow>();
    }
  }
  for (StreamedRows& part : parts) {
    for (diag::Finding& f : part.held) sink.report(std::move(f));
  }
  return true;
}

}  // namespace

void check_project_row_fields(const std::string& key, int row_line, const std::vector<KeptProjectField>& fields,
                              const ProjectsYamlEra& era, diag::FindingSink& sink, const std::string& path) {
  Checker(era, sink, path).check_row_fields(key, row_line, fields);
}

namespace {

// `slim`: each row's inputs alone (RowFields::inputs); with `quiet`, read
// as projects_yaml_row_inputs reads them.
ProjectsTable read_projects_yaml(std::optional<std::string_view> text, const ProjectsYamlEra& era,
                                 diag::FindingSink& sink, const std::string& path, bool quiet, bool slim = false) {
  ProjectsTable table;
  Checker checker(era, sink, path, quiet, slim);
  if (!text) {
    checker.report("projects-yaml-present", 0, "missing");
    return table;
  }
  table.present = true;
  if (const auto bad = ledger::utf8_decode_error(*text)) {
    const auto where = util::find_invalid_utf8(*text);
    checker.report("projects-yaml-parses", where ? where->line : 0, "not valid YAML: " + *bad);
    return table;
  }
  std::string converted;  // outlives `load`, whose texts view into the text
  const std::string_view decoded = universal_newlines(*text, converted);
  if (check_rows_streamed(decoded, era, sink, path, table, quiet, slim)) {
    table.index();
    return table;
  }
  const ledger::YamlLoad load = ledger::load_yaml(decoded, ledger::YamlTexts::borrowed);
  if (load.error) {
    const bool marked = load.error->line > 0;
    checker.report("projects-yaml-parses", load.error->line, "not valid YAML: " + load.error->problem,
                   marked ? diag::PeerForm::path_line_message : diag::PeerForm::path_message);
    return table;
  }
  checker.check_document(load.doc.root(), table);
  table.index();
  return table;
}

}  // namespace

ProjectsTable check_projects_yaml(std::optional<std::string_view> text, const ProjectsYamlEra& era,
                                  diag::FindingSink& sink, const std::string& path, RowFields fields) {
  return read_projects_yaml(text, era, sink, path, false, fields == RowFields::inputs);
}

ProjectsTable projects_yaml_table(std::optional<std::string_view> text, const ProjectsYamlEra& era) {
  diag::CollectingSink none;
  return read_projects_yaml(text, era, none, std::string(ledger::k_projects_yaml), true);
}

ProjectsTable projects_yaml_row_inputs(std::optional<std::string_view> text, const ProjectsYamlEra& era) {
  diag::CollectingSink none;
  return read_projects_yaml(text, era, none, std::string(ledger::k_projects_yaml), true, true);
}

}  // namespace lg::rules
