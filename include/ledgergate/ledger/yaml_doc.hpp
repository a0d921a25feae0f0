// A YAML loader with the semantics of PyYAML's `safe_load` (YAML 1.1
// SafeLoader), which the reference checker uses for projects.yaml (spec §5.1).
// The tree keeps what a dict loader loses: duplicate keys, key order and the
// line of every node. Each node also carries its Python view: the type
// SafeLoader would construct, its str(), its repr(), and its dict-key class.
// The node model is yaml_node.hpp; the grammar that composes it is private
// (src/ledger/yaml_grammar.hpp) and knows nothing of this loader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/ledger/yaml_node.hpp"

namespace lg::ledger {

struct YamlLoad {
  YamlDoc doc;
  std::optional<YamlError> error;  // set: no document (doc.root() is nullptr)
};

// Whether the document's scalar texts may be views into the loaded text
// (borrowed: the text must outlive the document; a 20,000-row projects.yaml
// then keeps some 7 MB less) or are all copied into the document.
enum class YamlTexts : std::uint8_t { copied, borrowed };

// Loads one YAML document as `yaml.safe_load(text)` would (text is already
// decoded UTF-8 with universal newlines applied). Never throws.
YamlLoad load_yaml(std::string_view text, YamlTexts texts = YamlTexts::copied);

// Python's type(v).__name__: "int", "float", "bool", "date", "datetime",
// "list", "dict", "NoneType", "str", "bytes", "set".
std::string_view py_type_name(const YamlNode& n);
// Python's str(v): "True", "5", "1.5", "2026-09-01", "None", "['a', 'b']", "{'a': 1}".
std::string py_str(const YamlNode& n);
// Python's repr(v): "'x'", "5", "True", "None", "datetime.date(2026, 9, 1)", "['a']".
std::string py_repr(const YamlNode& n);

// repr() of item `i` of a list: a 2-tuple `('a', 1)` for !!omap / !!pairs.
std::string py_item_repr(const YamlNode& list, std::size_t i);

// Python's UnicodeDecodeError text for `bytes` read as UTF-8 ("'utf-8' codec
// can't decode byte 0xff in position 3: invalid start byte"), or nullopt.
std::optional<std::string> utf8_decode_error(std::string_view bytes);

// One key of a mapping read as a Python dict: the first occurrence's key
// object and position, the last occurrence's value.
struct PyDictItem {
  const YamlNode* key = nullptr;              // the first occurrence's key
  const YamlNode* value = nullptr;            // the last occurrence's value
  std::vector<const YamlEntry*> occurrences;  // every entry with an equal key, document order
};
// The mapping's items as Python's dict(...) keeps them (keys compared with
// Python equality: 1 == 1.0 == True). Empty for a non-mapping.
std::vector<PyDictItem> py_dict_items(const YamlNode& mapping);

}  // namespace lg::ledger
