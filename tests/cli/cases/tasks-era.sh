# An era-T (cortex-tasks) tree: the T skeleton with a ruling race — two
# helpers each filed R-20260902-01, one of them under the wrong month — in
# the three output formats, then the same tree pinned to T1.
cp -r "$DATA/corpus/cortex-fixtures/tasks-skeleton" t
mkdir -p t/rulings/2026/08
sed -i 's/^State: awaiting-ruling$/State: accepted/; s/^Review-minutes: 5$/Ruling: R-20260902-01\nReview-minutes: 5/' \
  t/tasks/example/07_awaiting_ruling.md
printf '# R-20260902-01 — accept example 07_awaiting_ruling\n\nProject: example\nTask: tasks/example/07_awaiting_ruling.md\nRuns: 342110, 342120\nRuling: accept\nReviewed-at: 2026-09-02T10:00Z\n\n## Ruling\n\nAccept.\n\n## Evidence\n\n- output/task_07\n' \
  > t/rulings/2026/09/R-20260902-01.md
printf '# R-20260902-01 — drop example 06_pulled\n\nProject: example\nTask: tasks/example/06_pulled.md\nRuns: 342120\nRuling: drop\nReviewed-at: 2026-09-02T10:05\n\n## Ruling\n\nDrop.\n\n## Evidence\n\n- output/task_06\n' \
  > t/rulings/2026/08/R-20260902-01.md
run check --root t
run check --root t --format cortex
run check --root t --format json
run check --root t --profile cortex-tasks@t1 --format cortex
run check --root t --profile cortex-tasks@t9
