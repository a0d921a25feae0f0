// `ledgergate trial-merge BASE HEAD`: merge in memory, classify, check, and
// print the verdict (exit 0 pass, 1 fail, 2 could not run). `--write-tree`
// prints the merged tree id; `--commit -m MSG` writes the one merge commit
// (and the objects it needs) and moves no ref.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "ledgergate/git/commit.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/report/format.hpp"

namespace lg::cli {
namespace {

struct TrialMergeOptions {
  std::string base;
  std::string head;
  std::string format = "text";
  bool write_tree = false;
  bool no_check = false;
  std::string commit_message;
  bool commit = false;
  std::string profile;
};


std::string render_text(const merge::TrialMergeReport& r, const TrialMergeOptions& o) {
  if (r.nothing_to_merge) return fmt::format("{} is already in {}: nothing to merge\nverdict: fail\n", o.head, o.base);
  std::string out = fmt::format("merge {} ({}) into {} ({}), merge base {}{}\n", o.head, r.head.short_hex(), o.base,
                                r.base.short_hex(), r.merge_base.short_hex(),
                                r.merge.full_merge ? " [rename-aware merge]" : "");
  if (r.merge_bases.size() > 1) {
    std::string ids;
    for (const git::ObjectId& id : r.merge_bases) ids += (ids.empty() ? "" : ", ") + id.short_hex();
    out += fmt::format("criss-cross: {} merge bases ({}); merged over their virtual base {} as git does; the "
                       "branch is classified from each merge base\n",
                       r.merge_bases.size(), ids, r.virtual_base ? r.virtual_base->short_hex() : std::string("?"));
  }
  if (r.merge.conflicts.empty()) {
    out += fmt::format("merged tree {}: no textual conflict\n", r.merge.tree.hex());
  }
  for (const std::string& line : merge::conflict_lines(r)) out += line + "\n";
  if (o.no_check) return out;
  for (const std::string& line : merge::code_lines(r)) out += line + "\n";
  out += merge::diff_line(r) + "\n";
  for (const std::string& line : merge::semantic_lines(r)) out += line + "\n";
  out += report::render_text(r.findings, false);
  if (!r.checked) out += "check: not run (the merge has conflicts)\n";
  out += fmt::format("verdict: {}\n", r.pass() ? "pass" : "fail");
  return out;
}

std::string render_json(const merge::TrialMergeReport& r) {
  std::string conflicts;
  for (const merge::Conflict& c : r.merge.conflicts) {
    conflicts += fmt::format("{}{{\"path\": {}, \"kind\": \"{}\"}}", conflicts.empty() ? "" : ", ",
                             report::json_string(c.path), to_string(c.kind));
  }
  std::string ledger, code;
  for (const policy::Classified& p : r.classification.paths) {
    std::string& list = p.cls == policy::PathClass::ledger ? ledger : code;
    list += (list.empty() ? "" : ", ") + report::json_string(p.path);
  }
  std::string semantic;
  for (const merge::SemanticConflict& s : r.semantic) {
    semantic += fmt::format("{}{{\"kind\": {}, \"path\": {}, \"message\": {}}}", semantic.empty() ? "" : ", ",
                            report::json_string(s.kind), report::json_string(s.path), report::json_string(s.message));
  }
  std::string findings = report::render_json(r.findings, {});
  findings = findings.substr(findings.find("\"findings\": ") + 12);
  findings = findings.substr(0, findings.rfind('}'));
  const bool clean = !r.nothing_to_merge && r.merge.conflicts.empty();
  std::string merge_bases;  // all of them, in git's order ([] when there is nothing to merge)
  if (!r.nothing_to_merge) {
    for (const git::ObjectId& id : r.merge_bases) {
      merge_bases += fmt::format("{}\"{}\"", merge_bases.empty() ? "" : ", ", id.hex());
    }
  }
  return fmt::format(
      "{{\"verdict\": \"{}\", \"nothing_to_merge\": {}, \"base\": \"{}\", \"head\": \"{}\", \"merge_base\": {}, "
      "\"merge_bases\": [{}], \"tree\": {}, \"conflicts\": [{}], "
      "\"classification\": {{\"policy\": {}, \"ledger\": [{}], \"code\": [{}], \"birth\": {}}}, "
      "\"semantic\": [{}], \"findings\": {}}}\n",
      r.pass() ? "pass" : "fail", r.nothing_to_merge ? "true" : "false", r.base.hex(), r.head.hex(),
      r.nothing_to_merge ? "null" : "\"" + r.merge_base.hex() + "\"", merge_bases,
      clean ? "\"" + r.merge.tree.hex() + "\"" : "null", conflicts,
      r.classification.policy.empty() ? std::string("null") : report::json_string(r.classification.policy), ledger, code, r.birth ? "true" : "false",
      semantic, findings);
}

Result<git::ObjectId> write_commit(const git::Repository& repo, git::TrialRepo& trial,
                                   const merge::TrialMergeReport& r, const std::string& message) {
  if (auto p = trial.persist(repo, r.merge.tree); !p) return p.error();
  return git::write_commit(repo, r.merge.tree, {r.base, r.head}, message);
}

ExitCode run_trial_merge(const TrialMergeOptions& o, const Globals& g) {
  auto fail = [](const Error& e) {
    std::fputs(fmt::format("ledgergate: error: {}\n", e.message).c_str(), stderr);
    return ExitCode::error;
  };
  auto repo = git::Repository::open(g.repo.empty() ? "." : g.repo, true);
  if (!repo) return fail(repo.error());
  auto base = repo->resolve_commit(o.base);
  if (!base) return fail(base.error());
  auto head = repo->resolve_commit(o.head);
  if (!head) return fail(head.error());
  auto trial = git::TrialRepo::open(*repo);
  if (!trial) return fail(trial.error());
  auto report = merge::trial_merge(*repo, *trial, *base, *head, {!o.no_check, o.profile});
  if (!report) return fail(report.error());
  std::fputs((o.format == "json" ? render_json(*report) : render_text(*report, o)).c_str(), stdout);
  if (report->cannot_judge()) return fail(make_error(ErrorKind::invalid_input, "cannot judge the merged tree"));
  const bool clean = !report->nothing_to_merge && report->merge.conflicts.empty();
  if (o.write_tree && clean) std::fputs(fmt::format("{}\n", report->merge.tree.hex()).c_str(), stdout);
  const bool pass = o.no_check ? clean : report->pass();
  if (o.commit && pass) {
    auto id = write_commit(*repo, *trial, *report, o.commit_message);
    if (!id) return fail(id.error());
    std::fputs(fmt::format("{}\n", id->hex()).c_str(), stdout);
  } else if (o.commit) {
    std::fputs("ledgergate: the verdict is fail: no merge commit written\n", stderr);
  }
  return pass ? ExitCode::pass : ExitCode::fail;
}

}  // namespace

void setup_trial_merge(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<TrialMergeOptions>();
  CLI::App* cmd = app.add_subcommand("trial-merge", "Merge HEAD into BASE in memory and judge the result");
  cmd->add_option("base", opts->base, "The target (e.g. main)")->required();
  cmd->add_option("head", opts->head, "The branch to land")->required();
  cmd->add_option("--format", opts->format, "Output: text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--write-tree", opts->write_tree, "Print the merged tree id (clean merges)");
  cmd->add_option("--profile", opts->profile,
                  "Pin the profile (check and built-in policy), e.g. cortex-tasks; default: BASE's policy file, else "
                  "its layout");
  cmd->add_flag("--no-check", opts->no_check, "Only merge: no classification, no check (any repository)");
  auto* message = cmd->add_option("-m,--message", opts->commit_message, "Message of the merge commit");
  cmd->add_flag("--commit", opts->commit, "Write the merge commit (parents BASE, HEAD) on a pass; moves no ref")
      ->needs(message);
  cmd->callback([opts, &globals] { globals.exit_code = run_trial_merge(*opts, globals); });
}

}  // namespace lg::cli
