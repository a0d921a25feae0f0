# `git bisect run ledgergate check --bisect` on the audit's scripted history
# (fixtures/repos/audit-history.sh): between the clean base and a commit
# that carries drift, bisect names the commit that introduced it. Exit codes
# one by one: 0 clean, 1 error findings, 125 cannot judge (no ledger here).
"$FIXTURES/repos/audit-history.sh" repo >/dev/null
good=$(git -C repo rev-parse ':/^base: the example ledger')
bad=$(git -C repo rev-parse ':/^run 3004 on example')
run check --bisect "$good" --repo repo
run check --bisect "$bad" --repo repo
mkdir empty && git -C empty init -q && git -C empty commit -q --allow-empty -m "no ledger"
run check --bisect --repo empty
cd repo
git bisect start "$bad" "$good" >/dev/null
git bisect run "$LG" check --bisect >"$tmp/bisect.log" 2>&1
echo "git bisect run: exit $?" >>"$actual"
grep -E "is the first bad commit|^    drift" "$tmp/bisect.log" | sed 's/^/  > /' >>"$actual"
git bisect reset >/dev/null 2>&1
