// The era-R project ledger (spec §4.2) cut into parts: the title and header
// (a field per key), then each `## ` section — `## Runs` as runs keyed by job
// id, `## Log` as dated entries, any other section (`## Now`) as free text. A
// run or entry carries its continuation lines; blank lines between records
// are glue. A run `done` removed on one side while the other changed it (its
// state, a continuation line) is a conflict, as any keyed record. The parse
// is ledger::ProjectLedger's, so a side it cannot read cleanly is not merged
// as records.
#include "record_formats.hpp"

#include <algorithm>
#include <set>

#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::merge::record {
Result<std::vector<const ledger::Section*>> headings(const std::vector<ledger::Section>& sections) {
  std::vector<const ledger::Section*> out;
  std::set<std::string_view> names;
  for (const ledger::Section& s : sections) {
    if (s.in_fence) continue;
    if (!names.insert(s.name).second) {
      return make_error(ErrorKind::invalid_input, "section ## " + s.name + " appears twice");
    }
    out.push_back(&s);
  }
  return out;
}

Part header_part(const std::vector<std::string_view>& lines, std::size_t end,
                 const std::vector<const ledger::HeaderField*>& fields, bool has_title) {
  Starts starts;
  if (has_title && end > 0) starts.emplace(0, RecordStart{"title", "", {}});
  for (const ledger::HeaderField* f : fields) {
    const auto i = static_cast<std::size_t>(f->line - 1);
    if (i < end) starts.emplace(i, RecordStart{"field " + f->key, "", {}});
  }
  Part part{"header", "fields", PartKind::keyed, {}, false};
  for (std::size_t i = 0; i < end;) {
    const auto start = starts.find(i);
    std::size_t j = i + 1;
    if (start != starts.end() && i != 0) {  // a field: through the non-blank lines up to the next start
      const auto next = std::next(start);
      const std::size_t stop = next == starts.end() ? end : std::min(end, next->first);
      while (j < stop && !util::is_blank(lines[j])) ++j;
    }
    part.items.push_back(start == starts.end() ? Item{"", lines[i], "", false, {}}
                                               : Item{start->second.key, span_of(lines, i, j), "", true, {}});
    i = j;
  }
  return part;
}

std::vector<Item> record_items(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end,
                               const Starts& starts, bool comments_are_glue) {
  const auto glue = [&](std::string_view line) {
    const std::string_view t = util::strip(line);
    return t.empty() || (comments_are_glue && t.front() == '#');
  };
  std::vector<Item> items;
  items.reserve(end - begin);
  auto start = starts.lower_bound(begin);  // walked in step with the lines
  for (std::size_t i = begin; i < end;) {
    if (start == starts.end() || start->first != i) {
      items.push_back(Item{"", lines[i], "", false, {}});
      ++i;
      continue;
    }
    const auto next = std::next(start);
    const std::size_t j = next == starts.end() ? end : std::min(end, next->first);
    std::size_t last = j;  // trailing glue lines are not the record's
    while (last > i + 1 && glue(lines[last - 1])) --last;
    const std::string_view bytes = span_of(lines, i, last);
    Item item{start->second.key, bytes, start->second.date, true, {}};
    if (!start->second.fields.empty()) {
      Starts fields;
      fields.reserve(start->second.fields.size());
      for (const auto& [line, key] : start->second.fields) fields.emplace(line, RecordStart{key, "", {}});
      item.fields = record_items(lines, i, last, fields, comments_are_glue);
    }
    items.push_back(std::move(item));
    i = last;
    start = next;
  }
  return items;
}

Part free_text_part(const std::vector<std::string_view>& lines, std::size_t heading, std::size_t end,
                    std::string name) {
  std::string noun = name == "## Now" ? "now" : "sections";
  Part part{std::move(name), std::move(noun), PartKind::text, line_items(lines, heading, heading + 1), false};
  // The blank lines around the text are glue, so a conflict marks the text alone.
  std::size_t first = heading + 1, last = end;
  while (first < last && util::is_blank(lines[first])) ++first;
  while (last > first && util::is_blank(lines[last - 1])) --last;
  const auto glue = [&](std::size_t b, std::size_t e) {
    auto items = line_items(lines, b, e);
    part.items.insert(part.items.end(), items.begin(), items.end());
  };
  glue(heading + 1, first);
  if (first < last) part.items.push_back(Item{"text", span_of(lines, first, last), "", true, {}});
  glue(last, end);
  return part;
}

Result<Cut> cut_header(std::string_view bytes, const std::vector<ledger::Section>& sections,
                       const std::vector<ledger::HeaderField>& fields,
                       const std::vector<ledger::HeaderField>& duplicates, bool has_title) {
  Cut cut{raw_lines(bytes), {}, {}};
  LG_TRY(cut.sections, headings(sections));
  std::vector<const ledger::HeaderField*> all;
  for (const auto& f : fields) all.push_back(&f);
  for (const auto& f : duplicates) all.push_back(&f);
  const std::size_t first =
      cut.sections.empty() ? cut.lines.size() : static_cast<std::size_t>(cut.sections.front()->line - 1);
  cut.parts.push_back(header_part(cut.lines, first, all, has_title));
  return cut;
}

std::pair<std::size_t, std::size_t> section_span(const Cut& cut, std::size_t k) {
  const auto begin = static_cast<std::size_t>(cut.sections[k]->line - 1);
  const std::size_t end =
      k + 1 < cut.sections.size() ? static_cast<std::size_t>(cut.sections[k + 1]->line - 1) : cut.lines.size();
  return {begin, end};
}

Part records_part(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end, std::string name,
                  std::string noun, PartKind kind, const Starts& starts) {
  Part part{std::move(name), std::move(noun), kind, line_items(lines, begin, begin + 1), false};
  auto body = record_items(lines, begin + 1, end, starts);
  part.items.insert(part.items.end(), body.begin(), body.end());
  return part;
}

Result<std::vector<Part>> project_parts(std::string_view bytes) {
  const ledger::ProjectLedger ledger = ledger::parse_project_ledger(bytes);
  if (!ledger.problems.empty()) {
    return make_error(ErrorKind::invalid_input,
                      "line " + std::to_string(ledger.problems.front().line) + " does not parse as a run or log line");
  }
  LG_TRY(Cut cut, cut_header(bytes, ledger.sections, ledger.header, ledger.header_dups, util::starts_with(bytes, "# ")));
  Starts runs, log;
  runs.reserve(ledger.runs.size());
  log.reserve(ledger.log.size());
  for (const auto& r : ledger.runs) runs.emplace(static_cast<std::size_t>(r.line - 1), RecordStart{"run " + r.ident, "", {}});
  for (const auto& e : ledger.log) log.emplace(static_cast<std::size_t>(e.line - 1), RecordStart{"", e.date, {}});
  for (std::size_t k = 0; k < cut.sections.size(); ++k) {
    const auto [begin, end] = section_span(cut, k);
    std::string name = "## " + cut.sections[k]->name;
    if (cut.sections[k]->name == "Runs") {
      cut.parts.push_back(records_part(cut.lines, begin, end, std::move(name), "runs", PartKind::keyed, runs));
    } else if (cut.sections[k]->name == "Log") {
      cut.parts.push_back(records_part(cut.lines, begin, end, std::move(name), "log", PartKind::dated, log));
    } else {
      cut.parts.push_back(free_text_part(cut.lines, begin, end, std::move(name)));
    }
  }
  return std::move(cut.parts);
}

}  // namespace lg::merge::record
