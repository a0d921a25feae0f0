// Shared pieces of the era-P/T verbs: the line model, header and section
// edits, the FILE argument, projects.yaml rows and the rulings.
#include "cortex_pt_doc.hpp"

#include <algorithm>
#include <filesystem>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/ledger/text_file.hpp"
#include "ledgergate/rules/cortex_p1.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::write::pt {

PtDoc::PtDoc(std::string rel, std::string_view bytes, std::span<const std::string_view> canonical)
    : m_rel(std::move(rel)), m_canonical(canonical), m_lines(bytes), m_file(ledger::parse_pt_file(bytes)) {}

void PtDoc::reparse() { m_file = ledger::parse_pt_file(m_lines.bytes()); }

std::size_t PtDoc::item_lines_after(std::size_t index) const {
  std::size_t n = 0;
  const auto last = static_cast<std::size_t>(m_file.header.last_line);
  while (index + 1 + n < last && util::starts_with(m_lines.text(index + 1 + n), "- ")) ++n;
  return n;
}

void PtDoc::set_header(std::string_view key, std::string_view value) {
  std::string line(key);
  line += ':';
  if (!value.empty()) {
    line += ' ';
    line += value;
  }
  if (const auto* field = m_file.header.find(key)) {
    const auto at = static_cast<std::size_t>(field->line - 1);
    m_lines.replace(at, at + 1 + item_lines_after(at), {std::move(line)});
    reparse();
    return;
  }
  // The slot: after the last present key that comes before `key` in the
  // canonical order, else before the first present key (or after the title).
  const auto slot = std::find(m_canonical.begin(), m_canonical.end(), key);
  std::size_t at = m_file.header.first_line > 0 ? static_cast<std::size_t>(m_file.header.first_line - 1) : 2;
  for (auto k = m_canonical.begin(); k != slot && k != m_canonical.end(); ++k) {
    if (const auto* before = m_file.header.find(*k)) {
      const auto i = static_cast<std::size_t>(before->line - 1);
      at = std::max(at, i + 1 + item_lines_after(i));
    }
  }
  m_lines.insert(std::min(at, m_lines.size()), std::move(line));
  reparse();
}

bool PtDoc::append_to_section(std::string_view name, const std::vector<std::string>& lines, bool replace_none) {
  const ledger::Section* s = m_file.section(name);
  if (!s) return false;
  std::vector<std::size_t> filled;
  for (int i = s->body_begin; i < s->body_end; ++i) {
    if (!util::is_blank(m_lines.text(static_cast<std::size_t>(i)))) filled.push_back(static_cast<std::size_t>(i));
  }
  if (replace_none && filled.size() == 1 && util::strip(m_lines.text(filled.front())) == "(none)") {
    m_lines.replace(filled.front(), filled.front() + 1, lines);
  } else if (!filled.empty()) {
    m_lines.replace(filled.back() + 1, filled.back() + 1, lines);
  } else {
    // An empty section: heading, blank line, the lines, and a blank line
    // before whatever heading follows.
    std::vector<std::string> block = lines;
    const auto body = static_cast<std::size_t>(s->body_begin);
    const bool blank_after_heading = body < m_lines.size() && static_cast<int>(body) < s->body_end;
    if (!blank_after_heading) block.insert(block.begin(), std::string());
    const std::size_t at = blank_after_heading ? body + 1 : body;
    if (at < m_lines.size() && static_cast<int>(at) >= s->body_end) block.emplace_back();
    m_lines.replace(at, at, block);
  }
  reparse();
  return true;
}

void PtDoc::add_continuation(const ledger::PtRun& run, std::string line) {
  auto at = static_cast<std::size_t>(run.line);  // the line after the run line (0-based)
  while (at < m_lines.size() && ledger::match_pt_continuation(util::dash(m_lines.text(at)))) ++at;
  m_lines.insert(at, std::move(line));
  reparse();
}

namespace {

// `ref` as a path under `root` ("" when it is not): a relative `ref` is
// taken from `base`.
std::string lexically_relative(const std::string& root, const std::string& base, const std::string& ref) {
  namespace fs = std::filesystem;
  const fs::path p = fs::path(ref).is_absolute() ? fs::path(ref) : fs::path(base) / ref;
  const fs::path rel = p.lexically_normal().lexically_relative(fs::path(root).lexically_normal());
  const std::string s = rel.generic_string();
  if (s.empty() || s == ".." || util::starts_with(s, "../")) return {};
  return s;
}

}  // namespace

Result<std::variant<PtDoc, Refusal>> open_target(git::TreeSource& tree, const PtContext& context,
                                                 const std::string& ref) {
  const rules::PtEra& era = *context.era;
  const std::string rel =
      lexically_relative(context.root, context.base.empty() ? context.root : context.base, ref);
  using Opened = std::variant<PtDoc, Refusal>;
  if (rel.empty()) return Opened(Refusal{ref + " is outside " + context.root});
  LG_TRY(auto bytes, git::read_regular_file(tree, rel));
  if (!bytes) return Opened(Refusal{"no " + std::string(era.noun) + " file at " + ref});
  if (!ledger::match_pt_path(rel, era.dir)) {
    return Opened(Refusal{ref + " is not " + std::string(era.dir) + "/<project>/<slug>.md"});
  }
  return Opened(PtDoc(rel, *bytes, era.file_keys));
}

Result<ProjectRows> load_project_rows(git::TreeSource& tree, const rules::PtEra& era) {
  LG_TRY(auto bytes, git::read_regular_file(tree, std::string(ledger::k_projects_yaml)));
  std::optional<std::string> text;
  if (bytes) text = ledger::decode_text(*bytes).text;
  diag::CollectingSink sink;
  ProjectRows out;
  out.table = era.p1 ? rules::check_projects_yaml_p1(text, era.p1_sub, sink)
                     : rules::check_projects_yaml(text, era.yaml, sink);
  out.table.index();
  for (const diag::Finding& f : sink.take()) {
    if (f.peer != diag::PeerForm::none) out.problems.push_back(diag::peer_text(f));
  }
  return out;
}

std::string unknown_project(const ProjectRows& rows, std::string_view project) {
  std::string out = "project " + std::string(project) + " is not a projects.yaml key";
  if (!rows.problems.empty()) out += " (" + rows.problems.front() + ")";
  return out;
}

std::variant<std::string, Refusal> run_partition(const ProjectRows& rows, std::string_view project,
                                                 const std::optional<std::string>& flag) {
  if (flag) {
    const std::string_view p = *flag;
    const bool bare = !p.empty() && p[0] >= 'a' && p[0] <= 'z' &&
                      std::all_of(p.begin(), p.end(), [](char c) {
                        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
                      });
    if (!bare) return Refusal{"--partition '" + *flag + "' is not a bare partition name"};
    return *flag;
  }
  const rules::ProjectRow* row = rows.table.find(project);
  if (!row) return Refusal{unknown_project(rows, project)};
  const auto partition = row->get("partition");
  if (!partition || *partition == "both") {
    return Refusal{"project " + std::string(project) + " may use either partition (`both`) " + std::string(k_dash) +
                   " pass --partition"};
  }
  return std::string(*partition);
}

Result<std::vector<std::string>> md_files(git::TreeSource& tree, const std::string& dir) {
  LG_TRY(auto entries, git::list_recursive(tree, dir));
  std::vector<std::string> out;
  for (const auto& [path, entry] : entries) {
    if ((entry.kind == git::EntryKind::file || entry.kind == git::EntryKind::executable) &&
        path.size() > 3 && path.compare(path.size() - 3, 3, ".md") == 0) {
      out.push_back(path);
    }
  }
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) { return rules::path_less(a, b); });
  return out;
}

Result<std::vector<Ruling>> load_rulings(git::TreeSource& tree) {
  LG_TRY(auto paths, md_files(tree, std::string(ledger::k_rulings_dir)));
  std::vector<Ruling> out;
  for (const std::string& path : paths) {
    if (path == "rulings/AGENTS.md") continue;
    LG_TRY(auto bytes, git::read_regular_file(tree, path));
    if (!bytes) continue;
    const auto slash = path.rfind('/');
    out.push_back(Ruling{path, path.substr(slash + 1, path.size() - slash - 4), ledger::parse_pt_file(*bytes)});
  }
  return out;
}

std::string capitalize(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    out += i == 0 ? static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c)
                  : static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  }
  return out;
}

}  // namespace lg::write::pt
