#include "ledgergate/report/format.hpp"

#include "ledgergate/diag/baseline.hpp"

#include <catch2/catch.hpp>

using namespace lg;

namespace {
diag::Finding finding(std::string rule, diag::Severity sev, diag::PeerForm peer, int line = 3) {
  diag::Finding f;
  f.rule = std::move(rule);
  f.severity = sev;
  f.peer = peer;
  f.location = {"HEAD", "projects/x.md", line, 0};
  f.message = "something \"quoted\"";
  return f;
}
}  // namespace

TEST_CASE("report: cortex output is OK or DRIFT with the reference's lines", "[report][format]") {
  CHECK(report::render_cortex({}) == "cortex check: OK\n");
  const auto warn = finding("ledger-run-overlap", diag::Severity::warning, diag::PeerForm::none);
  CHECK(report::render_cortex({warn}) == "cortex check: OK\n");
  const auto peer = finding("ledger-has-row", diag::Severity::error, diag::PeerForm::path_message);
  const auto yaml = finding("projects-yaml-parses", diag::Severity::error, diag::PeerForm::path_line_message);
  CHECK(report::render_cortex({peer, warn, yaml}) ==
        "cortex check: DRIFT\n  - projects/x.md: something \"quoted\"\n  - projects/x.md:3: something \"quoted\"\n");
}

TEST_CASE("report: text output is rev:path:line: severity: message [rule]", "[report][format]") {
  auto f = finding("ledger-has-row", diag::Severity::error, diag::PeerForm::path_message);
  CHECK(report::render_text({f}, false) == "HEAD:projects/x.md:3: error: something \"quoted\" [ledger-has-row]\n");
  f.location.rev.clear();
  f.location.line = 0;
  CHECK(report::render_text({f}, false) == "projects/x.md: error: something \"quoted\" [ledger-has-row]\n");
}

TEST_CASE("report: text locations open in an editor: path:line:col from here, REV: only for a revision",
          "[report][format]") {
  auto f = finding("ledger-has-row", diag::Severity::error, diag::PeerForm::path_message);
  f.location.column = 5;
  CHECK(report::render_text({f}, false, "..") == "HEAD:projects/x.md:3:5: error: something \"quoted\" [ledger-has-row]\n");
  f.location.rev.clear();
  CHECK(report::render_text({f}, false) == "projects/x.md:3:5: error: something \"quoted\" [ledger-has-row]\n");
  CHECK(report::render_text({f}, false, "..") == "../projects/x.md:3:5: error: something \"quoted\" [ledger-has-row]\n");
  f.location.line = 0;  // no line: no column either
  CHECK(report::render_text({f}, false, "r") == "r/projects/x.md: error: something \"quoted\" [ledger-has-row]\n");
}

TEST_CASE("report: statistics count findings per rule, most first; the verdict word in colour", "[report][format]") {
  const auto err = finding("ledger-has-row", diag::Severity::error, diag::PeerForm::path_message);
  const auto warn = finding("ledger-run-overlap", diag::Severity::warning, diag::PeerForm::none);
  CHECK(report::render_statistics({warn, err, err}) == "2  error    ledger-has-row\n1  warning  ledger-run-overlap\n");
  CHECK(report::render_statistics({}).empty());
  CHECK(report::render_verdict_word(diag::Verdict::fail, false) == "fail");
  CHECK(report::render_verdict_word(diag::Verdict::pass, true) == "\033[1;32mpass\033[0m");
  CHECK(report::render_verdict_word(diag::Verdict::fail, true) == "\033[1;31mfail\033[0m");
  const report::JsonHeader header{diag::Verdict::fail, "cortex-projects", "HEAD"};
  CHECK(report::render_check_summary({err}, header, true) ==
        "ledgergate check HEAD: \033[1;31mfail\033[0m (cortex-projects): 1 error(s), 0 warning(s)\n");
}

TEST_CASE("report: json is one document with escaped, valid UTF-8 strings", "[report][format]") {
  auto f = finding("ledger-has-row", diag::Severity::warning, diag::PeerForm::path_message);
  f.location.path = "projects/\xff.md";
  const std::string json = report::render_json({f}, {diag::Verdict::pass, "cortex-projects", "HEAD"});
  CHECK(json ==
        "{\"schema\": \"ledgergate-check/2\", \"verdict\": \"pass\", \"profile\": \"cortex-projects\", \"rev\": "
        "\"HEAD\", \"suppressed\": 0, \"findings\": [\n  "
        "{\"rule\": \"ledger-has-row\", \"severity\": \"warning\", \"path\": \"projects/\xef\xbf\xbd.md\", \"line\": 3, "
        "\"column\": 0, \"message\": \"something \\\"quoted\\\"\", \"rev\": \"HEAD\", \"fingerprint\": \"" +
            diag::fingerprint(f) + "\"}\n]}\n");
  CHECK(report::render_json({}, {diag::Verdict::fail, "p", "", 2}) ==
        "{\"schema\": \"ledgergate-check/2\", \"verdict\": \"fail\", \"profile\": \"p\", \"rev\": \"\", "
        "\"suppressed\": 2, \"findings\": []}\n");
  CHECK(report::render_json_error("trial-merge", "no such revision") ==
        "{\"schema\": \"ledgergate-trial-merge/2\", \"verdict\": \"error\", \"error\": {\"message\": "
        "\"no such revision\"}}\n");
  CHECK(util::json_string("a\x01\tb") == "\"a\\u0001\\tb\"");
}

TEST_CASE("report: text output C-quotes a path that could forge a line; cortex output escapes its controls",
          "[report][format]") {
  diag::Finding f = finding("ledger-has-row", diag::Severity::error, diag::PeerForm::path_line_message, 1);
  f.location.path = "projects/x.md\nHEAD:projects/y.md:1: error: forged [bad]";
  f.message = "holds \x1b[2J";
  CHECK(report::render_text({f}, false) ==
        "HEAD:\"projects/x.md\\nHEAD:projects/y.md:1: error: forged [bad]\":1: error: holds \\033[2J "
        "[ledger-has-row]\n");
  // The cortex format prints the reference's bytes, no quotes, with only the controls escaped.
  CHECK(report::render_cortex({f}) ==
        "cortex check: DRIFT\n  - projects/x.md\\nHEAD:projects/y.md:1: error: forged [bad]:1: holds \\033[2J\n");
  // A plain path is printed as it is (the reference's bytes).
  f.location.path = "projects/caf\u00e9 x.md";
  f.message = "m";
  CHECK(report::render_text({f}, false) == "HEAD:projects/caf\u00e9 x.md:1: error: m [ledger-has-row]\n");
}
