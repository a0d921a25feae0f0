// The examples table (rule_examples.hpp). Rows for the reference's rules are
// single-edit peer cases of shared/spec/peer-cases.yaml (the case id is noted);
// the unit test re-checks every row against the skeleton it edits.
#include "ledgergate/diag/rule_examples.hpp"

#include <array>

namespace lg::diag {
namespace {

constexpr std::array k_examples = {
    {"ledger-file-name", "R-skeleton", "projects/Example-Two.md",  // peer case CR-06
     "",
     "# x — y\n",
     "Rename the file to `projects/<key>.md`, with the key in lower case as in projects.yaml."},
    {"ledger-header-closed", "R-skeleton", "projects/example.md",  // peer case CR-08a
     "Issue: example#7",
     "Issue: example#7\nState: running",
     "Remove the extra header line; the header holds only `Project:` and `Issue:`."},
    {"ledger-header-required", "R-skeleton", "projects/example.md",  // peer case CR-08b
     "Issue: example#7\n",
     "",
     "Add the missing `Project:` / `Issue:` header line (`Issue: none` when there is no issue)."},
    {"ledger-issue-grammar", "R-skeleton", "projects/example.md",  // peer case CR-03
     "Issue: example#7",
     "Issue: nonsense",
     "Write `Issue:` as Repo#N, an issue URL or `none`."},
    {"ledger-log-continuation-orphan", "R-skeleton", "projects/example.md",  // peer case CR-16
     "## Log\n\n",
     "## Log\n\n  orphan\n",
     "Start the log with a `- <date> — <kind> — <text>` line; an indented line only continues one."},
    {"ledger-log-date-real", "R-skeleton", "projects/example.md",  // peer case CR-15d
     "- 2026-08-28 — note",
     "- 2026-02-30 — note",
     "Use a real calendar date (YYYY-MM-DD)."},
    {"ledger-log-line-parses", "R-skeleton", "projects/example.md",  // peer case CR-15b
     "- 2026-09-01 — lesson —",
     "- 2026-09-01 — verdict —",
     "Write the log entry as `- <date> — <kind> — <text>` with a known kind such as note or lesson."},
    {"ledger-log-newest-first", "R-skeleton", "projects/example.md",  // peer case CR-15c
     "- 2026-08-28 — note — ledger opened",
     "- 2026-09-09 — note — out of order",
     "Move the entry so the log reads newest first."},
    {"ledger-project-equals-key", "R-skeleton", "projects/example.md",  // peer case CR-08c
     "Project: example",
     "Project: other",
     "Set `Project:` to the file's key."},
    {"ledger-retired-has-no-runs", "R-skeleton", "projects/wound_down.md",  // peer case CR-13b
     "## Runs\n",
     "## Runs\n\n- 1 — open — ral — 2026-09-01 — x\n",
     "Close or remove the runs before retiring the project (or keep it active)."},
    {"ledger-run-line-parses", "R-skeleton", "projects/example.md",  // peer case CR-12b
     "- 3003 — open — gpu",
     "- 3003 — submitted — gpu",
     "Write the run as `- <ident> — <state> — <partition> — <date> — <note>` with a known state."},
    {"ledger-run-listed-once", "R-skeleton", "projects/example.md",  // peer case CR-13a
     "- 3003 — open — gpu — 2026-09-02 — joint fit",
     "- 3003 — open — gpu — 2026-09-02 — joint fit\n- 3003 — open — gpu — 2026-09-02 — again",
     "List each run ident once; update the existing line instead of adding another."},
    {"ledger-run-partition-agrees", "R-skeleton", "projects.yaml",  // peer case CR-17a
     "  partition: both\n  status: active\n  note: \"the fixture project\"",
     "  partition: moon\n  status: active\n  note: \"the fixture project\"",
     "Give the run the project's partition (or change the project's `partition:` to both)."},
    {"ledger-sections-exact", "R-skeleton", "projects/example.md",  // peer case CR-10a
     "## Runs",
     "## Jobs",
     "Keep exactly the sections `## Now`, `## Runs` and `## Log`, in that order; fold other notes into them."},
    {"ledger-summary-word-cap", "R-skeleton", "projects/example.md",  // peer case CR-07b
     "# example — Does the example pipeline recover the truth on the fixture lens",
     "# example — word word word word word word word word word word word word word word word word",
     "Shorten the title's summary to 15 words or fewer."},
    {"ledger-title-names-key", "R-skeleton", "projects/example.md",  // peer case CR-07a
     "# example — Does",
     "# other — Does",
     "Make the title `# <key> — <summary>`, with the file's own key."},
    {"projects-yaml-field-known", "T-skeleton", "projects.yaml",  // peer case CT-18
     "  status: active\n",
     "  status: active\n  colour: blue\n",
     "Remove the unknown field (or move it into `note:`); a row holds only the fields the profile declares."},
    {"projects-yaml-partition-enum", "R-skeleton", "projects.yaml",  // peer case CR-17a
     "  partition: both\n  status: active\n  note: \"the fixture project\"",
     "  partition: moon\n  status: active\n  note: \"the fixture project\"",
     "Set `partition:` to gpu, ral or both."},
    {"projects-yaml-sync-verbs-words", "T-skeleton", "projects.yaml",  // peer case CT-17
     "  sync_verbs: [pull, submit, jobs, tail]\n",
     "  sync_verbs: [pull, 'Not A Verb']\n",
     "List each sync verb as a bare lower-case word such as `pull`."},
    {"pt-after-resumes-resolve", "T-skeleton", "tasks/example/05_running_array.md",  // peer case CT-43
     "- 342091_9: failed",
     "- 342091: failed",
     "Name a run of this same file in `after:` / `resumes:`."},
    {"pt-chain-invalid-edge", "T-skeleton", "rulings/2026/09/R-20260901-02.md",  // peer case CT-53
     "Supersedes: R-20260901-01\n",
     "Supersedes: R-20260901-02\n",
     "Fix the successor's `Supersedes:` edge first; then the chain is judged on valid edges."},
    {"pt-follow-up-ref-grammar", "T-skeleton", "rulings/2026/09/R-20260901-02.md",  // peer case CT-61
     "Follow-ups: PyAutoLens#901\n",
     "Follow-ups: PyAutoLabs/PyAutoLens#901\n",
     "Write each follow-up as Repo#N (the repository's short name) or a full issue/PR URL."},
    {"pt-gated-needs-gates", "T-skeleton", "tasks/example/02_gated_on_dev.md",  // peer case CT-37
     "Gates: PyAutoArray#431, https://github.com/PyAutoLabs/PyAutoFit/pull/1436\n",
     "Gates:\n",
     "Give a gated file at least one `Gates:` ref, or move it out of `gated`."},
    {"pt-gates-ref-grammar", "T-skeleton", "tasks/example/02_gated_on_dev.md",  // peer case CT-36
     "Gates: PyAutoArray#431,",
     "Gates: PyAutoLabs/PyAutoArray#431,",
     "Write each gate as Repo#N (the repository's short name) or a full issue/PR URL."},
    {"pt-head-verb-fits-state", "T-skeleton", "tasks/example/08_accepted.md",  // peer case CT-58
     "State: accepted\n",
     "State: awaiting-ruling\n",
     "Set `State:` to what the head ruling decided (or file a new ruling)."},
    {"pt-legacy-needs-where", "T-skeleton", "tasks/example/10_dropped.md",  // peer case CT-47
     "    where: /mnt/c/Users/Jammy/Science/example/output/legacy_wrong/task_10\n",
     "",
     "Add `where:` (the output's location) to the legacy run."},
    {"pt-path-grammar", "T-skeleton", "tasks/notes.md",  // peer case CT-51
     "",
     "# stray\n",
     "Move the file to `phases|tasks/<project>/<slug>.md`."},
    {"pt-project-equals-directory", "T-skeleton", "tasks/example/01_scope.md",  // peer case CT-31
     "Project: example\n",
     "Project: sample\n",
     "Set `Project:` to the name of the directory the file is in."},
    {"pt-project-is-row", "T-skeleton", "tasks/example/01_scope.md",  // peer case CT-31
     "Project: example\n",
     "Project: sample\n",
     "Set `Project:` to a key of projects.yaml (or add the project's row there)."},
    {"pt-pulled-needs-pulled-to", "T-skeleton", "tasks/example/06_pulled.md",  // peer case CT-46
     "    pulled_to: /mnt/c/Users/Jammy/Science/example/output/task_06\n",
     "",
     "Record `pulled_to:` on a done or legacy run before setting `State: pulled`."},
    {"pt-ruled-continuation-resolves", "T-skeleton", "tasks/example/08_accepted.md",  // peer case CT-49
     "    ruled: R-20260901-02",
     "    ruled: R-20260901-09",
     "Name an existing ruling file in the run's `ruled:`."},
    {"pt-ruling-chain-head", "T-skeleton", "tasks/example/08_accepted.md",  // peer case CT-56
     "Ruling: R-20260901-02\n",
     "Ruling: R-20260901-01\n",
     "Point `Ruling:` at the newest ruling of its chain (the one nothing supersedes)."},
    {"pt-ruling-names-target", "T-skeleton", "tasks/example/09_rerun.md",  // peer case CT-57
     "Ruling: R-20260901-04\n",
     "Ruling: R-20260901-05\n",
     "Point `Ruling:` at a ruling whose `Task:`/`Phase:` names this file."},
    {"pt-run-sets-disjoint", "T-skeleton", "tasks/example/05_running_array.md",  // peer case CT-43
     "- 342091_9: failed",
     "- 342091: failed",
     "Split the array range so that no task index appears in two runs of one stem."},
    {"pt-runs-header-equals-body", "T-skeleton", "tasks/example/04_submitted_override.md",  // peer case CT-41
     "Runs: 342001, 342010\n",
     "Runs: 342001\n",
     "Make the `Runs:` header list exactly the run stems of the body."},
    {"pt-single-successor", "T-skeleton", "rulings/2026/09/R-20260901-03.md",  // peer case CT-55
     "Ruling: leave-to-finish\n",
     "Ruling: leave-to-finish\nSupersedes: R-20260901-01\n",
     "Supersede the chain's newest ruling instead, so each ruling has one successor."},
    {"pt-state-legal", "T-skeleton", "tasks/example/03_ready_cleared.md",  // peer case CT-04
     "State: ready\n",
     "State: flying\n",
     "Set `State:` to one of the profile's states (see `ledgergate explain` of the profile's state machine)."},
    {"pt-supersedes-earlier", "T-skeleton", "rulings/2026/09/R-20260901-01.md",  // peer case CT-54
     "Ruling: accept\n",
     "Ruling: accept\nSupersedes: R-20260901-03\n",
     "Supersede only an earlier ruling; a later one supersedes this one instead."},
    {"pt-supersedes-not-self", "T-skeleton", "rulings/2026/09/R-20260901-02.md",  // peer case CT-53
     "Supersedes: R-20260901-01\n",
     "Supersedes: R-20260901-02\n",
     "Name the earlier ruling this one replaces, not the ruling itself."},
    {"pt-supersedes-resolves", "T-skeleton", "rulings/2026/09/R-20260901-02.md",  // peer case CT-52
     "Supersedes: R-20260901-01\n",
     "Supersedes: R-20260831-01\n",
     "Name an existing ruling file in `Supersedes:`."},
    {"pt-supersedes-same-target", "T-skeleton", "rulings/2026/09/R-20260901-03.md",  // peer case CT-55
     "Ruling: leave-to-finish\n",
     "Ruling: leave-to-finish\nSupersedes: R-20260901-01\n",
     "Supersede only a ruling of the same project and phase/task."},
};

}  // namespace

std::span<const RuleExample> all_rule_examples() { return k_examples; }

std::optional<RuleExample> find_rule_example(std::string_view id) {
  for (const RuleExample& e : k_examples) {
    if (e.id == id) return e;
  }
  return std::nullopt;
}

}  // namespace lg::diag
