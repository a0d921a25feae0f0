// The YAML document model: nodes as the composer builds them (kind, text,
// items, entries, line; the texts and children in per-document arenas) with room for the Python view the loader's
// constructor pass fills in. The grammar (yaml_grammar.cpp) builds it and
// the loader (yaml_doc.hpp) types it, so both depend on this header and the
// loader on the grammar, never the grammar on the loader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
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
// A 20,000-row projects.yaml holds some 600,000 nodes, so a node owns
// nothing but its rare Extra: its text and its items or entries are spans of
// the document's arenas (YamlDoc), and the members pack into 40 bytes.
struct YamlNode {
  // A scalar's text after unescaping ("" for null and collections).
  std::string_view text() const {
    if (kind != YamlKind::scalar || m_size == 0) return {};
    return {static_cast<const char*>(m_data), m_size};
  }
  // Sequence items (empty for a scalar or a mapping).
  std::span<const YamlNode* const> items() const {
    if (kind != YamlKind::sequence || m_size == 0) return {};
    return {static_cast<const YamlNode* const*>(m_data), m_size};
  }
  // Mapping entries in document order with NO de-duplication; `<<` merge keys
  // are expanded as SafeLoader does (merged entries first, flagged). Empty
  // for a scalar or a sequence.
  std::span<const YamlEntry> entries() const {
    if (kind != YamlKind::mapping || m_size == 0) return {};
    return {static_cast<const YamlEntry*>(m_data), m_size};
  }

 private:
  friend class YamlDoc;
  // By kind: a scalar's text (char[m_size]), a sequence's items
  // (const YamlNode*[m_size]) or a mapping's entries (YamlEntry[m_size]).
  const void* m_data = nullptr;
  std::uint32_t m_size = 0;

 public:
  // Rarely needed strings live out of line, so the nodes stay small: the
  // explicit tag, and for non-str scalars their Python str(), repr() and
  // dict-key class (a str's derive from `text()`; use py_str / py_repr).
  struct Extra {
    std::string tag;          // "tag:yaml.org,2002:str", "!foo"
    std::string scalar_str;   // Python str()
    std::string scalar_repr;  // Python repr()
    std::string dict_key;     // equality class as a dict key ("I1" for 1, 1.0 and True)
  };
  std::unique_ptr<Extra> extra;

  int line = 0;  // 1-based line where the node starts (its anchor or tag, if any)
  std::uint32_t id = 0;  // index in the document's node store
  YamlKind kind = YamlKind::null;
  bool plain = false;   // typed implicitly (an untagged plain scalar, or the `!` tag)
  bool quoted = false;  // a quoted or block scalar without a tag: always str

  // The Python view, as SafeLoader constructs it.
  PyType type = PyType::none;
  bool tuples = false;  // !!omap / !!pairs: a list whose items are one-entry mappings read as 2-tuples

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

// Fixed-size blocks of trivially copyable values, handed out as contiguous
// spans whose addresses never move (a span larger than a block gets a block
// of its own).
template <class T>
class YamlArena {
 public:
  std::span<T> allocate(std::size_t n) {
    if (n == 0) return {};
    if (n > k_block) {
      m_big.push_back(std::make_unique_for_overwrite<T[]>(n));
      return {m_big.back().get(), n};
    }
    if (m_blocks.empty() || m_used + n > k_block) {
      m_blocks.push_back(std::make_unique_for_overwrite<T[]>(k_block));
      m_used = 0;
    }
    T* at = m_blocks.back().get() + m_used;
    m_used += n;
    return {at, n};
  }
  // Forgets every span handed out; the first block is kept for reuse.
  void clear() {
    if (m_blocks.size() > 1) m_blocks.resize(1);
    m_big.clear();
    m_used = 0;
  }

 private:
  static constexpr std::size_t k_block = 65536 / sizeof(T);
  std::vector<std::unique_ptr<T[]>> m_blocks;
  std::vector<std::unique_ptr<T[]>> m_big;
  std::size_t m_used = 0;
};

class YamlDoc {
 public:
  YamlDoc() = default;
  YamlDoc(const YamlDoc&) = delete;
  YamlDoc& operator=(const YamlDoc&) = delete;
  YamlDoc(YamlDoc&&) = default;  // nodes and arenas live in fixed blocks: their addresses survive a move
  YamlDoc& operator=(YamlDoc&&) = default;
  ~YamlDoc() = default;

  // The document's root, or nullptr when the stream holds no document (empty,
  // comments only). A document that is just `~` or `---` has a null root node.
  const YamlNode* root() const { return m_root; }

  // Building (used by the loader).
  YamlNode& add_node() {
    if (m_size % k_block == 0 && m_size / k_block == m_blocks.size()) {
      m_blocks.push_back(std::make_unique<YamlNode[]>(k_block));
    }
    YamlNode& n = m_blocks.back()[m_size % k_block];
    n.id = static_cast<std::uint32_t>(m_size++);
    return n;
  }
  YamlNode& mutable_node(const YamlNode& n) { return m_blocks[n.id / k_block][n.id % k_block]; }
  void set_root(const YamlNode* root) { m_root = root; }
  // Empties the document for another (its nodes and texts are gone; the
  // borrowed source stays), keeping a block of each kind for reuse: a
  // document read one small piece at a time allocates once.
  void clear();
  // Copies into the document's arenas (the node's kind decides whether it
  // has items or entries; set the kind first). A text inside the borrowed
  // source is kept as a view into it, not copied.
  void set_text(YamlNode& n, std::string_view text);
  // The decoded document the texts may view into; it must outlive this doc.
  void borrow(std::string_view source) { m_source = source; }
  void set_items(YamlNode& n, std::span<const YamlNode* const> items);
  void set_entries(YamlNode& n, std::span<const YamlEntry> entries);

 private:
  static constexpr std::size_t k_block = 256;  // nodes per block
  std::vector<std::unique_ptr<YamlNode[]>> m_blocks;
  std::size_t m_size = 0;
  const YamlNode* m_root = nullptr;
  std::string_view m_source;  // borrow()'s
  YamlArena<char> m_texts;
  YamlArena<const YamlNode*> m_items;
  YamlArena<YamlEntry> m_entries;
};

struct YamlError {
  int line = 0;         // 1-based line of PyYAML's problem mark; 0 = no mark
  std::string problem;  // PyYAML's problem text, or the whole error text when there is no mark
};

}  // namespace lg::ledger
