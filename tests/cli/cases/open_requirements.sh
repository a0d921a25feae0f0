# open-requirements: the profile alone and beside a Cortex ledger, the policy
# glob, `check REV --against REV2` (cross-version rules), and a trial merge of
# two branches appending the same entry id.
commit() { GIT_COMMITTER_DATE="2026-09-0${2}T00:00:00Z" GIT_AUTHOR_DATE="2026-09-0${2}T00:00:00Z" quietgit -C "$R" commit -qm "$1"; }
entry() {  # entry ID RAISED_BY [STATUS [EXTRA]]
  printf '  - id: %s\n    status: %s\n    raised_by: %s\n    unmet: "u"\n    missing: "m"\n%b' "$1" "${3:-open}" "$2" "${4:-}"
}
R=solo; git init -q -b main $R; mkdir -p $R/run
{ printf 'topology_repair:\n  escalations: 0\n  cap: 3\n  open_history: []\nentries:\n'; entry a-gap step-one; } > $R/run/open-requirements.ledger.yml
quietgit -C $R add -A; commit one 1
run check --repo $R --format json
run rules --profile open-requirements
# A bad version: duplicate key, unknown field, bad status, uncited drop.
cp $R/run/open-requirements.ledger.yml good.yml
{ printf 'entries:\n'; entry a-gap step-one closed '    raisedBy: x\n    note: a\n    note: b\n'
  printf '  - id: cut-plane\n    status: open\n    kind: dropped\n    raised_by: s\n    units: "2 nodes"\n    because: "too hard"\n    unmet: u\n    missing: m\n'; } > $R/run/open-requirements.ledger.yml
quietgit -C $R add -A; commit two 2
run check --repo $R
run check --repo $R --format json --profile open-requirements
# Cross-version: deleting and rewording entries, a budget that shrinks.
cp good.yml $R/run/open-requirements.ledger.yml; quietgit -C $R add -A; commit three 3
{ printf 'topology_repair:\n  escalations: 1\n  cap: 3\n  open_history: [2, 1]\nentries:\n'; entry a-gap step-one resolved '    resolved_by: step-two\n'; entry b-gap step-two; } > $R/run/open-requirements.ledger.yml
quietgit -C $R add -A; commit four 4
run check HEAD --against HEAD~1 --repo $R --format json
{ printf 'topology_repair:\n  escalations: 0\n  cap: 3\n  open_history: [2]\nentries:\n'; entry b-gap step-three; } > $R/run/open-requirements.ledger.yml
quietgit -C $R add -A; commit five 5
run check HEAD --against HEAD~1 --repo $R
# The policy glob: another file name.
printf 'open_requirements_glob: "**/*.orl.yml"\n' > $R/.ledgergate.yaml
git -C $R mv run/open-requirements.ledger.yml run/x.orl.yml; quietgit -C $R add -A; commit six 6
run check --repo $R --format json
# Beside a Cortex ledger.
"$FIXTURES/repos/merge-scenarios.sh" cortex >/dev/null
run check main --repo cortex --format json
R=cortex; git -C $R checkout -q main; cp good.yml $R/open-requirements.ledger.yml; quietgit -C $R add -A; commit orl 3
run check main --repo cortex --format json
run check main --repo cortex --format cortex
# Two branches of one run append the same id.
git -C $R checkout -q -b step-x main
{ cat good.yml; entry shared-id step-x; } > $R/open-requirements.ledger.yml; quietgit -C $R add -A; commit x 4
git -C $R checkout -q -b step-y main
{ cat good.yml; entry shared-id step-y; } > $R/open-requirements.ledger.yml; quietgit -C $R add -A; commit y 4
git -C $R checkout -q main; quietgit -C $R merge -q --no-ff step-x -m "land x"
run trial-merge main step-y --repo $R
run trial-merge main step-y --repo $R --format json
# The same entry raised on both sides, byte for byte: a clean textual merge, still a collision.
git -C $R checkout -q -b step-z main~1
{ cat good.yml; entry shared-id step-x; } > $R/open-requirements.ledger.yml; quietgit -C $R add -A; commit z 5
git -C $R checkout -q main
run trial-merge main step-z --repo $R
# With the file declared ledger: one side's append lands; deleting an entry is caught in the merged tree.
printf 'ledger_dirs: [projects/]\nledger_files: [checkin.yaml, open-requirements.ledger.yml]\n' > $R/.ledgergate.yaml
quietgit -C $R add -A; commit policy 6
git -C $R checkout -q -b step-w main
{ cat $R/open-requirements.ledger.yml; entry one-sided step-w; } > w.yml; mv w.yml $R/open-requirements.ledger.yml
quietgit -C $R add -A; commit w 7
run trial-merge main step-w --repo $R
git -C $R checkout -q -b step-v main
printf 'entries:\n' > $R/open-requirements.ledger.yml; quietgit -C $R add -A; commit v 7
run trial-merge main step-v --repo $R
git -C $R checkout -q main
# No ledger of either kind.
mkdir none; git init -q -b main none; echo x > none/README; quietgit -C none add -A; R=none; commit none 1
run check --repo none
