// The YAML document model: nodes as the composer builds them (kind, text,
// items, entries, line) with room for the Python view the loader's
// constructor pass fills in. The grammar (yaml_grammar.cpp) builds it and
// the loader (yaml_doc.hpp) types it, so both depend on this header and the
// loader on the grammar, never the grammar on the loader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
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
  const std::string& tag() const {
    static const std::string k_none;
    return extra ? extra->tag : k_none;
  }
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

}  // namespace lg::ledger
