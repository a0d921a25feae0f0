// ledgergate's entry point: libgit2 session, CLI11 wiring, exit codes. The
// only place exceptions are caught; CLI11's parse errors become exit 2.
#include <malloc.h>

#include <exception>
#include <string>
#include <vector>

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
    const lg::git::Libgit2Session session;
    CLI::App app{
        "ledgergate: guards ledgers kept in git.\n"
        "Exit codes: 0 pass, 1 fail (drift, code in the diff, conflict), 2 could not run or cannot judge.",
        "ledgergate"};
    app.require_subcommand(1);
    app.fallthrough();  // --repo is accepted after the subcommand too
    app.set_version_flag("--version", "ledgergate " + std::string(lg::util::k_version));
    Globals globals;
    app.add_option("--repo", globals.repo, "Repository to use (default: discover from the current directory)");
    app.add_option("--color", globals.color,
                   "Colour in text output: auto (a terminal, unless NO_COLOR is set and not empty), always, never")
        ->check(CLI::IsMember({"auto", "always", "never"}));
    app.add_subcommand("help", "Show a command's help: help [CMD [SUBCMD]] is CMD [SUBCMD] --help");
    setup_check(app, globals);
    setup_classify(app, globals);
    setup_trial_merge(app, globals);
    setup_land(app, globals);
    setup_rules(app, globals);
    setup_explain(app, globals);
    setup_req(app, globals);
    setup_hooks(app, globals);
    setup_audit(app, globals);
    setup_renumber(app, globals);
    setup_merge_file(app, globals);
    setup_merge_driver(app, globals);
    setup_project(app, globals);
    // `help CMD` is `CMD --help`; a mistyped command or option is named with
    // the nearest real one before CLI11 would call it something else.
    const std::vector<std::string> args = rewrite_help(std::vector<std::string>(argv, argv + argc));
    if (auto unknown = unknown_command(app, args)) {
      print_error(*unknown);
      print_usage_hint();
      return to_int(ExitCode::error);
    }
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
      print_error(unknown_option(app, args).value_or(e.what()));
      print_usage_hint();
      return to_int(ExitCode::error);
    } catch (const CLI::ParseError& e) {
      print_error(e.what());
      print_usage_hint();
      return to_int(ExitCode::error);
    }
    return to_int(globals.exit_code);
  } catch (const std::exception& e) {
    print_error(e.what());
  } catch (...) {
    print_error("unknown internal error");
  }
  return to_int(ExitCode::error);
}
