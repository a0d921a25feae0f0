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
  LG_TRY(Cut cut, cut_header(bytes, file.sections, file.header.fields, file.header.duplicates, file.title.has_value()));
  Starts runs;
  for (const auto& r : file.runs) runs.emplace(static_cast<std::size_t>(r.line - 1), RecordStart{"run " + r.ident, "", {}});
  for (std::size_t k = 0; k < cut.sections.size(); ++k) {
    const auto [begin, end] = section_span(cut, k);
    std::string name = "## " + cut.sections[k]->name;
    if (cut.sections[k]->name == "Runs") {
      cut.parts.push_back(records_part(cut.lines, begin, end, std::move(name), "runs", PartKind::keyed, runs));
    } else if (cut.sections[k]->name == "Where to look") {
      Starts items;
      for (std::size_t i = begin + 1; i < end; ++i) {
        if (util::starts_with(cut.lines[i], "- ")) items.emplace(i, RecordStart{});
      }
      cut.parts.push_back(records_part(cut.lines, begin, end, std::move(name), "notes", PartKind::appended, items));
    } else {
      cut.parts.push_back(free_text_part(cut.lines, begin, end, std::move(name)));
    }
  }
  return std::move(cut.parts);
}

}  // namespace lg::merge::record
