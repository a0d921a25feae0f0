// Byte offsets ↔ (line, column) in bytes, code points or UTF-16 code units.
#include "ledgergate/util/line_index.hpp"

#include <algorithm>

#include "ledgergate/util/text.hpp"

namespace lg::util {
namespace {

// How many `unit`s the code point starting at `s[at]` counts, and its byte length in `len`.
int width(std::string_view s, std::size_t at, Unit unit, std::size_t& len) {
  std::size_t next = at;
  const char32_t cp = util::next_code_point(s, next);
  len = next - at;
  switch (unit) {
    case Unit::byte: return static_cast<int>(len);
    case Unit::code_point: return 1;
    case Unit::utf16: return cp >= 0x10000 ? 2 : 1;
  }
  return 1;
}

}  // namespace

LineIndex::LineIndex(std::string_view text) : m_text(text) {
  m_starts.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      m_starts.push_back(i + 1);
    } else if (text[i] == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
      m_starts.push_back(i + 1);
    }
  }
}

std::size_t LineIndex::line_begin(std::size_t i) const {
  return i < m_starts.size() ? m_starts[i] : m_text.size();
}

std::size_t LineIndex::next_line(std::size_t i) const {
  return i + 1 < m_starts.size() ? m_starts[i + 1] : m_text.size();
}

std::size_t LineIndex::line_end(std::size_t i) const {
  if (i + 1 >= m_starts.size()) return m_text.size();
  std::size_t end = m_starts[i + 1];
  if (end > m_starts[i] && m_text[end - 1] == '\n') --end;
  if (end > m_starts[i] && m_text[end - 1] == '\r') --end;
  return end;
}

std::string_view LineIndex::line(std::size_t i) const {
  const std::size_t begin = line_begin(i);
  return m_text.substr(begin, line_end(i) - begin);
}

std::string_view LineIndex::eol(std::size_t i) const {
  const std::size_t end = line_end(i);
  return m_text.substr(end, next_line(i) - end);
}

std::string_view LineIndex::first_eol() const {
  return m_starts.size() > 1 ? eol(0) : std::string_view("\n");
}

Position LineIndex::position(std::size_t offset, Unit unit) const {
  offset = std::min(offset, m_text.size());
  const auto it = std::upper_bound(m_starts.begin(), m_starts.end(), offset);
  const std::size_t line = static_cast<std::size_t>(it - m_starts.begin()) - 1;
  // An offset inside a "\r\n" counts as the line's end.
  const std::size_t end = std::min(offset, line_end(line));
  int column = 0;
  for (std::size_t at = m_starts[line]; at < end;) {
    std::size_t len = 0;
    column += width(m_text, at, unit, len);
    at += len;
  }
  return Position{static_cast<int>(line), column};
}

std::size_t LineIndex::offset(Position pos, Unit unit) const {
  if (pos.line < 0) return 0;
  const auto line = static_cast<std::size_t>(pos.line);
  if (line >= m_starts.size()) return m_text.size();
  const std::size_t end = line_end(line);
  std::size_t at = m_starts[line];
  int column = 0;
  while (at < end && column < pos.column) {
    std::size_t len = 0;
    const int w = width(m_text, at, unit, len);
    if (column + w > pos.column) break;  // inside the character: its start
    column += w;
    at += len;
  }
  return at;
}

}  // namespace lg::util
