# `audit --format sarif` (SARIF 2.1.0) over the scripted history
# (fixtures/repos/audit-history.sh), and `--cache DIR`: a second audit reads
# every commit's result from the cache and prints the same report.
"$FIXTURES/repos/audit-history.sh" repo >/dev/null
run audit --repo repo --format sarif
run audit HEAD~3..HEAD --first-parent --repo repo --format sarif
run audit --repo repo --format json --cache cache
find cache -type f | wc -l | sed "s/^ */cache entries (one per commit): /" >>"$actual"
run audit --repo repo --format json --cache cache
