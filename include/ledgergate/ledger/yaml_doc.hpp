// A YAML loader with the semantics of PyYAML's `safe_load` (YAML 1.1
// SafeLoader), which the reference checker uses for projects.yaml (spec §5.1).
// The tree keeps what a dict loader loses: duplicate keys, key order and the
// line of every node. Each node also carries its Python view: the type
// SafeLoader would construct, its str(), its repr(), and its dict-key class.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lg::ledger {

enum class YamlKind : std::uint8_t { null, scalar, sequence, mapping };

// The Python type SafeLoader constructs for a node.
enum class PyType : std::uint8_t { none, str, int_, float_, bool_, date, datetime, bytes, list, dict, set };

struct YamlNode;

struct YamlEntry {
  const YamlNode* key = nullptr;
  const YamlNode* value = nullptr;
  bool merged = false;  // brought in by a `<<` merge key, not written in this mapping
};

// One node. Aliases are resolved: an alias is the anchored node itself (the
// same pointer), so a document with `&a`/`*a` is a graph, possibly cyclic.
// A 20,000-row projects.yaml holds some 600,000 nodes: the members are
// ordered so the node packs into 104 bytes.
struct YamlNode {
  std::string text;                    // a scalar's text after unescaping ("" for null)
  std::vector<const YamlNode*> items;  // sequence items
  // Mapping entries in document order with NO de-duplication; `<<` merge keys
  // are expanded as SafeLoader does (merged entries first, flagged).
  std::vector<YamlEntry> entries;

  int line = 0;  // 1-based line where the node starts (its anchor or tag, if any)
  std::uint32_t id = 0;  // index in the document's node store
  YamlKind kind = YamlKind::null;
  bool plain = false;   // typed implicitly (an untagged plain scalar, or the `!` tag)
  bool quoted = false;  // a quoted or block scalar without a tag: always str

  // The Python view, as SafeLoader constructs it.
  PyType type = PyType::none;
  bool tuples = false;      // !!omap / !!pairs: a list whose items are one-entry mappings read as 2-tuples
  // Rarely needed strings live out of line, so a 2,000-row document's tens of
  // thousands of nodes stay small: the explicit tag, and for non-str
  // scalars their Python str(), repr() and dict-key class (a str's derive
  // from `text`; use py_str / py_repr).
  struct Extra {
    std::string tag;          // "tag:yaml.org,2002:str", "!foo"
    std::string scalar_str;   // Python str()
    std::string scalar_repr;  // Python repr()
    std::string dict_key;     // equality class as a dict key ("I1" for 1, 1.0 and True)
  };
  std::unique_ptr<Extra> extra;

  // The explicit tag, or "" if none.
  const std::string& tag() const;
  Extra& mutable_extra() {
    if (!extra) extra = std::make_unique<Extra>();
    return *extra;
  }
};

class YamlDoc {
 public:
  YamlDoc() = default;
  YamlDoc(const YamlDoc&) = delete;
  YamlDoc& operator=(const YamlDoc&) = delete;
  YamlDoc(YamlDoc&&) = default;  // nodes live in fixed blocks: their addresses survive a move
  YamlDoc& operator=(YamlDoc&&) = default;
  ~YamlDoc() = default;

  // The document's root, or nullptr when the stream holds no document (empty,
  // comments only). A document that is just `~` or `---` has a null root node.
  const YamlNode* root() const { return m_root; }

  // Building (used by the loader).
  YamlNode& add_node() {
    if (m_size % k_block == 0) m_blocks.push_back(std::make_unique<YamlNode[]>(k_block));
    YamlNode& n = m_blocks.back()[m_size % k_block];
    n.id = static_cast<std::uint32_t>(m_size++);
    return n;
  }
  YamlNode& mutable_node(const YamlNode& n) { return m_blocks[n.id / k_block][n.id % k_block]; }
  void set_root(const YamlNode* root) { m_root = root; }

 private:
  static constexpr std::size_t k_block = 256;  // nodes per block
  std::vector<std::unique_ptr<YamlNode[]>> m_blocks;
  std::size_t m_size = 0;
  const YamlNode* m_root = nullptr;
};

struct YamlError {
  int line = 0;         // 1-based line of PyYAML's problem mark; 0 = no mark
  std::string problem;  // PyYAML's problem text, or the whole error text when there is no mark
};

struct YamlLoad {
  YamlDoc doc;
  std::optional<YamlError> error;  // set: no document (doc.root() is nullptr)
};

// Loads one YAML document as `yaml.safe_load(text)` would (text is already
// decoded UTF-8 with universal newlines applied). Never throws.
YamlLoad load_yaml(std::string_view text);

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
