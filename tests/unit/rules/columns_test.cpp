#include "ledgergate/rules/columns.hpp"

#include <catch2/catch.hpp>

#include "support/fixture_tree.hpp"

using namespace lg;

TEST_CASE("columns: a line's content starts after its indentation and a list's dash", "[rules][columns]") {
  CHECK(rules::content_column("Project: example") == 1);
  CHECK(rules::content_column("  status: active") == 3);
  CHECK(rules::content_column("- 3002_1 — open — ral") == 3);
  CHECK(rules::content_column("  - id: mesh-gap") == 5);
  CHECK(rules::content_column("\tkey: x") == 2);
  CHECK(rules::content_column("   ") == 0);
  CHECK(rules::content_column("") == 0);
  CHECK(rules::content_column("-") == 1);                       // a bare dash is the content
  CHECK(rules::content_column("\xEF\xBB\xBF# title") == 1);     // the BOM is no column
  CHECK(rules::content_column("\xC3\xA9\xC3\xA9") == 1);
}

TEST_CASE("columns: findings with a line and no column get the column of their line's content",
          "[rules][columns]") {
  test::TempDir dir;
  test::write_file(dir.path() + "/projects.yaml", "example:\n  status: activ\n");
  test::write_file(dir.path() + "/projects/example.md", "# example — x\n\n- 3002_1 — open\n");
  auto tree = git::open_directory_source(dir.path());
  REQUIRE(tree);
  auto at = [](std::string path, int line, int column) {
    diag::Finding f;
    f.rule = "r";
    f.location = {"", std::move(path), line, column};
    return f;
  };
  std::vector<diag::Finding> findings{at("projects.yaml", 2, 0),      at("projects/example.md", 3, 0),
                                      at("projects/example.md", 2, 0), at("projects/example.md", 3, 7),
                                      at("projects/example.md", 0, 0), at("projects/example.md", 99, 0),
                                      at("projects/missing.md", 1, 0)};
  rules::locate_columns(**tree, findings);
  std::vector<int> columns;
  for (const diag::Finding& f : findings) columns.push_back(f.location.column);
  // A key, a list item, a blank line, a column the rule gave, no line, past the end, no file.
  CHECK(columns == std::vector<int>{3, 3, 0, 7, 0, 0, 0});
}
