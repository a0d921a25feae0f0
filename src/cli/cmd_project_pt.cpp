// The era-T/P options and editors of `ledgergate project` (cmd_project_pt.hpp).
#include "cmd_project_pt.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "ledgergate/rules/cortex_eras.hpp"
#include "ledgergate/util/clock.hpp"

namespace lg::cli {
namespace {

// The UTC wall clock as HH:MM (a ruling's Reviewed-at); LEDGERGATE_NOW=HH:MM
// pins it, so tests and reproducible runs can say what they expect.
std::string utc_clock() {
  if (const char* pinned = std::getenv("LEDGERGATE_NOW"); pinned && *pinned) return pinned;
  return util::format_now("%H:%M", util::Zone::utc);
}

// The --body file's text; nullopt when it is not a regular file.
std::optional<std::string> read_body(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Gates lists and writes nothing: a change without files.
write::Editor gates_editor(const rules::PtEra& era) {
  return [&era](git::TreeSource& tree) -> Result<write::Outcome> {
    LG_TRY(std::string listing, write::pt_gates(era, tree));
    return write::Outcome(write::Change{{}, std::move(listing)});
  };
}

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string line(text.substr(start, nl - start));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(std::move(line));
    start = nl + 1;
  }
  return out;
}

// `inner`, noting the lines its change writes (for --format json's `lines`).
write::Editor noting(write::Editor inner, write::EditNotes* notes) {
  if (!notes) return inner;
  return [inner = std::move(inner), notes](git::TreeSource& tree) -> Result<write::Outcome> {
    LG_TRY(write::Outcome outcome, inner(tree));
    notes->lines.clear();
    const auto* change = std::get_if<write::Change>(&outcome);
    for (const write::FileEdit& f : change ? change->files : std::vector<write::FileEdit>{}) {
      LG_TRY(auto old, git::read_regular_file(tree, f.path));
      const std::vector<std::string> now = lines_of(f.bytes);
      if (!old) {
        if (!now.empty()) notes->lines.push_back(now.front());
        continue;
      }
      std::multiset<std::string> was;
      for (std::string& l : lines_of(*old)) was.insert(std::move(l));
      for (const std::string& l : now) {
        if (auto it = was.find(l); it != was.end()) {
          was.erase(it);
        } else if (!l.empty()) {
          notes->lines.push_back(l);
        }
      }
    }
    return outcome;
  };
}

}  // namespace

void add_pt_move_options(CLI::App* cmd, PtOptions& o) {
  write::PtMoveArgs& m = o.move;
  cmd->add_option("file", m.file, "The task (or phase) file, e.g. tasks/<project>/<slug>.md")->required();
  cmd->add_option("state", m.state, "The state it moves to")->required();
  cmd->add_option("--run", m.run, "A job id to append as a submitted run (ready → submitted, submitted | running)");
  cmd->add_option("--partition", m.partition, "The run's partition (default: the project row's)");
  cmd->add_option("--note", m.note, "A note at the end of the run line");
  cmd->add_option("--after", m.after, "The run this one comes after (an after: continuation)");
  cmd->add_option("--resumes", m.resumes, "The run this one resumes (a resumes: continuation)");
  cmd->add_option("--reason", m.reason, "Why a submitted | running task goes back to ready (Reset:)");
  cmd->add_flag("--partial", m.partial, "running → pulled with a run still live (then rule leave-to-finish)");
  cmd->add_option("--pulled-to", m.pulled_to, "The laptop path a pull lands in (pulled_to: on the done runs)");
  cmd->add_option("--override", m.override_reason, "P1: gated → ready without the gates clearing (Gate-override:)");
  cmd->add_option("--today", o.today, "The date written, YYYY-MM-DD (default: the local date)");
}

void add_pt_rule_options(CLI::App* cmd, PtOptions& o) {
  write::PtRuleArgs& r = o.rule;
  cmd->add_option("file", r.file, "The task (or phase) file ruled on")->required();
  cmd->add_option("verb", r.verb, "The ruling")->required()->check(
      CLI::IsMember({"accept", "rerun", "drop", "leave-to-finish"}));
  cmd->add_option("--body", o.body_file, "A file holding the human's words, verbatim")->required();
  cmd->add_option("--supersedes", r.supersedes, "The ruling this one supersedes (accepted → rerun | dropped)");
  cmd->add_option("--batch", r.batch, "The batch (batches/<slot>.md) the ruling was made in");
  cmd->add_option("--minutes", r.minutes, "Review-minutes-actual");
  cmd->add_option("--follow-up", r.follow_ups, "A follow-up issue, Repo#N or an issue/PR URL (repeatable)");
  cmd->add_option("--also", r.also, "P1: another file ruled alike, with its own ruling (repeatable)");
  cmd->add_option("--today", o.today, "The date of the ruling, YYYY-MM-DD (default: the local date)");
}

void add_pt_new_options(CLI::App* cmd, PtOptions& o) {
  write::PtNewArgs& n = o.new_args;
  cmd->add_option("slug", n.slug, "T/P: the task's (or phase's) slug, tasks/<project>/<slug>.md");
  cmd->add_option("--phase", n.phase, "P: the phase number");
  cmd->add_option("--gates", n.gates, "T/P: the gates, Repo#N or issue/PR URLs, comma-separated");
  cmd->add_option("--epic", n.epic, "T/P: the epic's slug");
  cmd->add_option("--legacy-run", n.legacy_runs, "T/P: a pre-Cortex run to migrate as legacy (repeatable)");
  cmd->add_option("--legacy-wrong", n.legacy_wrong, "T/P: a pre-Cortex run to migrate as legacy_wrong (repeatable)");
  cmd->add_option("--where", n.where, "T/P: the legacy runs' quarantine path");
  cmd->add_option("--partition", n.partition, "T/P: the legacy runs' partition (default: the project row's)");
  cmd->add_option("--witness", n.witness, "T/P: the witness");
  cmd->add_option("--budget", n.budget, "T/P: the budget, H+:MM");
  cmd->add_option("--minutes", n.minutes, "T/P: Review-minutes");
  cmd->add_option("--title", n.title, "T/P: the title (default: the slug, _ and - as spaces)");
  cmd->preparse_callback([&o](std::size_t) { o.summary_given = false; });
  cmd->get_option("--summary")->each([&o](const std::string&) { o.summary_given = true; });
}

Result<std::optional<write::Editor>> pt_editor(const std::string& verb, const ledger::Profile& profile,
                                               const PtOptions& o, const write::NewArgs& r_new,
                                               const write::RetireArgs& retire, write::EditNotes* notes) {
  if (profile.layout != ledger::Layout::cortex_tasks && profile.layout != ledger::Layout::cortex_phases) {
    return std::optional<write::Editor>();
  }
  const rules::PtEra* era = rules::find_pt_era(profile.layout, profile.sub.empty() ? ledger::newest_profile(profile.layout).sub : profile.sub);
  if (!era) return make_error(ErrorKind::usage, "no era " + profile.name());
  write::PtContext cx{era, o.root, o.today, o.base};
  if (verb == "gates") return std::optional(gates_editor(*era));
  // P1's own options are usage errors elsewhere, as the reference's argparse has them only in P1.
  if (verb == "move" && o.move.override_reason && !era->p1) {
    return make_error(ErrorKind::usage, "move: --override is a P1 option (the gates were graded then)");
  }
  if (verb == "rule" && !o.rule.also.empty() && !era->p1) {
    return make_error(ErrorKind::usage, "rule: --also is a P1 option");
  }
  if (verb == "move") return std::optional(noting(write::pt_move(cx, o.move), notes));
  if (verb == "rule") {
    write::PtRuleArgs args = o.rule;
    args.body = read_body(o.body_file);
    args.body_path = o.body_file;
    args.clock = utc_clock();
    return std::optional(noting(write::pt_rule(cx, std::move(args)), notes));
  }
  if (verb == "new") {
    write::PtNewArgs args = o.new_args;
    if (args.slug.empty()) return make_error(ErrorKind::usage, "new: the following arguments are required: slug");
    args.project = r_new.key;
    if (era->phase_number && !args.phase) {
      return make_error(ErrorKind::usage, "new: the following arguments are required: --phase");
    }
    if (!era->phase_number) {
      if (!o.summary_given) return make_error(ErrorKind::usage, "new: the following arguments are required: --summary");
      args.summary = r_new.summary;
    }
    cx.today = r_new.today;
    return std::optional(noting(write::pt_new(cx, std::move(args)), notes));
  }
  if (verb == "retire") {
    if (!era->tasks && era->name != "p3") {
      return make_error(ErrorKind::usage, "retire is not a verb of " + std::string(era->name) + " (P3 and T only)");
    }
    cx.today = retire.today;
    return std::optional(noting(write::pt_retire(cx, write::PtRetireArgs{retire.key, retire.why}), notes));
  }
  return std::optional<write::Editor>();  // the caller says it is not a verb of this layout
}

}  // namespace lg::cli
