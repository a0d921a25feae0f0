#include "ledgergate/report/cli_examples.hpp"

#include <catch2/catch.hpp>

using namespace lg;

namespace {

const char* const k_readme =
    "# tool\n\n"
    "```sh\n"
    "$ tool check --not-an-example\n"
    "```\n\n"
    "```console\n"
    "$ git init -q repo && cd repo\n"
    "$ tool check; echo \"exit $?\"\n"
    "tool check HEAD: pass\n"
    "exit 0\n"
    "$ sed -i 's/a/b/' x.md\n"
    "$ tool hooks install --hook pre-commit > /dev/null\n"
    "```\n\n"
    "Text between blocks.\n\n"
    "```console\n"
    "$ tool check --worktree\n"
    ".x.md:1: error: a line starting with a dot \\ and a backslash\n"
    "```\n";

report::CliCommand tree() {
  report::CliCommand root{{"tool"}, "tool", {}, {}, {}};
  report::CliCommand check{{"tool", "check"}, "Check", {}, {}, {}};
  report::CliCommand hooks{{"tool", "hooks"}, "Hooks", {}, {}, {}};
  hooks.subcommands.push_back({{"tool", "hooks", "install"}, "Install", {}, {}, {}});
  hooks.subcommands.push_back({{"tool", "hooks", "status"}, "Status", {}, {}, {}});
  root.subcommands = {check, hooks};
  return root;
}

std::vector<std::string> commands(const std::vector<report::CliExample>& examples) {
  std::vector<std::string> out;
  for (const report::CliExample& e : examples) out.push_back(e.command);
  return out;
}

}  // namespace

TEST_CASE("cli examples: the tool's commands of the console blocks, with their output", "[report][cli_docs]") {
  const auto examples = report::console_examples(k_readme, "tool");
  // Not the ```sh block, not git's or sed's lines.
  REQUIRE(commands(examples) == std::vector<std::string>{"tool check; echo \"exit $?\"",
                                                         "tool hooks install --hook pre-commit > /dev/null",
                                                         "tool check --worktree"});
  CHECK(examples[0].output == std::vector<std::string>{"tool check HEAD: pass", "exit 0"});
  CHECK(examples[1].output.empty());  // the next `$ ` line (or the block's end) ends an example's output
  CHECK(examples[2].output.size() == 1);
  CHECK(report::console_examples(k_readme, "other").empty());
}

TEST_CASE("cli examples: a page shows the examples of its command and below; the root all", "[report][cli_docs]") {
  const auto examples = report::console_examples(k_readme, "tool");
  const report::CliCommand root = tree();
  const report::CliCommand& check = root.subcommands[0];
  const report::CliCommand& hooks = root.subcommands[1];
  CHECK(report::examples_for(root, examples).size() == 3);
  CHECK(commands(report::examples_for(check, examples)) ==
        std::vector<std::string>{"tool check; echo \"exit $?\"", "tool check --worktree"});
  CHECK(commands(report::examples_for(hooks, examples)) ==
        std::vector<std::string>{"tool hooks install --hook pre-commit > /dev/null"});
  CHECK(report::examples_for(hooks.subcommands[0], examples).size() == 1);
  CHECK(report::examples_for(hooks.subcommands[1], examples).empty());
}

TEST_CASE("cli examples: the man page's EXAMPLES section, in roff", "[report][cli_docs]") {
  const auto examples = report::console_examples(k_readme, "tool");
  const report::CliCommand root = tree();
  const report::CliCommand& check = root.subcommands[0];
  const std::string page = report::render_man_page(check, {}, "v", report::examples_for(check, examples));
  CHECK(page.find(".SH EXAMPLES\n") != std::string::npos);
  CHECK(page.find(".nf\n$ tool check; echo \"exit $?\"\ntool check HEAD: pass\nexit 0\n.fi\n") != std::string::npos);
  // A line starting with '.' is not a request; a backslash is escaped.
  CHECK(page.find("\n\\&.x.md:1: error: a line starting with a dot \\e and a backslash\n") != std::string::npos);
  CHECK(page.find(".SH EXAMPLES") < page.find(".SH SEE ALSO"));
  CHECK(report::render_man_page(check, {}, "v").find(".SH EXAMPLES") == std::string::npos);
}
