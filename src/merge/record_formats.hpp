// Each ledger format's cut of a file into the record engine's parts
// (record_engine.hpp), and the pieces the formats share.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/ledger/project_ledger.hpp"
#include "record_engine.hpp"

namespace lg::merge::record {

// Where a record starts: its key ("" = keyed by its own bytes), date, and
// where its own fields start (line, key), for a record merged field by field.
struct RecordStart {
  std::string key, date;
  std::vector<std::pair<std::size_t, std::string>> fields;
};
// The record starts of a file by line, ascending (a flat map: the formats add
// them in line order, so an insertion is an append and a lookup a binary search).
class Starts {
 public:
  using value_type = std::pair<std::size_t, RecordStart>;
  using const_iterator = std::vector<value_type>::const_iterator;

  // As std::map::emplace: a line already holding a start keeps it.
  void emplace(std::size_t line, RecordStart start) {
    if (m_starts.empty() || m_starts.back().first < line) {
      m_starts.emplace_back(line, std::move(start));
      return;
    }
    const auto at = lower_bound(line);
    if (at == end() || at->first != line) m_starts.emplace(at, line, std::move(start));
  }
  void reserve(std::size_t n) { m_starts.reserve(n); }
  const_iterator lower_bound(std::size_t line) const {
    return std::lower_bound(begin(), end(), line, [](const value_type& s, std::size_t l) { return s.first < l; });
  }
  const_iterator find(std::size_t line) const {
    const auto at = lower_bound(line);
    return at != end() && at->first == line ? at : end();
  }
  const_iterator begin() const { return m_starts.begin(); }
  const_iterator end() const { return m_starts.end(); }
  bool empty() const { return m_starts.empty(); }

 private:
  std::vector<value_type> m_starts;
};

// Lines [0, end): the title (line 1, when `has_title`) and each header field
// (from its line through the non-blank lines under it: P/T's `- item` lines)
// are keyed records, every other line glue.
Part header_part(const std::vector<std::string_view>& lines, std::size_t end,
                 const std::vector<const ledger::HeaderField*>& fields, bool has_title);
// Lines [begin, end) as records — each from a line in `starts` up to the next
// one, its trailing blank lines (and comment lines, `comments_are_glue`) left
// as glue — and glue lines before the first.
std::vector<Item> record_items(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end,
                               const Starts& starts, bool comments_are_glue = false);
// A section (its heading at line `heading`, its body up to `end`) as free text.
Part free_text_part(const std::vector<std::string_view>& lines, std::size_t heading, std::size_t end,
                    std::string name);

// A Markdown ledger file cut so far: its raw lines, its sections (headings)
// and `parts` holding the header part (the lines before the first section).
struct Cut {
  std::vector<std::string_view> lines;
  std::vector<const ledger::Section*> sections;
  std::vector<Part> parts;
};
// `bytes` (parsed into `sections`, `fields` and their `duplicates`) cut so
// far; the title is line 1 when `has_title`. Errors: headings()'.
Result<Cut> cut_header(std::string_view bytes, const std::vector<ledger::Section>& sections,
                       const std::vector<ledger::HeaderField>& fields,
                       const std::vector<ledger::HeaderField>& duplicates, bool has_title);
// Section k of `cut`: lines [begin, end), its heading through the line before the next.
std::pair<std::size_t, std::size_t> section_span(const Cut& cut, std::size_t k);
// A section of records named `name`: its heading line glue, its body cut at `starts`.
Part records_part(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end, std::string name,
                  std::string noun, PartKind kind, const Starts& starts);

// The sections outside fences, each name once (the reference reads the first
// `## Runs` only, so a repeated name cannot be merged with certainty).
Result<std::vector<const ledger::Section*>> headings(const std::vector<ledger::Section>& sections);

// Errors (invalid_input) of each: the side does not parse cleanly as the format.
// era R: projects/<key>.md.
Result<std::vector<Part>> project_parts(std::string_view bytes);
// eras P and T: a phase or task file.
Result<std::vector<Part>> pt_parts(std::string_view bytes);
// projects.yaml: rows by project key, each row field by field.
Result<std::vector<Part>> projects_yaml_parts(std::string_view bytes);
// An open-requirements ledger: entries by id, each field by field; other top-level keys field by field.
Result<std::vector<Part>> open_requirements_parts(std::string_view bytes);

}  // namespace lg::merge::record
