// The era-P/T phase or task file (spec §2.2, §3.2) cut into parts: title and
// header (a field per key, its `- item` lines with it), then each `## `
// section — `## Runs` as runs keyed by ident (their four-space continuations
// with them), `## Where to look` as an append-set of `- ` items, the prose
// sections (Question, Witness, Ruling) as free text. Unlike era R a P/T run
// is never removed when it finishes (its state says done), so a run removed
// on one side and changed on the other is a conflict. Parsed by ledger::pt_file.
#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/util/text.hpp"
#include "record_formats.hpp"

namespace lg::merge::record {

Result<std::vector<Part>> pt_parts(std::string_view bytes) {
  const ledger::PtFile file = ledger::parse_pt_file(bytes);
  if (!file.problems.empty()) {
    return make_error(ErrorKind::invalid_input,
                      "line " + std::to_string(file.problems.front().line) + " does not parse as a run line");
  }
  const std::vector<std::string_view> lines = raw_lines(bytes);
  LG_TRY(const auto sections, headings(file.sections));
  std::vector<const ledger::HeaderField*> fields;
  for (const auto& f : file.header.fields) fields.push_back(&f);
  for (const auto& f : file.header.duplicates) fields.push_back(&f);
  const std::size_t first = sections.empty() ? lines.size() : static_cast<std::size_t>(sections.front()->line - 1);
  std::vector<Part> parts{header_part(lines, first, fields, file.title.has_value())};

  Starts runs;
  for (const auto& r : file.runs) runs.emplace(static_cast<std::size_t>(r.line - 1), RecordStart{"run " + r.ident, "", {}});
  for (std::size_t k = 0; k < sections.size(); ++k) {
    const auto begin = static_cast<std::size_t>(sections[k]->line - 1);
    const std::size_t end = k + 1 < sections.size() ? static_cast<std::size_t>(sections[k + 1]->line - 1) : lines.size();
    std::string name = "## " + sections[k]->name;
    const bool is_runs = sections[k]->name == "Runs";
    if (!is_runs && sections[k]->name != "Where to look") {
      parts.push_back(free_text_part(lines, begin, end, std::move(name)));
      continue;
    }
    Starts items;
    if (!is_runs) {
      for (std::size_t i = begin + 1; i < end; ++i) {
        if (util::starts_with(lines[i], "- ")) items.emplace(i, RecordStart{});
      }
    }
    Part part{std::move(name), is_runs ? "runs" : "notes", is_runs ? PartKind::keyed : PartKind::appended,
              line_items(lines, begin, begin + 1), false};
    auto body = record_items(lines, begin + 1, end, is_runs ? runs : items);
    part.items.insert(part.items.end(), body.begin(), body.end());
    parts.push_back(std::move(part));
  }
  return parts;
}

}  // namespace lg::merge::record
