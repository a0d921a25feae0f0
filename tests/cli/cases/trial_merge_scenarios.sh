# The merge gate's scenarios (fixtures/repos/merge-scenarios.sh): each
# branch's verdict, the JSON document, the merged tree equal to git's own
# `git merge-tree --write-tree`, the same verdicts judging only the change
# (--scope change), and the repository byte-identical afterwards
# (objects, refs, index, HEAD, working tree).
"$FIXTURES/repos/merge-scenarios.sh" repo >/dev/null
snapshot() { (cd repo && find . -path ./.git/ledgergate -prune -o -type f -print0 | sort -z | xargs -0 sha1sum); }
snapshot > before.txt
for b in ledger-edit code-edit archive-edit conflict retire-vs-run birth run-twice contained; do
  run trial-merge main "$b" --repo repo
done
run trial-merge main retire-vs-run --repo repo --format json
# --scope change: only what the merge changes is judged; the same verdicts.
for b in ledger-edit retire-vs-run birth run-twice; do
  run trial-merge main "$b" --repo repo --scope change
done
run trial-merge main retire-vs-run --repo repo --format json --scope change
run trial-merge main no-such-branch --repo repo
snapshot > after.txt
cmp -s before.txt after.txt && echo "repository unchanged" >> "$actual" || echo "REPOSITORY CHANGED" >> "$actual"
# --write-tree writes the merged tree's objects, as git merge-tree --write-tree
# does, and nothing else: every object of the printed tree is readable, the
# refs, HEAD and the index are as they were.
state() { git -C repo for-each-ref --format='%(refname) %(objectname)'; cat repo/.git/HEAD; sha1sum <repo/.git/index; }
state > state.before
run trial-merge main ledger-edit --repo repo --no-check --write-tree
tree=$(tail -1 "$tmp/o")
git -C repo cat-file -t "$tree" >> "$actual" 2>&1
git -C repo ls-tree -r -t "$tree" | awk '{print $3}' | git -C repo cat-file --batch-check='%(objecttype)' | sort | uniq -c >> "$actual"
state > state.after
cmp -s state.before state.after && echo "refs, HEAD and index unchanged" >> "$actual" || echo "REFS OR INDEX CHANGED" >> "$actual"
git -C repo merge-tree --write-tree main ledger-edit >> "$actual"  # git's own answer (git writes objects)
run trial-merge main ledger-edit --repo repo --commit -m "land ledger-edit"
git -C repo cat-file -p "$(tail -1 "$tmp/o")" | sed -n '1,3p' >> "$actual"
git -C repo fsck --no-dangling 2>&1 | head -3 >> "$actual"
git -C repo rev-parse main ledger-edit >> "$actual"
