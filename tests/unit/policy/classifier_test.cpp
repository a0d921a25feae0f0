#include "ledgergate/policy/classifier.hpp"

#include <catch2/catch.hpp>

#include "ledgergate/report/classify.hpp"

using namespace lg::policy;
using lg::report::render_classification_cortex;

namespace {
std::string reason(std::string_view path) { return classify_path(builtin_policy(), path).reason; }
bool ledger(std::string_view path) { return classify_path(builtin_policy(), path).cls == PathClass::ledger; }
}  // namespace

TEST_CASE("classifier: the path rule, step by step with its reason", "[policy][classifier]") {
  using Row = std::pair<const char*, const char*>;
  const auto row = GENERATE(Row{"projects/a.md", "ledger dir projects/"}, Row{"projects/sub/x.txt", "ledger dir projects/"},
                            Row{"checkin.yaml", "ledger file"}, Row{"projects.yaml", "not a ledger file"},
                            Row{"projects/../scripts/evil.py", "traversal (..)"}, Row{"..", "traversal (..)"},
                            Row{"projects/.hidden", "dot-path (.hidden)"}, Row{".github/x.yml", "dot-path (.github)"},
                            Row{"projects/test_x.py", "excluded name test_*.py"},
                            Row{"projects/AGENTS.md", "excluded name AGENTS.md"},
                            Row{"archive/new.md", "frozen dir archive/"}, Row{"tasks/x.md", "not under a ledger dir"},
                            Row{"", "empty path"}, Row{"./projects//a.md", "ledger dir projects/"},
                            Row{"projects\\a.md", "ledger dir projects/"});
  CAPTURE(row.first);
  CHECK(reason(row.first) == row.second);
}

TEST_CASE("classifier: paths are stripped, blank ones dropped, duplicates kept once", "[policy][classifier]") {
  const auto c = classify_paths(builtin_policy(), {"checkin.yaml", "scripts/x.py", "checkin.yaml", "projects/a.md", "", "  "});
  REQUIRE(c.paths.size() == 3);
  CHECK(c.ledger_count() == 2);
  CHECK(render_classification_cortex(c) == "code: 1 of 3 path(s) need a human\n  scripts/x.py\n");
  CHECK(render_classification_cortex(classify_paths(builtin_policy(), {"projects/a.md", "checkin.yaml"})) ==
        "ledger-only: 2 path(s)\n  projects/a.md\n  checkin.yaml\n");
  CHECK(render_classification_cortex(classify_paths(builtin_policy(), {"\n"})) ==
        "no changed paths \u2014 nothing to merge\n");
}

TEST_CASE("classifier: statuses, append-only dirs and file kinds", "[policy][classifier]") {
  Policy p = builtin_policy();
  p.append_only_dirs = {"rulings/"};
  p.ledger_dirs.push_back("rulings/");
  const auto c = classify_changes(p,
                                  {{"A", "rulings/R-1.md", FileKind::file},
                                   {"M", "rulings/R-2.md", FileKind::file},
                                   {"A", "projects/l.md", FileKind::symlink},
                                   {"M", "projects/x.md", FileKind::executable},
                                   {"T", "projects/t.md", FileKind::file},
                                   {"A", "projects/s", FileKind::submodule},
                                   {"D", "projects/gone.md", FileKind::none},
                                   {"A", "archive/a.md", FileKind::file}},
                                  false);
  std::vector<std::string> reasons;
  for (const auto& x : c.paths) reasons.push_back(x.reason);
  CHECK(reasons == std::vector<std::string>{"ledger dir rulings/", "append-only dir rulings/ (status M)",
                                            "a symlink is never ledger", "an executable file is never ledger",
                                            "type change", "a submodule is never ledger", "ledger dir projects/",
                                            "frozen dir archive/"});
}

TEST_CASE("classifier: projects.yaml is ledger only as a birth", "[policy][classifier]") {
  const std::vector<Change> changes = {{"M", "projects.yaml", FileKind::file}, {"A", "projects/b.md", FileKind::file}};
  CHECK(classify_changes(builtin_policy(), changes, false).code_count() == 1);
  CHECK(classify_changes(builtin_policy(), changes, true).code_count() == 0);
  CHECK(ledger("projects/b.md"));
}
