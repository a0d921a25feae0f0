// Bytes → lines with Python text-mode semantics, keeping the oddities found.
#include "ledgergate/ledger/text_file.hpp"

#include <cstring>

namespace lg::ledger {
namespace {
// Splits text whose line ends are already "\n" (memchr: this is the hot loop).
std::vector<std::string> split_lf(const std::string& text) {
  std::vector<std::string> lines;
  const char* p = text.data();
  const char* end = p + text.size();
  for (;;) {
    const auto* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    if (!nl) break;
    lines.emplace_back(p, nl);
    p = nl + 1;
  }
  lines.emplace_back(p, end);
  return lines;
}
}  // namespace

TextFile decode_text(std::string_view bytes) {
  TextFile out;
  out.bad_utf8 = util::find_invalid_utf8(bytes);
  std::string clean = out.bad_utf8 ? util::sanitize_utf8(bytes) : std::string(bytes);
  out.bom = clean.rfind("\xEF\xBB\xBF", 0) == 0;
  const std::size_t first_cr = clean.find('\r');
  if (first_cr == std::string::npos) {
    out.text = std::move(clean);
    out.lines = split_lf(out.text);
    return out;
  }
  int line = 1;
  out.text.reserve(clean.size());
  for (std::size_t i = 0; i < clean.size(); ++i) {
    const char c = clean[i];
    if (c == '\r') {
      if (out.cr_line == 0) out.cr_line = line;
      if (i + 1 < clean.size() && clean[i + 1] == '\n') ++i;
      out.text += '\n';
      ++line;
    } else {
      if (c == '\n') ++line;
      out.text += c;
    }
  }
  out.lines = split_lf(out.text);
  return out;
}

}  // namespace lg::ledger
