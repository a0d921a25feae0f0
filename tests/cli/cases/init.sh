# init: a new ledger repository from nothing — `git init`, the empty ledger,
# the policy file spelled out, hooks and merge driver — that checks clean;
# then the first row (a person's edit), `project new`, `project log`, and a
# `git commit` the pre-commit hook judges. init overwrites nothing: a second
# init, a ledger file, a foreign hook or a foreign merge driver refuses
# before anything is written.
stamp() { sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}Z/<stamp>/'; }
run init lab
( cd lab && find . -path ./.git -prune -o -type f -print | sort ) >>"$actual"
stamp <lab/checkin.yaml >>"$actual"
cat lab/.ledgergate.yaml >>"$actual"
git -C lab config --local --get merge.ledgergate.name >>"$actual"
git -C lab symbolic-ref HEAD >>"$actual"
run check --root lab --format cortex
run check --repo lab --worktree
run hooks status --repo lab
cat >>lab/projects.yaml <<'ROW'
example:
  remote: none
  local_path: /tmp/example
  ral_root: /mnt/ral/example
  mirror: none
  sync_cli: hpc/sync
  sync_verbs: [pull]
  ledger: NOTES.md
  assistant: none
  witness_file: results/**/*.json
  partition: gpu
  status: active
ROW
run project new exmaple --summary "Does the pipeline recover the truth" --today 2026-09-03 --repo lab
run project new example --summary "Does the pipeline recover the truth" --today 2026-09-03 --repo lab
run project log example "first note" --today 2026-09-03 --repo lab
run project log exampel "first note" --today 2026-09-03 --repo lab
run project run example 4001 "wave 1" --today 2026-09-03 --repo lab
git -C lab add -A
git -C lab commit -q -m "open example" >>"$actual" 2>&1; echo "git commit: exit $?" >>"$actual"
git -C lab log --format=%s --name-status >>"$actual"
git -C lab status --short >>"$actual"
run check --repo lab
sed -i 's/^- 4001 — open/- 4001 — opne/' lab/projects/example.md
git -C lab commit -q -am "a broken run line" >>"$actual" 2>&1; echo "git commit: exit $?" >>"$actual"
git -C lab checkout -q -- projects/example.md
echo "## nothing is overwritten" >>"$actual"
run init lab
mkdir held && echo keep >held/checkin.yaml
run init held
ls -A held >>"$actual"
git init -q -b main hooked && printf '#!/bin/sh\nexit 0\n' >hooked/.git/hooks/pre-commit && chmod +x hooked/.git/hooks/pre-commit
run init hooked
ls -A hooked >>"$actual"
git init -q -b main driven && git -C driven config merge.ledgergate.driver "other %O %A %B"
run init driven
ls -A driven >>"$actual"
run init --profile cortex-tasks tasks
sed -i "s|$LG|<ledgergate>|g" "$actual"
