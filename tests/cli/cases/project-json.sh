# project --format json: what changed, the lines written, the commit with --commit.
cp -r "$FIXTURES/ledgers/example" r
run project run example 3005 "wave 4" --partition ral --today 2026-09-03 --root r --format json
run project running example 3005 --root r --format json
run project running example 3005 --root r --format json
run project retire single --why "never started" --today 2026-09-03 --root r --format json
run project log example backdated --today 2026-08-01 --root r --format json
run project log example x --today yesterday --root r --format json
git init -q --bare -b main bare.git && git -C r init -q -b main && quietgit -C r add -A && quietgit -C r commit -m fixture
quietgit -C r push -q ../bare.git main
"$LG" project done example 3005 --today 2026-09-04 --commit --repo bare.git --format json | sed -E 's/"commit": "[0-9a-f]{40}"/"commit": "<id>"/' >>"$actual"
