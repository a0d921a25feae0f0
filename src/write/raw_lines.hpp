// A file's lines as the reference splits them (universal newlines: "\r\n",
// "\r" and "\n" end a line; a trailing newline yields a final empty line),
// each with its own line end, so that an edit replaces some lines and every
// other byte of the file stays as it was — CR line ends and a BOM included.
// Line i here is line i of ledger::TextFile over the same bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lg::write {

class RawLines {
 public:
  explicit RawLines(std::string_view bytes);

  std::size_t size() const { return m_lines.size(); }
  std::string_view text(std::size_t i) const { return m_lines[i].text; }
  // Replaces lines [begin, end) by `lines`. New lines end as the file's
  // first line does ("\n" when it has none); the file's last line keeps its
  // ending (none after a trailing newline), so the file ends as it did.
  void replace(std::size_t begin, std::size_t end, const std::vector<std::string>& lines);
  void insert(std::size_t at, std::string line) { replace(at, at, {std::move(line)}); }
  std::string bytes() const;

 private:
  struct Line {
    std::string text;
    std::string_view eol;  // "", "\n", "\r\n" or "\r"
  };
  std::vector<Line> m_lines;
  std::string_view m_eol = "\n";
};

}  // namespace lg::write
