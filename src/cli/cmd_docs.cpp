// `ledgergate __docs DIR [--examples README]` (hidden; the build runs it): the
// man pages and the shell completions, made by walking this binary's own CLI11
// definitions so they say what `--help` says, each page with the README's
// console examples of its command. Writes DIR/man/man1/ledgergate*.1 and
// DIR/completions/{ledgergate,_ledgergate,ledgergate.fish}.
#include <filesystem>
#include <memory>
#include <optional>
#include <system_error>

#include <cstdio>

#include "commands.hpp"
#include "errors.hpp"
#include "file_io.hpp"
#include "ledgergate/diag/rule_table.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/report/cli_docs.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "ledgergate/report/cli_examples.hpp"
#include "ledgergate/util/version.hpp"

namespace lg::cli {
namespace {

// "TEXT:{a,b,c}" → {"a","b","c"}; "DIR:DIR(existing)" → {}.
std::vector<std::string> choices_of(const std::string& type) {
  const std::size_t open = type.find(":{");
  if (open == std::string::npos || type.back() != '}') return {};
  std::vector<std::string> out;
  const std::string inner = type.substr(open + 2, type.size() - open - 3);
  std::size_t start = 0;
  while (start <= inner.size()) {
    std::size_t comma = inner.find(',', start);
    if (comma == std::string::npos) comma = inner.size();
    if (comma > start) out.push_back(inner.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

report::CliOption describe(const CLI::Option& opt) {
  report::CliOption o;
  for (const std::string& s : opt.get_snames()) o.names.push_back("-" + s);
  for (const std::string& l : opt.get_lnames()) o.names.push_back("--" + l);
  if (!opt.nonpositional()) o.positional = opt.get_name();
  if (opt.get_items_expected_max() > 0) {
    const std::string type = opt.get_type_name();
    o.value = type.substr(0, type.find(':'));
    if (o.value.empty()) o.value = "VALUE";
    o.choices = choices_of(type);
  }
  o.description = opt.get_description();
  o.required = opt.get_required();
  o.repeatable = opt.get_expected_max() > 1 || opt.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll;
  return o;
}

report::CliCommand describe(const CLI::App& app, std::vector<std::string> path) {
  report::CliCommand cmd;
  cmd.path = std::move(path);
  cmd.description = app.get_description();
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_group().empty()) continue;  // hidden
    (opt->nonpositional() ? cmd.options : cmd.positionals).push_back(describe(*opt));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); })) {
    std::vector<std::string> sub_path = cmd.path;
    sub_path.push_back(sub->get_name());
    cmd.subcommands.push_back(describe(*sub, std::move(sub_path)));
  }
  return cmd;
}

bool write_pages(const report::CliCommand& cmd, const std::vector<report::CliOption>& global,
                 const std::vector<report::CliExample>& examples, const std::string& dir) {
  if (!write_atomically(dir + "/" + report::man_page_name(cmd) + ".1",
                        report::render_man_page(cmd, global, util::version_line(),
                                                report::examples_for(cmd, examples)))) {
    return false;
  }
  for (const report::CliCommand& sub : cmd.subcommands) {
    if (!write_pages(sub, global, examples, dir)) return false;
  }
  return true;
}

ExitCode write_docs(const CLI::App& root_app, const std::string& out, const std::string& readme) {
  const report::CliCommand root = describe(root_app, {root_app.get_name()});
  const std::string man = out + "/man/man1";
  const std::string completions = out + "/completions";
  for (const std::string& dir : {man, completions}) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return report_error(make_error(ErrorKind::io, "creating " + dir + ": " + ec.message()));
  }
  std::vector<report::CliOption> global;
  for (const report::CliOption& o : root.options) {
    if (o.names != std::vector<std::string>{"--version"} && o.names != std::vector<std::string>{"-h", "--help"}) {
      global.push_back(o);
    }
  }
  std::vector<report::CliExample> examples;
  if (!readme.empty()) {
    bool exists = false;
    const std::optional<std::string> text = read_file_bytes(readme, exists);
    if (!text) return ExitCode::error;
    if (!exists) return report_error(make_error(ErrorKind::io, "no README at " + readme));
    examples = report::console_examples(*text, root.path.front());
  }
  if (!write_pages(root, {}, examples, man)) return ExitCode::error;
  for (const report::CliCommand& sub : root.subcommands) {
    if (!write_pages(sub, global, examples, man)) return ExitCode::error;
  }
  const bool ok = write_atomically(completions + "/ledgergate", report::render_bash_completion(root)) &&
                  write_atomically(completions + "/_ledgergate", report::render_zsh_completion(root)) &&
                  write_atomically(completions + "/ledgergate.fish", report::render_fish_completion(root));
  return ok ? ExitCode::pass : ExitCode::error;
}

// `__complete KIND`: the words a shell completes for a value of that kind,
// one a line (report/cli_docs.hpp: the completions call it).
std::vector<std::string> completion_words(const std::string& kind, const Globals& g) {
  std::vector<std::string> out;
  if (kind == "RULE") {
    for (const diag::RuleInfo& r : diag::all_rules()) out.emplace_back(r.id);
    return out;
  }
  auto repo = git::Repository::open(g.repo.empty() ? "." : g.repo, true);
  if (kind == "REV") {
    if (!repo) return out;
    out.emplace_back("HEAD");
    for (std::string& name : git::ref_short_names(*repo)) out.push_back(std::move(name));
    return out;
  }
  // KEY: the rows of the working tree's projects.yaml (a plain folder's, outside git).
  auto tree = git::open_directory_source(repo && !repo->is_bare() ? repo->workdir() : std::string("."));
  if (!tree) return out;
  rules::CheckCache cache;
  auto table = rules::projects_table(**tree, cache);
  if (!table || !*table) return out;
  for (const rules::ProjectRow& row : (*table)->rows) out.push_back(row.key);
  return out;
}

}  // namespace

void setup_docs(CLI::App& app, Globals& globals) {
  auto out = std::make_shared<std::string>();
  auto readme = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("__docs", "Write the man pages and shell completions (the build runs it)");
  cmd->group("");  // hidden: not in --help, the pages or the completions
  cmd->add_option("dir", *out, "Output folder: man/man1/ and completions/ are written under it")->required();
  cmd->add_option("--examples", *readme, "The README whose ```console examples the pages show");
  cmd->callback([out, readme, &app, &globals] { globals.exit_code = write_docs(app, *out, *readme); });
  auto kind = std::make_shared<std::string>();
  CLI::App* complete = app.add_subcommand("__complete", "Print the words a shell completes for a value kind");
  complete->group("");  // hidden, as __docs
  complete->add_option("kind", *kind, "REV, KEY or RULE")->required()->check(CLI::IsMember({"REV", "KEY", "RULE"}));
  complete->callback([kind, &globals] {
    std::fputs(report::render_completion_words(completion_words(*kind, globals)).c_str(), stdout);
  });
}

}  // namespace lg::cli
