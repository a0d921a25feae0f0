// Bytes → lines with Python text-mode semantics, keeping the oddities found.
#include "ledgergate/ledger/text_file.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "ledgergate/util/word_bytes.hpp"

namespace lg::ledger {
void TextFile::index_lines() {
  m_spans.clear();
  std::size_t start = 0;
  for (;;) {
    const auto* nl = static_cast<const char*>(std::memchr(text.data() + start, '\n', text.size() - start));
    if (!nl) break;
    const auto end = static_cast<std::size_t>(nl - text.data());
    m_spans.emplace_back(start, end - start);
    start = end + 1;
  }
  m_spans.emplace_back(start, text.size() - start);
}

namespace {

bool is_control(unsigned char c) { return c < 0x20 && c != '\t' && c != '\n' && c != '\r'; }

// The first control character in [p, end), or end. Eight bytes at a time
// (util/word_bytes.hpp): a word is looked at byte by byte only when a byte
// below 0x20 in it is no tab, LF or CR.
const unsigned char* first_control(const unsigned char* p, const unsigned char* end) {
  while (end - p >= 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, p, 8);
    const std::uint64_t below = util::bytes_below(word, 0x20);
    if (below != 0) {
      const std::uint64_t allowed =
          util::bytes_equal(word, '\t') | util::bytes_equal(word, '\n') | util::bytes_equal(word, '\r');
      if ((below & ~allowed) != 0) return std::find_if(p, p + 8, is_control);
    }
    p += 8;
  }
  return std::find_if(p, end, is_control);
}

// The first control character of `text`, located as after universal
// newlines (a lone CR, a CRLF and an LF each end one line).
std::optional<ControlChar> find_control(std::string_view text) {
  const auto* begin = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = begin + text.size();
  const auto* hit = first_control(begin, end);
  if (hit == end) return std::nullopt;
  ControlChar out{1, 1, *hit};
  for (const auto* p = begin; p != hit; ++p) {
    if (*p == '\n' || (*p == '\r' && (p + 1 == hit || p[1] != '\n'))) {
      ++out.line;
      out.column = 1;
    } else if (*p != '\r' && (*p & 0xC0) != 0x80) {
      ++out.column;  // a code point's first byte
    }
  }
  return out;
}

}  // namespace

TextFile decode_text(std::string_view bytes) { return decode_owned_text(std::string(bytes)); }

TextFile decode_owned_text(std::string&& bytes, bool index_lines) {
  TextFile out;
  out.facts.bad_utf8 = util::find_invalid_utf8(bytes);
  std::string clean = out.facts.bad_utf8 ? util::sanitize_utf8(bytes) : std::move(bytes);
  out.facts.bom = clean.rfind("\xEF\xBB\xBF", 0) == 0;
  out.facts.control = find_control(clean);
  const std::size_t first_cr = clean.find('\r');
  if (first_cr == std::string::npos) {
    out.text = std::move(clean);
    if (index_lines) out.index_lines();
    return out;
  }
  int line = 1;
  out.text.reserve(clean.size());
  for (std::size_t i = 0; i < clean.size(); ++i) {
    const char c = clean[i];
    if (c == '\r') {
      if (out.facts.cr_line == 0) out.facts.cr_line = line;
      if (i + 1 < clean.size() && clean[i + 1] == '\n') ++i;
      out.text += '\n';
      ++line;
    } else {
      if (c == '\n') ++line;
      out.text += c;
    }
  }
  if (index_lines) out.index_lines();
  return out;
}

}  // namespace lg::ledger
