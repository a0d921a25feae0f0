# project --commit: the edit as a commit straight from objects into a bare
# clone (no checkout, no index), a refusal that makes no commit, two
# concurrent writers on one file that both land, and the default target:
# the discovered repository's working tree.
git init -q -b main src && cp -r "$FIXTURES/ledgers/example/." src/
quietgit -C src add -A && quietgit -C src commit -m fixture
git clone -q --bare src bare.git
run project running example 3003 --commit --repo bare.git --format cortex
"$LG" project log example "pulled 3003" --kind result --today 2026-09-03 --commit -m "log: pulled 3003" --repo bare.git |
  sed -E 's/[0-9a-f]{12}/<id>/' >>"$actual"
run project log example backdated --today 2026-08-01 --commit --repo bare.git --format cortex
run project log example x --today 2026-09-03 --commit --branch nobranch --repo bare.git --format cortex
git -C bare.git log --format=%s main >>"$actual"
git -C bare.git show main:projects/example.md | sed -n '/## Runs/,/## Log/p' >>"$actual"
# Two writers race on one file: both land, one after a retry on the new tip.
"$LG" project log example "first writer" --today 2026-09-04 --commit --repo bare.git --format cortex >w1.out 2>&1 &
"$LG" project log example "second writer" --today 2026-09-04 --commit --repo bare.git --format cortex >w2.out 2>&1 &
wait
cat w1.out w2.out | sort >>"$actual"
git -C bare.git show main:projects/example.md | grep -c 'writer$' | sed 's/^/writer entries: /' >>"$actual"
git -C bare.git rev-list --count main | sed 's/^/commits: /' >>"$actual"
"$LG" check main --repo bare.git --format cortex >>"$actual"
# No --root, no --commit: the working tree of the repository found.
run project log example "in the working tree" --today 2026-09-03 --repo src --format cortex
git -C src status --porcelain >>"$actual"
