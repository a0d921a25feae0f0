// `retire`'s edit of projects.yaml (spec §8.3; era R reuses it, §8.4): the
// checks on the row and a textual edit of the row's lines — `  status:`
// rewritten, `  note:` set or appended — so every other byte of the file
// stays. Shared by the era-R and era-T/P retire editors: an era adds its own
// live-work test between retire_row_check and retire_row_edit.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "ledgergate/rules/projects_yaml.hpp"
#include "ledgergate/write/edit.hpp"

namespace lg::write {

// projects.yaml's rows with its findings as the reference joins them
// ("; "-separated `check` lines of the reference's rules; "" when it parses
// clean — ledgergate's own warnings, a duplicate key, are not the reference's).
struct ProjectsRows {
  rules::ProjectsTable table;  // indexed
  std::string problems;
};
ProjectsRows projects_rows(std::optional<std::string_view> yaml, const rules::ProjectsYamlEra& era);

// The retire checks that precede the live-work test, in the reference's
// order: --why empty, --why holding a double quote or an LF (a CR passes),
// projects.yaml with any finding, an unknown key, a row already retired.
// `yaml` is nullopt when projects.yaml is absent. `why` is the stripped text.
std::optional<Refusal> retire_row_check(std::optional<std::string_view> yaml, const std::string& key,
                                        const std::string& why, const rules::ProjectsYamlEra& era);

// The row edit that follows the live-work test: the new bytes of
// projects.yaml, or the refusal (not exactly one line `{key}:`; a row block
// — the lines after it that begin with two spaces — without exactly one
// `  status: ` line or with several `  note:` lines; an edit that would not
// read back, or whose row does not come back retired).
std::variant<std::string, Refusal> retire_row_edit(std::string_view yaml, const std::string& key,
                                                   const std::string& why, const std::string& today,
                                                   const rules::ProjectsYamlEra& era);

}  // namespace lg::write
