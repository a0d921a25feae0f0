# Conflicts a rename takes part in are reported as git reports them, once,
# where git leaves the file, with the file's old name: renamed on one side
# and edited on the other (content, at the new name only — not modify/delete
# at the old name plus add/add at the new), renamed on one side and deleted
# on the other (rename/delete), renamed differently on each side
# (rename/rename: the old name and both new ones), renamed onto a name the
# other side added (add/add), two files renamed onto one name (add/add). The
# paths equal git's own `git merge-tree --write-tree --name-only` list.
git init -q -b main r
for f in a b c e m n; do seq 1 20 | sed "s/^/$f /" > "r/$f.txt"; done
quietgit -C r add -A && quietgit -C r commit -m base
git -C r checkout -q -b side
git -C r mv a.txt a2.txt && sed -i '5s/.*/side/' r/a2.txt
git -C r rm -q b.txt && git -C r mv c.txt c3.txt
seq 1 20 | sed 's/^/other /' > r/e2.txt && git -C r mv n.txt mn.txt
sed -i '15s/.*/side/' r/e.txt r/m.txt  # git looks for a rename only where the other side changed the file too
quietgit -C r add -A && quietgit -C r commit -m side
git -C r checkout -q main
sed -i '5s/.*/main/' r/a.txt && git -C r mv b.txt b2.txt && git -C r mv c.txt c2.txt
git -C r mv e.txt e2.txt && git -C r mv m.txt mn.txt && sed -i '15s/.*/main/' r/n.txt
quietgit -C r add -A && quietgit -C r commit -m main
run trial-merge main side --repo r --no-check
run trial-merge main side --repo r --no-check --format json
git -C r merge-tree --write-tree --name-only main side | tail -n +2 | sed 's/^/git merge-tree: /' >> "$actual"
