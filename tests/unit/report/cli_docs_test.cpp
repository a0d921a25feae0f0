#include "ledgergate/report/cli_docs.hpp"

#include <catch2/catch.hpp>

using namespace lg;

namespace {

report::CliCommand sample() {
  report::CliCommand root{{"tool"}, "tool: does things.\nExit codes: 0 pass.", {}, {}, {}};
  root.options.push_back({{"--repo"}, "", "DIR", "Repository to use", {}, false, false});
  report::CliCommand check{{"tool", "check"}, "Check a tree", {}, {}, {}};
  check.options.push_back({{"-f", "--format"}, "", "TEXT", "Output format", {"text", "json"}, false, false});
  check.options.push_back({{"--index"}, "", "", "Check the index", {}, false, false});
  check.positionals.push_back({{}, "rev", "TEXT", "The revision", {}, false, false});
  report::CliCommand hooks{{"tool", "hooks"}, "Manage hooks", {}, {}, {}};
  hooks.subcommands.push_back({{"tool", "hooks", "install"}, "Install the shims", {}, {}, {}});
  root.subcommands = {check, hooks};
  return root;
}

}  // namespace

TEST_CASE("cli docs: a man page per command, with its options and subcommands", "[report][cli_docs]") {
  const report::CliCommand root = sample();
  const report::CliCommand& check = root.subcommands[0];
  CHECK(report::man_page_name(check) == "tool-check");
  CHECK(report::man_page_name(root.subcommands[1].subcommands[0]) == "tool-hooks-install");
  const std::string page = report::render_man_page(check, root.options, "tool 1.0 (commit abc)");
  CHECK(page.find(".TH \"TOOL\\-CHECK\" \"1\" \"\" \"tool 1.0 (commit abc)\"") != std::string::npos);
  CHECK(page.find(".SH NAME\ntool\\-check \\- Check a tree\n") != std::string::npos);
  CHECK(page.find(".SH SYNOPSIS\n\\fBtool check\\fR [\\fIOPTIONS\\fR] [\\fIrev\\fR]\n") != std::string::npos);
  CHECK(page.find(".TP\n\\fB\\-f\\fR, \\fB\\-\\-format\\fR \\fItext|json\\fR\nOutput format\n") != std::string::npos);
  CHECK(page.find(".TP\n\\fB\\-\\-index\\fR\nCheck the index\n") != std::string::npos);
  CHECK(page.find(".SH GLOBAL OPTIONS\n") != std::string::npos);
  CHECK(page.find("\\fB\\-\\-repo\\fR \\fIDIR\\fR\nRepository to use\n") != std::string::npos);
  const std::string hooks = report::render_man_page(root.subcommands[1], root.options, "v");
  CHECK(hooks.find(".SH COMMANDS\n.TP\n\\fBinstall\\fR\nInstall the shims (see \\fBtool\\-hooks\\-install\\fR(1))\n") !=
        std::string::npos);
  // A line of text starting with '.' is not read as a roff request.
  report::CliCommand dotted{{"tool"}, ".hidden start", {}, {}, {}};
  CHECK(report::render_man_page(dotted, {}, "v").find("\n\\&.hidden start\n") != std::string::npos);
}

TEST_CASE("cli docs: completions name every command, option and choice", "[report][cli_docs]") {
  const report::CliCommand root = sample();
  const std::string bash = report::render_bash_completion(root);
  CHECK(bash.find("'tool') subs='check hooks'; opts='--repo'; kind='' ;;") != std::string::npos);
  CHECK(bash.find("'tool check') subs=''; opts='-f --format --index --repo'; kind='' ;;") != std::string::npos);
  CHECK(bash.find("'tool check --format') COMPREPLY=($(compgen -W 'text json' -- \"$cur\")); return ;;") !=
        std::string::npos);
  CHECK(bash.find("'tool check'|'tool hooks'|'tool hooks install') node=") != std::string::npos);
  CHECK(bash.find("complete -F _tool tool\n") != std::string::npos);
  const std::string zsh = report::render_zsh_completion(root);
  CHECK(zsh.starts_with("#compdef tool\n"));
  CHECK(zsh.find("('tool hooks') subs=('install:Install the shims')") != std::string::npos);
  const std::string fish = report::render_fish_completion(root);
  CHECK(fish.find("complete -c tool -n 'not __fish_seen_subcommand_from check hooks' -a 'check' -d 'Check a tree'\n") !=
        std::string::npos);
  CHECK(fish.find("complete -c tool -n '__fish_seen_subcommand_from check' -s 'f' -l 'format' -x -a 'text json' -d "
                  "'Output format'\n") != std::string::npos);
}

TEST_CASE("cli docs: values typed REV, KEY or RULE complete from the program's own __complete", "[report][cli_docs]") {
  report::CliCommand root = sample();
  report::CliCommand& check = root.subcommands[0];
  check.positionals[0].value = "REV";
  check.options.push_back({{"--select"}, "", "RULE", "Rules", {}, false, true});
  const std::string bash = report::render_bash_completion(root);
  CHECK(bash.find("'tool check') subs=''; opts='-f --format --index --select --repo'; kind='REV' ;;") !=
        std::string::npos);
  CHECK(bash.find("'tool check --select') COMPREPLY=($(compgen -W \"$(tool __complete RULE 2>/dev/null)\" -- "
                  "\"$cur\")); return ;;") != std::string::npos);
  CHECK(bash.find("elif [ -n \"$kind\" ]; then\n    COMPREPLY=($(compgen -W \"$(tool __complete $kind 2>/dev/null)\"") !=
        std::string::npos);
  const std::string zsh = report::render_zsh_completion(root);
  CHECK(zsh.find("('tool check --select') compadd -- ${(f)\"$(tool __complete RULE 2>/dev/null)\"}; return ;;") !=
        std::string::npos);
  const std::string fish = report::render_fish_completion(root);
  CHECK(fish.find("complete -c tool -n '__fish_seen_subcommand_from check' -a '(tool __complete REV 2>/dev/null)'\n") !=
        std::string::npos);
  CHECK(fish.find("-l 'select' -x -a '(tool __complete RULE 2>/dev/null)'") != std::string::npos);
}
