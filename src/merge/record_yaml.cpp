// projects.yaml and the open-requirements ledger cut into parts with the YAML
// loader's line marks. projects.yaml is one part, a record per top-level key
// (a row, keyed by project key); an open-requirements file has a part per
// top-level key, `entries:` holding a record per item (keyed by its `id`),
// any other key (`topology_repair:`) its fields. Each row or entry is cut
// into its fields too, so two sides changing different fields of one record
// merge. Blank and comment lines between records are glue, kept as they are.
#include <optional>

#include "ledgergate/ledger/text_file.hpp"
#include "ledgergate/ledger/yaml_doc.hpp"
#include "record_formats.hpp"

namespace lg::merge::record {
namespace {

using ledger::YamlKind;
using ledger::YamlNode;
using Marks = std::vector<std::pair<std::size_t, std::string>>;

// The 0-based start lines of a block mapping's keys, each on a line of its
// own after `after` (flow style, merge keys or two keys on one line: nullopt).
std::optional<Marks> key_lines(const YamlNode& mapping, std::size_t after, std::string_view prefix) {
  if (mapping.kind != YamlKind::mapping) return std::nullopt;
  Marks marks;
  marks.reserve(mapping.entries().size());
  for (const auto& e : mapping.entries()) {
    const auto line = static_cast<std::size_t>(e.key->line - 1);
    if (e.merged || e.key->kind != YamlKind::scalar || line < after || (!marks.empty() && line <= marks.back().first)) {
      return std::nullopt;
    }
    marks.emplace_back(line, std::string(prefix).append(e.key->text()));
  }
  return marks;
}

// What one format calls its collection and its records.
struct Shape {
  std::string_view collection;  // the top-level key holding the records ("": the top level itself)
  std::string_view noun;        // "rows", "entries"
  std::string_view prefix;      // "row ", "entry "
  bool same_add_conflicts = false;
};

// An item's identity: a row's key, an entry's `id` ("" when it has none: keyed by its bytes).
std::string identity(const YamlNode* key, const YamlNode& value) {
  if (key != nullptr) return std::string(key->text());
  for (const auto& e : value.entries()) {
    if (e.key->kind == YamlKind::scalar && e.key->text() == "id" && e.value->kind == YamlKind::scalar) return std::string(e.value->text());
  }
  return "";
}

Result<Part> collection_part(const std::vector<std::string_view>& lines, const YamlNode& node, std::size_t begin,
                             std::size_t end, std::size_t first_line, std::string name, const Shape& shape) {
  Starts starts;
  starts.reserve(node.kind == YamlKind::mapping ? node.entries().size() : node.items().size());
  std::size_t previous = 0;
  const auto add = [&](const YamlNode* key, const YamlNode& value, int line_no) -> Result<void> {
    const auto line = static_cast<std::size_t>(line_no - 1);
    if (line < first_line || (!starts.empty() && line <= previous) || line >= end) {
      return make_error(ErrorKind::invalid_input, std::string(shape.collection) + ": two records share a line");
    }
    previous = line;
    const std::string id = identity(key, value);
    RecordStart start{id.empty() ? "" : std::string(shape.prefix) + id, "", {}};
    // A row's fields start below its key line; an entry's first field is on its `- ` line.
    if (auto fields = key_lines(value, key != nullptr ? line + 1 : line, "field ")) start.fields = std::move(*fields);
    starts.emplace(line, std::move(start));
    return {};
  };
  if (node.kind == YamlKind::mapping) {
    for (const auto& e : node.entries()) {
      if (e.merged) return make_error(ErrorKind::invalid_input, "merge keys are not merged as records");
      if (auto r = add(e.key, *e.value, e.key->line); !r) return r.error();
    }
  } else if (node.kind == YamlKind::sequence) {
    for (const YamlNode* item : node.items()) {
      if (auto r = add(nullptr, *item, item->line); !r) return r.error();
    }
  }
  return Part{std::move(name), std::string(shape.noun), PartKind::keyed, record_items(lines, begin, end, starts, true),
              shape.same_add_conflicts};
}

Result<std::vector<Part>> yaml_parts(std::string_view bytes, const Shape& shape) {
  const ledger::TextFile text = ledger::decode_text(bytes);
  const ledger::YamlLoad load = ledger::load_yaml(text.text);
  if (load.error) {
    return make_error(ErrorKind::invalid_input,
                      "does not load as YAML (line " + std::to_string(load.error->line) + ": " + load.error->problem + ")");
  }
  const std::vector<std::string_view> lines = raw_lines(bytes);
  const YamlNode* root = load.doc.root();
  const bool empty = root == nullptr || root->kind == YamlKind::null;
  if (empty && shape.collection.empty()) {  // a projects.yaml without rows (comments only)
    return std::vector<Part>{Part{std::string(shape.noun), std::string(shape.noun), PartKind::keyed,
                                  line_items(lines, 0, lines.size()), false}};
  }
  if (empty || root->kind == YamlKind::scalar) {
    return std::vector<Part>{Part{"document", "documents", PartKind::text, line_items(lines, 0, lines.size()), false}};
  }
  if (root->kind == YamlKind::sequence || (root->kind == YamlKind::mapping && shape.collection.empty())) {
    LG_TRY(Part part, collection_part(lines, *root, 0, lines.size(), 0, std::string(shape.noun), shape));
    std::vector<Part> parts;  // not an initializer list: that would copy every record
    parts.push_back(std::move(part));
    return parts;
  }
  const auto top = key_lines(*root, 0, "");
  if (!top || top->empty()) return make_error(ErrorKind::invalid_input, "the top-level mapping is not in block style");
  std::vector<Part> parts{Part{"preamble", "lines", PartKind::text, line_items(lines, 0, top->front().first), false}};
  for (std::size_t k = 0; k < top->size(); ++k) {
    const std::size_t begin = (*top)[k].first;
    const std::size_t end = k + 1 < top->size() ? (*top)[k + 1].first : lines.size();
    const std::string& key = (*top)[k].second;
    const YamlNode& value = *root->entries()[k].value;
    if (key == shape.collection && value.kind != YamlKind::scalar) {
      LG_TRY(Part part, collection_part(lines, value, begin, end, begin + 1, key, shape));
      parts.push_back(std::move(part));
      continue;
    }
    // Any other key: its fields as records, or the key's own lines as one.
    Starts starts;
    if (auto fields = key_lines(value, begin + 1, "field ")) {
      for (auto& [line, name] : *fields) starts.emplace(line, RecordStart{key + " " + name, "", {}});
    }
    if (starts.empty()) starts.emplace(begin, RecordStart{"key " + key, "", {}});
    parts.push_back(Part{key, "fields", PartKind::keyed, record_items(lines, begin, end, starts, true), false});
  }
  return parts;
}

}  // namespace

Result<std::vector<Part>> projects_yaml_parts(std::string_view bytes) {
  return yaml_parts(bytes, Shape{"", "rows", "row ", false});
}

Result<std::vector<Part>> open_requirements_parts(std::string_view bytes) {
  return yaml_parts(bytes, Shape{"entries", "entries", "entry ", true});
}

}  // namespace lg::merge::record
