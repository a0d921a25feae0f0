# Era T `project new` (the task template) and `project retire` (the textual
# edit of one projects.yaml row), with each refusal family.
T="$DATA/corpus/cortex-fixtures/tasks-skeleton"
rm -rf r && cp -r "$T" r
new() { run project new "$@" --root r --format cortex --today 2026-09-02; }
show() { { echo "--- $1"; cat "r/$1"; } >>"$actual"; }
new example 11_next --summary "Does the next idea hold up" --gates "PyAutoLens#1, https://github.com/o/r/pull/2" \
  --epic example-programme --budget 6:00 --minutes 5 --witness "a claim"
show tasks/example/11_next.md
new example 12_legacy --summary "Is the quarantined run reusable" --legacy-run 300000 --legacy-wrong '300001_[0-3]' \
  --where /mnt/q --witness w
show tasks/example/12_legacy.md
cp -r r before
new nobody x --summary "Does it hold"
new example X! --summary "Does it hold"
new example 03_ready_cleared --summary "Does it hold"
new example x --summary "   "
new example x --summary "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10"
new example x --summary "Does it hold" --gates PyAutoLabs/PyAutoLens#1
new example x --summary "Does it hold" --legacy-run 1 --where /q --gates PyAutoLens#1
new example x --summary "Does it hold" --legacy-run 1
new example x --summary "Does it hold" --legacy-run 1x --where /q
new example x --summary "Does it hold" --budget 6h
new example x
diff -r before r >>"$actual" && echo "(nothing written)" >>"$actual"
run check --root r --format cortex
# retire
retire() { run project retire "$@" --root r --format cortex --today 2026-09-04; }
retire example --why "done"
rm -f r/tasks/example/0[2-7]_*.md r/rulings/2026/09/R-20260901-03.md r/tasks/example/1[12]_*.md
retire example --why " "
retire example --why 'a "quoted" reason'
retire nobody --why why
retire example --why "the question was answered"
{ echo "--- projects.yaml"; cat r/projects.yaml; } >>"$actual"
retire example --why "again"
run check --root r --format cortex
