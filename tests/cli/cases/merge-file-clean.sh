# merge-file, clean: both sides' log entries kept once, newest first; a run
# added on each side; a header field changed on one side; OURS replaced.
# Without a repository the layout comes from --profile.
source "$here/cases/merge-file-ledger.inc"
ledger 'doing a' none "$RUN1" "$E1" > base.md
ledger 'doing a' Repo#7 "$RUN1|3002 — open — gpu — 2026-09-03 — train b" \
  "2026-09-03 — run — 3002 submitted: train b|$E1" > ours.md
ledger 'doing a' none "$RUN1|3003 — open — ral — 2026-09-04 — train c" \
  "2026-09-04 — run — 3003 submitted: train c|$E1" > theirs.md
run merge-file base.md ours.md theirs.md --path projects/demo.md --profile cortex-projects
show ours.md
# A run finished on one side (removed, with its log entry) and left as it was on the other: removed.
ledger 'doing a' none "$RUN1" "2026-09-02 — note — a note|$E1" > kept.md
ledger 'doing a' none "${RUN1/open/running}" "$E1" > running.md
ledger 'doing a' none "" "2026-09-02 — run — 3001 finished: train a|$E1" > done.md
run merge-file base.md kept.md done.md --path projects/demo.md --profile cortex-projects
show kept.md
# ... and set running on the other: a conflict around that run (never a silent
# resolution that drops the new state), the rest merged.
run merge-file base.md running.md done.md --path projects/demo.md --profile cortex-projects
show running.md
# merge(X, X) = X, and a side that changed nothing takes the other.
cp theirs.md same.md
run merge-file base.md same.md theirs.md --path projects/demo.md --profile cortex-projects
cmp -s same.md theirs.md && echo "same.md unchanged" >>"$actual"
# Could not run: a side that is not there, an unknown profile (exit 2, OURS untouched).
run merge-file missing.md same.md theirs.md --path projects/demo.md --profile cortex-projects
run merge-file base.md same.md theirs.md --path projects/demo.md --profile cortex-nope
cmp -s same.md theirs.md && echo "same.md untouched" >>"$actual"
