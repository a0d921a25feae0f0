# check's report options: locations an editor opens (`path:line:col:` from
# the current directory for the working tree, `REV:path:line:col:` for a
# revision, the column in JSON and SARIF too), -q, -o FILE, --select and
# --ignore (rule ids and family prefixes), --statistics, `-- PATH...`
# (the report narrowed, the check still of the whole tree), and bare
# `ledgergate` (the help, exit 0).
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/ && quietgit -C r add -A && quietgit -C r commit -m base
run check --repo r -q
run check --repo r -q -o pass.txt
echo "pass.txt: $(wc -c <pass.txt) bytes" >>"$actual"
sed -i 's/^- 3003 — open/- 3002_1 — open/' r/projects/example.md
sed -i 's/^  status: retired/  status: retird/' r/projects.yaml
quietgit -C r add -A && quietgit -C r commit -m broken
run check --repo r
run check --repo r --worktree
(cd r/projects && run check --worktree)
(cd r/projects && run check HEAD~0)
run check --root r/
run check --repo r --format json --select ledger
run check --repo r --format sarif --select ledger-run-overlap
run check --repo r -q
run check --repo r --quiet --format json --ignore projects-yaml,ledger-run-overlap
run check --repo r --statistics
run check --repo r --statistics --format json
run check --repo r --select ledgr
run check --repo r --ignore no-such-family
run check --repo r -- projects/example.md
run check --repo r --index -- projects.yaml
(cd r/projects && run check --worktree -- example.md)
(cd r/projects && run check --worktree -- ../projects.yaml)
run check --repo r -- /
run check --repo r -o report.txt --select ledger
echo "report.txt:" >>"$actual"; sed 's/^/  > /' report.txt >>"$actual"
run check --repo r --format json -o nodir/report.json
run check --repo nonexistent -o report.txt
echo "report.txt after exit 2:" >>"$actual"; sed 's/^/  > /' report.txt >>"$actual"
run classify --repo r projects.yaml -o classify.txt
echo "classify.txt:" >>"$actual"; sed 's/^/  > /' classify.txt >>"$actual"
run
# -o on the other commands with a report: the file holds what stdout would.
same() {  # same FILE ARGS...: whether `ledgergate ARGS` prints FILE's bytes
  local file=$1; shift
  "$LG" "$@" >"$file.stdout" 2>/dev/null
  if cmp -s "$file.stdout" "$file"; then echo "$file: as stdout" >>"$actual"; else echo "$file: DIFFERS" >>"$actual"; fi
}
run rules --profile open-requirements -o rules.txt
same rules.txt rules --profile open-requirements
run audit --repo r --format json -o audit.json
same audit.json audit --repo r --format json
run trial-merge --repo r main main --format json -o trial.json
same trial.json trial-merge --repo r main main --format json
run board --repo r -o board.md
head -c 40 board.md >>"$actual"; echo >>"$actual"
