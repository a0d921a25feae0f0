#include "ledgergate/board/board.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <functional>
#include <memory>
#include <thread>
#include <unordered_map>

#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/check_cache.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::board {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// CHECKIN_STAMP = ^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z$ (ASCII digits:
// the stamp is written by the conductor, never typed).
bool is_checkin_stamp(std::string_view s) {
  const std::string_view shape = s.size() == 17 ? "dddd-dd-ddTdd:ddZ" : "dddd-dd-ddTdd:dd:ddZ";
  if (s.size() != shape.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (shape[i] == 'd' ? !is_digit(s[i]) : s[i] != shape[i]) return false;
  }
  return true;
}

// A GitHub owner or repository name: [A-Za-z0-9_.-]+.
std::size_t name_length(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && (std::isalnum(static_cast<unsigned char>(s[n])) != 0 || s[n] == '_' || s[n] == '.' ||
                          s[n] == '-')) {
    ++n;
  }
  return n;
}

// "OWNER/REPO" at the start of `s` → the home URL; the repository name
// loses a ".git" suffix.
std::optional<std::string> home_from_path(std::string_view s) {
  const std::size_t owner = name_length(s);
  if (owner == 0 || owner >= s.size() || s[owner] != '/') return std::nullopt;
  std::string_view rest = s.substr(owner + 1);
  std::string_view repo = rest.substr(0, name_length(rest));
  while (repo.ends_with(".")) repo.remove_suffix(1);  // a sentence's full stop after the link
  if (repo.ends_with(".git")) repo.remove_suffix(4);
  if (repo.empty()) return std::nullopt;
  return "https://github.com/" + std::string(s.substr(0, owner)) + "/" + std::string(repo);
}

std::string_view row_value(const rules::ProjectRow& row, std::string_view field) {
  return row.get(field).value_or(std::string_view());
}

bool is_readable(git::EntryKind kind) { return kind == git::EntryKind::file || kind == git::EntryKind::executable; }

// Reads and parses `entries` (nullptr: no ledger), in full, on up to four
// threads with a repository handle each when the source has thread readers
// (a commit's tree), else in turn.
Result<std::vector<std::optional<ledger::ProjectLedger>>> parse_ledgers(git::TreeSource& tree,
                                                                        const std::vector<const git::Entry*>& entries) {
  std::vector<std::optional<ledger::ProjectLedger>> parsed(entries.size());
  std::vector<std::optional<Error>> failed(entries.size());
  const unsigned workers =
      entries.size() < 64 ? 1u : std::min(4u, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<git::TreeSource::BlobReader> readers;
  for (unsigned i = 0; i < workers && workers > 1; ++i) {
    auto reader = tree.thread_reader();
    if (!reader) break;
    readers.push_back(std::move(reader));
  }
  if (readers.size() < 2) {
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (entries[i] == nullptr) continue;
      LG_TRY(std::string bytes, tree.read(std::string(ledger::k_projects_dir) + "/" + entries[i]->name, *entries[i]));
      parsed[i] = ledger::parse_project_ledger(bytes);
    }
    return parsed;
  }
  std::atomic<std::size_t> next{0};
  auto work = [&](git::TreeSource::BlobReader& read) {
    for (std::size_t i = next++; i < entries.size(); i = next++) {
      if (entries[i] == nullptr) continue;
      auto bytes = read(*entries[i]);
      if (bytes) {
        parsed[i] = ledger::parse_project_ledger(*bytes);
      } else {
        failed[i] = bytes.error();
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < readers.size(); ++i) threads.emplace_back(work, std::ref(readers[i]));
  work(readers[0]);
  for (std::thread& t : threads) t.join();
  for (const std::optional<Error>& e : failed) {
    if (e) return *e;
  }
  return parsed;
}

// The summary of a listed (not active) row: its ledger's title summary
// (the check's cached parse when it has one), else the row's note.
Result<Listed> listed_row(git::TreeSource& tree, rules::CheckCache& cache, const rules::ProjectRow& row,
                          const git::Entry* entry) {
  const std::string path = std::string(ledger::k_projects_dir) + "/" + row.key + ".md";
  Listed l{row.key, std::string(row_value(row, "status")), "", ""};
  if (entry != nullptr) {
    l.path = path;
    std::shared_ptr<const ledger::ProjectLedger> hit;
    if (entry->content_id) hit = cache.ledgers().find(*entry->content_id);
    if (!hit) {
      LG_TRY(std::string bytes, tree.read(path, *entry));
      hit = std::make_shared<const ledger::ProjectLedger>(ledger::parse_project_ledger(bytes));
    }
    if (hit->title && hit->title->matches) l.summary = hit->title->summary;
  }
  if (l.summary.empty()) l.summary = std::string(row_value(row, "note"));
  return l;
}

// An active row's card, taking the texts of its parsed ledger (nullopt: none).
Card active_card(const rules::ProjectRow& row, std::optional<ledger::ProjectLedger>& ledger) {
  Card c;
  c.key = row.key;
  c.status = std::string(row_value(row, "status"));
  c.partition = std::string(row_value(row, "partition"));
  c.path = std::string(ledger::k_projects_dir) + "/" + row.key + ".md";
  c.has_ledger = ledger.has_value();
  if (!ledger) return c;
  if (ledger->title && ledger->title->matches) c.summary = ledger->title->summary;
  if (const ledger::HeaderField* issue = ledger->header_field("Issue")) c.issue = issue->value;
  c.now = std::move(ledger->now);
  for (ledger::RunLine& r : ledger->runs) c.runs.push_back(Run{std::move(r), std::nullopt, false});
  c.log_total = ledger->log.size();
  if (!ledger->log.empty()) c.updated = ledger->log.front().date;
  const std::size_t n = std::min(k_log_window, ledger->log.size());
  c.log.assign(std::make_move_iterator(ledger->log.begin()),
               std::make_move_iterator(ledger->log.begin() + static_cast<std::ptrdiff_t>(n)));
  return c;
}

// The cards and listed rows of `table`, in its order; the active rows'
// ledgers parsed in full (their texts are the cards).
Result<void> read_rows(git::TreeSource& tree, rules::CheckCache& cache, const rules::ProjectsTable& table,
                       Board& b) {
  LG_TRY(rules::ProjectsStepNames names, rules::projects_step_names(tree, cache));
  std::unordered_map<std::string_view, const git::Entry*> ledger_of;
  for (const rules::ProjectsStepLedger& l : names.ledgers) ledger_of.emplace(l.key(), &l.entry);
  const auto entry_of = [&](const rules::ProjectRow& row) -> const git::Entry* {
    auto it = ledger_of.find(row.key);
    return it == ledger_of.end() || !is_readable(it->second->kind) ? nullptr : it->second;
  };
  std::vector<const git::Entry*> active_entries;
  for (const rules::ProjectRow& row : table.rows) {
    if (row_value(row, "status") == "active") active_entries.push_back(entry_of(row));
  }
  LG_TRY(std::vector<std::optional<ledger::ProjectLedger>> parsed, parse_ledgers(tree, active_entries));
  std::size_t next_active = 0;
  for (const rules::ProjectRow& row : table.rows) {
    if (row_value(row, "status") == "active") {
      b.active.push_back(active_card(row, parsed[next_active++]));
      continue;
    }
    LG_TRY(Listed l, listed_row(tree, cache, row, entry_of(row)));
    (l.status == "retired" ? b.retired : b.resting).push_back(std::move(l));
  }
  return {};
}

// The board's as_of (the newest date among the cards' newest log entries
// and the check-in stamp's day), and each run's age and staleness against it.
void age_runs(Board& b) {
  std::optional<long> newest;
  const auto consider = [&](std::string_view date) {
    if (auto day = util::day_number(date); day && (!newest || *day > *newest)) {
      newest = day;
      b.as_of = std::string(date);
    }
  };
  for (const Card& c : b.active) consider(c.updated);
  if (b.checkin.state == Checkin::State::ok) consider(std::string_view(b.checkin.stamp).substr(0, 10));
  for (Card& c : b.active) {
    for (Run& r : c.runs) {
      const auto day = util::day_number(r.line.date);
      if (!day || !newest) continue;
      r.age_days = *newest - *day;
      r.stale = (r.line.state == "open" || r.line.state == "running") && *r.age_days > b.stale_days;
    }
  }
}

}  // namespace

Checkin read_checkin(const std::optional<std::string>& bytes) {
  Checkin c;
  if (!bytes) return c;
  c.state = Checkin::State::unreadable;
  // The first line matching ^refreshed:\s*(\S+)\s*$, the value trimmed of
  // whitespace and `"` (spec §5.3).
  for (const std::string& line : util::split_universal_lines(*bytes)) {
    if (!line.starts_with("refreshed:")) continue;
    std::string_view value = util::strip(std::string_view(line).substr(10));
    if (value.empty() || std::any_of(value.begin(), value.end(), [](char ch) { return ch == ' ' || ch == '\t'; })) {
      continue;
    }
    while (!value.empty() && value.front() == '"') value.remove_prefix(1);
    while (!value.empty() && value.back() == '"') value.remove_suffix(1);
    if (is_checkin_stamp(value)) {
      c.state = Checkin::State::ok;
      c.stamp = std::string(value);
    }
    break;
  }
  return c;
}

std::optional<std::string> github_home_in(std::string_view text) {
  static constexpr std::string_view k_prefix = "https://github.com/";
  for (std::size_t at = text.find(k_prefix); at != std::string_view::npos; at = text.find(k_prefix, at + 1)) {
    if (auto home = home_from_path(text.substr(at + k_prefix.size()))) return home;
  }
  return std::nullopt;
}

std::optional<std::string> github_home_of_remote(std::string_view url) {
  for (const std::string_view prefix :
       {"https://github.com/", "http://github.com/", "git@github.com:", "ssh://git@github.com/", "git://github.com/"}) {
    if (!url.starts_with(prefix)) continue;
    // The rest must be exactly OWNER/REPO[.git][/]: a remote is one repository.
    std::string_view rest = url.substr(prefix.size());
    if (rest.ends_with("/")) rest.remove_suffix(1);
    if (rest.ends_with(".git")) rest.remove_suffix(4);
    const std::size_t owner = name_length(rest);
    if (owner == 0 || owner >= rest.size() || rest[owner] != '/') return std::nullopt;
    if (name_length(rest.substr(owner + 1)) != rest.size() - owner - 1) return std::nullopt;
    return home_from_path(rest);
  }
  return std::nullopt;
}

Result<std::optional<Home>> read_home(git::TreeSource& tree, std::string_view remote_url) {
  for (const std::string_view file : {"README.md", "AGENTS.md"}) {
    LG_TRY(std::optional<std::string> text, git::read_regular_file(tree, std::string(file)));
    if (!text) continue;
    if (auto home = github_home_in(*text)) return std::optional<Home>(Home{std::move(*home), std::string(file)});
  }
  if (auto home = github_home_of_remote(remote_url)) return std::optional<Home>(Home{std::move(*home), "git remote"});
  return std::optional<Home>();
}

Result<Board> read_board(git::TreeSource& tree, const BoardOptions& options) {
  rules::CheckCache cache;
  LG_TRY(rules::CheckReport report, rules::check_tree(tree, options.check, cache));
  if (report.checked.layout != ledger::Layout::cortex_projects) {
    const std::string_view name = ledger::layout_name(report.checked.layout);
    return make_error(ErrorKind::invalid_input,
                      "the board is the cortex-projects era's page; this tree is " +
                          (name.empty() ? std::string("no Cortex ledger") : std::string(name)));
  }
  LG_TRY(auto table, rules::projects_table(tree, cache));
  if (!table) {
    return make_error(ErrorKind::invalid_input,
                      "projects.yaml cannot be read as rows (see `ledgergate check`): the board has no projects");
  }

  Board b;
  b.profile = report.profile;
  b.verdict = report.cannot_judge() ? diag::Verdict::error
              : report.failed()     ? diag::Verdict::fail
                                    : diag::Verdict::pass;
  b.findings = std::move(report.findings);
  if (auto rows = read_rows(tree, cache, *table, b); !rows) return rows.error();

  LG_TRY(std::optional<std::string> checkin, git::read_regular_file(tree, std::string(k_checkin_yaml)));
  b.checkin = read_checkin(checkin);
  b.stale_days = options.stale_days;
  age_runs(b);

  LG_TRY(std::optional<Home> home, read_home(tree, options.remote_url));
  if (home) {
    b.home = std::move(home->url);
    b.home_source = std::move(home->source);
  }
  return b;
}

}  // namespace lg::board
