// Command words and options checked before CLI11 sees them (command_line.hpp).
#include "command_line.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <set>
#include <string_view>

#include "ledgergate/util/suggest.hpp"

namespace lg::cli {
namespace {

bool is_option(const std::string& arg) { return arg.size() > 1 && arg[0] == '-'; }

// "--name" of "--name=value"; "-x" of "-xvalue".
std::string option_name(const std::string& arg) {
  if (arg.rfind("--", 0) == 0) return arg.substr(0, arg.find('='));
  return arg.substr(0, 2);
}

// The option of `level` or of a parent (the program's `--repo` is read
// after the command too) spelled `name`, or null.
const CLI::Option* find_option(const std::vector<CLI::App*>& chain, const std::string& name) {
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    for (const CLI::Option* opt : (*it)->get_options()) {
      if (name.rfind("--", 0) == 0) {
        for (const std::string& l : opt->get_lnames()) {
          if (name.compare(2, std::string::npos, l) == 0) return opt;
        }
      } else {
        for (const std::string& s : opt->get_snames()) {
          if (name.compare(1, std::string::npos, s) == 0) return opt;
        }
      }
    }
  }
  return nullptr;
}

bool takes_value(const CLI::Option* opt) { return opt->get_type_size_min() > 0 && opt->get_expected_min() > 0; }

std::vector<std::string> command_names(CLI::App& level) {
  std::vector<std::string> out;
  for (CLI::App* sub : level.get_subcommands([](CLI::App*) { return true; })) out.push_back(sub->get_name());
  return out;
}

bool has_positionals(const CLI::App& level) {
  return !level.get_options([](const CLI::Option* o) { return o->get_positional(); }).empty();
}

CLI::App* find_command(CLI::App& level, const std::string& word) {
  for (CLI::App* sub : level.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->get_name() == word) return sub;
  }
  return nullptr;
}

std::string spelled(const std::vector<CLI::App*>& chain) {
  std::string out;
  for (std::size_t i = 1; i < chain.size(); ++i) out += (out.empty() ? "" : " ") + chain[i]->get_name();
  return out;
}

struct Walk {
  std::vector<CLI::App*> chain;       // the program, then each command named
  std::optional<std::string> unknown;  // a command word naming no command
  std::vector<std::string> options;    // the option words met, in order
};

// Follows the command words of `args` down the app's commands. A level with
// commands and no positionals reads its first word as a command.
Walk walk(CLI::App& app, const std::vector<std::string>& args) {
  Walk w;
  w.chain.push_back(&app);
  bool lost = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (is_option(arg)) {
      w.options.push_back(arg);
      const CLI::Option* opt = find_option(w.chain, option_name(arg));
      const bool inline_value = arg.find('=') != std::string::npos || (arg[1] != '-' && arg.size() > 2);
      if (opt && takes_value(opt) && !inline_value) ++i;
      // After an option this level does not know (whether it takes a
      // value cannot be told) or a help flag (which prints whatever
      // follows), the words are not read as commands.
      if (!opt || opt->get_lnames() == std::vector<std::string>{"help"}) lost = true;
      continue;
    }
    if (lost) continue;
    CLI::App& level = *w.chain.back();
    if (level.get_subcommands([](CLI::App*) { return true; }).empty() || has_positionals(level)) continue;
    if (CLI::App* sub = find_command(level, arg)) {
      w.chain.push_back(sub);
      continue;
    }
    if (!w.unknown) w.unknown = arg;
  }
  return w;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& known) {
  const auto near = util::closest_word(word, known);
  return near ? fmt::format(" (did you mean '{}'?)", *near) : std::string();
}

}  // namespace

std::vector<std::string> rewrite_help(std::vector<std::string> args) {
  // `help --help` is the help command's own help.
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") return args;
  }
  // The first word that is not an option of the program's own.
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--repo") {
      ++i;
      continue;
    }
    if (is_option(args[i])) continue;
    if (args[i] != "help") break;
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
    args.emplace_back("--help");
    break;
  }
  return args;
}

namespace {

// The first word that is neither an option of the program's own nor its value.
std::optional<std::string> first_word(const std::vector<std::string>& args) {
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--repo" || args[i] == "--color") {
      ++i;
      continue;
    }
    if (is_option(args[i])) continue;
    return args[i];
  }
  return std::nullopt;
}

bool has_word(const std::vector<std::string>& args, std::initializer_list<std::string_view> words) {
  return std::any_of(args.begin() + (args.empty() ? 0 : 1), args.end(), [&](const std::string& a) {
    return std::find(words.begin(), words.end(), a) != words.end();
  });
}

}  // namespace

std::optional<std::string> named_command(const std::vector<std::string>& args) {
  if (has_word(args, {"--help", "-h", "--version"})) return std::nullopt;
  return first_word(args);
}

bool asks_version_only(const std::vector<std::string>& args) {
  return has_word(args, {"--version"}) && !has_word(args, {"--help", "-h"}) && !first_word(args);
}

std::optional<std::string> unknown_command(CLI::App& app, const std::vector<std::string>& args) {
  const Walk w = walk(app, args);
  if (!w.unknown) return std::nullopt;
  const std::string where = w.chain.size() > 1 ? fmt::format(" for '{}'", spelled(w.chain)) : std::string();
  return fmt::format("unknown command '{}'{}{}", *w.unknown, where, did_you_mean(*w.unknown, command_names(*w.chain.back())));
}

std::optional<std::string> unknown_option(CLI::App& app, const std::vector<std::string>& args) {
  const Walk w = walk(app, args);
  for (const std::string& arg : w.options) {
    const std::string name = option_name(arg);
    if (find_option(w.chain, name)) continue;
    std::vector<std::string> known;
    for (auto it = w.chain.rbegin(); it != w.chain.rend(); ++it) {
      for (const CLI::Option* opt : (*it)->get_options()) {
        for (const std::string& l : opt->get_lnames()) known.push_back("--" + l);
      }
    }
    const std::string where = w.chain.size() > 1 ? fmt::format(" for '{}'", spelled(w.chain)) : std::string();
    return fmt::format("unknown option '{}'{}{}", name, where, did_you_mean(name, known));
  }
  return std::nullopt;
}

namespace {
// The commands that opted in to a parsing convenience, one set per kind.
enum class Allowance { option_prefixes, path_operands };
std::set<const CLI::App*>& allowed(Allowance kind) {
  static std::set<const CLI::App*> commands[2];
  return commands[static_cast<int>(kind)];
}
}  // namespace

void allow_option_prefixes(CLI::App* command) { allowed(Allowance::option_prefixes).insert(command); }

std::vector<std::string> expand_option_prefixes(CLI::App& app, std::vector<std::string> args) {
  const std::set<const CLI::App*>& prefix_commands = allowed(Allowance::option_prefixes);
  if (prefix_commands.empty()) return args;
  std::vector<CLI::App*> chain{&app};
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (!is_option(arg)) {
      CLI::App& level = *chain.back();
      if (!has_positionals(level)) {
        if (CLI::App* sub = find_command(level, arg)) chain.push_back(sub);
      }
      continue;
    }
    std::string name = option_name(arg);
    const CLI::Option* opt = find_option(chain, name);
    if (!opt && name.starts_with("--") && prefix_commands.count(chain.back())) {
      std::string full;
      int matches = 0;
      for (const CLI::Option* o : chain.back()->get_options()) {
        for (const std::string& l : o->get_lnames()) {
          if (l != "help" && l.compare(0, name.size() - 2, name, 2) == 0) {
            full = "--" + l;
            opt = o;
            ++matches;
          }
        }
      }
      if (matches == 1) {
        args[i] = full + arg.substr(name.size());
      } else {
        opt = nullptr;
      }
    }
    const bool inline_value = args[i].find('=') != std::string::npos || (args[i][1] != '-' && args[i].size() > 2);
    if (opt && takes_value(opt) && !inline_value) ++i;
  }
  return args;
}

void allow_path_operands(CLI::App* command) { allowed(Allowance::path_operands).insert(command); }

std::vector<std::string> take_path_operands(CLI::App& app, std::vector<std::string>& args) {
  const auto dashes = std::find(args.begin(), args.end(), "--");
  if (dashes == args.end() || !allowed(Allowance::path_operands).count(walk(app, args).chain.back())) return {};
  std::vector<std::string> out(dashes + 1, args.end());
  args.erase(dashes, args.end());
  return out;
}

std::string command_path(CLI::App& app, const std::vector<std::string>& args) {
  return spelled(walk(app, args).chain);
}

}  // namespace lg::cli
