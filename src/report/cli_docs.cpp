// Man pages (roff) and bash/zsh/fish completions from a CliCommand tree (cli_docs.hpp).
#include "ledgergate/report/cli_docs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

namespace lg::report {
namespace {

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

std::string first_line(std::string_view text) {
  return std::string(text.substr(0, text.find('\n')));
}

// Text for a roff line: backslashes escaped, hyphens literal, a leading '.'
// or '\'' kept from being read as a request.
std::string roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    line_start = c == '\n';
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  return out;
}

// Choices too long for the option's line (roff could not fill it) are listed
// under the option instead.
bool long_choices(const CliOption& o) { return join(o.choices, "|").size() > 40; }

// "-C, --repo DIR" / "--hook {a,b}..." as the synopsis of one option, in roff.
std::string roff_option(const CliOption& o) {
  std::vector<std::string> names;
  for (const std::string& n : o.names) names.push_back("\\fB" + roff(n) + "\\fR");
  std::string out = join(names, ", ");
  if (!o.choices.empty() && !long_choices(o)) {
    out += " \\fI" + roff(join(o.choices, "|")) + "\\fR";
  } else if (!o.value.empty()) {
    out += " \\fI" + roff(o.value) + "\\fR";
  }
  if (o.repeatable) out += " ...";
  return out;
}

std::string roff_positional(const CliOption& o) {
  std::string out = "\\fI" + roff(o.positional) + "\\fR";
  if (o.repeatable) out += " ...";
  return o.required ? out : "[" + out + "]";
}

std::string synopsis(const CliCommand& cmd) {
  std::string out = "\\fB" + roff(join(cmd.path, " ")) + "\\fR";
  if (!cmd.options.empty()) out += " [\\fIOPTIONS\\fR]";
  if (!cmd.subcommands.empty()) out += " \\fICOMMAND\\fR";
  for (const CliOption& p : cmd.positionals) out += " " + roff_positional(p);
  return out;
}

void option_items(std::string& out, const std::vector<CliOption>& options) {
  for (const CliOption& o : options) {
    out += ".TP\n" + (o.names.empty() ? roff_positional(o) : roff_option(o)) + "\n";
    out += roff(o.description.empty() ? "(no description)" : o.description) + "\n";
    if (long_choices(o)) out += ".br\nOne of: " + roff(join(o.choices, ", ")) + ".\n";
  }
}

// A shell word in single quotes.
std::string sq(std::string_view s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Every command of the tree, parents before children.
void walk(const CliCommand& cmd, const std::function<void(const CliCommand&)>& f) {
  f(cmd);
  for (const CliCommand& sub : cmd.subcommands) walk(sub, f);
}

std::vector<std::string> sub_names(const CliCommand& cmd) {
  std::vector<std::string> out;
  for (const CliCommand& s : cmd.subcommands) out.push_back(s.path.back());
  return out;
}

// The root's options are accepted after any subcommand (CLI11's fallthrough).
std::vector<CliOption> with_root(const CliCommand& cmd, const CliCommand& root) {
  std::vector<CliOption> out = cmd.options;
  if (&cmd == &root) return out;
  for (const CliOption& o : root.options) {
    const bool shadowed =
        std::any_of(out.begin(), out.end(), [&](const CliOption& mine) { return mine.names == o.names; });
    if (!shadowed && o.names != std::vector<std::string>{"--version"}) out.push_back(o);
  }
  return out;
}

}  // namespace

std::string man_page_name(const CliCommand& cmd) { return join(cmd.path, "-"); }

std::string render_man_page(const CliCommand& cmd, const std::vector<CliOption>& global, std::string_view version,
                            const std::vector<CliExample>& examples) {
  const std::string name = man_page_name(cmd);
  std::string upper = name;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
  });
  std::string out = fmt::format(".\\\" Generated from ledgergate's command-line definitions: do not edit.\n"
                                ".TH \"{}\" \"1\" \"\" \"{}\" \"ledgergate manual\"\n",
                                roff(upper), roff(version));
  out += ".SH NAME\n" + roff(name) + " \\- " + roff(first_line(cmd.description)) + "\n";
  out += ".SH SYNOPSIS\n" + synopsis(cmd) + "\n";
  out += ".SH DESCRIPTION\n";
  std::size_t start = 0;
  while (start <= cmd.description.size()) {
    std::size_t end = cmd.description.find('\n', start);
    if (end == std::string::npos) end = cmd.description.size();
    const std::string line = cmd.description.substr(start, end - start);
    if (!line.empty()) out += roff(line) + "\n.PP\n";
    start = end + 1;
  }
  if (!cmd.positionals.empty()) {
    out += ".SH ARGUMENTS\n";
    option_items(out, cmd.positionals);
  }
  if (!cmd.options.empty()) {
    out += ".SH OPTIONS\n";
    option_items(out, cmd.options);
  }
  if (!global.empty()) {
    out += ".SH GLOBAL OPTIONS\nAccepted before or after the command.\n";
    option_items(out, global);
  }
  std::vector<std::string> see{"ledgergate(1)"};
  if (!cmd.subcommands.empty()) {
    out += ".SH COMMANDS\n";
    for (const CliCommand& sub : cmd.subcommands) {
      out += ".TP\n\\fB" + roff(sub.path.back()) + "\\fR\n" + roff(first_line(sub.description)) + " (see \\fB" +
             roff(man_page_name(sub)) + "\\fR(1))\n";
      see.push_back(man_page_name(sub) + "(1)");
    }
  }
  out += ".SH EXIT STATUS\n.TP\n0\npass\n.TP\n1\nfail (drift, code in the diff, a conflict, a refusal)\n"
         ".TP\n2\ncould not run, or cannot judge\n";
  if (!examples.empty()) {
    const bool ids = std::any_of(examples.begin(), examples.end(), [](const CliExample& e) {
      return std::any_of(e.output.begin(), e.output.end(),
                         [](const std::string& l) { return l.find("<id>") != std::string::npos; });
    });
    out += ".SH EXAMPLES\nFrom the tour in the README, in a repository holding the example ledger";
    out += ids ? "; <id> stands for a commit or tree id.\n" : ".\n";
    for (const CliExample& e : examples) {
      out += ".PP\n.RS 4\n.nf\n" + roff("$ " + e.command) + "\n";
      for (const std::string& line : e.output) out += roff(line) + "\n";
      out += ".fi\n.RE\n";
    }
  }
  if (cmd.path.size() > 1) {
    std::vector<std::string> parent(cmd.path.begin(), cmd.path.end() - 1);
    if (parent.size() > 1) see.push_back(join(parent, "-") + "(1)");
  } else {
    see.erase(see.begin());
  }
  if (!see.empty()) {
    std::vector<std::string> bold;
    for (const std::string& s : see) {
      const std::size_t paren = s.find('(');
      bold.push_back("\\fB" + roff(s.substr(0, paren)) + "\\fR" + s.substr(paren));
    }
    out += ".SH SEE ALSO\n" + join(bold, ", ") + "\n";
  }
  return out;
}

namespace {

// bash's and zsh's completion functions have one shape: walk the typed words
// down the command tree to a node, complete an option's value by
// "NODE PREVIOUS-WORD", else offer the node's options or subcommands. The
// case arms come from one walk of the tree; a Dialect spells them.
struct Dialect {
  std::string_view open;  // what opens a case pattern: "" (bash) or "(" (zsh)
  std::string (*list)(const std::vector<std::string>& words);        // a word list's value
  std::string (*sub)(const CliCommand& sub);                          // a subcommand's word
  std::string (*opt)(const CliOption& o, const std::string& name);    // an option name's word
  std::string (*choices)(const CliOption& o);                         // the action offering its values
  std::string_view files;                                             // the action offering file names
  std::string (*words)(std::string_view prog, std::string_view kind);  // offering `PROG __complete KIND`'s words
};

struct CompletionCases {
  std::string descend;  // the arm stepping into a subcommand ("" for a tree without one)
  std::string values;   // an arm per option with values
  std::string nodes;    // an arm per node: its subs and opts
};

// The value kinds whose words the program itself prints (`PROG __complete
// KIND`): revisions, project keys, rule ids.
bool is_word_kind(std::string_view value) { return value == "REV" || value == "KEY" || value == "RULE"; }

CompletionCases completion_cases(const CliCommand& root, const Dialect& d) {
  std::vector<std::string> descend, file_values;
  CompletionCases out;
  walk(root, [&](const CliCommand& c) {
    const std::string path = join(c.path, " ");
    if (&c != &root) descend.push_back(sq(path));
    std::vector<std::string> subs, opts;
    for (const CliCommand& s : c.subcommands) subs.push_back(d.sub(s));
    for (const CliOption& o : with_root(c, root)) {
      for (const std::string& n : o.names) {
        opts.push_back(d.opt(o, n));
        if (!o.choices.empty()) {
          out.values += fmt::format("    {}{}) {}; return ;;\n", d.open, sq(path + " " + n), d.choices(o));
        } else if (is_word_kind(o.value)) {
          out.values += fmt::format("    {}{}) {}; return ;;\n", d.open, sq(path + " " + n), d.words(root.path.front(), o.value));
        } else if (!o.value.empty()) {
          file_values.push_back(sq(path + " " + n));
        }
      }
    }
    // The kind of the node's first positional, completed where a word is not an option.
    std::string kind;
    if (!c.positionals.empty() && is_word_kind(c.positionals.front().value)) kind = c.positionals.front().value;
    out.nodes += fmt::format("    {}{}) subs={}; opts={}; kind={} ;;\n", d.open, sq(path), d.list(subs), d.list(opts),
                             sq(kind));
  });
  if (!file_values.empty()) out.values += fmt::format("    {}{}) {}; return ;;\n", d.open, join(file_values, "|"), d.files);
  if (!descend.empty()) out.descend = fmt::format("      {}{}) node=", d.open, join(descend, "|"));
  return out;
}

// The words `PROG __complete KIND` prints (its errors dropped), offered by bash and zsh.
std::string bash_words(std::string_view prog, std::string_view kind) {
  return fmt::format("COMPREPLY=($(compgen -W \"$({} __complete {} 2>/dev/null)\" -- \"$cur\"))", prog, kind);
}
std::string zsh_words(std::string_view prog, std::string_view kind) {
  return fmt::format("compadd -- ${{(f)\"$({} __complete {} 2>/dev/null)\"}}", prog, kind);
}

// A zsh _describe entry, "name:description" (a ':' in the name escaped).
std::string zsh_entry(std::string_view name, std::string_view desc) {
  std::string n;
  for (const char c : name) n += c == ':' ? std::string("\\:") : std::string(1, c);
  return sq(n + ":" + first_line(desc));
}

}  // namespace

std::string render_bash_completion(const CliCommand& root) {
  const std::string fn = "_" + root.path.front();
  const CompletionCases cases = completion_cases(
      root, Dialect{"", [](const std::vector<std::string>& w) { return sq(join(w, " ")); },
                    [](const CliCommand& s) { return s.path.back(); },
                    [](const CliOption&, const std::string& n) { return n; },
                    [](const CliOption& o) {
                      return fmt::format("COMPREPLY=($(compgen -W {} -- \"$cur\"))", sq(join(o.choices, " ")));
                    },
                    "COMPREPLY=($(compgen -f -- \"$cur\"))", bash_words});
  std::string out = "# bash completion for " + root.path.front() +
                    ", generated from its command-line definitions: do not edit.\n";
  out += fn + "() {\n";
  out += "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n";
  out += "  local node=" + sq(root.path.front()) + " subs opts kind i\n";
  out += "  for ((i = 1; i < COMP_CWORD; i++)); do\n";
  out += "    case \"$node ${COMP_WORDS[i]}\" in\n";
  if (!cases.descend.empty()) out += cases.descend + "\"$node ${COMP_WORDS[i]}\" ;;\n";
  out += "    esac\n  done\n";
  out += "  case \"$node $prev\" in\n" + cases.values + "  esac\n";
  out += "  case \"$node\" in\n" + cases.nodes + "  esac\n";
  out += "  if [[ \"$cur\" == -* ]]; then\n    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n";
  out += "  elif [ -n \"$subs\" ]; then\n    COMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n";
  out += "  elif [ -n \"$kind\" ]; then\n    " + bash_words(root.path.front(), "$kind") + "\n";
  out += "  else\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  fi\n}\n";
  out += "complete -F " + fn + " " + root.path.front() + "\n";
  return out;
}

std::string render_zsh_completion(const CliCommand& root) {
  const std::string fn = "_" + root.path.front();
  const CompletionCases cases = completion_cases(
      root, Dialect{"(", [](const std::vector<std::string>& w) { return "(" + join(w, " ") + ")"; },
                    [](const CliCommand& s) { return zsh_entry(s.path.back(), s.description); },
                    [](const CliOption& o, const std::string& n) { return zsh_entry(n, o.description); },
                    [](const CliOption& o) { return "compadd -- " + join(o.choices, " "); }, "_files", zsh_words});
  std::string out = "#compdef " + root.path.front() + "\n# zsh completion for " + root.path.front() +
                    ", generated from its command-line definitions: do not edit.\n";
  out += fn + "() {\n";
  out += "  local node=" + sq(root.path.front()) + " kind i\n  local -a subs opts\n";
  out += "  for ((i = 2; i < CURRENT; i++)); do\n    case \"$node ${words[i]}\" in\n";
  if (!cases.descend.empty()) out += cases.descend + "\"$node ${words[i]}\" ;;\n";
  out += "    esac\n  done\n";
  out += "  case \"$node ${words[CURRENT-1]}\" in\n" + cases.values + "  esac\n";
  out += "  case \"$node\" in\n" + cases.nodes + "  esac\n";
  out += "  if [[ $PREFIX == -* ]]; then\n    _describe option opts\n";
  out += "  elif (( ${#subs} )); then\n    _describe command subs\n";
  out += "  elif [[ -n $kind ]]; then\n    " + zsh_words(root.path.front(), "$kind") + "\n  else\n    _files\n  fi\n}\n";
  out += fn + " \"$@\"\n";
  return out;
}

std::string render_completion_words(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += w + "\n";
  return out;
}

std::string render_fish_completion(const CliCommand& root) {
  const std::string prog = root.path.front();
  std::string out = "# fish completion for " + prog + ", generated from its command-line definitions: do not edit.\n";
  out += "complete -c " + prog + " -f\n";
  walk(root, [&](const CliCommand& c) {
    // At `c` when every word of its path was seen and none of its subcommands.
    std::vector<std::string> conds;
    for (std::size_t i = 1; i < c.path.size(); ++i) conds.push_back("__fish_seen_subcommand_from " + c.path[i]);
    if (!c.subcommands.empty()) conds.push_back("not __fish_seen_subcommand_from " + join(sub_names(c), " "));
    const std::string cond = conds.empty() ? "" : " -n " + sq(join(conds, "; and "));
    for (const CliCommand& s : c.subcommands) {
      out += "complete -c " + prog + cond + " -a " + sq(s.path.back()) + " -d " + sq(first_line(s.description)) + "\n";
    }
    if (c.subcommands.empty() && !c.positionals.empty() && is_word_kind(c.positionals.front().value)) {
      out += "complete -c " + prog + cond + " -a " + sq("(" + prog + " __complete " + c.positionals.front().value +
                                                          " 2>/dev/null)") + "\n";
    }
    for (const CliOption& o : c.options) {
      std::string line = "complete -c " + prog + cond;
      for (const std::string& n : o.names) {
        line += n.starts_with("--") ? " -l " + sq(n.substr(2)) : " -s " + sq(n.substr(1));
      }
      if (!o.choices.empty()) {
        line += " -x -a " + sq(join(o.choices, " "));
      } else if (is_word_kind(o.value)) {
        line += " -x -a " + sq("(" + prog + " __complete " + o.value + " 2>/dev/null)");
      } else if (!o.value.empty()) {
        line += " -r -F";
      }
      out += line + " -d " + sq(first_line(o.description)) + "\n";
    }
  });
  return out;
}

}  // namespace lg::report
