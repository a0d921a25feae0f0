// Private to src/fix: the fixer functions the table in fixers.cpp names, and
// the line edits they share.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/fix/fix.hpp"
#include "ledgergate/fix/fixers.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::fix::detail {

// A fixer's answer: the edits (kind and rule are filled in by fix_for) or nothing.
using Answer = Result<std::optional<Fix>>;
using Fixer = Answer (*)(FixContext&, const diag::Finding&);

// A fix of one title and the given edits.
Fix make_fix(std::string title, std::vector<Edit> edits);
// Line `line` (1-based) replaced by `text` (its line end kept).
Edit replace_line(const SourceFile& file, int line, std::string text);
// Lines [first, last] (1-based) removed with their line ends.
Edit delete_lines(const SourceFile& file, int first, int last);
// `text` inserted before line `line` (1-based; one past the last: at the end).
Edit insert_before(const SourceFile& file, int line, std::string text);
// Line `line` (1-based) of `file`; empty past the end.
std::string_view line_of(const SourceFile& file, int line);
// `bytes` with line `line` (1-based) replaced by `text`.
std::string with_line(const SourceFile& file, int line, std::string_view text);
// The file's key of `projects/<key>.md` ("" for another path).
std::string ledger_key(std::string_view path);
// `text` with every Unicode decimal digit written as its ASCII digit.
std::string ascii_digits(std::string_view text);

// The input rules (any ledger file).
Answer fix_bom(FixContext&, const diag::Finding&);
Answer fix_line_endings(FixContext&, const diag::Finding&);
Answer fix_control_chars(FixContext&, const diag::Finding&);
// Era R: projects/<key>.md.
Answer fix_sections(FixContext&, const diag::Finding&);
Answer fix_run_line_dashes(FixContext&, const diag::Finding&);
Answer fix_log_line_dashes(FixContext&, const diag::Finding&);
Answer fix_title_present(FixContext&, const diag::Finding&);
Answer fix_title_key(FixContext&, const diag::Finding&);
Answer fix_header_project(FixContext&, const diag::Finding&);
Answer fix_project_value(FixContext&, const diag::Finding&);
Answer fix_log_order(FixContext&, const diag::Finding&);
Answer fix_ledger_digits(FixContext&, const diag::Finding&);
Answer fix_run_repeated(FixContext&, const diag::Finding&);
Answer fix_run_partition(FixContext&, const diag::Finding&);
Answer fix_run_tasks(FixContext&, const diag::Finding&);
Answer fix_ledger_header_duplicate(FixContext&, const diag::Finding&);
// Eras P and T.
Answer fix_pt_run_line_dashes(FixContext&, const diag::Finding&);
Answer fix_pt_project_value(FixContext&, const diag::Finding&);
Answer fix_pt_digits(FixContext&, const diag::Finding&);
Answer fix_task_phase_key(FixContext&, const diag::Finding&);
Answer fix_pt_run_tasks(FixContext&, const diag::Finding&);
Answer fix_pt_header_duplicate(FixContext&, const diag::Finding&);
// projects.yaml and the open-requirements ledger.
Answer fix_yaml_field_name(FixContext&, const diag::Finding&);
Answer fix_yaml_field_quote(FixContext&, const diag::Finding&);
Answer fix_orl_kind_gap(FixContext&, const diag::Finding&);

// A task set's numbers written ascending, runs of consecutive numbers as
// `lo-hi`: "0-3,5". nullopt when a number is too large to order.
std::optional<std::string> canonical_task_set(const std::vector<std::pair<std::string, std::string>>& ranges);

}  // namespace lg::fix::detail
