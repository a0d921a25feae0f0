// What the board's renderers share (report/board_md.cpp, board_html.cpp,
// audit_html.cpp): escaping, link targets, the counts line. Private to report/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/board/board.hpp"
#include "ledgergate/diag/finding.hpp"
#include "ledgergate/report/board.hpp"

namespace lg::report::board_page {

// HTML text and attribute escaping (& < > " ').
std::string html_escape(std::string_view s);
// Markdown escaping for text inside a list item or paragraph: every
// character that could open markup (\ ` * _ [ ] < > | # & ~) gets a backslash.
std::string md_escape(std::string_view s);
// The small markdown ledger texts use, rendered safely: **strong** and
// __strong__, *emphasis* and _emphasis_ (an underscore inside a word is
// text: run_id_2), `code`, [text](target) with an http(s) or relative
// target, backslash escapes. Anything else, raw HTML included, is text;
// a link with another target (javascript:, data:, ...) stays its source text.
std::string inline_html(std::string_view text);
// The same spans as markdown of our own writing: every text escaped
// (md_escape), the spans respelled, a refused link as escaped text.
std::string inline_md(std::string_view text);
// Whether a link target may be written into a page: http:// or https://,
// or a relative reference (no scheme, not "//host"), with no space or
// control character.
bool is_safe_link(std::string_view target);
// GitHub's anchor of a markdown heading's text ("a — B c" → "a--b-c"):
// lowercased (ASCII), punctuation dropped, spaces to hyphens.
std::string heading_anchor(std::string_view heading);
// The link target of a repository path (and line): `{home}/blob/main/{path}`
// with a home, else the path relative to the page at the tree's root; with
// `line` > 0, "#L{line}".
std::string file_link(const board::Board& b, std::string_view path, int line = 0);
// "https://github.com/OWNER/REPO/issues/N" for an `Issue:` value when one
// can be made (a URL as is; Repo#N with a home's owner), else "".
std::string issue_link(const board::Board& b, std::string_view issue);
// "pass", "fail", "cannot judge" as the page words a verdict ("OK"/"DRIFT"/"CANNOT JUDGE").
std::string_view verdict_word(diag::Verdict v);
// "2 errors, 1 warning" (counts of the findings' severities).
std::string severity_counts(const std::vector<diag::Finding>& findings);
// "N active · M dormant or planned · K retired".
std::string project_counts(const board::Board& b);
// The `## Now` text as paragraphs, each a list of lines (blank lines split paragraphs).
std::vector<std::vector<std::string>> paragraphs(std::string_view text);
// "<!doctype html>" to "<body>": the generated line, the head with the
// page's inline style (board_html.cpp) and `extra_style` after it, `title`;
// `command` re-renders the page.
std::string html_head(std::string_view title, const PageStamp& stamp, std::string_view command,
                      std::string_view extra_style = {});
// The page's title: "OWNER/REPO — ledger board" with a home, else "Ledger board".
std::string page_title(const board::Board& b);

}  // namespace lg::report::board_page
