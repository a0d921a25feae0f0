# Era T `project rule` (spec §8.3): the ruling file and the task's edits,
# the REWIND, and each refusal family; Reviewed-at's clock pinned by
# LEDGERGATE_NOW.
export LEDGERGATE_NOW=10:30
rm -rf r && cp -r "$DATA/corpus/cortex-fixtures/tasks-skeleton" r
printf 'Accept. The human'"'"'s words, verbatim.\n' > body.txt
printf '\n\n' > empty.txt
rule() { run project rule "$@" --root r --format cortex --today 2026-09-02; }
show() { { echo "--- $1"; cat "r/$1"; } >>"$actual"; }
cp -r r before
rule tasks/example/05_running_array.md accept --body body.txt
rule tasks/example/01_scope.md leave-to-finish --body body.txt
rule tasks/example/10_dropped.md drop --body body.txt
rule tasks/example/08_accepted.md rerun --body body.txt
rule tasks/example/08_accepted.md accept --body body.txt --supersedes R-20260901-02
rule tasks/example/08_accepted.md rerun --body body.txt --supersedes R-20260901-01
rule tasks/example/08_accepted.md rerun --body body.txt --supersedes R-20260901-03
rule tasks/example/07_awaiting_ruling.md accept --body body.txt --batch 2026-09-09-x
rule tasks/example/07_awaiting_ruling.md accept --body body.txt --follow-up PyAutoLabs/PyAutoLens#1
rule tasks/example/07_awaiting_ruling.md accept --body empty.txt
rule tasks/example/07_awaiting_ruling.md accept --body missing.txt
rule tasks/example/07_awaiting_ruling.md approve --body body.txt
rule tasks/example/07_awaiting_ruling.md drop --body body.txt --also tasks/example/06_pulled.md
diff -r before r >>"$actual" && echo "(nothing written)" >>"$actual"
rule tasks/example/07_awaiting_ruling.md accept --body body.txt --batch 2026-09-01-pm --minutes 4 --follow-up PyAutoLens#902
show rulings/2026/09/R-20260902-01.md
show tasks/example/07_awaiting_ruling.md
rule tasks/example/08_accepted.md rerun --body body.txt --supersedes R-20260901-02
show rulings/2026/09/R-20260902-02.md
run check --root r --format cortex
