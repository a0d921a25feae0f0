// The record-level three-way merge of one ledger file: the file is cut into
// parts (title and header, each section, each projects.yaml row ...), each
// part into records (a header field, a run keyed by job id, a log entry, a
// row) and the three versions are merged record by record, so two branches
// that each append to one ledger merge without a human. What the merge
// cannot place with certainty is a conflict, marked in git's style around
// exactly those records; the bytes of every record no side changed are kept.
// Pure: no git, no files (the merge-file command and the trial merge call it).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::merge {

enum class RecordFormat { cortex_project, cortex_task, cortex_phase, open_requirements, projects_yaml };

// "cortex-project", "cortex-task", "cortex-phase", "open-requirements", "projects-yaml".
std::string_view to_string(RecordFormat format);

// The record format of `path` in a tree of `layout`; nullopt = not a file the
// record merge knows. cortex-projects: projects/<key>.md and projects.yaml;
// cortex-tasks / cortex-phases: their era files and projects.yaml; any
// layout: paths matching `open_requirements_glob`.
std::optional<RecordFormat> record_format_of(ledger::Layout layout, std::string_view path,
                                             std::string_view open_requirements_glob);

// A part the merge could not decide: `record` names it ("## Now", "run 3002",
// "header Issue"), `reason` says why ("both sides rewrote it").
struct RecordConflict {
  std::string record;
  std::string reason;
};

struct RecordMerge {
  // The merged file; when `conflicts` is not empty, git-style conflict
  // markers surround exactly the records it could not merge.
  std::string bytes;
  std::vector<RecordConflict> conflicts;
  // What the merged file holds against the base, in file order of the parts:
  // {"runs_added", 2}, {"log_added", 2}, {"fields_changed", 1}; zero counts omitted.
  std::vector<std::pair<std::string, int>> records;
  bool clean() const { return conflicts.empty(); }
};

// The conflict markers' labels (`<<<<<<< ours`) and length, as git's merge-file -L / --marker-size.
struct MergeLabels {
  std::string ours = "ours", theirs = "theirs", base = "base";
  int marker_size = 7;
};

// The three-way merge of one ledger file. Errors (ErrorKind::invalid_input):
// a side does not parse as `format` well enough to merge as records (parse
// problems, different section lists): the caller then keeps git's textual merge.
Result<RecordMerge> merge_records(RecordFormat format, std::string_view base, std::string_view ours,
                                  std::string_view theirs, const MergeLabels& labels = {});

}  // namespace lg::merge
