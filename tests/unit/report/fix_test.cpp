// fix's unified diff (hunks apart and together, a last line without its
// end, deletions before insertions) and a fix as JSON.
#include "ledgergate/report/fix.hpp"

#include <catch2/catch.hpp>

namespace lg::test {

TEST_CASE("fix diff: hunks with three lines of context, as git prints them", "[fix]") {
  std::string before;
  for (int i = 1; i <= 20; ++i) before += "line " + std::to_string(i) + "\n";
  std::string after = before;
  after.replace(after.find("line 2\n"), 7, "line two\n");
  after.replace(after.find("line 18\n"), 8, "");
  const std::string diff = report::render_fix_diff({fix::ChangedFile{"a.md", before, after}});
  CHECK(diff ==
        "--- a/a.md\n+++ b/a.md\n"
        "@@ -1,5 +1,5 @@\n line 1\n-line 2\n+line two\n line 3\n line 4\n line 5\n"
        "@@ -15,6 +15,5 @@\n line 15\n line 16\n line 17\n-line 18\n line 19\n line 20\n");
  // Changes closer than six lines share a hunk; a last line without its end says so.
  const std::string joined = report::render_fix_diff({fix::ChangedFile{"b.md", "a\nb\nc", "A\nb\nC"}});
  CHECK(joined == "--- a/b.md\n+++ b/b.md\n@@ -1,3 +1,3 @@\n-a\n+A\n b\n-c\n\\ No newline at end of file\n"
                  "+C\n\\ No newline at end of file\n");
}

TEST_CASE("fix JSON: kind, description, each edit's range, bytes and text", "[fix]") {
  fix::Fix f;
  f.rule = "ledger-project-equals-key";
  f.kind = diag::FixKind::certain;
  f.title = "set `Project:` to x";
  fix::Edit e{"projects/x.md", 10, 20, "Project: x"};
  e.from = fix::Place{2, 0, 0, 0};
  e.to = fix::Place{2, 10, 9, 9};
  f.edits = {e};
  util::JsonWriter w;
  report::write_fix(w, f);
  CHECK(w.str() ==
        "{\"kind\": \"certain\", \"description\": \"set `Project:` to x\", \"edits\": [{\"path\": \"projects/x.md\", "
        "\"range\": {\"start\": {\"line\": 3, \"column\": 1}, \"end\": {\"line\": 3, \"column\": 10}}, "
        "\"bytes\": {\"start\": 10, \"end\": 20}, \"text\": \"Project: x\"}]}");
}

}  // namespace lg::test
