// A text's lines as byte spans, for turning byte offsets (a fix's edits, a
// finding's column) into the positions other tools count in: JSON's code
// points, SARIF's and LSP's UTF-16 code units, LSP's UTF-8 bytes when
// negotiated. Lines end at "\n", "\r\n" or a lone "\r" (universal newlines,
// as the checker and LSP count them); a text ending in a line end has a
// last, empty line.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace lg::util {

// What a column counts.
enum class Unit { byte, code_point, utf16 };

// A 0-based line and a 0-based column in some Unit.
struct Position {
  int line = 0;
  int column = 0;
  friend bool operator==(const Position&, const Position&) = default;
};

class LineIndex {
 public:
  // `text` must outlive the index.
  explicit LineIndex(std::string_view text);

  std::string_view text() const { return m_text; }
  std::size_t line_count() const { return m_starts.size(); }
  // Line `i` (0-based) without its line end; empty past the last line.
  std::string_view line(std::size_t i) const;
  std::size_t line_begin(std::size_t i) const;  // byte offset of the line's first byte
  std::size_t line_end(std::size_t i) const;    // byte offset of its line end (or the text's end)
  std::size_t next_line(std::size_t i) const;   // byte offset after its line end
  std::string_view eol(std::size_t i) const;    // "\n", "\r\n", "\r" or "" (the last line)
  // The line end the text uses first ("\n" when it has none).
  std::string_view first_eol() const;

  // The position of byte `offset` (clamped to the text), its column in `unit`.
  Position position(std::size_t offset, Unit unit) const;
  // The byte offset of `pos`; a line past the end is the text's end, a
  // column past the line's end is its end, and a column inside a
  // multi-byte character or a UTF-16 pair is that character's start.
  std::size_t offset(Position pos, Unit unit) const;

 private:
  std::string_view m_text;
  std::vector<std::size_t> m_starts;  // byte offset of each line's start
};

}  // namespace lg::util
