// The board's pages (report/board_md.cpp, board_html.cpp): deterministic
// bytes but for the volatile lines, ledger text escaped, the page
// self-contained. The golden pages of the real ledger are tests/board/.
#include "ledgergate/report/board.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace lg;

namespace {

board::Board hostile_board() {
  board::Board b;
  b.profile = "cortex-projects";
  board::Card c;
  c.key = "example";
  c.status = "active";
  c.path = "projects/example.md";
  c.has_ledger = true;
  c.summary = "a <script>alert(1)</script> | pipe";
  c.now = "line *one* [x](y)\n# not a heading\n\nsecond paragraph & more";
  ledger::RunLine r;
  r.ident = "3002_[0-3]";
  r.state = "running";
  r.partition = "ral";
  r.date = "2026-09-01";
  r.text = "wave <2> | `code`";
  c.runs.push_back(board::Run{r, 0, false});
  ledger::LogEntry e;
  e.date = "2026-09-02";
  e.kind = "note";
  e.text = "\"quoted\" & 'single' <b>";
  c.log.push_back(e);
  c.log_total = 1;
  c.updated = "2026-09-02";
  b.active.push_back(c);
  diag::Finding f;
  f.rule = "ledger-log-newest-first";
  f.severity = diag::Severity::error;
  f.location = {"", "projects/a b.md", 7, 0};
  f.message = "log <is> not newest-first";
  b.findings.push_back(f);
  b.verdict = diag::Verdict::fail;
  return b;
}

const report::PageStamp k_stamp{"ledgergate 9.9.9", "2026-09-03 00:00 UTC"};
const report::PageStamp k_later{"ledgergate 9.9.10", "2027-01-01 12:34 UTC"};

}  // namespace

TEST_CASE("board page: ledger text is HTML-escaped, nothing runs, nothing is fetched", "[report][board]") {
  const std::string html = report::render_board_html(hostile_board(), k_stamp);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(html.find("&quot;quoted&quot; &amp; &#39;single&#39; &lt;b&gt;") != std::string::npos);
  CHECK(html.find("<b>") == std::string::npos);
  CHECK(html.find("href=\"projects/a%20b.md#L7\"") != std::string::npos);
  // Self-contained: no external asset, no script, no event handler.
  CHECK(html.find("src=") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("http") == std::string::npos);
  // Phone, landmarks, language, schemes.
  CHECK(html.find("<html lang=\"en\">") != std::string::npos);
  CHECK(html.find("name=\"viewport\"") != std::string::npos);
  CHECK(html.find("<main>") != std::string::npos);
  CHECK(html.find("prefers-color-scheme:dark") != std::string::npos);
  CHECK(html.find("id=\"project-example\"") != std::string::npos);
}

TEST_CASE("board page: markdown escapes what would break a list or a heading", "[report][board]") {
  const std::string md = report::render_board_md(hostile_board(), k_stamp);
  CHECK(md.find("### example — a \\<script\\>alert(1)\\</script\\> \\| pipe\n") != std::string::npos);
  CHECK(md.find("line *one* [x](y)\\\n\\# not a heading\n\nsecond paragraph \\& more\n") != std::string::npos);
  CHECK(md.find("- `3002_[0-3]` — running — ral — 2026-09-01 — wave \\<2\\> \\| `code`\n") != std::string::npos);
  CHECK(md.find("[projects/a b.md:7](projects/a%20b.md#L7)") != std::string::npos);
}

TEST_CASE("board page: only the generated line and the banner are volatile", "[report][board]") {
  const board::Board b = hostile_board();
  for (const bool html : {false, true}) {
    const auto render = [&](const report::PageStamp& s) {
      return html ? report::render_board_html(b, s) : report::render_board_md(b, s);
    };
    const std::string page = render(k_stamp);
    CHECK(page == render(k_stamp));  // the same board, the same bytes
    CHECK(page != render(k_later));
    CHECK(report::strip_volatile_lines(page) == report::strip_volatile_lines(render(k_later)));
    // Exactly two lines go.
    const auto lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
    CHECK(lines(page) - lines(report::strip_volatile_lines(page)) == 2);
    board::Board changed = b;
    changed.active[0].now = "something else";
    CHECK(report::strip_volatile_lines(page) !=
          report::strip_volatile_lines(html ? report::render_board_html(changed, k_stamp)
                                            : report::render_board_md(changed, k_stamp)));
  }
}

TEST_CASE("board page: links go to the home when there is one", "[report][board]") {
  board::Board b = hostile_board();
  b.home = "https://github.com/Own/Repo";
  b.home_source = "README.md";
  b.active[0].issue = "example#7";
  const std::string md = report::render_board_md(b, k_stamp);
  CHECK(md.find("[projects/example.md](https://github.com/Own/Repo/blob/main/projects/example.md)") !=
        std::string::npos);
  CHECK(md.find("issue: [example\\#7](https://github.com/Own/example/issues/7)") != std::string::npos);
  CHECK(md.find("# Own/Repo — ledger board\n") != std::string::npos);
  b.home.reset();
  CHECK(report::render_board_md(b, k_stamp).find("issue: example\\#7 ·") != std::string::npos);
}
