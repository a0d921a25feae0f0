# A run one side finished (`project done`) while the other changed it, and a
# run id a branch lists twice, on the skeleton ledger: the record merge
# conflicts — markers and exit 1 from the merge driver, a stopped `git merge`
# with the driver installed, a content conflict naming the run in
# trial-merge — and never drops the branch's line or puts the finished run
# back. trial-merge of a branch whose tip fails `check` fails, even where
# git's textual merge is clean.
git init -q -b main repo
cp -r "$FIXTURES/ledgers/example/." repo/
quietgit -C repo add -A && quietgit -C repo commit -m "the ledger"
edit() {  # FILE OLD NEW: the first OLD in FILE becomes NEW
  python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1:]
text = open(path, encoding="utf-8").read()
assert old in text, old
open(path, "w", encoding="utf-8").write(text.replace(old, new, 1))
PY
}
runs() { sed -n '/^## Runs/,/^## Log/p' "$1" | sed 's/^/  runs: /' >>"$actual"; }
# continue: a continuation line under run 3003.
quietgit -C repo checkout -q -b continue main
edit repo/projects/example.md "  chained after 3002 with afterok
" "  chained after 3002 with afterok
  resubmit with 4x memory if it OOMs
"
quietgit -C repo commit -qam "ledger: a note under 3003"
# resubmit: 3003 listed a second time, the resubmission above the first.
quietgit -C repo checkout -q -b resubmit main
edit repo/projects/example.md "- 3003 — open" "- 3003 — open — gpu — 2026-09-03 — joint fit again with 4x memory
- 3003 — open"
quietgit -C repo commit -qam "ledger: resubmit 3003"
# main finishes 3003.
quietgit -C repo checkout -q main
"$LG" project done example 3003 --wall 1:10 --today 2026-09-03 --root repo >/dev/null
quietgit -C repo commit -qam "ledger: 3003 done"

run check continue --repo repo
run check resubmit --repo repo
run trial-merge main continue --repo repo
run trial-merge main resubmit --repo repo
run trial-merge main resubmit --repo repo --format json
# A broken branch git's textual merge hides: 3002_[0-3] listed again at the
# end of ## Runs while finish-3002 finishes it. git merges cleanly and the
# merged tree checks clean; the branch tip does not, so the merge fails (the
# second run's report comes from the cache).
quietgit -C repo checkout -q -b resubmit-late main~1
edit repo/projects/example.md "  chained after 3002 with afterok
" "  chained after 3002 with afterok
- 3002_[0-3] — open — ral — 2026-09-03 — wave 2 again, four seeds
"
quietgit -C repo commit -qam "ledger: resubmit 3002_[0-3]"
quietgit -C repo checkout -q -b finish-3002 main~1
"$LG" project done example "3002_[0-3]" --wall 20:05 --today 2026-09-03 --root repo >/dev/null
quietgit -C repo commit -qam "ledger: 3002_[0-3] done"
quietgit -C repo checkout -q main
git -C repo merge-tree --write-tree finish-3002 resubmit-late >/dev/null && echo "git merge-tree: clean" >> "$actual"
run trial-merge finish-3002 resubmit-late --repo repo
run trial-merge finish-3002 resubmit-late --repo repo --format json
# The driver on each branch's three versions (git's %O %A %B).
for b in continue resubmit; do
  git -C repo show "$(git -C repo merge-base main $b):projects/example.md" > base.md
  git -C repo show main:projects/example.md > ours.md
  git -C repo show $b:projects/example.md > theirs.md
  run merge-file base.md ours.md theirs.md --path projects/example.md --profile cortex-projects
  runs ours.md
done
# A run deleted by hand (no log entry) while the other side adds the continuation.
git -C repo show main~1:projects/example.md > base.md
git -C repo show continue:projects/example.md > theirs.md
cp base.md ours.md
edit ours.md "- 3003 — open — gpu — 2026-09-02 — joint fit on the same four seeds
  chained after 3002 with afterok
" ""
run merge-file base.md ours.md theirs.md --path projects/example.md --profile cortex-projects
runs ours.md
# git merge with the driver installed stops on both, the branch's lines in the file.
"$LG" merge-driver install --repo repo >/dev/null
for b in continue resubmit; do
  quietgit -C repo checkout -q -b "merge-$b" main
  git -C repo merge -q --no-edit "$b" >/dev/null 2>&1; echo "git merge $b with the driver: exit $?" >> "$actual"
  runs repo/projects/example.md
  quietgit -C repo merge --abort
done
