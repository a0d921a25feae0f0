// The board pages' shared pieces and the `board` command's lines.
#include "board_common.hpp"

#include <fmt/format.h>

#include "ledgergate/diag/severity_counts.hpp"
#include "ledgergate/report/board.hpp"
#include "ledgergate/util/quote.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::report {
namespace board_page {

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string md_escape(std::string_view s) {
  static constexpr std::string_view k_special = "\\`*_[]<>|#&~";
  std::string out;
  out.reserve(s.size() + 8);
  for (const char c : s) {
    if (k_special.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string file_link(const board::Board& b, std::string_view path, int line) {
  std::string out = b.home ? *b.home + "/blob/main/" + util::percent_encode_path(path) : util::percent_encode_path(path);
  if (line > 0) out += fmt::format("#L{}", line);
  return out;
}

std::string issue_link(const board::Board& b, std::string_view issue) {
  if (issue.starts_with("https://github.com/")) return util::percent_encode_path(issue.substr(0, 19)) + util::percent_encode_path(issue.substr(19));
  const std::size_t hash = issue.find('#');
  if (!b.home || hash == std::string_view::npos || hash == 0) return "";
  const std::string_view repo = issue.substr(0, hash);
  const std::string_view number = issue.substr(hash + 1);
  if (number.empty() || number.find_first_not_of("0123456789") != std::string_view::npos) return "";
  // The home's owner: "https://github.com/OWNER/REPO".
  const std::string_view home = *b.home;
  const std::size_t owner_end = home.find('/', 19);
  if (owner_end == std::string_view::npos) return "";
  if (repo.find('/') != std::string_view::npos) return "https://github.com/" + util::percent_encode_path(repo) + "/issues/" + std::string(number);
  return std::string(home.substr(0, owner_end)) + "/" + util::percent_encode_path(repo) + "/issues/" + std::string(number);
}

std::string_view verdict_word(diag::Verdict v) {
  switch (v) {
    case diag::Verdict::pass: return "OK";
    case diag::Verdict::fail: return "DRIFT";
    case diag::Verdict::error: return "CANNOT JUDGE";
  }
  return "";
}

std::string severity_counts(const std::vector<diag::Finding>& findings) {
  const diag::SeverityCounts n = diag::count_severities(findings);
  return fmt::format("{} error{}, {} warning{}", n.errors, n.errors == 1 ? "" : "s", n.warnings,
                     n.warnings == 1 ? "" : "s");
}

std::string project_counts(const board::Board& b) {
  return fmt::format("{} active · {} dormant or planned · {} retired", b.active.size(), b.resting.size(),
                     b.retired.size());
}

std::vector<std::vector<std::string>> paragraphs(std::string_view text) {
  std::vector<std::vector<std::string>> out;
  bool open = false;
  for (const std::string& line : util::split_universal_lines(text)) {
    if (util::is_blank(line)) {
      open = false;
      continue;
    }
    if (!open) out.emplace_back();
    open = true;
    out.back().push_back(line);
  }
  return out;
}

std::string page_title(const board::Board& b) {
  if (!b.home) return "Ledger board";
  return std::string(std::string_view(*b.home).substr(19)) + " — ledger board";
}

}  // namespace board_page

std::string strip_volatile_lines(std::string_view page) {
  std::string out;
  out.reserve(page.size());
  while (!page.empty()) {
    const std::size_t nl = page.find('\n');
    const std::string_view line = page.substr(0, nl == std::string_view::npos ? page.size() : nl + 1);
    page.remove_prefix(line.size());
    if (line.starts_with(k_board_generated_prefix) || line.starts_with(k_board_banner_md) ||
        line.starts_with(k_board_banner_html)) {
      continue;
    }
    out += line;
  }
  return out;
}

std::string render_board_check(std::string_view file, bool exists, bool up_to_date) {
  if (!exists) return fmt::format("{}: stale: the page does not exist (render it with --out)\n", file);
  if (up_to_date) return fmt::format("{}: up to date\n", file);
  return fmt::format("{}: stale: differs from a re-render beyond its generated line and banner\n", file);
}

std::string render_board_written(std::string_view file) { return fmt::format("wrote {}\n", file); }

}  // namespace lg::report
