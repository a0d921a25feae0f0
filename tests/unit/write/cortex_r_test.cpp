// The era-R editors (write/cortex_r): the bytes each verb would write and
// the reference's refusals, on the R-skeleton fixture of peer-cases.yaml.
#include <catch2/catch.hpp>

#include "ledgergate/write/cortex_r.hpp"
#include "support/peer_cases.hpp"

using namespace lg;

namespace {

const std::string k_example = "projects/example.md";

test::FileMap skeleton() { return test::peer_fixture(test::peer_cases(), "R-skeleton"); }

write::Outcome edit(const test::FileMap& files, const write::Editor& editor) {
  test::TempDir dir;
  test::write_tree(dir.path(), files);
  auto tree = git::open_directory_source(dir.path());
  REQUIRE(tree);
  auto outcome = editor(**tree);
  REQUIRE(outcome);
  return *outcome;
}

const write::Change& changed(const write::Outcome& o) {
  if (const auto* r = std::get_if<write::Refusal>(&o)) FAIL("refused: " << r->message);
  return std::get<write::Change>(o);
}

std::string refusal(const write::Outcome& o) {
  REQUIRE(std::holds_alternative<write::Refusal>(o));
  return std::get<write::Refusal>(o).message;
}

// The new bytes of `path` in a change (a test failure when it does not write it).
std::string bytes_of(const write::Change& c, const std::string& path) {
  for (const write::FileEdit& f : c.files) {
    if (f.path == path) return f.bytes;
  }
  FAIL("the change does not write " << path);
  return {};
}

}  // namespace

TEST_CASE("run appends an open run, re-serialises ## Runs and prepends the log entry", "[write][cortex_r]") {
  test::FileMap files = skeleton();
  // A typed dash in a run line is normalised when ## Runs is re-serialised;
  // a continuation keeps its raw text.
  test::replace_once(files[k_example], "- 3003 — open — gpu — 2026-09-02 — joint fit", "- 3003 -- open -- gpu -- 2026-09-02 -- joint fit");
  test::replace_once(files[k_example], "  chained after 3002 with afterok", "  chained -- after 3002");
  write::EditNotes notes;
  const auto o = edit(files, write::r_run({"example", "3004_[0-9]", "  wave 3 -- ten seeds ", "ral", "2026-09-03"}, &notes));
  const write::Change& c = changed(o);
  CHECK(c.message == "projects/example.md: run 3004_[0-9] open");
  std::string want = skeleton()[k_example];
  test::replace_once(want, "  chained after 3002 with afterok\n",
                     "  chained -- after 3002\n- 3004_[0-9] — open — ral — 2026-09-03 — wave 3 — ten seeds\n");
  test::replace_once(want, "## Log\n\n", "## Log\n\n- 2026-09-03 — run — 3004_[0-9] submitted: wave 3 — ten seeds\n");
  CHECK(bytes_of(c, k_example) == want);
  CHECK(notes.lines == std::vector<std::string>{"- 3004_[0-9] — open — ral — 2026-09-03 — wave 3 — ten seeds",
                                                "- 2026-09-03 — run — 3004_[0-9] submitted: wave 3 — ten seeds"});
}

TEST_CASE("run takes the row's partition and refuses as the reference does", "[write][cortex_r]") {
  const test::FileMap files = skeleton();
  const auto single = changed(edit(files, write::r_run({"single", "77", "first run", std::nullopt, "2026-09-03"})));
  CHECK(bytes_of(single, "projects/single.md").find("## Runs\n\n- 77 — open — ral — 2026-09-03 — first run\n\n## Log\n\n- 2026-09-03 — run — 77 submitted: first run\n- 2026-09-01") !=
        std::string::npos);
  CHECK(refusal(edit(files, write::r_run({"example", "3005", "x", std::nullopt, "2026-09-03"}))) ==
        "the project runs on both partitions — say which with --partition");
  CHECK(refusal(edit(files, write::r_run({"example", "job-five", "x", "ral", "2026-09-03"}))) ==
        "'job-five' is not a SLURM job id (`342301`, `342301_3`, `342301_[0-9]`)");
  CHECK(refusal(edit(files, write::r_run({"example", "3003", "x", "ral", "2026-09-03"}))) ==
        "3003 is already listed under ## Runs");
  CHECK(refusal(edit(files, write::r_run({"example", "3005", "x", "RAL", "2026-09-03"}))) ==
        "--partition must be a bare word, not 'RAL'");
  CHECK(refusal(edit(files, write::r_run({"example", "3005", "   ", "ral", "2026-09-03"}))) ==
        "what the run is must say something");
  CHECK(refusal(edit(files, write::r_run({"example", "3005", "a\nb", "ral", "2026-09-03"}))) ==
        "what the run is is one line (continuation lines are for the file)");
  CHECK(refusal(edit(files, write::r_run({"Example", "3005", "x", "ral", "2026-09-03"}))) == "'Example' is not a project key");
  CHECK(refusal(edit(files, write::r_run({"nobody", "3005", "x", "ral", "2026-09-03"}))) ==
        "no ledger for nobody — `new nobody --summary ...` opens one");
}

TEST_CASE("a verb refuses a ledger that does not parse clean, quoting check's lines", "[write][cortex_r]") {
  test::FileMap files = skeleton();
  test::replace_once(files[k_example], "- 3003 — open — gpu", "- 3003 — weird — gpu");
  CHECK(refusal(edit(files, write::r_log({"example", "x", "note", "2026-09-03"}))) ==
        "projects/example.md does not parse clean — run `check` first: line 14: run line does not "
        "parse: - 3003 — weird — gpu — 2026-09-02 — joint fit on the same four seeds");
  test::replace_once(files[k_example], "## Runs\n", "## Runs\n  orphan\n");
  CHECK(refusal(edit(files, write::r_log({"example", "x", "note", "2026-09-03"}))) ==
        "projects/example.md does not parse clean — run `check` first: line 12: continuation line "
        "without a run line; line 15: run line does not parse: - 3003 — weird — gpu — 2026-09-02 — "
        "joint fit on the same four seeds");
  SECTION("a BOM hides the title, as in the reference: refused, nothing rewritten") {
    files = skeleton();
    files[k_example] = "\xEF\xBB\xBF" + files[k_example];
    CHECK(refusal(edit(files, write::r_log({"example", "x", "note", "2026-09-03"}))) ==
          "projects/example.md does not parse clean — run `check` first: first line must be `# "
          "<key> — <summary>`");
  }
}

TEST_CASE("running flips the state; a second running writes nothing", "[write][cortex_r]") {
  const test::FileMap files = skeleton();
  const auto c = changed(edit(files, write::r_running({"example", "3003"})));
  CHECK(c.message == "projects/example.md: run 3003 running");
  CHECK(bytes_of(c, k_example) == test::replaced(files.at(k_example), "- 3003 — open — gpu", "- 3003 — running — gpu"));
  const auto again = changed(edit(files, write::r_running({"example", "3002_[0-3]"})));
  CHECK(again.files.empty());
  CHECK(again.message == "projects/example.md: run 3002_[0-3] already running");
  CHECK(refusal(edit(files, write::r_running({"single", "1"}))) == "1 is not under ## Runs of projects/single.md (no runs)");
  CHECK(refusal(edit(files, write::r_running({"example", "1"}))) ==
        "1 is not under ## Runs of projects/example.md (3002_[0-3], 3003)");
}

TEST_CASE("done moves the run into the log with its first line only (G-20, as the reference)", "[write][cortex_r]") {
  const test::FileMap files = skeleton();
  const auto c = changed(edit(files, write::r_done({"example", "3003", true, "1:05", "oom -- again", "2026-09-03"})));
  CHECK(c.message == "projects/example.md: run 3003 failed");
  std::string want = files.at(k_example);
  test::replace_once(want, "- 3003 — open — gpu — 2026-09-02 — joint fit on the same four seeds\n  chained after 3002 with afterok\n", "");
  test::replace_once(want, "## Log\n\n", "## Log\n\n- 2026-09-03 — run — 3003 failed — wall 1:05: joint fit on the same four seeds — oom — again\n");
  CHECK(bytes_of(c, k_example) == want);
  const auto last = changed(edit(files, write::r_done({"example", "3002_[0-3]", false, std::nullopt, std::nullopt, "2026-09-03"})));
  CHECK(bytes_of(last, k_example).find("- 3003 — open") != std::string::npos);
  CHECK(refusal(edit(files, write::r_done({"single", "1", false, "20", std::nullopt, "2026-09-03"}))) ==
        "--wall must be H:MM, not '20'");
}

TEST_CASE("done of the last run leaves two empty lines under ## Runs, as the reference", "[write][cortex_r]") {
  test::FileMap files = skeleton();
  const auto run = changed(edit(files, write::r_run({"single", "77", "first run", std::nullopt, "2026-09-03"})));
  files["projects/single.md"] = bytes_of(run, "projects/single.md");
  const auto done = changed(edit(files, write::r_done({"single", "77", false, std::nullopt, std::nullopt, "2026-09-03"})));
  CHECK(bytes_of(done, "projects/single.md") ==
        "# single — A project that runs on one partition only\n\nProject: single\nIssue: none\n\n## Now\n\nNothing "
        "submitted yet; the first run goes out once the dataset is on RAL.\n\n## Runs\n\n\n## Log\n\n- 2026-09-03 — run — "
        "77 finished: first run\n- 2026-09-03 — run — 77 submitted: first run\n- 2026-09-01 — note — ledger opened\n");
}

TEST_CASE("log prepends, guards newest-first and says what it wrote", "[write][cortex_r]") {
  const test::FileMap files = skeleton();
  const auto c = changed(edit(files, write::r_log({"example", "the sigma -- not the mean", "lesson", "2026-09-03"})));
  CHECK(c.message == "projects/example.md: lesson — the sigma — not the mean");
  CHECK(bytes_of(c, k_example) ==
        test::replaced(files.at(k_example), "## Log\n\n", "## Log\n\n- 2026-09-03 — lesson — the sigma — not the mean\n"));
  CHECK(refusal(edit(files, write::r_log({"example", "backdated", "note", "2026-08-01"}))) ==
        "the log's head is 2026-09-02; an entry dated 2026-08-01 would break newest-first");
  CHECK(refusal(edit(files, write::r_log({"example", " ", "note", "2026-09-03"}))) == "the entry must say something");
}

TEST_CASE("now replaces the ## Now body and nothing else", "[write][cortex_r]") {
  const test::FileMap files = skeleton();
  const auto c = changed(edit(files, write::r_now({"example", "\nPulled wave 2 -- done.\nNext: compare.\n"})));
  CHECK(c.message == "projects/example.md: now — Pulled wave 2 — done.");
  std::string want = files.at(k_example);
  const auto begin = want.find("## Now\n") + 7, end = want.find("## Runs");
  want.replace(begin, end - begin, "\nPulled wave 2 — done.\nNext: compare.\n\n");
  CHECK(bytes_of(c, k_example) == want);
  CHECK(refusal(edit(files, write::r_now({"example", "  "}))) == "`now` must say something");
}

TEST_CASE("issue prints the concise block and writes nothing", "[write][cortex_r]") {
  const auto c = changed(edit(skeleton(), write::r_issue({"single", "5"})));
  CHECK(c.files.empty());
  CHECK(c.message ==
        "<!-- cortex:ledger begin — regenerated from projects/single.md; edit there -->\n"
        "**single** — A project that runs on one partition only  \n"
        "_active · ledger: [projects/single.md](projects/single.md) · updated 2026-09-01_\n\n"
        "**Now**\n\nNothing submitted yet; the first run goes out once the dataset is on RAL.\n\n"
        "**Runs**\n\n_nothing on the cluster_\n\n"
        "**Last 5**\n\n- 2026-09-01 — *note* — ledger opened\n"
        "<!-- cortex:ledger end -->");
  const auto example = changed(edit(skeleton(), write::r_issue({"example", "0"})));
  CHECK(example.message.find("- `3003` — open — gpu — 2026-09-02 — joint fit on the same four seeds chained after 3002 with afterok\n") !=
        std::string::npos);
  CHECK(example.message.find("**Last 0**\n\n_empty_\n") != std::string::npos);
}

TEST_CASE("link rewrites the one Issue: line", "[write][cortex_r]") {
  test::FileMap files = skeleton();
  const auto c = changed(edit(files, write::r_link({"example", "https://github.com/o/r/issues/9"})));
  CHECK(c.message == "projects/example.md: issue https://github.com/o/r/issues/9");
  CHECK(bytes_of(c, k_example) == test::replaced(files.at(k_example), "Issue: example#7", "Issue: https://github.com/o/r/issues/9"));
  CHECK(refusal(edit(files, write::r_link({"example", "o/r#9"}))) == "the ref must be Repo#N, an issue URL or none, not 'o/r#9'");
  test::replace_once(files[k_example], "Next: pull", "Issue: pull");
  CHECK(refusal(edit(files, write::r_link({"example", "none"}))) ==
        "projects/example.md: expected one `Issue:` header line, found 2");
}

TEST_CASE("new opens a ledger for a row and refuses the rest", "[write][cortex_r]") {
  test::FileMap files = skeleton();
  files.erase("projects/single.md");
  const auto c = changed(edit(files, write::r_new({"single", "A fresh question", "single#1", std::nullopt, "2026-09-03"})));
  CHECK(c.message == "opened projects/single.md");
  CHECK(bytes_of(c, "projects/single.md") ==
        "# single — A fresh question\n\nProject: single\nIssue: single#1\n\n## Now\n\nJust opened — nothing submitted "
        "yet.\n\n## Runs\n\n## Log\n\n- 2026-09-03 — note — ledger opened\n");
  CHECK(refusal(edit(skeleton(), write::r_new({"single", "again", std::nullopt, std::nullopt, "2026-09-03"}))) ==
        "projects/single.md already exists");
  CHECK(refusal(edit(files, write::r_new({"nobody", "x", std::nullopt, std::nullopt, "2026-09-03"}))) ==
        "nobody is not a projects.yaml key — add its row first (projects.yaml is code: a human's turn)");
  CHECK(refusal(edit(files, write::r_new({"sleeping", "w w w w w w w w w w w w w w w w", std::nullopt, std::nullopt, "2026-09-03"}))) ==
        "--summary is over 15 words");
  CHECK(refusal(edit(files, write::r_new({"sleeping", "x", "PyAutoLabs/x#1", std::nullopt, "2026-09-03"}))) ==
        "--issue must be Repo#N, an issue URL or none, not 'PyAutoLabs/x#1'");
  test::replace_once(files["projects.yaml"], "  partition: ral\n", "  partition: moon\n");
  CHECK(refusal(edit(files, write::r_new({"sleeping", "x", std::nullopt, std::nullopt, "2026-09-03"}))).rfind(
            "projects.yaml does not parse clean — run `check` first: projects.yaml: ", 0) == 0);
}

TEST_CASE("retire edits the row and notes it in the ledger, in one change", "[write][cortex_r]") {
  const test::FileMap files = skeleton();
  const auto c = changed(edit(files, write::r_retire({"single", " never started ", "2026-09-03"})));
  CHECK(c.message == "retired single");
  REQUIRE(c.files.size() == 2);
  CHECK(bytes_of(c, "projects.yaml") ==
        test::replaced(files.at("projects.yaml"), "  partition: ral\n  status: active\n",
                       "  partition: ral\n  status: retired\n  note: \"retired 2026-09-03: never started\"\n"));
  CHECK(bytes_of(c, "projects/single.md") ==
        test::replaced(files.at("projects/single.md"), "## Log\n\n", "## Log\n\n- 2026-09-03 — note — retired: never started\n"));
  const auto sleeping = changed(edit(files, write::r_retire({"sleeping", "x", "2026-09-03"})));
  REQUIRE(sleeping.files.size() == 1);
  CHECK(bytes_of(sleeping, "projects.yaml") ==
        test::replaced(files.at("projects.yaml"), "  status: dormant\n  note: \"no ledger yet\"",
                       "  status: retired\n  note: \"retired 2026-09-03: x\""));
  CHECK(refusal(edit(files, write::r_retire({"example", "done", "2026-09-03"}))) ==
        "example still lists runs on the cluster — `done` them first: 3002_[0-3], 3003");
  CHECK(refusal(edit(files, write::r_retire({"wound_down", "again", "2026-09-03"}))) == "wound_down is already retired");
  CHECK(refusal(edit(files, write::r_retire({"nobody", "x", "2026-09-03"}))) == "nobody is not a projects.yaml key");
  CHECK(refusal(edit(files, write::r_retire({"single", " ", "2026-09-03"}))) == "--why must say why, in one line");
  CHECK(refusal(edit(files, write::r_retire({"single", "a \"quoted\" why", "2026-09-03"}))) ==
        "--why cannot hold a double quote or a newline (projects.yaml quotes with no escapes)");
  // The reference rewrites projects.yaml, then fails on the log's order (G-01): one refusal here.
  CHECK(refusal(edit(files, write::r_retire({"single", "x", "2026-08-01"}))) ==
        "the log's head is 2026-09-01; an entry dated 2026-08-01 would break newest-first");
}

TEST_CASE("an edit keeps CRLF line ends and the bytes it does not touch", "[write][cortex_r]") {
  test::FileMap files = skeleton();
  std::string crlf;
  for (char ch : files["projects/single.md"]) crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  files["projects/single.md"] = crlf;
  const auto c = changed(edit(files, write::r_log({"single", "pulled", "result", "2026-09-03"})));
  CHECK(bytes_of(c, "projects/single.md") ==
        test::replaced(crlf, "## Log\r\n\r\n", "## Log\r\n\r\n- 2026-09-03 — result — pulled\r\n"));
}

TEST_CASE("retire refuses a ledger that does not parse clean before it edits projects.yaml", "[write][cortex_r]") {
  test::FileMap files = skeleton();
  test::replace_once(files["projects/single.md"], "## Runs\n", "## Runs\n  orphan\n");
  CHECK(refusal(edit(files, write::r_retire({"single", "x", "2026-09-03"}))) ==
        "projects/single.md does not parse clean — run `check` first: line 11: continuation line "
        "without a run line");
}

TEST_CASE("retire's row edit reads projects.yaml's lines as the reference does", "[write][cortex_r]") {
  test::FileMap files = skeleton();
  SECTION("the row's line is exactly `KEY:`: trailing blanks do not count") {
    test::replace_once(files["projects.yaml"], "\nsingle:\n", "\nsingle: \n");
    CHECK(refusal(edit(files, write::r_retire({"single", "x", "2026-09-03"}))) ==
          "projects.yaml: expected one `single:` line, found 0");
  }
  SECTION("a status line is `  status: ` with its space: a value on the next line is not one") {
    test::replace_once(files["projects.yaml"], "  partition: ral\n  status: active\n",
                       "  partition: ral\n  status:\n    active\n");
    CHECK(refusal(edit(files, write::r_retire({"single", "x", "2026-09-03"}))) ==
          "projects.yaml: single is not one `  status:` line and at most one `  note:` line");
  }
  SECTION("a CR in --why passes the --why checks (only an LF fails them); projects.yaml reads it back folded") {
    // The ledger's entry then holds the CR: the write layer's read-back refuses that (apply.hpp).
    const auto c = changed(edit(files, write::r_retire({"single", "a\rb", "2026-09-03"})));
    CHECK(bytes_of(c, "projects.yaml") ==
          test::replaced(files.at("projects.yaml"), "  partition: ral\n  status: active\n",
                         "  partition: ral\n  status: retired\n  note: \"retired 2026-09-03: a\rb\"\n"));
  }
}
