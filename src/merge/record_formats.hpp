// Each ledger format's cut of a file into the record engine's parts
// (record_engine.hpp), and the pieces the formats share.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/ledger/project_ledger.hpp"
#include "record_engine.hpp"

namespace lg::merge::record {

// Where a record starts: its key ("" = keyed by its own bytes) and date.
struct RecordStart {
  std::string key, date;
};

// Lines [0, end): the title (line 1, when `has_title`) and the header
// `fields` (by line) are keyed records, every other line glue.
Part header_part(const std::vector<std::string_view>& lines, std::size_t end,
                 const std::vector<const ledger::HeaderField*>& fields, bool has_title);
// Lines [begin, end) as records — each from a line in `starts` up to the next
// one, its trailing blank lines left as glue — and glue lines before the first.
std::vector<Item> record_items(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end,
                               const std::map<std::size_t, RecordStart>& starts);
// A section (its heading at line `heading`, its body up to `end`) as free text.
Part free_text_part(const std::vector<std::string_view>& lines, std::size_t heading, std::size_t end,
                    std::string name);

// era R: projects/<key>.md. Errors (invalid_input): parse problems, a repeated section.
Result<std::vector<Part>> project_parts(std::string_view bytes);

}  // namespace lg::merge::record
