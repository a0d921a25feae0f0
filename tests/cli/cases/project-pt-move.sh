# Era T `project move` (spec §8.3, §6.1): each edge it writes, each refusal
# family of the transition table, and an edit the reference would write but
# `check` rejects (refused, nothing written).
T="$DATA/corpus/cortex-fixtures/tasks-skeleton"
fresh() { rm -rf r && cp -r "$T" r; }
mv_() { run project move "$@" --root r --format cortex --today 2026-09-02; }
show() { { echo "--- $1"; cat "r/$1"; } >>"$actual"; }
fresh
mv_ tasks/example/01_scope.md ready
mv_ tasks/example/03_ready_cleared.md submitted --run 350000 --note "first wave" --partition ral
show tasks/example/03_ready_cleared.md
mv_ tasks/example/04_submitted_override.md submitted --run 342020 --after 342010
mv_ tasks/example/05_running_array.md pulled --partial
sed -i 's/^State: rerun$/State: ready/' r/tasks/example/09_rerun.md
mv_ tasks/example/09_rerun.md pulled
show tasks/example/09_rerun.md
run check --root r --format cortex
# Refusals: nothing is written.
fresh
cp -r r before
mv_ tasks/example/01_scope.md gated
mv_ tasks/example/02_gated_on_dev.md planned
mv_ tasks/example/03_ready_cleared.md gated
mv_ tasks/example/03_ready_cleared.md submitted
mv_ tasks/example/03_ready_cleared.md ready --run 1
mv_ tasks/example/03_ready_cleared.md running
mv_ tasks/example/04_submitted_override.md ready --reason x
mv_ tasks/example/05_running_array.md running --run '342091_[9-10]'
mv_ tasks/example/05_running_array.md running --run 342200 --resumes 999
mv_ tasks/example/05_running_array.md running --run 34x
mv_ tasks/example/05_running_array.md pulled
mv_ tasks/example/07_awaiting_ruling.md accepted
mv_ tasks/example/08_accepted.md rerun
mv_ tasks/example/10_dropped.md ready
mv_ tasks/example/01_scope.md flying
mv_ tasks/example/nope.md ready
mv_ ../elsewhere.md ready
run project move tasks/example/01_scope.md ready --root r --format cortex --today yesterday
run project move tasks/example/01_scope.md ready --root r/missing --format cortex
mv_ tasks/example/02_gated_on_dev.md ready --override "not in T"
diff -r before r >>"$actual" && echo "(nothing written)" >>"$actual"
# Better than the reference: a partial pull with no leave-to-finish head is
# drift (T-F23) the reference writes; ledgergate refuses it.
sed -i 's/^State: submitted$/State: running/; s/^- 342001: failed/- 342001: done/' r/tasks/example/04_submitted_override.md
cp r/tasks/example/04_submitted_override.md before.md
mv_ tasks/example/04_submitted_override.md pulled --partial --pulled-to /mnt/c/out
cmp before.md r/tasks/example/04_submitted_override.md && echo "(nothing written)" >>"$actual"
