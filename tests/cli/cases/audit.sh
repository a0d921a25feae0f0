# `audit` over the scripted history (fixtures/repos/audit-history.sh): each
# violation at its commit, nothing for the clean commits, drift introduced and
# fixed, merges judged; a range, --since, JSON; a shallow clone cannot be
# judged; the replay of the real ledger across its eras, with the ruling
# R-20260907-01 edited on its way into archive/.
"$FIXTURES/repos/audit-history.sh" repo >/dev/null
run audit --repo repo
run audit --repo repo --format json
run audit HEAD~3..HEAD --first-parent --repo repo
run audit --since 2026-09-02T00:08:00Z --repo repo
run audit --since yesterday --repo repo
run audit no-such-rev --repo repo
git clone -q --depth 3 "file://$tmp/repo" shallow
run audit --repo shallow
git clone -q -b main "$DATA/corpus/pyautocortex/replay.bundle" replay
run audit --repo replay
