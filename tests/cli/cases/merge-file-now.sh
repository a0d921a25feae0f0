# merge-file, conflict: both sides rewrote ## Now differently. Markers surround
# the Now body only; the log entries both sides added still merge. Exit 1.
source "$here/cases/merge-file-ledger.inc"
ledger 'doing a' none "$RUN1" "$E1" > base.md
ledger 'ours: doing b' none "$RUN1" "2026-09-03 — note — ours|$E1" > ours.md
ledger 'theirs: doing c' none "$RUN1" "2026-09-02 — note — theirs|$E1" > theirs.md
run merge-file base.md ours.md theirs.md --path projects/demo.md --profile cortex-projects -L main -L base -L topic
show ours.md
