#include "ledgergate/report/github.hpp"

#include <catch2/catch.hpp>

using namespace lg;

namespace {
diag::Finding finding(diag::Severity sev, std::string path, int line, std::string message) {
  diag::Finding f;
  f.rule = "ledger-has-row";
  f.severity = sev;
  f.location = {"HEAD", std::move(path), line, 0};
  f.message = std::move(message);
  return f;
}
}  // namespace

TEST_CASE("github: data and property escapes as GitHub documents them", "[report][github]") {
  CHECK(report::github_escape_data("50%\r\nnext: a, b") == "50%25%0D%0Anext: a, b");
  CHECK(report::github_escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A");
}

TEST_CASE("github: one workflow command per finding", "[report][github]") {
  const std::vector<diag::Finding> findings = {
      finding(diag::Severity::error, "projects/a,b.md", 3, "100% wrong:\nreally"),
      finding(diag::Severity::warning, "projects.yaml", 0, "odd"),
      finding(diag::Severity::info, "", 0, "fyi"),
  };
  CHECK(report::render_github(findings) ==
        "::error file=projects/a%2Cb.md,line=3,title=ledger-has-row::HEAD: 100%25 wrong:%0Areally\n"
        "::warning file=projects.yaml,title=ledger-has-row::HEAD: odd\n"
        "::notice title=ledger-has-row::HEAD: fyi\n");
  CHECK(report::render_github({}).empty());
}

TEST_CASE("github: the step summary lists every finding in a table", "[report][github]") {
  auto f = finding(diag::Severity::error, "projects/x.md", 12, "a | b <c>");
  const std::string md = report::render_github_summary({f}, {diag::Verdict::fail, "cortex-projects", "HEAD"},
                                                       "ledgergate check");
  CHECK(md == "### ledgergate check: fail\n\n"
              "`HEAD` (cortex-projects): 1 error(s), 0 warning(s), 1 finding(s) in all\n\n"
              "| severity | location | rule | message |\n|---|---|---|---|\n"
              "| error | HEAD:projects/x.md:12 | `ledger-has-row` | a \\| b &lt;c&gt; |\n\n");
  CHECK(report::render_github_summary({}, {diag::Verdict::pass, "cortex-projects", "HEAD"}, "t") ==
        "### t: pass\n\n`HEAD` (cortex-projects): 0 error(s), 0 warning(s), 0 finding(s) in all\n\n");
}

TEST_CASE("github: a hostile file name cannot add a command or reach the terminal", "[report][github]") {
  const std::vector<diag::Finding> findings = {
      finding(diag::Severity::error, "projects/x.md\n::error file=y.md::forged", 1, "m"),
      finding(diag::Severity::error, "projects/\x1b[31mred\x1b[0m.md", 2, "bell\a in \x1b]0;title\a"),
      finding(diag::Severity::error, "projects/bad\xff.md", 0, "m"),
  };
  CHECK(report::render_github(findings) ==
        "::error file=projects/x.md%0A%3A%3Aerror file=y.md%3A%3Aforged,line=1,title=ledger-has-row::HEAD: m\n"
        "::error file=projects/\\033[31mred\\033[0m.md,line=2,title=ledger-has-row::HEAD: bell\\a in "
        "\\033]0;title\\a\n"
        "::error file=projects/bad\\377.md,title=ledger-has-row::HEAD: m\n");
}
