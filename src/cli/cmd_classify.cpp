// `ledgergate classify [PATH...] [--base REV [--head REV]]`: is a change
// ledger-only or code? Paths come from the arguments, else from the diff
// merge-base(BASE, HEAD) → HEAD, else from stdin (the reference's newest
// precedence: stdin is never read when paths or --base are given).
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "errors.hpp"
#include <algorithm>

#include "ledgergate/git/diff.hpp"
#include "ledgergate/merge/branch_diff.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/policy/classifier.hpp"
#include "ledgergate/report/classify.hpp"

namespace lg::cli {
namespace {

struct ClassifyOptions {
  std::vector<std::string> paths;
  std::string base;
  std::string head = "HEAD";
  std::string format = "text";
  std::string profile;  // pins the profile (and so the built-in policy)
};

// The branch's changes, merge-base(BASE, HEAD) → HEAD, judged with the
// policy of the BASE side (never the branch's own) and its birth exception.
Result<policy::Classification> classify_from_git(const ClassifyOptions& o, const Globals& g) {
  LG_TRY(git::Repository repo, git::Repository::open(g.repo.empty() ? "." : g.repo, true));
  LG_TRY(git::ObjectId base, repo.resolve_commit(o.base));
  LG_TRY(git::ObjectId head, repo.resolve_commit(o.head));
  return merge::classify_branch(repo, base, head, o.profile);
}

// Explicit and piped paths carry no BASE side: the repository's HEAD stands
// in for it (its .ledgergate.yaml and its layout choose the policy); outside
// a repository, or before the first commit, the built-in policy the profile
// implies (LM-R2 unless --profile pins another).
Result<policy::Policy> path_mode_policy(const ClassifyOptions& o, const Globals& g) {
  auto builtin = [&]() -> Result<policy::Policy> {
    const auto name = policy::policy_for_profile(o.profile);
    if (!name) return make_error(ErrorKind::usage, "unknown sub-era in profile '" + o.profile + "'");
    return *policy::builtin_policy(*name);
  };
  auto repo = git::Repository::open(g.repo.empty() ? "." : g.repo, true);
  if (!repo) {
    if (!g.repo.empty()) return repo.error();  // an explicit --repo must open
    return builtin();
  }
  if (repo->head_unborn()) return builtin();
  LG_TRY(git::ObjectId head, repo->resolve_commit("HEAD"));
  LG_TRY(git::ObjectId tree_id, repo->commit_tree(head));
  LG_TRY(auto tree, git::open_tree_source(*repo, tree_id, "HEAD"));
  LG_TRY(policy::RepoPolicy pol, policy::load_policy(*tree, o.profile));
  return pol.paths;
}

std::vector<std::string> read_stdin_lines() {
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(std::cin, line)) lines.push_back(line);
  return lines;
}

ExitCode run_classify(const ClassifyOptions& o, const Globals& g) {
  expect_error_document("classify", o.format);
  policy::Classification c;
  const bool from_paths = !o.paths.empty() || (o.base.empty() && isatty(STDIN_FILENO) == 0);
  policy::Policy pol;
  if (from_paths) {
    auto chosen = path_mode_policy(o, g);
    if (!chosen) return report_error(chosen.error());
    pol = std::move(*chosen);
  }
  if (!o.paths.empty()) {
    c = policy::classify_paths(pol, o.paths);
  } else if (!o.base.empty()) {
    auto judged = classify_from_git(o, g);
    if (!judged) return report_error(judged.error());
    c = std::move(*judged);
  } else if (isatty(STDIN_FILENO) == 0) {
    c = policy::classify_paths(pol, read_stdin_lines());
  } else {
    return report_error(make_error(ErrorKind::usage, "give paths, pipe them in, or pass --base"));
  }
  const bool ledger_only = !c.paths.empty() && c.code_count() == 0;
  const std::string out = o.format == "cortex" ? report::render_classification_cortex(c)
                          : o.format == "json"   ? report::render_classification_json(c)
                                                 : report::render_classification_text(c);
  std::fputs(out.c_str(), stdout);
  return ledger_only ? ExitCode::pass : ExitCode::fail;
}

}  // namespace

void setup_classify(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<ClassifyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "classify", "Is a change ledger-only (exit 0) or code / nothing to merge (exit 1)?");
  cmd->add_option("paths", opts->paths, "Paths to classify (else --base, else stdin)");
  cmd->add_option("--base", opts->base, "Classify the diff merge-base(BASE, HEAD)..HEAD")->type_name("REV");
  cmd->add_option("--head", opts->head, "The branch head (default HEAD)")->type_name("REV");
  cmd->add_option("--profile", opts->profile,
                  "Pin the profile whose built-in policy judges (e.g. cortex-phases@p2); default: the BASE tree's "
                  "layout");
  cmd->add_option("--format", opts->format, "Output: text, cortex (the reference's exact output) or json")
      ->check(CLI::IsMember({"text", "cortex", "json"}));
  cmd->callback([opts, &globals] { globals.exit_code = run_classify(*opts, globals); });
}

}  // namespace lg::cli
