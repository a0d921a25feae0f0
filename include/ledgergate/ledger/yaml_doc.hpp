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
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
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

// Loads `text` as load_yaml does, one entry of its root mapping at a time,
// when the document has the shape the simple reader takes (block mappings of
// simple keys whose values are one-line scalars, one-line flow lists of
// words, or nested block mappings; yaml_grammar.hpp): `each` gets every
// entry as written (document order, no de-duplication), its nodes typed as
// in the whole document and valid during the call only, so only one entry's
// nodes are held at a time. Returns false when the document is not of that
// shape or does not load (`each` may have seen some entries: load it whole
// to know why), or when `each` returned false. Never throws. `first_line`
// (0-based) numbers the text's first line: a text cut from a document
// before one of its root entries (ledger::root_entry_cut) loads as that
// part of the whole.
bool load_yaml_entries(std::string_view text, YamlTexts texts, const std::function<bool(const YamlEntry&)>& each,
                       int first_line = 0);
// Whether load_yaml_entries would read `text` with the simple reader at
// all (grammar::simple_input): valid UTF-8, no character PyYAML refuses,
// none the simple reader leaves to the full port. A reader that reads some
// entries of such a text its own way (rules::projects_yaml's row inputs)
// checks this once for the whole text.
bool yaml_simple_input(std::string_view text);
// Where `text` may be cut in two parts that load_yaml_entries reads as it
// reads the whole: the start of the line nearest after `near` written at
// the indentation of the document's first line that is neither blank nor a
// comment (a root entry's key line, in the simple reader's shape); nullopt
// when no such line follows. In any other shape both parts fail to load
// as entries, as the whole does.
std::optional<std::size_t> root_entry_cut(std::string_view text, std::size_t near);

// Python's type(v).__name__: "int", "float", "bool", "date", "datetime",
// "list", "dict", "NoneType", "str", "bytes", "set".
std::string_view py_type_name(const YamlNode& n);

// The longest rendering of a collection (a list, dict or set: its repr(),
// its str()) before it is cut. Aliases are shared nodes, never copies, so a
// document of a few kilobytes can name a value whose rendering is
// gigabytes (anchors nested nine deep, each referenced nine times): past
// this many bytes the rendering stops, ends with " ... [cut at 4096 bytes;
// fingerprint HEX]" (a digest of the whole rendering, so two values that
// differ anywhere still render differently) and costs what the document's
// nodes cost. Scalars are never cut: their text is in the document.
inline constexpr std::size_t k_yaml_render_limit = 4096;

// Python's str() and repr() of one document's nodes, cut as above. The
// digests of cut renderings are kept per node, so a value the document
// names many times (through aliases) is digested once: use one PyRender
// per document for many values.
class PyRender {
 public:
  // Python's str(v): "True", "5", "1.5", "2026-09-01", "None", "['a', 'b']", "{'a': 1}".
  std::string str(const YamlNode& n);
  // Python's repr(v): "'x'", "5", "True", "None", "datetime.date(2026, 9, 1)", "['a']".
  std::string repr(const YamlNode& n);
  // repr() of item `i` of a list: a 2-tuple `('a', 1)` for !!omap / !!pairs.
  std::string item_repr(const YamlNode& list, std::size_t i);

 private:
  struct Piece;
  struct Digest {
    std::uint64_t hash = 0;
    std::uint64_t power = 1;
  };
  static std::vector<Piece> pieces(const YamlNode& n);
  std::uint64_t digest(const YamlNode* context, std::vector<Piece> root);
  static std::string cut(std::string text, std::uint64_t whole);
  std::unordered_map<std::uint32_t, Digest> m_digests;  // by node id
};

// One-off renderings (a PyRender each).
std::string py_str(const YamlNode& n);
std::string py_repr(const YamlNode& n);
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
