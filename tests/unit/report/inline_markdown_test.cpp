// The inline markdown of ledger texts (report/inline_markdown.cpp): the
// spans ledgers write become HTML and markdown of our own, everything else
// stays escaped text, and no link but http(s) and relative ones survives.
#include <catch2/catch.hpp>

#include "../../../src/report/board_common.hpp"

using namespace lg::report::board_page;

TEST_CASE("inline markdown: bold, italics, code and links as HTML and markdown", "[report][board]") {
  struct Row {
    const char* text;
    const char* html;
    const char* md;
  };
  const Row rows[] = {
      {"**contains** the *key* and __also__ _this_", "<strong>contains</strong> the <em>key</em> and "
       "<strong>also</strong> <em>this</em>", "**contains** the *key* and **also** *this*"},
      {"run `hpc/submit --x` now", "run <code>hpc/submit --x</code> now", "run `hpc/submit --x` now"},
      {"`` a ` tick ``", "<code>a ` tick</code>", "``a ` tick``"},
      {"see [the plan](https://example.org/a_(b)) and [file](archive/x.md#L2)",
       "see <a href=\"https://example.org/a_(b)\">the plan</a> and <a href=\"archive/x.md#L2\">file</a>",
       "see [the plan](https://example.org/a_(b)) and [file](archive/x.md#L2)"},
      {"[**bold** link](http://h/)", "<a href=\"http://h/\"><strong>bold</strong> link</a>",
       "[**bold** link](http://h/)"},
      // snake_case stays text; a lone star or underscore is text.
      {"slam_hst_delaunay_1250 and 2 * 3 and _x", "slam_hst_delaunay_1250 and 2 * 3 and _x",
       "slam\\_hst\\_delaunay\\_1250 and 2 \\* 3 and \\_x"},
      {"\\*not em\\* and `unclosed", "*not em* and `unclosed", "\\*not em\\* and \\`unclosed"},
  };
  for (const Row& r : rows) {
    INFO(r.text);
    CHECK(inline_html(r.text) == r.html);
    CHECK(inline_md(r.text) == r.md);
  }
}

TEST_CASE("inline markdown: raw HTML and unsafe links come out as escaped text", "[report][board]") {
  CHECK(inline_html("<script>alert(1)</script> <b onclick=\"x\">") ==
        "&lt;script&gt;alert(1)&lt;/script&gt; &lt;b onclick=&quot;x&quot;&gt;");
  CHECK(inline_md("<script>alert(1)</script>") == "\\<script\\>alert(1)\\</script\\>");
  for (const char* bad : {"[x](javascript:alert(1))", "[x](JavaScript:alert(1))", "[x](data:text/html,hi)",
                          "[x](//evil.example/)", "[x](vbscript:msgbox)", "[x](http:no-slashes)"}) {
    INFO(bad);
    const std::string html = inline_html(bad);
    CHECK(html.find("<a") == std::string::npos);
    CHECK(html == bad);  // no character of these needs escaping: the source as text
    CHECK(inline_md(bad).starts_with("\\[x\\]("));  // escaped: no link in the markdown either
  }
  // A link text cannot smuggle markup, nor a target an attribute.
  CHECK(inline_html("[<img src=x>](https://h/)") == "<a href=\"https://h/\">&lt;img src=x&gt;</a>");
  CHECK(inline_html("[x](https://h/\"onmouseover=a)") == "[x](https://h/&quot;onmouseover=a)");
  CHECK(is_safe_link("https://github.com/o/r"));
  CHECK(is_safe_link("projects/a.md"));
  CHECK(is_safe_link("#anchor"));
  CHECK_FALSE(is_safe_link("mailto:a@b"));
  CHECK_FALSE(is_safe_link(""));
}

TEST_CASE("inline markdown: GitHub's anchor of a card heading", "[report][board]") {
  CHECK(heading_anchor("autolens_inference — Do the PyAutoLens backends agree?") ==
        "autolens_inference--do-the-pyautolens-backends-agree");
  CHECK(heading_anchor("a_b") == "a_b");
}
