# Baselines (docs/baseline.md) and `severities: {RULE: off}`. The real
# ledger's replayed history: `audit` exits 1 on findings fixed long ago; with
# a baseline written from itself it passes, and a new finding still fails.
# The real ledger's newest tree: a baseline keeps its two known findings
# suppressed when lines are inserted above them, a new finding fails, and a
# rule turned off leaves no finding at all.
git clone -q -b main "$DATA/corpus/pyautocortex/replay.bundle" replay
audit_tail() {  # ARGS...: the exit code and the audit's closing lines
  "$LG" audit --repo replay --no-progress "$@" >"$tmp/o" 2>"$tmp/e"
  echo "audit $*: exit $?" >>"$actual"
  grep '^audit:' "$tmp/o" | sed 's/^/  | /' >>"$actual"
  sed 's/^/  ! /' "$tmp/e" >>"$actual"
}
audit_tail
audit_tail --write-baseline history.baseline
head -1 history.baseline >>"$actual"
echo "baseline entries: $(($(wc -l <history.baseline) - 1))" >>"$actual"
audit_tail --baseline history.baseline
run audit --repo replay --no-progress --baseline history.baseline --format json
# A new commit that edits a log entry of the previous one: a new finding.
sed -i '0,/^- 20[0-9-]* — note — ledger opened$/s//- 2026-09-11 — note — ledger opened (edited)/' replay/projects/euclid_sersics.md
quietgit -C replay commit -qam "edit an old log entry"
run audit --repo replay --no-progress --baseline history.baseline
# check: the newest tree, a baseline written from itself.
cp -r "$DATA/corpus/pyautocortex/newest" ledger && chmod -R u+w ledger
run check --root ledger --write-baseline tree.baseline
run check --root ledger --baseline tree.baseline
# A line inserted above the baselined finding (projects/euclid_sersics.md:13) keeps it suppressed.
sed -i '9a Aside: a line inserted above the runs.' ledger/projects/euclid_sersics.md
run check --root ledger
run check --root ledger --baseline tree.baseline --format json
# A new finding fails, and only it is reported.
sed -i 's/^Issue: .*/Issue: not an issue/' ledger/projects/euclid_dr1_prelim.md
run check --root ledger --baseline tree.baseline
# A baseline that is missing or not a baseline: exit 2, and the machine formats still print one document.
run check --root ledger --baseline no-such.baseline --format json
printf 'not a baseline\n' > bad.baseline
run audit --repo replay --no-progress --baseline bad.baseline --format sarif
# severities: {RULE: off}: no finding at all (and other rules still judge).
printf 'severities:\n  ledger-retired-has-no-runs: off\n  ledger-issue-grammar: warning\n' > ledger/.ledgergate.yaml
run check --root ledger
printf 'severities:\n  ledger-retired-has-no-runs: of\n' > ledger/.ledgergate.yaml
run check --root ledger
