#include "ledgergate/board/board.hpp"

#include <algorithm>
#include <cctype>

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
  if (repo.ends_with(".git")) repo.remove_suffix(4);
  while (repo.ends_with(".")) repo.remove_suffix(1);  // a sentence's full stop after the link
  if (repo.empty()) return std::nullopt;
  return "https://github.com/" + std::string(s.substr(0, owner)) + "/" + std::string(repo);
}

std::string_view row_value(const rules::ProjectRow& row, std::string_view field) {
  const std::string* v = row.get(field);
  return v != nullptr ? std::string_view(*v) : std::string_view();
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

  for (const rules::ProjectRow& row : table->rows) {
    const std::string path = std::string(ledger::k_projects_dir) + "/" + row.key + ".md";
    LG_TRY(std::optional<std::string> bytes, git::read_regular_file(tree, path));
    std::optional<ledger::ProjectLedger> parsed;
    if (bytes) parsed = ledger::parse_project_ledger(*bytes);
    const std::string status(row_value(row, "status"));
    std::string summary = parsed && parsed->title && parsed->title->matches ? parsed->title->summary : "";
    if (status != "active") {
      Listed l{row.key, status, bytes ? path : "", summary};
      if (l.summary.empty()) l.summary = std::string(row_value(row, "note"));
      (status == "retired" ? b.retired : b.resting).push_back(std::move(l));
      continue;
    }
    Card c;
    c.key = row.key;
    c.status = status;
    c.partition = std::string(row_value(row, "partition"));
    c.path = path;
    c.has_ledger = parsed.has_value();
    c.summary = std::move(summary);
    if (parsed) {
      if (const ledger::HeaderField* issue = parsed->header_field("Issue")) c.issue = issue->value;
      c.now = std::move(parsed->now);
      c.runs = std::move(parsed->runs);
      c.log_total = parsed->log.size();
      if (!parsed->log.empty()) c.updated = parsed->log.front().date;
      const std::size_t n = std::min(k_log_window, parsed->log.size());
      c.log.assign(std::make_move_iterator(parsed->log.begin()),
                   std::make_move_iterator(parsed->log.begin() + static_cast<std::ptrdiff_t>(n)));
    }
    b.active.push_back(std::move(c));
  }

  LG_TRY(std::optional<std::string> checkin, git::read_regular_file(tree, std::string(k_checkin_yaml)));
  b.checkin = read_checkin(checkin);

  for (const std::string_view file : {"README.md", "AGENTS.md"}) {
    LG_TRY(std::optional<std::string> text, git::read_regular_file(tree, std::string(file)));
    if (!text) continue;
    if (auto home = github_home_in(*text)) {
      b.home = std::move(home);
      b.home_source = std::string(file);
      break;
    }
  }
  if (!b.home && !options.remote_url.empty()) {
    if (auto home = github_home_of_remote(options.remote_url)) {
      b.home = std::move(home);
      b.home_source = "git remote";
    }
  }
  return b;
}

}  // namespace lg::board
