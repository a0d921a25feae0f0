# project: every era-R verb on a folder (--root), in the reference's format,
# then ledgergate's own text and JSON; the ledger and projects.yaml as they end.
cp -r "$FIXTURES/ledgers/example" r
run project new sleeping --summary "Does the -- sleeping question wake" --issue "sleeping#2" --today 2026-09-03 --root r --format cortex
run project run example "3004_[0-9]" "wave 3, ten seeds" --partition ral --today 2026-09-03 --root r --format cortex
run project running example 3003 --root r --format cortex
run project running example 3003 --root r --format cortex
run project done example "3002_[0-3]" --wall 20:05 --note "all four landed" --today 2026-09-03 --root r --format cortex
run project log example "the sigma is the finding, not the mean" --kind lesson --today 2026-09-03 --root r --format cortex
run project now example $'Pulled wave 2.\nNext: compare against wave 1.' --root r --format cortex
run project link example "https://github.com/PyAutoLabs/example/issues/7" --root r --format cortex
run project issue example -n 3 --root r --format cortex
run project retire single --why "never started" --today 2026-09-03 --root r --format cortex
run project log example "pulled 3003" --kind result --today 2026-09-04 --root r
run project running example "3004_[0-9]" --root r --format json
run project running example "3004_[0-9]" --root r
run check --root r --format cortex
cat r/projects/example.md r/projects/sleeping.md >>"$actual"
diff "$FIXTURES/ledgers/example/projects.yaml" r/projects.yaml >>"$actual"
