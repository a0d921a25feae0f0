# The checked tree's .ledgergate.yaml raises a gap warning to an error; an
# invalid policy is exit 2 naming the line; a merge is judged by BASE's policy.
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/
sed -i 's/^- 3003 — open/- 3002_1 — open/' r/projects/example.md
quietgit -C r add -A && quietgit -C r commit -m overlap
run check --repo r
printf 'severities:\n  ledger-run-overlap: error\n' > r/.ledgergate.yaml && quietgit -C r add -A && quietgit -C r commit -m policy
run check --repo r --format cortex
printf 'severities:\n  ledger-run-overlap: fatal\n' > r/.ledgergate.yaml
run check --worktree --repo r
