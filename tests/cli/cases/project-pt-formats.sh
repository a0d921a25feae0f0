# Era T verbs in ledgergate's own formats (text, json), `gates`, and
# `--commit` into a bare repository (no checkout, no index).
rm -rf r && cp -r "$DATA/corpus/cortex-fixtures/tasks-skeleton" r
run project gates --root r --format cortex
run project gates --root r
run project move tasks/example/01_scope.md ready --root r --today 2026-09-02
run project move tasks/example/01_scope.md ready --root r --today 2026-09-02
run project move tasks/example/02_gated_on_dev.md ready --root r --today 2026-09-02 --format json
run project move tasks/example/02_gated_on_dev.md ready --root r --today 2026-09-02 --format json
# --commit on a bare repository.
git init -q -b main src && cp -r "$DATA/corpus/cortex-fixtures/tasks-skeleton/." src/
quietgit -C src add -A && quietgit -C src commit -m skeleton
git clone -q --bare src bare.git
run project move tasks/example/06_pulled.md awaiting-ruling --repo bare.git --commit --today 2026-09-02 --format cortex
git -C bare.git log --format='%s' main >>"$actual"
git -C bare.git show main:tasks/example/06_pulled.md | grep '^State:' >>"$actual"
run project gates --repo bare.git --commit --profile cortex-tasks@t2 --format cortex
