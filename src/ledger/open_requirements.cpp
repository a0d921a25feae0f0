// The open-requirements ledger model: the YAML tree (duplicate keys kept,
// lines on every node) read into entries and the escalation budget, keeping
// whatever is malformed visible to the rules instead of refusing it.
#include "ledgergate/ledger/open_requirements.hpp"

#include <charconv>

namespace lg::ledger {
namespace {

bool is_blank(std::string_view s) {
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// Reads one document's nodes into the model; its renderings (PyRender)
// share the digests of values the document names more than once.
class Reader {
 public:
  // Aliases can make the tree cyclic: only a sequence's direct items are
  // read. A collection's str() is its repr(): rendered once.
  OrlValue value(const YamlNode& n, int depth) {
    OrlValue v;
    v.kind = n.kind;
    v.type = n.type;
    v.line = n.line;
    v.repr = m_render.repr(n);
    const bool collection = n.type == PyType::list || n.type == PyType::dict || n.type == PyType::set;
    if (n.type != PyType::none) v.str = collection ? v.repr : m_render.str(n);
    if (n.kind == YamlKind::sequence && depth == 0) {
      for (const YamlNode* item : n.items()) v.items.push_back(value(*item, depth + 1));
    }
    return v;
  }

  std::string key_name(const YamlNode& key) {
    if (key.kind == YamlKind::scalar || key.kind == YamlKind::null) {
      return key.type == PyType::none ? "None" : m_render.str(key);
    }
    return m_render.repr(key);
  }

  std::vector<OrlKey> keys_of(const YamlNode& mapping) {
    std::vector<OrlKey> out;
    for (const YamlEntry& e : mapping.entries()) {
      if (e.merged) continue;
      out.push_back({key_name(*e.key), e.key->line});
    }
    return out;
  }

  OrlEntry entry(const YamlNode& n, std::size_t index) {
    OrlEntry e;
    e.line = n.line;
    e.index = index;
    e.is_mapping = n.kind == YamlKind::mapping;
    if (!e.is_mapping) {
      e.not_mapping_type = std::string(py_type_name(n));
      return e;
    }
    e.keys = keys_of(n);
    for (const YamlEntry& kv : n.entries()) {
      std::string name = key_name(*kv.key);
      OrlValue v = value(*kv.value, 0);
      bool replaced = false;
      for (auto& [k, old] : e.fields) {
        if (k == name) {
          old = std::move(v);
          replaced = true;
          break;
        }
      }
      if (!replaced) e.fields.emplace_back(std::move(name), std::move(v));
    }
    return e;
  }

  OrlBudget budget(const YamlNode& key, const YamlNode& n) {
    OrlBudget b;
    b.line = key.line;
    b.is_mapping = n.kind == YamlKind::mapping;
    if (!b.is_mapping) return b;
    b.keys = keys_of(n);
    for (const YamlEntry& kv : n.entries()) {
      const std::string name = key_name(*kv.key);
      if (name == "escalations") b.escalations = value(*kv.value, 0);
      if (name == "cap") b.cap = value(*kv.value, 0);
      if (name == "open_history") b.open_history = value(*kv.value, 0);
    }
    return b;
  }

  void entries(OpenRequirements& doc, const YamlNode& list) {
    for (std::size_t i = 0; i < list.items().size(); ++i) doc.entries.push_back(entry(*list.items()[i], i));
  }

 private:
  PyRender m_render;
};

}  // namespace

std::optional<std::int64_t> OrlValue::as_int() const {
  if (type != PyType::int_) return std::nullopt;
  std::int64_t out = 0;
  const char* first = str.data();
  const char* last = str.data() + str.size();
  auto [ptr, ec] = std::from_chars(first, last, out);
  if (ec != std::errc() || ptr != last) return std::nullopt;
  return out;
}

bool OrlValue::non_empty() const { return type != PyType::none && !is_blank(str); }

const OrlValue* OrlEntry::get(std::string_view name) const {
  for (const auto& [k, v] : fields) {
    if (k == name) return &v;
  }
  return nullptr;
}

std::string OrlEntry::id() const {
  const OrlValue* v = get("id");
  return v && v->is_string() && !v->str.empty() ? v->str : std::string();
}

std::string OrlEntry::status() const {
  const OrlValue* v = get("status");
  return v && v->is_string() ? v->str : std::string();
}

std::string OrlEntry::kind() const {
  const OrlValue* v = get("kind");
  return !v || v->is_null() ? std::string("gap") : v->str;
}

bool OrlEntry::blocking() const {
  const OrlValue* v = get("blocking");
  return v && v->is_true();
}

bool OrlEntry::because_struck() const {
  const OrlValue* v = get("because");
  if (!v || v->is_null()) return true;
  const std::string_view t = trim(v->str);
  if (t.empty()) return true;
  return t.size() >= 4 && t.substr(0, 2) == "~~" && t.substr(t.size() - 2) == "~~";
}

std::string OrlEntry::label() const {
  const std::string i = id();
  if (!i.empty()) return "entry `" + i + "` (line " + std::to_string(line) + ")";
  return "entry #" + std::to_string(index + 1) + " (line " + std::to_string(line) + ")";
}

const OrlEntry* OpenRequirements::find(std::string_view id) const {
  for (const OrlEntry& e : entries) {
    if (!id.empty() && e.id() == id) return &e;
  }
  return nullptr;
}

std::size_t OpenRequirements::open_blocking() const {
  std::size_t n = 0;
  for (const OrlEntry& e : entries) {
    if (e.status() == "open" && e.blocking()) ++n;
  }
  return n;
}

OpenRequirements parse_open_requirements(std::string_view text) {
  OpenRequirements doc;
  YamlLoad load = load_yaml(text);
  if (load.error) {
    doc.yaml_error = load.error;
    return doc;
  }
  const YamlNode* root = load.doc.root();
  Reader reader;
  if (!root || root->type == PyType::none) return doc;  // empty: an empty ledger
  doc.root_line = root->line;
  if (root->kind == YamlKind::sequence) {
    doc.form = OpenRequirements::Form::bare_list;
    reader.entries(doc, *root);
    return doc;
  }
  if (root->kind != YamlKind::mapping) {
    doc.form = OpenRequirements::Form::other;
    doc.root_type = std::string(py_type_name(*root));
    return doc;
  }
  doc.form = OpenRequirements::Form::mapping;
  doc.top_keys = reader.keys_of(*root);
  // A duplicated key: the last occurrence wins, as a loader keeps it.
  const YamlEntry* entries = nullptr;
  const YamlEntry* budget = nullptr;
  for (const YamlEntry& kv : root->entries()) {
    const std::string name = reader.key_name(*kv.key);
    if (name == "entries") entries = &kv;
    if (name == "topology_repair") budget = &kv;
  }
  if (entries) {
    doc.entries_line = entries->key->line;
    if (entries->value->kind == YamlKind::sequence) {
      reader.entries(doc, *entries->value);
    } else if (entries->value->type != PyType::none) {
      doc.entries_not_list = true;
      doc.entries_type = std::string(py_type_name(*entries->value));
    }
  }
  if (budget) doc.budget = reader.budget(*budget->key, *budget->value);
  return doc;
}

namespace {

bool match_segment(std::string_view glob, std::string_view name) {
  // Iterative wildcard match with one backtrack point.
  std::size_t g = 0, n = 0, star = std::string_view::npos, mark = 0;
  while (n < name.size()) {
    if (g < glob.size() && (glob[g] == '?' || glob[g] == name[n])) {
      ++g;
      ++n;
    } else if (g < glob.size() && glob[g] == '*') {
      star = g++;
      mark = n;
    } else if (star != std::string_view::npos) {
      g = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

std::vector<std::string_view> split_path(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = s.find('/', start);
    out.push_back(s.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

bool match_parts(const std::vector<std::string_view>& g, std::size_t gi, const std::vector<std::string_view>& p,
                 std::size_t pi) {
  if (gi == g.size()) return pi == p.size();
  if (g[gi] == "**") {
    for (std::size_t k = pi; k <= p.size(); ++k) {
      if (match_parts(g, gi + 1, p, k)) return true;
    }
    return false;
  }
  if (pi == p.size()) return false;
  return match_segment(g[gi], p[pi]) && match_parts(g, gi + 1, p, pi + 1);
}

}  // namespace

bool orl_glob_match(std::string_view glob, std::string_view path) {
  if (glob.find('/') == std::string_view::npos) {
    const std::size_t slash = path.rfind('/');
    return match_segment(glob, slash == std::string_view::npos ? path : path.substr(slash + 1));
  }
  return match_parts(split_path(glob), 0, split_path(path), 0);
}

}  // namespace lg::ledger
