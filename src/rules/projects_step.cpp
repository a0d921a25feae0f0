// The cortex-projects pass's pieces (projects_step.hpp) and the steps the
// writers and the history audit run one by one (check.hpp's projects_step_*).
#include "projects_step.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <span>
#include <thread>

#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/rules/cortex_projects.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/rules/threads.hpp"
#include "ledgergate/util/assert.hpp"
#include "ledgergate/util/cursor.hpp"
#include "ledgergate/util/temp_name.hpp"

namespace lg::rules {
namespace steps {

namespace {

bool is_ledger_key(std::string_view stem) {
  // [a-z][a-z0-9_]*, byte by byte: every character of a key is ASCII, so a
  // byte of a longer UTF-8 sequence (or of none) fails it as its code point would.
  if (stem.empty() || !util::is_lower_ascii(static_cast<unsigned char>(stem[0]))) return false;
  return std::all_of(stem.begin() + 1, stem.end(),
                     [](char ch) { return util::is_key_char(static_cast<unsigned char>(ch)); });
}

// G-03: a file under projects/ that `check` does not read (recursing into
// directories), which the merge gate would still land as ledger.
Result<void> report_unchecked(Pass& pass, const std::string& path, const git::Entry& entry) {
  if (util::is_writer_temp_name(entry.name)) return {};  // input-writer-temp-file reports it
  if (entry.kind != git::EntryKind::directory) {
    pass.sink.report(make_finding("input-unchecked-file", path, 0,
                                  "not read by `check` (only projects/<key>.md files are ledgers), yet the "
                                  "merge gate would land it as ledger",
                                  diag::PeerForm::none));
    return {};
  }
  LG_TRY(auto entries, pass.tree.list(path));
  for (const git::Entry& e : entries.value_or(std::vector<git::Entry>{})) {
    if (auto r = report_unchecked(pass, path + "/" + e.name, e); !r) return r.error();
  }
  return {};
}

diag::Finding bad_ledger_name(std::string_view name) {
  return make_finding("ledger-file-name", ledger_path(name), 0, "file name must be projects/<key>.md with a bare key",
                      diag::PeerForm::path_message);
}

Result<std::vector<LedgerFile>> list_ledgers(Pass& pass) {
  LG_TRY(auto listing, list_ledger_entries(pass));
  std::vector<LedgerFile> ledgers;
  ledgers.reserve(listing.ledgers.size());
  for (std::size_t i = 0; i < listing.ledgers.size(); ++i) ledgers.push_back(listing.file(i));
  return ledgers;
}

std::shared_ptr<const ledger::ProjectLedger> parse_compact(std::string&& bytes) {
  ledger::ProjectLedger full = ledger::parse_owned_project_ledger(std::move(bytes));
  full.compact();  // rules read no texts; a cache of thousands of parses stays small
  return std::make_shared<const ledger::ProjectLedger>(std::move(full));
}

std::shared_ptr<const ledger::ProjectLedger> load_ledger(Pass& pass, const LedgerFile& lf) {
  const std::optional<git::ObjectId>& id = lf.entry.content_id;
  cover(pass, id);
  if (id) {
    if (auto hit = pass.cache.ledgers().find(*id)) return hit;
  }
  auto bytes = read_or_report(pass, lf.path, lf.entry);
  if (!bytes) return nullptr;
  auto parsed = parse_compact(std::move(*bytes));
  if (id) pass.cache.ledgers().keep(*id, parsed);
  return parsed;
}

std::shared_ptr<const YamlFacts> yaml_facts_of(const CheckCache::ProjectsYamlResult& parsed) {
  std::vector<YamlFacts::OwnedRow> rows;
  rows.reserve(parsed.table.rows.size());
  for (const ProjectRow& row : parsed.table.rows) {
    rows.push_back(YamlFacts::OwnedRow{row.key, row.line, is_active(row), projects_step_row_inputs(parsed.table, row.key)});
  }
  return YamlFacts::build(parsed.findings, rows);
}

}  // namespace

std::string ledger_path(std::string_view name) {
  std::string path;
  path.reserve(ledger::k_projects_dir.size() + 1 + name.size());
  append_ledger_path(path, name);
  return path;
}

Result<LedgerListing> list_ledger_entries(Pass& pass) {
  LG_TRY(auto listed, pass.tree.list_view(ledger::k_projects_dir));
  LedgerListing out;
  if (!listed) return out;
  out.listed = std::move(*listed);
  const git::Listing& entries = out.listed;
  out.ledgers.reserve(entries.size());
  std::vector<std::uint32_t> unchecked;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string_view name = entries[i].name;
    switch (projects_entry_role(name)) {
      case ProjectsEntryRole::skipped:
        break;
      case ProjectsEntryRole::unchecked:
        unchecked.push_back(static_cast<std::uint32_t>(i));
        break;
      case ProjectsEntryRole::bad_name:
        pass.sink.report(bad_ledger_name(name));
        break;
      case ProjectsEntryRole::ledger:
        out.ledgers.push_back(static_cast<std::uint32_t>(i));
        break;
    }
  }
  for (const std::uint32_t i : unchecked) {
    const git::EntryView e = entries[i];
    if (auto r = report_unchecked(pass, ledger_path(e.name), e.entry()); !r) return r.error();
  }
  return out;
}

LedgerPrefetch::LedgerPrefetch(Pass& pass, std::span<const LedgerFile> ledgers, bool behind) : m_pass(pass) {
  for (const LedgerFile& lf : ledgers) {
    if (is_readable_kind(lf.entry.kind) && lf.entry.content_id && !pass.cache.ledgers().contains(*lf.entry.content_id) &&
        (pass.persistent || !pass.cache.ledger_findings().judged(*lf.entry.content_id))) {
      m_todo.push_back(&lf);
    }
  }
  const unsigned threads = check_threads();
  if (m_todo.size() < 64 || threads == 1) {  // before asking for the core count: a file read, per call
    clear();
    return;
  }
  const unsigned workers = threads != 0 ? threads : std::min(4u, std::max(1u, std::thread::hardware_concurrency()));
  if (workers < 2) {
    clear();
    return;
  }
  for (unsigned i = 0; i < workers; ++i) {
    auto reader = pass.tree.thread_reader();
    if (!reader) {
      clear();
      return;
    }
    m_readers.push_back(std::move(reader));
  }
  m_parsed.resize(m_todo.size());
  for (unsigned i = behind ? 0 : 1; i < workers; ++i) m_threads.emplace_back(&LedgerPrefetch::work, this, i);
  if (!behind) work(0);
}

LedgerPrefetch::~LedgerPrefetch() { join(); }

std::vector<git::ObjectId> LedgerPrefetch::finish() {
  join();
  std::vector<git::ObjectId> kept;
  for (std::size_t i = 0; i < m_todo.size(); ++i) {
    if (!m_parsed[i]) continue;
    kept.push_back(*m_todo[i]->entry.content_id);
    m_pass.cache.ledgers().keep(kept.back(), std::move(m_parsed[i]));
  }
  clear();
  return kept;
}

void LedgerPrefetch::work(unsigned reader) {
  git::TreeSource::BlobReader& read = m_readers[reader];
  for (std::size_t i = m_next++; i < m_todo.size(); i = m_next++) {
    auto bytes = read(m_todo[i]->entry);
    if (bytes) m_parsed[i] = parse_compact(std::move(*bytes));
  }
}

void LedgerPrefetch::join() {
  for (std::thread& t : m_threads) t.join();
  m_threads.clear();
}

void LedgerPrefetch::clear() {
  m_todo.clear();
  m_parsed.clear();
}

void prefetch_ledgers(Pass& pass, std::span<const LedgerFile> ledgers) { LedgerPrefetch(pass, ledgers).finish(); }

LedgerReadAhead::LedgerReadAhead(Pass& pass) {
  if (pass.persistent) return;
  Pass quiet{pass.tree, pass.cache, {}};  // the listing's findings are reported later, in their place
  auto listed = list_ledger_entries(quiet);
  if (!listed) return;
  const std::size_t n = std::min(k_ledger_chunk, listed->ledgers.size());
  m_first.reserve(n);
  for (std::size_t i = 0; i < n; ++i) m_first.push_back(listed->file(i));
  m_prefetch = std::make_unique<LedgerPrefetch>(pass, m_first, true);
}

void LedgerReadAhead::wait() {
  if (!m_prefetch) return;
  m_kept = m_prefetch->finish();
  m_prefetch.reset();
}

std::vector<git::ObjectId> LedgerReadAhead::finish() {
  wait();
  return std::move(m_kept);
}

void check_ledger_file(Pass& pass, const LedgerFile& lf, const ProjectsTable& rows) {
  if (!is_readable_kind(lf.entry.kind)) {
    report_not_a_file(pass, lf.path, lf.entry.kind);
    return;
  }
  auto parsed = load_ledger(pass, lf);
  if (!parsed) return;
  check_text_input(parsed->input, lf.path, pass.sink);
  check_project_ledger(*parsed, lf.path, std::string(lf.key()), rows, pass.sink);
}

void report_active_row(diag::FindingSink& sink, std::string_view key, int line) {
  const std::string k(key);
  sink.report(make_finding("ledger-active-has-ledger", std::string(k_projects_yaml), line,
                           k + " is active but has no projects/" + k + ".md", diag::PeerForm::path_message));
}

bool is_active(const ProjectRow& row) {
  const auto status = row.get("status");
  return status && *status == "active";
}

LedgerKeys keys_of(const LedgerListing& listing) {
  LedgerKeys keys;
  for (std::size_t i = 0; i < listing.ledgers.size(); ++i) {
    if (is_readable_kind(listing.entry(i).kind)) keys.add(listing.key(i));
  }
  keys.seal();
  return keys;
}

namespace {

// The row of `key` rebuilt from its inputs (table_from_inputs), into `row`;
// false when `inputs` are not a row's.
bool row_from_inputs(std::string_view key, std::string_view inputs, ProjectRow& row) {
  if (std::count(inputs.begin(), inputs.end(), '\0') != 2 || !inputs.starts_with("row")) return false;
  const std::size_t second = inputs.find('\0', 4);
  row.key.assign(key);
  row.fields = ProjectFields();
  const std::string_view status = inputs.substr(4, second - 4);
  const std::string_view partition = inputs.substr(second + 1);
  if (!status.empty()) row.fields.emplace_back("status", status.substr(1));
  if (!partition.empty()) row.fields.emplace_back("partition", partition.substr(1));
  return true;
}

}  // namespace

bool table_from_inputs(std::string_view key, std::string_view inputs, ProjectsTable& out) {
  out = ProjectsTable{};
  out.present = true;
  if (inputs.empty()) return true;
  ProjectRow row;
  if (!row_from_inputs(key, inputs, row)) return false;
  out.rows.push_back(std::move(row));
  return true;
}

ProjectsYamlInput::ProjectsYamlInput(Pass& pass, bool report) : m_pass(pass) {
  CheckCache::Persistent* p = pass.persistent;
  if (p) {
    auto entry = pass.tree.stat(k_projects_yaml);
    if (entry && *entry && is_readable_kind((*entry)->kind) && (*entry)->content_id) {
      m_id = (*entry)->content_id->hex();
      load_pack(*p);
      if ((m_facts = p->pack.find_yaml(m_id))) {
        vouch(pass, *(*entry)->content_id);
        if (report) {
          for (const diag::Finding& f : m_facts->findings) pass.sink.report(f);
        }
        return;
      }
    }
  }
  if (report) {
    m_parsed = check_newest_projects_file(pass);
  } else {
    Pass quiet{pass.tree, pass.cache, {}};
    m_parsed = check_newest_projects_file(quiet);
  }
  if (p && !m_id.empty() && !has_unreadable(m_parsed->findings)) {
    m_facts = yaml_facts_of(*m_parsed);
    p->pack.keep_yaml(m_id, m_facts);
  }
}

const ProjectsTable& ProjectsYamlInput::table() {
  if (!m_parsed) {  // the same blob again, its findings already reported: parsed into a sink of its own
    Pass quiet{m_pass.tree, m_pass.cache, {}};
    m_parsed = check_newest_projects_file(quiet);
  }
  return m_parsed->table;
}

const ProjectsTable& ProjectsYamlInput::table_for(std::string_view key) {
  if (m_parsed) return m_parsed->table;
  return table_from_inputs(key, m_facts->inputs_of(key), m_one) ? m_one : table();
}

void ProjectsYamlInput::append_row_inputs(std::string& out, std::string_view key) {
  if (m_facts) {
    out += m_facts->inputs_of(key);
  } else {
    out += projects_step_row_inputs(m_parsed->table, key);
  }
}

void ProjectsYamlInput::report_active_without_ledger(const LedgerKeys& has) {
  if (m_parsed) return steps::report_active_without_ledger(m_pass.sink, m_parsed->table, has);
  for (const YamlFacts::Row& row : m_facts->rows) {
    if (row.active && !has(m_facts->key(row))) report_active_row(m_pass.sink, m_facts->key(row), row.line);
  }
}

}  // namespace steps

using namespace steps;

Result<ProjectsStepYaml> projects_step_yaml(git::TreeSource& tree, CheckCache& cache) {
  Pass pass{tree, cache, {}};
  auto result = check_newest_projects_file(pass);
  return ProjectsStepYaml{std::shared_ptr<const ProjectsTable>(result, &result->table), pass.sink.take()};
}

namespace {

// The row inputs of the tree's projects.yaml from the facts pack, which
// holds each row's key, line and inputs (YamlFacts) once a check of the
// same blob judged it: status and partition, as projects_yaml_row_inputs
// keeps them (status first). Null when there is no pack, it lacks the
// blob, a row's inputs do not read, or the blob is not confirmed present
// (the file is then read, as without a cache).
std::shared_ptr<const ProjectsTable> row_inputs_from_pack(Pass& pass) {
  CheckCache::Persistent* p = open_persistent(pass.tree, pass.cache);
  if (!p) return nullptr;
  auto entry = pass.tree.stat(k_projects_yaml);
  if (!entry || !*entry || !is_readable_kind((*entry)->kind) || !(*entry)->content_id) return nullptr;
  const git::ObjectId id = *(*entry)->content_id;
  load_pack(*p);
  const std::shared_ptr<const YamlFacts> facts = p->pack.find_yaml(id.hex());
  if (!facts) return nullptr;
  auto table = std::make_shared<ProjectsTable>();
  table->present = true;
  table->rows.reserve(facts->rows.size());
  for (const YamlFacts::Row& r : facts->rows) {
    ProjectRow& row = table->rows.emplace_back();
    if (!row_from_inputs(facts->key(r), facts->inputs(r), row)) return nullptr;
    row.line = r.line;
    row.fields.shrink_to_fit();
  }
  table->index();
  if (!confirm_once(pass.tree, *p, std::span<const git::ObjectId>(&id, 1))) return nullptr;
  return table;
}

}  // namespace

Result<ProjectsStepYaml> projects_step_yaml_rows(git::TreeSource& tree, CheckCache& cache) {
  Pass pass{tree, cache, {}};
  if (auto table = row_inputs_from_pack(pass)) return ProjectsStepYaml{std::move(table), {}};
  // Kept in the cache under an era key of its own: a table without its
  // findings never answers for a check.
  auto result = check_projects_file(pass, "row-inputs", [](std::optional<std::string_view> text, diag::FindingSink&) {
    return projects_yaml_row_inputs(text, ProjectsYamlEra{});
  });
  return ProjectsStepYaml{std::shared_ptr<const ProjectsTable>(result, &result->table), {}};
}

Result<ProjectsStepNames> projects_step_names(git::TreeSource& tree, CheckCache& cache) {
  Pass pass{tree, cache, {}};
  LG_TRY(auto ledgers, list_ledgers(pass));
  return ProjectsStepNames{std::move(ledgers), pass.sink.take()};
}

std::vector<std::vector<diag::Finding>> projects_step_ledgers(git::TreeSource& tree,
                                                              const std::vector<ProjectsStepLedger>& ledgers,
                                                              const ProjectsTable& rows, CheckCache& cache) {
  // A chunk at a time, its new parses let go once it is checked (a state
  // rebuilt whole, an audit's first commit or a change scope's first
  // state, held every ledger of the tree parsed at once: 60 MB at 20,000
  // projects), the next chunk read and parsed on the other cores meanwhile.
  Pass pass{tree, cache, {}};
  std::vector<std::vector<diag::Finding>> out;
  out.reserve(ledgers.size());
  std::vector<bool> held(ledgers.size());  // parsed before this call: another's to let go
  for (std::size_t i = 0; i < ledgers.size(); ++i) {
    const auto& id = ledgers[i].entry.content_id;
    held[i] = id && cache.ledgers().contains(*id);
  }
  const auto chunk_at = [&](std::size_t from) {
    return std::span(ledgers).subspan(from, std::min(k_ledger_chunk, ledgers.size() - from));
  };
  auto ahead = std::make_unique<LedgerPrefetch>(pass, chunk_at(0));
  for (std::size_t from = 0; from < ledgers.size(); from += k_ledger_chunk) {
    ahead->finish();
    ahead.reset();
    if (from + k_ledger_chunk < ledgers.size()) {
      ahead = std::make_unique<LedgerPrefetch>(pass, chunk_at(from + k_ledger_chunk), true);
    }
    const auto chunk = chunk_at(from);
    for (const LedgerFile& lf : chunk) {
      check_ledger_file(pass, lf, rows);
      out.push_back(pass.sink.take());
    }
    for (std::size_t i = from; i < from + chunk.size(); ++i) {
      if (!held[i] && ledgers[i].entry.content_id) cache.ledgers().forget(*ledgers[i].entry.content_id);
    }
  }
  return out;
}

std::vector<diag::Finding> projects_step_active_rows(const ProjectsTable& rows,
                                                     const std::unordered_set<std::string>& keys) {
  diag::CollectingSink sink;
  report_active_without_ledger(sink, rows, [&keys](const std::string& key) { return keys.count(key) != 0; });
  return sink.take();
}

std::string projects_step_row_inputs(const ProjectsTable& rows, std::string_view key) {
  // check_project_ledger (cortex_projects.cpp) reads the row's presence, `status` and `partition`.
  const ProjectRow* row = rows.find(key);
  if (!row) return std::string();
  std::string out = "row";
  for (std::string_view field : {std::string_view("status"), std::string_view("partition")}) {
    const auto v = row->get(field);
    out += '\0';
    if (v) out.append(1, 'v').append(*v);
  }
  return out;
}

ProjectsEntryRole projects_entry_role(std::string_view name) {
  if (name == "AGENTS.md" || name == "TEMPLATE.md") return ProjectsEntryRole::skipped;
  if (!ends_with(name, ".md")) return ProjectsEntryRole::unchecked;
  return is_ledger_key(name.substr(0, name.size() - 3)) ? ProjectsEntryRole::ledger : ProjectsEntryRole::bad_name;
}

Result<ProjectsStepEntry> projects_step_entry(git::TreeSource& tree, const git::Entry& entry, CheckCache& cache) {
  ProjectsStepEntry out;
  out.role = projects_entry_role(entry.name);
  if (out.role == ProjectsEntryRole::bad_name) out.names.push_back(bad_ledger_name(entry.name));
  if (out.role == ProjectsEntryRole::unchecked) {
    Pass pass{tree, cache, {}};
    if (auto r = report_unchecked(pass, ledger_path(entry.name), entry); !r) return r.error();
    out.unchecked = pass.sink.take();
  }
  return out;
}

Result<std::string> projects_row_inputs(git::TreeSource& tree, std::string_view key, CheckCache& cache) {
  Pass pass{tree, cache, {}};
  pass.persistent = open_persistent(tree, cache);
  std::string out;
  {
    ProjectsYamlInput projects(pass, false);
    projects.append_row_inputs(out, key);
  }
  if (pass.persistent) flush_pack(*pass.persistent);
  return out;
}

ProjectsTable projects_table_from_inputs(std::string_view key, std::string_view inputs) {
  ProjectsTable out;
  const bool ok = table_from_inputs(key, inputs, out);
  LEDGERGATE_ASSERT(ok && "row inputs of projects_step_row_inputs' form");
  out.index();
  return out;
}

Result<std::shared_ptr<const ProjectsTable>> projects_table(git::TreeSource& tree, CheckCache& cache) {
  const std::string path(k_projects_yaml);
  LG_TRY(auto entry, tree.stat(path));
  if (!entry || !is_readable_kind(entry->kind)) return std::shared_ptr<const ProjectsTable>();
  std::shared_ptr<const CheckCache::ProjectsYamlResult> result;
  if (auto hit = entry->content_id ? cache.projects_yaml().find(QualifiedId{*entry->content_id, {}}) : nullptr) {
    result = std::move(hit);
  } else {
    LG_TRY(std::string bytes, tree.read(path, *entry));
    auto fresh = std::make_shared<CheckCache::ProjectsYamlResult>();
    diag::CollectingSink local;
    const ledger::TextFile file = ledger::decode_text(bytes);
    check_text_input(file.facts, path, local);
    fresh->table = check_projects_yaml(file.text, ProjectsYamlEra{}, local, path);
    fresh->findings = local.take();
    if (entry->content_id) cache.projects_yaml().keep(QualifiedId{*entry->content_id, {}}, fresh);
    result = std::move(fresh);
  }
  for (const diag::Finding& f : result->findings) {
    if (f.rule == "projects-yaml-parses" || f.rule == "projects-yaml-is-mapping") {
      return std::shared_ptr<const ProjectsTable>();
    }
  }
  return std::shared_ptr<const ProjectsTable>(result, &result->table);
}

}  // namespace lg::rules
