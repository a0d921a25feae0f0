// ledgergate's entry point: libgit2 session, CLI11 wiring, exit codes. The
// only place exceptions are caught; CLI11's parse errors become exit 2.
#include <malloc.h>

#include <algorithm>
#include <exception>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "cache_cli.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/version.hpp"

int main(int argc, char** argv) {
  using namespace lg::cli;
  // One malloc arena: the check's reader threads then reuse what the YAML
  // parse freed instead of growing arenas of their own (peak memory).
  mallopt(M_ARENA_MAX, 1);
  try {
    // libgit2 is initialised only when the invoked command may use it: its
    // initialisation (mbedTLS parses the whole CA bundle) is most of the
    // process start, and --version, --help, `rules` and `explain` need no git.
    std::optional<lg::git::Libgit2Session> session;
    CLI::App app{
        "ledgergate: guards ledgers kept in git.\n"
        "Exit codes: 0 pass, 1 fail (drift, code in the diff, conflict), 2 could not run or cannot judge.",
        "ledgergate"};
    app.require_subcommand(1);
    app.fallthrough();  // --repo is accepted after the subcommand too
    app.set_version_flag("--version", lg::util::version_line());
    Globals globals;
    app.add_option("--repo", globals.repo, "Repository to use (default: discover from the current directory)");
    setup_cache_flag(app);
    app.add_option("--color", globals.color,
                   "Colour in text output: auto (a terminal, unless NO_COLOR is set and not empty), always, never")
        ->check(CLI::IsMember({"auto", "always", "never"}));
    app.add_subcommand("help", "Show a command's help: help [CMD [SUBCMD]] is CMD [SUBCMD] --help");
    // `help CMD` is `CMD --help`; a mistyped command or option is named with
    // the nearest real one before CLI11 would call it something else.
    std::vector<std::string> args = rewrite_help(std::vector<std::string>(argv, argv + argc));
    // A line naming a command (no help asked) sets up that command alone
    // (a hook's process builds one command's options, not all of them);
    // any other sets up every command, in the order help lists them.
    struct Command {
      std::string_view name;
      void (*setup)(CLI::App&, Globals&);
    };
    static constexpr Command k_commands[] = {
        {"check", setup_check},   {"classify", setup_classify},   {"trial-merge", setup_trial_merge},
        {"land", setup_land},     {"rules", setup_rules},         {"explain", setup_explain},
        {"req", setup_req},       {"hooks", setup_hooks},         {"audit", setup_audit},
        {"renumber", setup_renumber}, {"merge-file", setup_merge_file}, {"merge-driver", setup_merge_driver},
        {"project", setup_project}, {"board", setup_board}, {"recover", setup_recover},
        {"fix", setup_fix},       {"lsp", setup_lsp},     {"init", setup_init}};
    const std::optional<std::string> named = named_command(args);
    const bool alone = named && std::any_of(std::begin(k_commands), std::end(k_commands),
                                            [&](const Command& c) { return c.name == *named; });
    for (const Command& c : k_commands) {
      if (!alone || c.name == *named) c.setup(app, globals);
    }
    for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
      const std::string_view name = sub->get_name();
      if (name == "rules" || name == "explain") continue;
      sub->preparse_callback([&session](std::size_t) {
        if (!session) session.emplace();
      });
    }
    if (!alone) setup_docs(app, globals);
    // A command line that does not parse: the error, the hint, and the
    // error document --format json|sarif promises.
    args = expand_option_prefixes(app, std::move(args));
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
    return to_int(globals.exit_code);
  } catch (const std::exception& e) {
    print_error(e.what());
    print_error_document(e.what());
  } catch (...) {
    print_error("unknown internal error");
    print_error_document("unknown internal error");
  }
  return to_int(ExitCode::error);
}
