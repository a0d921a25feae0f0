#include "raw_lines.hpp"

namespace lg::write {

RawLines::RawLines(std::string_view bytes) {
  std::size_t start = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const char c = bytes[i];
    if (c != '\n' && c != '\r') continue;
    std::string_view eol = c == '\n' ? "\n" : "\r";
    if (c == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n') eol = "\r\n";
    m_lines.push_back({std::string(bytes.substr(start, i - start)), eol});
    i += eol.size() - 1;
    start = i + 1;
  }
  m_lines.push_back({std::string(bytes.substr(start)), ""});
  if (m_lines.size() > 1) m_eol = m_lines.front().eol;
}

void RawLines::replace(std::size_t begin, std::size_t end, const std::vector<std::string>& lines) {
  const std::string_view last_eol = m_lines.back().eol;
  std::vector<Line> fresh;
  fresh.reserve(lines.size());
  for (const std::string& text : lines) fresh.push_back({text, m_eol});
  m_lines.erase(m_lines.begin() + static_cast<std::ptrdiff_t>(begin), m_lines.begin() + static_cast<std::ptrdiff_t>(end));
  m_lines.insert(m_lines.begin() + static_cast<std::ptrdiff_t>(begin), fresh.begin(), fresh.end());
  for (Line& l : m_lines) {
    if (l.eol.empty()) l.eol = m_eol;
  }
  if (!m_lines.empty()) m_lines.back().eol = last_eol;
}

std::string RawLines::bytes() const {
  std::string out;
  for (const Line& l : m_lines) {
    out += l.text;
    out += l.eol;
  }
  return out;
}

}  // namespace lg::write
