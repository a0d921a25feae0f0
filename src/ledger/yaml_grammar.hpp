// Private to the YAML loader: PyYAML 6.0's reader, scanner, parser and
// composer (yaml_grammar.cpp), and the Python text helpers the loader shares
// with them.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "ledgergate/ledger/yaml_node.hpp"

namespace lg::ledger::grammar {

inline constexpr std::string_view k_yaml_tag_prefix = "tag:yaml.org,2002:";

// Composes the one document of `text` (decoded UTF-8, invalid bytes read as
// U+FFFD) as SafeLoader.get_single_node does. On success the document's root
// is set (left nullptr when the stream holds no document) and every node has
// its kind, explicit tag ("" when none or the bare `!`), scalar text, plain
// and quoted flags, items/entries (aliases are the anchored node) and line;
// nothing is typed yet. Otherwise returns PyYAML's problem text and line.
// `simple_reader`: try the fast path for the common shape first (tests turn
// it off to compare both paths).
std::optional<YamlError> compose(std::string_view text, YamlDoc& doc, bool simple_reader = true);

// Composes a document of the simple reader's shape (block mappings of simple
// keys and one-line values, see SimpleReader) one entry of its root mapping
// at a time: for each, `doc` is cleared (its blocks kept) and made a
// document whose root is a one-entry mapping holding that entry, with the
// lines the whole document gives its nodes, and `each(doc)` is called;
// `each` returning false stops. Returns whether every entry was composed
// and handed over; false also for any document compose() would not read
// with the simple reader (an error, a tab, an empty stream...): `each` may
// then have seen some entries, and the caller composes the text whole.
// `first_line`: the 0-based number of the text's first line, for a text
// that is the tail of a document cut before one of its root entries.
bool compose_entries(std::string_view text, YamlDoc& doc, const std::function<bool(YamlDoc&)>& each,
                     int first_line = 0);
// Whether compose_entries would hand `text` to the simple reader at all:
// valid UTF-8, every character one PyYAML accepts, none (a tab, '\r', NEL,
// LS, PS, BOM) the simple reader leaves to the full port.
bool simple_input(std::string_view text);

// Python's repr() of a str held as UTF-8 (a lone surrogate, which a `\uD800`
// escape can produce, as its 3-byte form).
std::string str_repr(std::string_view s);
// Python's repr() of one character.
std::string char_repr(char32_t c);

// str() of the UnicodeDecodeError Python raises decoding `bytes` as UTF-8,
// for the first bad sequence, which starts at `offset`.
std::string utf8_error_text(std::string_view bytes, std::size_t offset);
// The offset of the first bad UTF-8 sequence of `bytes`, as Python's strict
// decoder finds it.
std::optional<std::size_t> first_bad_utf8(std::string_view bytes);

}  // namespace lg::ledger::grammar
