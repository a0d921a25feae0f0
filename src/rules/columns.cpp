// Columns of findings that name only a line (rules/columns.hpp).
#include "ledgergate/rules/columns.hpp"

#include <map>
#include <optional>

#include "ledgergate/ledger/text_file.hpp"

namespace lg::rules {

int content_column(std::string_view line) {
  // The BOM the reference keeps in line 1 is no column of its own.
  const std::size_t start = line.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  std::size_t i = line.find_first_not_of(" \t", start);
  if (i == std::string_view::npos) return 0;
  if (line.compare(i, 2, "- ") == 0) {
    const std::size_t after = line.find_first_not_of(" \t", i + 2);
    if (after != std::string_view::npos) i = after;
  }
  int column = 1;
  for (std::size_t b = start; b < i; ++b) {
    if ((static_cast<unsigned char>(line[b]) & 0xC0) != 0x80) ++column;  // a code point's first byte
  }
  return column;
}

void locate_columns(git::TreeSource& tree, std::vector<diag::Finding>& findings) {
  std::map<std::string, std::optional<ledger::TextFile>, std::less<>> files;
  for (diag::Finding& f : findings) {
    if (f.location.line <= 0 || f.location.column > 0 || f.location.path.empty()) continue;
    auto it = files.find(f.location.path);
    if (it == files.end()) {
      std::optional<ledger::TextFile> text;
      auto bytes = git::read_regular_file(tree, f.location.path);
      // A file that cannot be read again is a finding of the check's own
      // already; its findings keep no column.
      if (bytes && *bytes) {
        text = ledger::decode_owned_text(std::move(**bytes));
      }
      it = files.emplace(f.location.path, std::move(text)).first;
    }
    const std::optional<ledger::TextFile>& text = it->second;
    if (!text || static_cast<std::size_t>(f.location.line) > text->line_count()) continue;
    f.location.column = content_column(text->line(static_cast<std::size_t>(f.location.line - 1)));
  }
}

}  // namespace lg::rules
