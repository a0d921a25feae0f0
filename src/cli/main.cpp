// ledgergate's entry point: libgit2 session, CLI11 wiring, exit codes. The
// only place exceptions are caught; CLI11's parse errors become exit 2.
#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "cache_cli.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "output_file.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/rules/threads.hpp"
#include "ledgergate/util/tasks.hpp"
#include "ledgergate/util/version.hpp"

namespace {
using namespace lg::cli;

// Every command, in the order help lists them: its group in `--help` and
// two example lines for its own help.
struct Command {
  std::string_view name;
  void (*setup)(CLI::App&, Globals&);
  std::string_view group;
  std::string_view examples;
  bool report;  // prints a report: takes -o/--output FILE
};
constexpr std::string_view k_judge = "Check and judge";
constexpr std::string_view k_write = "Write a ledger";
constexpr std::string_view k_git = "Git and editors";
constexpr std::string_view k_read = "Rules and pages";
constexpr Command k_commands[] = {
    {"check", setup_check, k_judge,
     "ledgergate check --worktree\n  ledgergate check HEAD~1 --select ledger --statistics -- projects/", true},
    {"classify", setup_classify, k_judge,
     "ledgergate classify --base main\n  git diff --name-only main | ledgergate classify --format json", true},
    {"trial-merge", setup_trial_merge, k_judge,
     "ledgergate trial-merge main feature\n  ledgergate trial-merge main feature --format json -o verdict.json", true},
    {"land", setup_land, k_judge, "ledgergate land note\n  ledgergate land note --into main --mode merge", true},
    {"audit", setup_audit, k_judge, "ledgergate audit\n  ledgergate audit --since 2026-09-01 --format html -o audit.html",
     true},
    {"rules", setup_rules, k_read, "ledgergate rules\n  ledgergate rules --profile cortex-projects", true},
    {"explain", setup_explain, k_read, "ledgergate explain ledger-run-listed-once\n  ledgergate explain R-F07", true},
    {"req", setup_req, k_write,
     "ledgergate req init run/open-requirements.ledger.yml\n"
     "  ledgergate req summary run/open-requirements.ledger.yml --format json",
     false},
    {"hooks", setup_hooks, k_git, "ledgergate hooks install\n  ledgergate hooks status", false},
    {"renumber", setup_renumber, k_write,
     "ledgergate renumber R-20260901-03 --to next --rev rule-06\n  ledgergate renumber R-20260901-03 --worktree",
     false},
    {"merge-file", setup_merge_file, k_git,
     "ledgergate merge-driver install   (git then runs merge-file itself)\n"
     "  ledgergate merge-file base.md ours.md theirs.md --path projects/example.md",
     false},
    {"merge-driver", setup_merge_driver, k_git, "ledgergate merge-driver install\n  ledgergate merge-driver status",
     false},
    {"project", setup_project, k_write,
     "ledgergate project log example \"first note\"\n  ledgergate project new example --summary \"Does it recover the truth\"",
     true},
    {"board", setup_board, k_read, "ledgergate board --format html -o dashboard.html\n  ledgergate board --check dashboard.md",
     true},
    {"recover", setup_recover, k_write, "ledgergate recover\n  ledgergate recover --root DIR", false},
    {"fix", setup_fix, k_write, "ledgergate fix\n  ledgergate fix --diff", true},
    {"lsp", setup_lsp, k_git,
     "ledgergate lsp   (started by an editor: docs/editors.md)\n  nvim projects/example.md   (with the client set up)",
     false},
    {"init", setup_init, k_write, "ledgergate init lab\n  ledgergate init   (in the current folder)", false},
};

constexpr std::string_view k_description =
    "ledgergate: guards ledgers kept in git.\n"
    "Exit codes: 0 pass, 1 fail (drift, code in the diff, conflict), 2 could not run or cannot judge.";

void add_global_options(CLI::App& app, Globals& globals) {
  app.fallthrough();  // --repo is accepted after the subcommand too
  app.set_version_flag("--version", lg::util::version_line());
  app.add_option("--repo", globals.repo, "Repository to use (default: discover from the current directory)");
  setup_cache_flag(app);
  app.add_option("--color", globals.color,
                 "Colour in text output: auto (a terminal, unless NO_COLOR is set and not empty), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

// A line naming a command (no help asked) sets up that command alone (a
// hook's process builds one command's options, not all of them), and one
// asking for the version alone sets up none; any other sets up every
// command, in the order help lists them.
void setup_commands(CLI::App& app, Globals& globals, const std::vector<std::string>& args) {
  if (asks_version_only(args)) return;
  const std::optional<std::string> named = named_command(args);
  const bool alone = named && std::any_of(std::begin(k_commands), std::end(k_commands),
                                          [&](const Command& c) { return c.name == *named; });
  for (const Command& c : k_commands) {
    if (alone && c.name != *named) continue;
    c.setup(app, globals);
    CLI::App* cmd = app.get_subcommand(std::string(c.name));
    cmd->group(std::string(c.group));
    cmd->footer(cmd->get_footer() + (cmd->get_footer().empty() ? "" : "\n\n") + "Examples:\n  " +
                std::string(c.examples));
    if (c.report && !cmd->get_option_no_throw("--output")) add_output_option(cmd, globals);
  }
  app.add_subcommand("help", "Show a command's help: help [CMD [SUBCMD]] is CMD [SUBCMD] --help")->group("Help");
  if (!alone) setup_docs(app, globals);
}

// libgit2 is initialised only when the invoked command may use it:
// --version, --help, `rules` and `explain` need no git.
void init_git_on_use(CLI::App& app, std::optional<lg::git::Libgit2Session>& session) {
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    const std::string_view name = sub->get_name();
    if (name == "rules" || name == "explain") continue;
    sub->preparse_callback([&session](std::size_t) {
      if (!session) session.emplace();
    });
  }
}

// Parses and runs the command line (the command's callback runs inside the
// parse); a line that does not parse gives the error, the hint, and the
// error document --format json|sarif promises.
int parse_and_run(CLI::App& app, Globals& globals, std::vector<std::string> args, int argc, char** argv) {
  args = expand_option_prefixes(app, std::move(args));
  globals.operands = take_path_operands(app, args);
  const auto refuse = [&](const std::string& message) {
    print_error(message);
    print_usage_hint(command_path(app, args));
    expect_error_document_from(argc, argv);
    print_error_document(message);
    return to_int(ExitCode::error);
  };
  if (auto unknown = unknown_command(app, args)) return refuse(*unknown);
  std::vector<const char*> words;
  for (const std::string& a : args) words.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(words.size()), words.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    return refuse(unknown_option(app, args).value_or(e.what()));
  } catch (const CLI::ParseError& e) {
    return refuse(e.what());
  }
  print_cache_notes();
  return to_int(finish_output(globals, globals.exit_code));
}

}  // namespace

int main(int argc, char** argv) {
  // As many malloc arenas as the check may run threads (LEDGERGATE_THREADS,
  // else util::k_max_workers; glibc makes one only for a thread that
  // allocates while the others' are taken), not glibc's 8 per core: threads
  // that allocate at once (the readers of a tree's ledgers, the two parts of
  // a big projects.yaml) do not wait on one arena's lock (one arena made a
  // cold check at 2,000 projects 1.5x slower on 2 cores), and arenas do not
  // multiply past the threads (peak memory: 0.2-2.4 MB more than one).
  apply_threads_env();
  const unsigned threads = lg::rules::check_threads();
  mallopt(M_ARENA_MAX, static_cast<int>(threads != 0 ? threads : lg::util::k_max_workers));
  // Blocks below 2 MiB come from the heap, and up to 4 MiB of freed heap is
  // kept (glibc's defaults map and unmap each block from 128 KiB, moving
  // the threshold up only as such blocks are freed): a command reads the
  // same wide trees and pack data several times, and every page of a block
  // mapped anew is a page fault. A trial merge at 20,000 projects with the
  // CI cache restored: 16,800 page faults -> 7,900 and 84 -> 65-75 ms of
  // CPU; peak memory of a cold check there 0.9 MB more (a 32 MiB threshold
  // cost 6 MB).
  mallopt(M_MMAP_THRESHOLD, 2 << 20);
  mallopt(M_TRIM_THRESHOLD, 4 << 20);
  Globals globals;
  try {
    std::optional<lg::git::Libgit2Session> session;
    CLI::App app{std::string(k_description), "ledgergate"};
    add_global_options(app, globals);
    // `help CMD` is `CMD --help`; a mistyped command or option is named with
    // the nearest real one before CLI11 would call it something else.
    std::vector<std::string> args = rewrite_help(std::vector<std::string>(argv, argv + argc));
    setup_commands(app, globals, args);
    init_git_on_use(app, session);
    // Bare `ledgergate`: the program's help, exit 0.
    if (args.size() == 1) {
      std::fputs(app.help().c_str(), stdout);
      return to_int(ExitCode::pass);
    }
    app.require_subcommand(1);
    return parse_and_run(app, globals, std::move(args), argc, argv);
  } catch (const std::exception& e) {
    finish_output(globals, ExitCode::error);
    print_error(e.what());
    print_error_document(e.what());
  } catch (...) {
    finish_output(globals, ExitCode::error);
    print_error("unknown internal error");
    print_error_document("unknown internal error");
  }
  return to_int(ExitCode::error);
}
