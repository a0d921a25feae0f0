# merge-file, conflict: the same run id added on both sides with different
# text. Markers surround that run only; --marker-size is git's %L.
source "$here/cases/merge-file-ledger.inc"
ledger 'doing a' none "$RUN1" "$E1" > base.md
ledger 'doing a' none "$RUN1|3002 — open — gpu — 2026-09-03 — train b" "$E1" > ours.md
ledger 'doing a' none "$RUN1|3002 — open — gpu — 2026-09-03 — train B again" "$E1" > theirs.md
run merge-file base.md ours.md theirs.md --path projects/demo.md --profile cortex-projects --marker-size 9
show ours.md
