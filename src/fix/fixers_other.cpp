// The fixers of the input rules (any ledger file), the era-P/T rules (phase
// and task files; ruling files are append-only and never fixed) and the YAML
// ledgers (projects.yaml, the open-requirements ledger). YAML is edited as
// text, one line at a time, so comments and layout stay.
#include <algorithm>

#include "fixers_impl.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "ledgergate/util/suggest.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::fix::detail {
namespace {

Result<const SourceFile*> file_of(FixContext& context, const diag::Finding& finding) {
  return context.file(finding.location.path);
}

// A phase or task file (not a ruling): its parse and project directory.
struct PtDoc {
  const SourceFile* file = nullptr;
  ledger::PtFile parsed;
  std::string project;
};

Result<std::optional<PtDoc>> read_pt(FixContext& context, const diag::Finding& finding) {
  const std::string& path = finding.location.path;
  auto where = ledger::match_pt_path(path, "tasks");
  if (!where) where = ledger::match_pt_path(path, "phases");
  if (!where) return std::optional<PtDoc>();
  PtDoc doc;
  doc.project = where->project;
  LG_TRY(doc.file, context.file(path));
  if (!doc.file) return std::optional<PtDoc>();
  doc.parsed = ledger::parse_pt_file(doc.file->bytes());
  return std::optional<PtDoc>(std::move(doc));
}

bool pt_problem_at(const ledger::PtFile& f, int line) {
  return std::any_of(f.problems.begin(), f.problems.end(), [line](const ledger::PtProblem& p) { return p.line == line; });
}

const ledger::PtRun* pt_run_at(const ledger::PtFile& f, int line) {
  for (const ledger::PtRun& r : f.runs) {
    if (r.line == line) return &r;
  }
  return nullptr;
}

// A YAML mapping line `<indent><name>:<rest>`: the name's byte range.
struct YamlKeyLine {
  std::size_t name_begin = 0, name_end = 0;
};
std::optional<YamlKeyLine> yaml_key_line(std::string_view line) {
  std::size_t at = 0;
  while (at < line.size() && line[at] == ' ') ++at;
  const std::size_t begin = at;
  while (at < line.size() && line[at] != ':' && line[at] != ' ' && line[at] != '\t') ++at;
  if (at == begin || at >= line.size() || line[at] != ':') return std::nullopt;
  if (at + 1 < line.size() && line[at + 1] != ' ' && line[at + 1] != '\t') return std::nullopt;
  return YamlKeyLine{begin, at};
}

// The projects.yaml line a finding names, when it is a mapping line
// `<name>:<rest>`: the file, the line's number, text and first byte, its key.
struct ProjectsYamlKey {
  const SourceFile* file = nullptr;
  int line = 0;
  std::string_view text;
  std::size_t begin = 0;  // the line's first byte in the file
  YamlKeyLine key;
};
Result<std::optional<ProjectsYamlKey>> projects_yaml_key_at(FixContext& context, const diag::Finding& finding) {
  if (finding.location.path != ledger::k_projects_yaml) return std::optional<ProjectsYamlKey>();
  LG_TRY(const SourceFile* file, file_of(context, finding));
  if (!file) return std::optional<ProjectsYamlKey>();
  ProjectsYamlKey at;
  at.file = file;
  at.line = finding.location.line;
  at.text = line_of(*file, at.line);
  const auto key = yaml_key_line(at.text);
  if (!key) return std::optional<ProjectsYamlKey>();
  at.key = *key;
  at.begin = file->lines().line_begin(static_cast<std::size_t>(at.line - 1));
  return std::optional<ProjectsYamlKey>(at);
}

// The row key whose block holds line `line` of projects.yaml: the nearest
// `<key>:` line at column 0 above it.
std::string row_key_above(const SourceFile& file, int line) {
  for (int i = line - 1; i >= 1; --i) {
    const std::string_view text = line_of(file, i);
    if (text.empty() || text[0] == ' ' || text[0] == '#') continue;
    const auto key = yaml_key_line(text);
    return key ? std::string(text.substr(0, key->name_end)) : std::string();
  }
  return {};
}

}  // namespace

// ---- input ----------------------------------------------------------------

Answer fix_bom(FixContext& context, const diag::Finding& finding) {
  LG_TRY(const SourceFile* file, file_of(context, finding));
  if (!file || !util::starts_with(file->bytes(), "\xEF\xBB\xBF")) return std::optional<Fix>();
  return std::optional<Fix>(make_fix("delete the byte-order mark", {Edit{file->path(), 0, 3, ""}}));
}

Answer fix_line_endings(FixContext& context, const diag::Finding& finding) {
  LG_TRY(const SourceFile* file, file_of(context, finding));
  if (!file) return std::optional<Fix>();
  std::vector<Edit> edits;
  const std::string& bytes = file->bytes();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] != '\r') continue;
    const bool crlf = i + 1 < bytes.size() && bytes[i + 1] == '\n';
    edits.push_back(Edit{file->path(), i, i + 1, crlf ? "" : "\n"});
  }
  return std::optional<Fix>(make_fix("end every line with LF", std::move(edits)));
}

Answer fix_control_chars(FixContext& context, const diag::Finding& finding) {
  LG_TRY(const SourceFile* file, file_of(context, finding));
  if (!file) return std::optional<Fix>();
  std::vector<Edit> edits;
  const std::string& bytes = file->bytes();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') edits.push_back(Edit{file->path(), i, i + 1, ""});
  }
  return std::optional<Fix>(make_fix("delete the control characters", std::move(edits)));
}

// ---- eras P and T -----------------------------------------------------------

Answer fix_pt_run_line_dashes(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto doc, read_pt(context, finding));
  if (!doc) return std::optional<Fix>();
  const int line = finding.location.line;
  const std::string_view raw = line_of(*doc->file, line);
  // Three separators before the wall, a fourth before a note.
  for (const std::size_t count : {std::size_t{4}, std::size_t{3}}) {
    const auto fixed = normalise_separators(raw, 2, count);
    if (!fixed || *fixed == raw || !ledger::match_pt_run_line(util::dash(*fixed))) continue;
    if (pt_problem_at(ledger::parse_pt_file(with_line(*doc->file, line, *fixed)), line)) continue;
    return std::optional<Fix>(
        make_fix("write the run line's separators as ` \xE2\x80\x94 `", {replace_line(*doc->file, line, *fixed)}));
  }
  return std::optional<Fix>();
}

Answer fix_pt_project_value(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto doc, read_pt(context, finding));
  if (!doc) return std::optional<Fix>();
  const ledger::HeaderField* project = doc->parsed.header.find("Project");
  if (!project || project->line != finding.location.line) return std::optional<Fix>();
  return std::optional<Fix>(make_fix("set `Project:` to " + doc->project,
                                     {replace_line(*doc->file, project->line, "Project: " + doc->project)}));
}

Answer fix_pt_digits(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto doc, read_pt(context, finding));
  if (!doc) return std::optional<Fix>();
  const int line = finding.location.line;
  const std::string_view raw = line_of(*doc->file, line);
  std::size_t end = raw.size();
  if (const ledger::PtRun* run = pt_run_at(doc->parsed, line); run && !run->note.empty()) {
    end = raw.rfind(run->note);  // the note is free text: its digits stay
    if (end == std::string_view::npos) return std::optional<Fix>();
  } else if (!run && !ledger::match_header_line(raw)) {
    return std::optional<Fix>();
  }
  const std::string fixed = ascii_digits(raw.substr(0, end)) + std::string(raw.substr(end));
  if (fixed == raw) return std::optional<Fix>();
  return std::optional<Fix>(make_fix("write the digits as ASCII 0-9", {replace_line(*doc->file, line, fixed)}));
}

Answer fix_task_phase_key(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto doc, read_pt(context, finding));
  if (!doc) return std::optional<Fix>();
  const ledger::HeaderField* phase = doc->parsed.header.find("Phase");
  if (!phase || phase->line != finding.location.line) return std::optional<Fix>();
  return std::optional<Fix>(make_fix("delete the retired `Phase:` line", {delete_lines(*doc->file, phase->line, phase->line)}));
}

Answer fix_pt_run_tasks(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto doc, read_pt(context, finding));
  if (!doc) return std::optional<Fix>();
  const ledger::PtRun* run = pt_run_at(doc->parsed, finding.location.line);
  const std::string_view raw = line_of(*doc->file, finding.location.line);
  if (!run || run->tasks.empty() || raw.substr(2, run->ident.size()) != run->ident) return std::optional<Fix>();
  std::vector<std::pair<std::string, std::string>> ranges;
  for (const ledger::TaskRange& r : run->tasks) ranges.emplace_back(r.lo.digits, r.hi.digits);
  const auto set = canonical_task_set(ranges);
  if (!set) return std::optional<Fix>();
  const std::string ident = run->stem + "_[" + *set + "]";
  if (ident == run->ident) return std::optional<Fix>();
  return std::optional<Fix>(make_fix("write the task set as " + ident,
                                     {replace_line(*doc->file, run->line, "- " + ident + std::string(raw.substr(2 + run->ident.size())))}));
}

Answer fix_pt_header_duplicate(FixContext& context, const diag::Finding& finding) {
  LG_TRY(auto doc, read_pt(context, finding));
  if (!doc) return std::optional<Fix>();
  for (const ledger::HeaderField& dup : doc->parsed.header.duplicates) {
    if (dup.line != finding.location.line) continue;
    // The key's `- item` lines go with it.
    int last = dup.line;
    while (last < doc->parsed.header.last_line && util::starts_with(line_of(*doc->file, last + 1), "- ")) ++last;
    return std::optional<Fix>(
        make_fix("delete the repeated `" + dup.key + ":` line", {delete_lines(*doc->file, dup.line, last)}));
  }
  return std::optional<Fix>();
}

// ---- YAML ---------------------------------------------------------------------

Answer fix_yaml_field_name(FixContext& context, const diag::Finding& finding) {
  LG_TRY(const auto at, projects_yaml_key_at(context, finding));
  if (!at || at->key.name_begin == 0) return std::optional<Fix>();
  const YamlKeyLine& key = at->key;
  const std::string name(at->text.substr(key.name_begin, key.name_end - key.name_begin));
  const std::vector<std::string> known = rules::known_project_fields(rules::ProjectsYamlEra{});
  const auto closest = util::closest_word(name, known);
  if (!closest || *closest == name) return std::optional<Fix>();
  LG_TRY(auto rows, context.rows());
  const std::string row_key = row_key_above(*at->file, at->line);
  const rules::ProjectRow* row = rows ? rows->find(row_key) : nullptr;
  if (!row || row->get(*closest)) return std::optional<Fix>();
  return std::optional<Fix>(
      make_fix("rename the field `" + name + "` to `" + *closest + "`",
               {Edit{at->file->path(), at->begin + key.name_begin, at->begin + key.name_end, *closest}}));
}

Answer fix_yaml_field_quote(FixContext& context, const diag::Finding& finding) {
  LG_TRY(const auto at, projects_yaml_key_at(context, finding));
  if (!at) return std::optional<Fix>();
  const std::string_view text = at->text;
  std::size_t begin = at->key.name_end + 1;
  while (begin < text.size() && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
  std::size_t end = text.find(" #", begin);
  if (end == std::string_view::npos) end = text.size();
  while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  const std::string_view value = text.substr(begin, end - begin);
  if (value.empty() || std::string_view("[{\"'|>&*!%@`").find(value[0]) != std::string_view::npos ||
      value.find_first_of("\"\\") != std::string_view::npos) {
    return std::optional<Fix>();
  }
  return std::optional<Fix>(
      make_fix("quote the value as a string",
               {Edit{at->file->path(), at->begin + begin, at->begin + end, "\"" + std::string(value) + "\""}}));
}

Answer fix_orl_kind_gap(FixContext& context, const diag::Finding& finding) {
  LG_TRY(const SourceFile* file, file_of(context, finding));
  if (!file) return std::optional<Fix>();
  const int line = finding.location.line;
  const std::string_view text = util::strip(line_of(*file, line));
  // `- kind: gap` opens its entry: deleting it would lose the item.
  std::string_view value = text;
  if (!util::starts_with(value, "kind:")) return std::optional<Fix>();
  value.remove_prefix(5);
  const std::size_t comment = value.find(" #");
  if (util::strip(value.substr(0, comment)) != "gap") return std::optional<Fix>();
  return std::optional<Fix>(make_fix("delete `kind: gap` (gap is the default)", {delete_lines(*file, line, line)}));
}

}  // namespace lg::fix::detail
