# merge-file, conflict: one header field set to two values. Markers surround
# that field's line only.
source "$here/cases/merge-file-ledger.inc"
ledger 'doing a' none "$RUN1" "$E1" > base.md
ledger 'doing a' Repo#1 "$RUN1" "$E1" > ours.md
ledger 'doing a' Repo#2 "$RUN1" "$E1" > theirs.md
run merge-file base.md ours.md theirs.md --path projects/demo.md --profile cortex-projects
show ours.md
