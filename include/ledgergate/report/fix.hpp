// `ledgergate fix`'s output, and a fix as the machine formats carry it: the
// applied and refused fixes, the unified diff of `--diff`, JSON's "fix"
// member (docs/json.md) and SARIF's `fixes` (docs/sarif.md). Pure functions.
#pragma once

#include <string>
#include <vector>

#include "ledgergate/fix/engine.hpp"
#include "ledgergate/fix/fix.hpp"
#include "ledgergate/util/json.hpp"

namespace lg::report {

// One line per applied fix ("path:line: fixed: title [rule]"), per refused
// fix (with the finding it would add), then the findings left as `text`
// renders them; `written` says whether the files were written.
std::string render_fix(const fix::FixReport& r, bool color);
// The closing line on stderr: "ledgergate fix: N fix(es) in M file(s) written|to write; K finding(s) left (E error(s))".
std::string render_fix_summary(const fix::FixReport& r, bool written);
// A unified diff (3 lines of context; `a/PATH`, `b/PATH`) of every changed file.
std::string render_fix_diff(const std::vector<fix::ChangedFile>& files);

// A fix as JSON: {"kind", "description", "edits": [{"path", "range":
// {"start": {"line", "column"}, "end": ...}, "bytes": {"start", "end"}, "text"}]}
// (lines and columns 1-based, columns in code points as a finding's).
void write_fix(util::JsonWriter& w, const fix::Fix& f);
// SARIF's `fixes` array for one result: one fix, its artifact changes by file
// (regions 1-based, columns in UTF-16 code units, SARIF's default).
void write_sarif_fixes(util::JsonWriter& w, const fix::Fix& f);

}  // namespace lg::report
