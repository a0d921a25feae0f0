# project: each refusal of the era-R verbs — the reference's message on stderr,
# exit 1, and not one byte written (`same` compares the whole tree) — the
# places where ledgergate refuses what the reference writes (G-01, G-02),
# and the usage errors (exit 2).
cp -r "$FIXTURES/ledgers/example" r
same() { rm -rf before && cp -r r before; "$@"; diff -r before r >/dev/null && echo "unchanged" >>"$actual" || echo "CHANGED" >>"$actual"; }
same run project new single --summary again --root r --format cortex
same run project new nobody --summary x --root r --format cortex
same run project new sleeping --summary "w w w w w w w w w w w w w w w w" --root r --format cortex
same run project new sleeping --summary x --issue "PyAutoLabs/x#1" --root r --format cortex
same run project run example "3003" x --partition ral --root r --format cortex
same run project run example 3005 x --root r --format cortex
same run project run example job-five x --partition ral --root r --format cortex
same run project run example 3005 x --partition Ral --root r --format cortex
same run project run example 3005 "   " --partition ral --root r --format cortex
same run project run Example 3005 x --partition ral --root r --format cortex
same run project running example 1 --root r --format cortex
same run project done example 3003 --wall 20 --root r --format cortex
same run project done single 3003 --root r --format cortex
same run project log example backdated --today 2026-08-01 --root r --format cortex
same run project log example "   " --root r --format cortex
same run project log nobody x --root r --format cortex
same run project now example "" --root r --format cortex
same run project link example "o/r#1" --root r --format cortex
same run project retire example --why done --today 2026-09-03 --root r --format cortex
same run project retire wound_down --why again --today 2026-09-03 --root r --format cortex
same run project retire single --why 'a "quoted" why' --today 2026-09-03 --root r --format cortex
same run project log example x --today yesterday --root r --format cortex
# G-02: the reference writes these, and check then fails; ledgergate refuses.
same run project run example 3005 "backdated" --partition ral --today 2026-08-01 --root r --format cortex
same run project run single 3005 "on the wrong partition" --partition gpu --today 2026-09-03 --root r --format cortex
same run project done example 3003 --today 2026-08-01 --root r --format cortex
# G-01: the reference rewrites projects.yaml, then fails on the log's order.
same run project retire single --why "never started" --today 2026-08-01 --root r --format cortex
# An edit that would not read back: the reference writes it; ledgergate keeps the file.
same run project now example $'Pulled.\n## Notes' --root r --format cortex
# A ledger that does not parse clean.
sed -i 's/- 3003 — open — gpu/- 3003 — weird — gpu/' r/projects/example.md
same run project log example x --root r --format cortex
same run project log example x --root r
# Usage: exit 2, nothing written.
same run project log example x --kind verdict --root r --format cortex
same run project log example --root r --format cortex
same run project log example x --root nowhere --format cortex
same run project nonsense example --root r
# The tree's policy makes a rule a warning: an edit adding only that finding is written.
printf 'severities:\n  ledger-run-partition-agrees: warning\n' > r/.ledgergate.yaml
sed -i 's/- 3003 — weird — gpu/- 3003 — open — gpu/' r/projects/example.md
run project run single 3005 "on the wrong partition" --partition gpu --today 2026-09-03 --root r --format cortex
run check --root r
# The policy turns the rule off: such an edit is written too, and check reports nothing of that rule;
# with the rule back at its default (error), the same kind of edit is refused again.
printf 'severities:\n  ledger-run-partition-agrees: off\n' > r/.ledgergate.yaml
run project run single 3006 "gpu again" --partition gpu --today 2026-09-03 --root r --format cortex
run check --root r
rm r/.ledgergate.yaml
same run project run single 3007 "gpu once more" --partition gpu --today 2026-09-03 --root r --format cortex
