// The record merge's entry points: which format a path is, and the merge of
// three versions through the format's cut into parts.
#include "ledgergate/merge/record_merge.hpp"

#include "ledgergate/ledger/open_requirements.hpp"
#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "record_formats.hpp"

namespace lg::merge {
namespace {

Result<std::vector<record::Part>> parts_of(RecordFormat format, std::string_view bytes) {
  switch (format) {
    case RecordFormat::cortex_project: return record::project_parts(bytes);
    case RecordFormat::cortex_task:
    case RecordFormat::cortex_phase: return record::pt_parts(bytes);
    case RecordFormat::open_requirements: return record::open_requirements_parts(bytes);
    case RecordFormat::projects_yaml: return record::projects_yaml_parts(bytes);
  }
  return make_error(ErrorKind::internal, "unknown record format");
}

}  // namespace

std::string_view to_string(RecordFormat format) {
  switch (format) {
    case RecordFormat::cortex_project: return "cortex-project";
    case RecordFormat::cortex_task: return "cortex-task";
    case RecordFormat::cortex_phase: return "cortex-phase";
    case RecordFormat::open_requirements: return "open-requirements";
    case RecordFormat::projects_yaml: return "projects-yaml";
  }
  return "";
}

std::optional<RecordFormat> record_format_of(ledger::Layout layout, std::string_view path,
                                             std::string_view open_requirements_glob) {
  if (ledger::orl_glob_match(open_requirements_glob, path)) return RecordFormat::open_requirements;
  switch (layout) {
    case ledger::Layout::cortex_projects:
      if (ledger::is_project_ledger_path(path)) return RecordFormat::cortex_project;
      break;
    case ledger::Layout::cortex_tasks:
    case ledger::Layout::cortex_phases:
      if (ledger::match_pt_path(path, ledger::era_dir(layout))) {
        return layout == ledger::Layout::cortex_tasks ? RecordFormat::cortex_task : RecordFormat::cortex_phase;
      }
      break;
    case ledger::Layout::none:
    case ledger::Layout::open_requirements: return std::nullopt;
  }
  if (ledger::is_projects_yaml(path)) return RecordFormat::projects_yaml;
  return std::nullopt;
}

Result<RecordMerge> merge_records(RecordFormat format, std::string_view base, std::string_view ours,
                                  std::string_view theirs, const MergeLabels& labels) {
  const auto side = [&](std::string_view name, std::string_view bytes) -> Result<std::vector<record::Part>> {
    auto parts = parts_of(format, bytes);
    if (!parts) return parts.error().with_context(name);
    return parts;
  };
  auto merged = [&]() -> Result<RecordMerge> {
    LG_TRY(const auto b, side("base", base));
    LG_TRY(const auto o, side("ours", ours));
    LG_TRY(const auto t, side("theirs", theirs));
    return record::merge_parts(b, o, t, labels);
  }();
  // A side that does not parse still merges when only one side changed.
  if (!merged && (ours == theirs || base == theirs)) return RecordMerge{std::string(ours), {}, {}};
  if (!merged && base == ours) return RecordMerge{std::string(theirs), {}, {}};
  return merged;
}

}  // namespace lg::merge
