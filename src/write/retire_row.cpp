#include "ledgergate/write/retire_row.hpp"

#include "ledgergate/util/text.hpp"
#include "raw_lines.hpp"

namespace lg::write {
ProjectsRows projects_rows(std::optional<std::string_view> yaml, const rules::ProjectsYamlEra& era) {
  diag::CollectingSink sink;
  ProjectsRows out{rules::check_projects_yaml(yaml, era, sink), ""};
  out.table.index();
  for (const diag::Finding& f : sink.findings()) {
    if (f.peer == diag::PeerForm::none) continue;  // ours (a duplicate key): the reference's loader finds nothing
    if (!out.problems.empty()) out.problems += "; ";
    out.problems += diag::peer_text(f);
  }
  return out;
}

std::optional<Refusal> retire_row_check(std::optional<std::string_view> yaml, const std::string& key,
                                        const std::string& why, const rules::ProjectsYamlEra& era) {
  if (why.empty()) return Refusal{"--why must say why, in one line"};
  if (why.find_first_of("\"\n") != std::string::npos) {
    return Refusal{"--why cannot hold a double quote or a newline (projects.yaml quotes with no escapes)"};
  }
  const ProjectsRows rows = projects_rows(yaml, era);
  if (!rows.problems.empty()) {
    return Refusal{"projects.yaml does not parse clean \xE2\x80\x94 run `check` and fix it before retiring: " +
                   rows.problems};
  }
  const rules::ProjectRow* row = rows.table.find(key);
  if (!row) return Refusal{key + " is not a projects.yaml key"};
  const auto status = row->get("status");
  if (status && *status == "retired") return Refusal{key + " is already retired"};
  return std::nullopt;
}

std::variant<std::string, Refusal> retire_row_edit(std::string_view yaml, const std::string& key,
                                                   const std::string& why, const std::string& today,
                                                   const rules::ProjectsYamlEra& era) {
  RawLines lines(yaml);
  const std::string head = key + ":";
  std::size_t row = 0;
  int heads = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines.text(i) == head) {
      row = i;
      ++heads;
    }
  }
  if (heads != 1) {
    return Refusal{"projects.yaml: expected one `" + head + "` line, found " + std::to_string(heads)};
  }
  std::size_t end = row + 1;
  std::optional<std::size_t> status, note;
  int statuses = 0, notes = 0;
  for (; end < lines.size() && util::starts_with(lines.text(end), "  "); ++end) {
    if (util::starts_with(lines.text(end), "  status: ")) {
      status = end;
      ++statuses;
    } else if (util::starts_with(lines.text(end), "  note:")) {
      note = end;
      ++notes;
    }
  }
  if (statuses != 1 || notes > 1) {
    return Refusal{"projects.yaml: " + key + " is not one `  status:` line and at most one `  note:` line"};
  }
  const std::string note_line = "  note: \"retired " + today + ": " + why + "\"";
  lines.replace(*status, *status + 1, {"  status: retired"});
  if (note) {
    lines.replace(*note, *note + 1, {note_line});
  } else {
    lines.insert(end, note_line);
  }
  std::string after = lines.bytes();
  const ProjectsRows back = projects_rows(after, era);
  std::string problems = back.problems;
  if (problems.empty()) {
    const rules::ProjectRow* retired = back.table.find(key);
    if (!retired || retired->get("status") != std::optional<std::string_view>("retired")) {
      problems = key + " did not come back retired";
    }
  }
  if (!problems.empty()) {
    return Refusal{"the edit would not read back \xE2\x80\x94 projects.yaml is unchanged: " + problems};
  }
  return after;
}

}  // namespace lg::write
